"""The Bela games of three and two players as the bots see them: a piece per variant, as ``games`` has for four.

Each piece says what differs from Bela for four: how many seats and cards, who plays with whom (with three players
the two opponents of the caller are allies for the deal; with two each plays alone), which cards the seat knows are
out of play (the 3-player caller's own discard; the 2-player turned card, or the seven it was exchanged for, and the
stock when it lies face up), which it sees in another hand (the open game's layouts), and the two decisions only
these games have: the 3-player caller's discard and the 2-player seven exchange.

The discard counts for the caller as if he had taken it in a trick (family §4.4), so the medium bot keeps the ten
cards worth most in tricks and banks points it would likely lose: a ten without its ace, a king or queen standing
alone. The seven exchange swaps the weakest trump for the turned one; it is declined only when the seven makes a
declaration worth more.

Adding a game of three or two players is a piece here and a row of ``SMALL_GAMES``: its seats and cards per seat, the
sides, what the seat knows, its duties, its ``written`` scoring (the engine's function) and the hard bot's
``search`` plan.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Final

from pydantic import BaseModel

from bot.engine.bela import score_bela
from bot.engine.bela2 import BelaTwoRules
from bot.engine.bela3 import BelaThreeRules, score_bela3
from bot.engine.belaopen import BelaOpenRules
from bot.engine.cards import Card, CardMask, card_list, mask_of
from bot.engine.combos import every_combination
from bot.engine.play import CARD_POINTS
from bot.engine.seatview import SeatView

from .games import BelaGame, FamilyGame, Tally, turned_call_weights

# Points a trick is worth on average in a 3-player deal (162 over ten tricks): the rate at which the discard weighs
# tricks in hand (``familycalls.hand_value``) against points banked.
POINTS_PER_TRICK: Final = 16.0
# Declarations kept count for less than their face value: the contest may be lost.
DECLARATION_WEIGHT: Final = 0.5


def _search(plan: list[tuple[int, int, int]], tricks: int) -> dict[int, tuple[int, int]]:
    """The hard bot's search (``smallhard``) by tricks left: deals searched and tricks searched before the
    evaluation, from rows (down to this many tricks left, deals, depth; depth 0 = to the end of the deal)."""
    out: dict[int, tuple[int, int]] = {}
    for left in range(tricks, 0, -1):
        deals, depth = next((d, t) for lowest, d, t in plan if left >= lowest)
        out[left] = (deals, depth or left)
    return out


def keep_value(kept: CardMask, trump: int) -> float:
    """The worth in points of keeping ``kept`` with ``trump``: tricks expected and declarations it holds."""
    from .familycalls import hand_value  # the call module builds on the pieces

    decl = sum(c.value for c in every_combination(kept, trump))
    return hand_value(kept, trump) * POINTS_PER_TRICK + DECLARATION_WEIGHT * decl


def best_discard(held: CardMask, trump: int) -> tuple[Card, Card]:
    """The two cards whose discard leaves the most: the worth of the ten kept plus the points banked."""
    points = CARD_POINTS[trump]
    cards = card_list(held)

    def worth(pair: tuple[Card, Card]) -> tuple[float, int, int]:
        kept = held & ~(1 << pair[0]) & ~(1 << pair[1])
        return keep_value(kept, trump) + points[pair[0]] + points[pair[1]], -pair[0], -pair[1]

    return max(combinations(cards, 2), key=worth)


class BelaThreeGame(BelaGame):
    variant = "bela-3"
    seats = 3
    cards = 10
    # A caller passes only with more than both opponents together, so a hand must promise more than in Bela for four.
    take = 3.4
    # Tricks of three: an exact search pays from four tricks left (bench/ai.py --variant bela-3).
    search = _search([(7, 20, 2), (5, 20, 3), (1, 24, 0)], 10)

    def sides(self, view: SeatView) -> tuple[int, ...]:
        if view.caller is None:
            return (0, 1, 2)
        return tuple(0 if s == view.caller else 1 for s in range(3))

    def out_of_play(self, view: SeatView) -> CardMask:
        return mask_of(view.discard or ())

    def discard(self, view: SeatView) -> tuple[Card, Card]:
        assert view.contract is not None
        return best_discard(mask_of(view.legal_cards), view.contract)

    def written(self, view: SeatView, tally: Tally) -> tuple[int, ...]:
        return score_bela3(
            self.opts, tally.caller, view.dealer, tally.card, tally.tricks, tally.declared, tally.contest, tally.belas
        ).score


class BelaPairGame(BelaGame):
    """What the Bela games of two players share: each player his own side, scored as Bela for four's two sides."""

    seats = 2

    def sides(self, view: SeatView) -> tuple[int, ...]:
        return (0, 1)

    def written(self, view: SeatView, tally: Tally) -> tuple[int, ...]:
        """family §5.7, §6.6: ``bela.score_bela`` with each player a side."""
        card, tricks, declared, belas = tally.card, tally.tricks, tally.declared, tally.belas
        total = sum(tricks)
        valat = next((p for p in range(2) if tricks[p] == total), None)
        points, decl, bela = (card[0], card[1]), (declared[0], declared[1]), (belas[0], belas[1])
        return score_bela(self.opts, tally.caller, points, valat, decl, tally.contest, bela, view.hanging).score


