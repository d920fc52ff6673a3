"""A match of a one-trump family game: deals in turn from the seed, the running score, held points, the end.

Each game supplies how a deck is dealt (``_deal_from``), how a record's hands become a deal (``_deal_with``) and when
the match ends (``_verdict``); dealing uses the same keyed-hash shuffle and cut as the Bulgarian game (shuffle.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .cards import Card
from .deal import DONE
from .match import DealsInTurn, MatchOver
from .seatview import SeatView, view
from .shuffle import SCHEME, choose_dealer, shuffle_and_cut
from .trumpdeal import FamilyResult, TrumpDeal


class FamilyMatch(DealsInTurn[TrumpDeal]):
    """Deals of one game until a side wins (``winner``) or, in French belote, both reach the target (``drawn``)."""

    variant: ClassVar[str]
    SEATS: ClassVar[int] = 4
    DEAL: ClassVar[type[TrumpDeal]]  # the game's deal class: what its records and views hold

    def __init__(
        self,
        rules: Any,
        seed: int | str = 0,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        scheme: str = SCHEME,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.scheme = scheme
        if first_dealer is None:
            first_dealer = choose_dealer(seed, scheme, self.SEATS)
        self.first_dealer = first_dealer
        self.auto_deal = auto_deal
        self.deals = []
        self.results: list[FamilyResult | None] = []  # None for a passed-out, belot or "na dosta" deal
        self.totals = [0] * self._sides()
        self.hanging = 0
        self.winner: int | None = None
        self.drawn = False
        self.recorded_dealing: dict[str, Any] | None = None  # a replayed record's own ``dealing``, written back as is
        if auto_deal:
            self.start_deal()

    def _sides(self) -> int:
        return 2 if self.SEATS == 4 else self.SEATS

    # --- what each game supplies ---

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        raise NotImplementedError

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        raise NotImplementedError

    def _verdict(self, deal: TrumpDeal) -> None:
        """Set ``winner`` or ``drawn`` after a deal ends, if the match is decided."""
        raise NotImplementedError

    # --- dealing ---

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % self.SEATS

    def start_deal(self, hands: Sequence[Sequence[Card]] | None = None, **extra: Any) -> TrumpDeal:
        """Begin the next deal, from the seed or with a record's hands (and its extra fields, e.g. ``turned``)."""
        if self.over:
            raise MatchOver("the match is decided; no more deals")
        if self.deals and self.deals[-1].phase != DONE:
            raise ValueError("the current deal is not finished")
        dealer = self.next_dealer
        if hands is None:
            deal = self._deal_from(shuffle_and_cut(self.seed, len(self.deals), self.scheme), dealer)
        else:
            deal = self._deal_with(dealer, hands, extra)
        self.deals.append(deal)
        return deal

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    # --- actions ---

    def _close_deal(self, deal: TrumpDeal) -> None:
        result = deal.result
        self.results.append(result)
        if result is not None:
            for side, points in enumerate(result.score):
                self.totals[side] += points
            self.hanging = result.hanging
        self._verdict(deal)
        if not self.over and self.auto_deal:
            self.start_deal()

    def observe(self, seat: int) -> SeatView:
        return view(self.deal, seat, tuple(self.totals), self.hanging, getattr(self.deal, "turned", None))
