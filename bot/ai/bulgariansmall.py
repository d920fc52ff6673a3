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

from collections.abc import Callable
from typing import Any, ClassVar, Final

from pydantic import BaseModel

from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules, auction
from bot.engine.bulgarian_small_match import SmallDeal
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, Call
from bot.engine.cards import FULL_DECK, Card, CardMask, mask_of
from bot.engine.play import legal_cards
from bot.engine.seatview import SeatView

from .bidding import contract_strength
from .games import FamilyGame

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
    hard: ClassVar[bool] = False  # the hard bot's search does not score these games yet
    sweep_bonus = 90  # the valat's 9 game points, in raw points

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
        return [[1.0] * 32 for _ in range(4)]

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


class BulgarianTwoGame(BulgarianSmallGame):
    variant = "bulgarian-2"
    seats = 2


# variant -> (its options model, its piece)
BULGARIAN_SMALL_GAMES: Final[dict[str, tuple[type[BaseModel], Callable[[Any], FamilyGame]]]] = {
    "bulgarian-3": (BulgarianThreeRules, BulgarianThreeGame),
    "bulgarian-2": (BulgarianTwoRules, BulgarianTwoGame),
}
