"""What one seat of a family game can infer from its SeatView, in the same ``Knowledge`` the Bulgarian bots use.

The inference asks the game's own duty function (``FamilyGame.duties``) rather than restating the rules: a seat that
played card x into a trick cannot hold a card y with which x would not have been legal. The duties of these games rank
the cards of a hand in classes (the led suit, a higher trump, any trump, the rest) and a card is legal when the hand
holds none of a higher class, so testing the hand {x, y} is exact. That covers every rule of the game at once: a void
in the led suit, no trump when one did not trump, in Bela no higher trump when one did not over-trump (even the
partner's trump) and no higher card of the led suit when one did not iber.

Public facts add cards a seat must hold: the other card of an announced bela/belote, the cards the game shows in a
hand (``FamilyGame.holdings``: the turned card in the French taker's hand, the 2-player turned card after the seven
exchange), and the contest winners' shown declarations until they are played. In the open game every seat's playable
cards lie face up (``FamilyGame.visible``), so only the face-down cards are unknown, to their owner as well.
"""

from __future__ import annotations

from bot.engine.cards import FULL_DECK, SUIT_MASK, CardMask, card_list, mask_of
from bot.engine.play import beats
from bot.engine.seatview import SeatView

from .games import FamilyGame
from .knowledge import Knowledge


def family_knowledge(view: SeatView, game: FamilyGame) -> Knowledge:
    seat, n = view.seat, game.seats
    sides = game.sides(view)
    trump = view.contract if view.contract is not None else -1
    hand = mask_of(view.hand)
    played_by = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        for pos, card in enumerate(cards):
            played_by[(leader + pos) % n] |= 1 << card
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    # Cards the seat knows are out of play (the caller's own discard, the 2-player turned card or open stock) count as
    # seen: no other seat holds them.
    seen = played | game.out_of_play(view)
    unseen = FULL_DECK & ~seen & ~hand
    cannot = [0, 0, 0, 0]
    if trump >= 0:
        for leader, cards in tricks:
            _infer(game, trump, leader, cards, unseen, cannot, seat, sides)

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
    for holder, held in game.holdings(view).items():
        must[holder] |= held & unseen

    # While trump is chosen every seat holds as many cards as this one (6 in Bela, 5 in French belote).
    in_play = view.phase != "auction"
    sizes = [(game.cards if in_play else len(view.hand)) - bin(played_by[p]).count("1") for p in range(n)]
    sizes[seat] = len(view.hand)
    for p in range(n):
        if p == seat:
            continue
        shown = game.visible(view, p)
        if shown is not None:  # the open game: the seat's playable cards lie face up, the rest nobody knows
            must[p] |= shown & unseen
            sizes[p] = bin(shown).count("1")
            cannot[p] |= unseen & ~shown
    # With fewer than four players the cards no seat holds (a talon not yet taken, the 3-player discard, the 2-player
    # stock, the open game's face-down cards) are one more "seat" that never plays.
    if n < 4:
        sizes.append(bin(unseen).count("1") - sum(sizes[p] for p in range(n) if p != seat))
        sizes.extend([0] * (3 - n))
    for p in range(4):
        cannot[p] &= ~must[p]
        if p != seat:
            cannot[p] |= hand | seen
            for q in range(4):
                if q != p:
                    cannot[p] |= must[q]
    return Knowledge(seat, trump, hand, seen, unseen, sizes, cannot, must, played_by, declared, belote_seats)


def _infer(
    game: FamilyGame,
    trump: int,
    leader: int,
    cards: tuple[int, ...],
    unseen: CardMask,
    cannot: list[CardMask],
    me: int,
    sides: tuple[int, ...],
) -> None:
    n = len(sides)
    led = cards[0] >> 3
    # No trump suit in the Bulgarian no trumps and all trumps: there the duties look at the led suit alone.
    trumps = SUIT_MASK[trump] if trump < len(SUIT_MASK) else 0
    win_pos, win = 0, cards[0]
    for pos in range(1, len(cards)):
        card = cards[pos]
        p = (leader + pos) % n
        if p != me:
            winner = (leader + win_pos) % n
            partner = winner != p and sides[winner] == sides[p]
            # Only cards of the led suit and trumps can outrank a card in the duties.
            for y in card_list(unseen & (SUIT_MASK[led] | trumps) & ~cannot[p]):
                if not game.duties((1 << card) | (1 << y), led, win, partner, trump) >> card & 1:
                    cannot[p] |= 1 << y
        if beats(card, win, trump):
            win_pos, win = pos, card
