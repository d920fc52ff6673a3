"""The Bulgarian games of three and two players (`bulgarian-3`, `bulgarian-2`) as the bots see them: a sibling piece
of ``smallgames``' Bela pieces, since their auction is the Bulgarian one (six contracts, contra and recontra) rather
than a suit named once.

What differs from Bela for three and two: a 24-card pack (no 7s or 8s: the seat counts them as out of play, and in
`bulgarian-2` the eight cards nobody is dealt go to the place that never plays), every player on his own side for
the whole deal, the Bulgarian duties with no partner (``play.legal_cards``), declarations contested per player.

The medium bot's auction judges the five cards held with the Bulgarian hand counts (``bidding.contract_strength``),
playing alone: it says contra when its count in another player's contract reaches ``CONTRA_AT`` (the cards that beat
the contract are in its hand), else bids the contract whose count clears its ``TAKE`` by most, never over its own
contract; recontra when its own count reaches ``RECONTRA_AT``. The thresholds are hand-set: a lone declarer of three
must only outscore each opponent (`made_rule` each), one of two the other player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from pydantic import BaseModel

from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules, auction, score_three, score_two
from bot.engine.bulgarian_small_match import SmallDeal
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, Call
from bot.engine.cards import ACE, FULL_DECK, JACK, KING, NINE, QUEEN, TEN, Card, CardMask, mask_of
from bot.engine.declarations import (
    BELOTE_POINTS,
    Combination,
    best_declarations,
    compare_players,
    resolve_declarations,
)
from bot.engine.play import legal_cards
from bot.engine.scoring import VALAT_BONUS, raw_totals
from bot.engine.seatview import SeatView

from .bidding import contract_strength
from .games import FamilyGame, Tally, _named
from .smallgames import _search

SUIT, NT, AT = 0, 1, 2  # kinds of contract, the index into the thresholds


def kind(contract: int) -> int:
    return NT if contract == NO_TRUMPS else AT if contract == ALL_TRUMPS else SUIT


# ``contract_strength`` of the five cards held (about three per trick's worth) a contract needs, by kind.
TAKE: Final = (6.0, 5.5, 7.0)
# The count in another player's contract at which the seat holds what beats it.
CONTRA_AT: Final = (6.5, 6.5, 7.5)
RECONTRA_AT: Final = (10.5, 10.0, 11.0)


class BulgarianSmallGame(FamilyGame):
    """What a bot needs to know of `bulgarian-3` or `bulgarian-2` under one set of table options."""

    cards = 8
    simulated_call: ClassVar[bool] = False  # the hard bot calls as the medium bot
    sweep_bonus = VALAT_BONUS

    def __init__(self, opts: BulgarianTwoRules) -> None:
        super().__init__(opts)
        self.opts: BulgarianTwoRules = opts

    def sides(self, view: SeatView) -> tuple[int, ...]:
        return tuple(range(self.seats))  # each player alone, the declarer too

    def out_of_play(self, view: SeatView) -> CardMask:
        return FULL_DECK & ~SmallDeal.PACK  # the 7s and 8s: nobody holds them

    def duties(self, hand: CardMask, led_suit: int, winning: Card, partner_wins: bool, trump: int) -> CardMask:
        # Nobody has a partner; the engine's duties only look at the led card's suit.
        return legal_cards(hand, led_suit * 8, winning, False, trump, self.opts.must_undertrump)

    def call_weights(self, view: SeatView) -> list[list[float]]:
        """A bid or a contra says the seat holds what makes (or beats) that contract; a pass says little alone."""
        w = [[1.0] * 32 for _ in range(4)]
        state_contract = -1
        for i, call in enumerate(view.calls):
            who = (view.dealer + 1 + i) % self.seats
            if call <= ALL_TRUMPS:
                state_contract = call
            named = call if call <= ALL_TRUMPS else state_contract if call == CONTRA else -1
            if 0 <= named < NO_TRUMPS:
                _named(w, who, named)
            elif named == ALL_TRUMPS:
                for suit in range(4):
                    w[who][suit * 8 + JACK] *= 1.6
                    w[who][suit * 8 + NINE] *= 1.3
            elif named == NO_TRUMPS:
                for suit in range(4):
                    w[who][suit * 8 + ACE] *= 1.6
                    w[who][suit * 8 + TEN] *= 1.3
        return w

    # --- declarations and scoring (the engine's own functions) ---

    def combinations(self, hand: CardMask, trump: int) -> tuple[Combination, ...]:
        return best_declarations(hand, trump, self.opts)

    def resolve(self, hand: CardMask, kinds: Sequence[str], trump: int, pos: int) -> tuple[Combination, ...] | None:
        return resolve_declarations(hand, kinds, trump, self.opts)

    def counted(
        self, declared: Sequence[tuple[Combination, ...]], sides: Sequence[int], dealer: int, trump: int
    ) -> tuple[list[int], int | None]:
        """Each player's counted declarations (``declarations.compare_players``): no single contest winner."""
        return [sum(c.value for c in d) for d in compare_players(declared, self.opts)], None

    def belote_pairs(self, trump: int) -> tuple[CardMask, ...]:
        suits = () if trump == NO_TRUMPS else range(4) if trump == ALL_TRUMPS else (trump,)
        return tuple((1 << (s * 8 + KING)) | (1 << (s * 8 + QUEEN)) for s in suits)

    def raw(self, contract: int, tally: Tally) -> tuple[list[int], int | None]:
        """Each player's raw total as the engine counts it (``SmallDeal.raw``) and the valat's taker, if any."""
        card, tricks, declared, belas = tally.card, tally.tricks, tally.declared, tally.belas
        total = sum(tricks)
        valat = next((p for p in range(self.seats) if total and tricks[p] == total), None)
        out = []
        for p in range(self.seats):
            bonus = 0 if valat == p else None
            out.append(raw_totals(contract, (card[p], 0), (declared[p], 0), (belas[p], 0), bonus, self.opts)[0])
        return out, valat

    def medium_call(self, view: SeatView) -> Call:
        legal = list(view.legal_calls)
        if len(legal) == 1:
            return legal[0]
        hand = mask_of(view.hand)
        state = auction(self.seats, view.dealer, view.calls)
        if RECONTRA in legal:
            return RECONTRA if contract_strength(hand, state.contract) >= RECONTRA_AT[kind(state.contract)] else PASS
        if CONTRA in legal and contract_strength(hand, state.contract) >= CONTRA_AT[kind(state.contract)]:
            return CONTRA  # the cards that beat the contract are here: better doubled than outbid
        if state.bidder != view.seat:
            margins = {c: contract_strength(hand, c) - TAKE[kind(c)] for c in legal if c <= ALL_TRUMPS}
            if margins:
                best = max(margins, key=lambda c: (margins[c], c))
                if margins[best] >= 0:
                    return best
        return PASS


