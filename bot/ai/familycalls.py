"""Choosing trump in the family games by the value of a hand, and the medium bot's turn in them.

The call is one decision per seat and round: name a suit or pass (Bela: one round, the dealer must name a suit;
French belote: the turned card's suit, then another suit). A hand is valued for each suit as trump in tricks it is
expected to take, from the cards the seat knows it will hold if it names that suit (``FamilyGame.call_cards``): six in
both games, since the French taker receives the turned card. A suit is named when its value reaches the game's
``take``; the dealer in the Bela mus names his best suit whatever it is worth.
"""

from __future__ import annotations

from typing import Final

from bot.engine import Action, Bid, Discard, Exchange
from bot.engine.calls import PASS, Call
from bot.engine.cards import ACE, JACK, KING, NINE, QUEEN, SUIT_MASK, TEN, CardMask
from bot.engine.deal import DISCARD
from bot.engine.seatview import SeatView

from .familyknowledge import family_knowledge
from .games import FamilyGame, game_of
from .medium import announce, choose_card

# Tricks a trump is worth, by rank (7 8 9 10 J Q K A).
TRUMP_TRICKS: Final = (0.25, 0.25, 0.85, 0.45, 1.0, 0.3, 0.35, 0.6)


def hand_value(hand: CardMask, trump: int) -> float:
    """Expected tricks and points, in tricks, of ``hand`` with ``trump`` as trump (a hand-set estimate)."""
    trumps = hand & SUIT_MASK[trump]
    count = bin(trumps).count("1")
    value = sum((TRUMP_TRICKS[r] for r in range(8) if trumps >> (trump * 8 + r) & 1), 0.0)
    if count >= 4:
        value += 0.3 * (count - 3)  # long trumps take the last tricks
    if trumps >> (trump * 8 + KING) & 1 and trumps >> (trump * 8 + QUEEN) & 1:
        value += 0.3  # bela/belote: 20 points
    if trumps >> (trump * 8 + JACK) & 1 and trumps >> (trump * 8 + NINE) & 1:
        value += 0.15
    for suit in range(4):
        if suit == trump:
            continue
        side = hand >> (suit * 8) & 0xFF
        if side >> ACE & 1:
            value += 0.85
            if side >> TEN & 1:
                value += 0.5
        elif side >> TEN & 1 and bin(side).count("1") >= 2:
            value += 0.2
        if not side and count >= 2:
            value += 0.3  # a void to ruff in
    return value


def call_value(view: SeatView, game: FamilyGame, suit: int) -> float:
    """The seat's value with ``suit`` as trump: of the cards it will hold (``FamilyGame.suit_cards``), less that of
    the cards an opponent is seen to hold (the open game's layout, ``FamilyGame.call_against``)."""
    against = game.call_against(view)
    value = hand_value(game.suit_cards(view, suit), suit)
    return value - hand_value(against, suit) if against else value


def best_call(view: SeatView, game: FamilyGame, take: float | None = None) -> Call:
    """The legal suit of greatest value if it reaches ``take`` (the game's, by default) or pass is not allowed."""
    legal = list(view.legal_calls)
    suits = [c for c in legal if c != PASS]
    if not suits:
        return PASS
    values = {s: call_value(view, game, s) for s in suits}
    best = max(suits, key=lambda s: (values[s], -s))
    if PASS in legal and values[best] < (game.take if take is None else take):
        return PASS
    return best


def pick_call(cards: CardMask, legal: list[Call], take: float) -> Call:
    """Of the ``legal`` calls, the suit of greatest value for ``cards`` if it reaches ``take``, else pass."""
    suits = [c for c in legal if c != PASS]
    if not suits:
        return PASS
    best = max(suits, key=lambda s: (hand_value(cards, s), -s))
    if PASS in legal and hand_value(cards, best) < take:
        return PASS
    return best


def medium_action(view: SeatView) -> Action:
    """The medium bot's action in a family game: its call, the 2-player seven exchange, the 3-player discard, or the
    rule-based card with every announcement."""
    game = game_of(view)
    if view.legal_calls:
        return Bid(game.medium_call(view))
    if view.legal_exchange:
        return Exchange(game.exchange(view))
    if view.phase == DISCARD:
        return Discard(game.discard(view))
    return announce(view, choose_card(view, family_knowledge(view, game), game.sides(view)))