class BelaTwoGame(BelaPairGame):
    variant = "bela-2"
    cards = 10
    # Tricks of two search fast: three tricks deep at first, to the end from seven tricks left (p99 0.2 s with 16
    # deals a decision, so 24).
    search = _search([(9, 24, 3), (8, 24, 4), (1, 24, 0)], 10)

    def _seven(self, view: SeatView) -> Card:
        assert view.turned is not None
        return (view.turned >> 3) * 8

    def _exchanger(self, view: SeatView) -> int:
        """The seat that was asked about the seven exchange: it held the seven among its first six cards, and holds
        (or played) the turned card if it took it, the seven if not."""
        mine = mask_of(view.hand)
        for t in view.tricks:
            for pos, card in enumerate(t.cards):
                if (t.leader + pos) % 2 == view.seat:
                    mine |= 1 << card
        kept = view.turned if view.exchanged else self._seven(view)
        return view.seat if kept is not None and mine >> kept & 1 else 1 - view.seat

    def out_of_play(self, view: SeatView) -> CardMask:
        out = mask_of(view.stock or ())
        if view.turned is not None:
            out |= 1 << (self._seven(view) if view.exchanged else view.turned)
        return out

    def holdings(self, view: SeatView) -> dict[int, CardMask]:
        if view.exchanged is None or view.turned is None:
            return {}
        other = 1 - view.seat
        if self._exchanger(view) != other:
            return {}
        # The opponent was asked: he held the seven; it became the turned card if he took it.
        return {other: 1 << (view.turned if view.exchanged else self._seven(view))}

    def suit_cards(self, view: SeatView, suit: int) -> CardMask:
        cards = mask_of(view.hand)
        if view.turned is None:
            return cards
        seven = self._seven(view)
        rule = self.opts.seven_exchange
        if cards >> seven & 1 and (rule == "always" or (rule == "trump" and suit == view.turned >> 3)):
            cards = cards & ~(1 << seven) | 1 << view.turned  # the holder of the seven takes the turned card
        return cards

    def exchange(self, view: SeatView) -> bool:
        assert view.contract is not None and view.turned is not None
        hand = mask_of(view.hand)
        swapped = hand & ~(1 << self._seven(view)) | 1 << view.turned
        return keep_value(swapped, view.contract) >= keep_value(hand, view.contract)

    def call_weights(self, view: SeatView) -> list[list[float]]:
        return turned_call_weights(view, self.seats)


class BelaOpenGame(BelaPairGame):
    variant = "bela-open"
    cards = 16
    # The call compares the seat's face-up cards with the opponent's (``call_against``): a suit is named when the
    # seat's value in it is this many tricks above the opponent's.
    take = 0.6
    # Sixteen tricks, the covered cards searched one by one (no equivalent cards): deeper only late.
    search = _search([(9, 14, 2), (6, 16, 3), (1, 24, 0)], 16)

    def __init__(self, opts: BelaOpenRules) -> None:
        FamilyGame.__init__(self, opts)  # its options have no card-sharing choice: every declaration is automatic
        self.sharing = True
        self.sweep_bonus = opts.stiglja_value

    def visible(self, view: SeatView, seat: int) -> CardMask | None:
        if view.layout is None:
            return None
        return mask_of(c for pile in view.layout[seat] for c in pile if c is not None)

    def call_against(self, view: SeatView) -> CardMask:
        return self.visible(view, 1 - view.seat) or 0

    def call_weights(self, view: SeatView) -> list[list[float]]:
        return [[1.0] * 32 for _ in range(4)]  # nobody knows a face-down card: a call says nothing about them


# variant -> (its options model, its piece)
SMALL_GAMES: Final[dict[str, tuple[type[BaseModel], Callable[[Any], FamilyGame]]]] = {
    "bela-3": (BelaThreeRules, BelaThreeGame),
    "bela-2": (BelaTwoRules, BelaTwoGame),
    "bela-open": (BelaOpenRules, BelaOpenGame),
}