class BulgarianThreeGame(BulgarianSmallGame):
    variant = "bulgarian-3"
    seats = 3
    search = _search([(6, 24, 2), (1, 24, 0)], 8)

    def written(self, view: SeatView, tally: Tally) -> tuple[int, ...]:
        assert view.contract is not None
        raw, valat = self.raw(view.contract, tally)
        rules = self.opts
        assert isinstance(rules, BulgarianThreeRules)
        caller = tally.caller
        belotes = tally.belas[caller] // BELOTE_POINTS
        return score_three(
            rules, rules.made_rule, view.contract, view.multiplier, caller, raw, view.hanging, belotes, valat
        ).score


class BulgarianTwoGame(BulgarianSmallGame):
    variant = "bulgarian-2"
    seats = 2
    search = _search([(8, 24, 3), (7, 24, 4), (1, 24, 0)], 8)

    def written(self, view: SeatView, tally: Tally) -> tuple[int, ...]:
        assert view.contract is not None
        raw, valat = self.raw(view.contract, tally)
        return score_two(self.opts, view.contract, view.multiplier, tally.caller, raw, view.hanging, valat).score


# variant -> (its options model, its piece)
BULGARIAN_SMALL_GAMES: Final[dict[str, tuple[type[BaseModel], Callable[[Any], FamilyGame]]]] = {
    "bulgarian-3": (BulgarianThreeRules, BulgarianThreeGame),
    "bulgarian-2": (BulgarianTwoRules, BulgarianTwoGame),
}
