"""What one seat of a family game can infer from its SeatView, in the same ``Knowledge`` the Bulgarian bots use.

The inference asks the game's own duty function (``FamilyGame.duties``) rather than restating the rules: a seat that
played card x into a trick cannot hold a card y with which x would not have been legal. The duties of these games rank
the cards of a hand in classes (the led suit, a higher trump, any trump, the rest) and a card is legal when the hand
holds none of a higher class, so testing the hand {x, y} is exact. That covers every rule of the game at once: a void
in the led suit, no trump when one did not trump, in Bela no higher trump when one did not over-trump (even the
partner's trump) and no higher card of the led suit when one did not iber.

Public facts add cards a seat must hold: the other card of an announced bela/belote, the turned card in the French
taker's hand, and the contest winners' shown declarations until they are played.
"""

from __future__ import annotations

from bot.engine.cards import FULL_DECK, SUIT_MASK, CardMask, card_list, mask_of
from bot.engine.play import beats
from bot.engine.seatview import SeatView

from .games import FamilyGame
from .knowledge import Knowledge


def family_knowledge(view: SeatView, game: FamilyGame) -> Knowledge:
    seat = view.seat
    trump = view.contract if view.contract is not None else -1
    hand = mask_of(view.hand)
    played_by = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        for pos, card in enumerate(cards):
            played_by[(leader + pos) % 4] |= 1 << card
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    unseen = FULL_DECK & ~played & ~hand
    cannot = [0, 0, 0, 0]
    if trump >= 0:
        for leader, cards in tricks:
            _infer(game, trump, leader, cards, unseen, cannot, seat)

    must = [0, 0, 0, 0]
    declared: dict[int, tuple[str, ...]] = {}
    belote_seats: dict[int, list[int]] = {}
    for a in view.announced:
        if a.belote_suit >= 0:
            belote_seats.setdefault(a.seat, []).append(a.belote_suit)
            pair = (1 << (a.belote_suit * 8 + 5)) | (1 << (a.belote_suit * 8 + 6))
            must[a.seat] |= pair & unseen
        elif a.kinds:
            declared[a.seat] = a.kinds
    for s, _, cards in view.shown:
        must[s] |= mask_of(cards) & unseen
    if view.turned is not None and view.caller is not None:
        must[view.caller] |= (1 << view.turned) & unseen

    # While trump is chosen every seat holds as many cards as this one (6 in Bela, 5 in French belote).
    in_play = view.phase != "auction"
    sizes = [(8 if in_play else len(view.hand)) - bin(played_by[p]).count("1") for p in range(4)]
    sizes[seat] = len(view.hand)
    for p in range(4):
        cannot[p] &= ~must[p]
        if p != seat:
            cannot[p] |= hand | played
            for q in range(4):
                if q != p:
                    cannot[p] |= must[q]
    return Knowledge(seat, trump, hand, played, unseen, sizes, cannot, must, played_by, declared, belote_seats)


def _infer(
    game: FamilyGame, trump: int, leader: int, cards: tuple[int, ...], unseen: CardMask, cannot: list[CardMask], me: int
) -> None:
    led = cards[0] >> 3
    win_pos, win = 0, cards[0]
    for pos in range(1, len(cards)):
        card = cards[pos]
        p = (leader + pos) % 4
        if p != me:
            partner = pos - win_pos == 2
            # Only cards of the led suit and trumps can outrank a card in the duties.
            for y in card_list(unseen & (SUIT_MASK[led] | SUIT_MASK[trump]) & ~cannot[p]):
                if not game.duties((1 << card) | (1 << y), led, win, partner, trump) >> card & 1:
                    cannot[p] |= 1 << y
        if beats(card, win, trump):
            win_pos, win = pos, card
