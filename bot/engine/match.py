"""A match (§9): deals in turn, the running score, the hanging pot and the end of the match.

Dealing is deterministic: deal ``n`` of a match is shuffled and cut from the seed and ``n`` alone (docs/fairness.md),
then dealt 3-2-3 counter-clockwise from the dealer's right (§2). The same seed and actions give the same match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from .cards import Card
from .deal import DONE, Action, Deal
from .observation import Observation, observe
from .rules import DEFAULT_RULES, Rules
from .scoring import DealResult, MatchVerdict, match_verdict
from .shuffle import LEGACY_SCHEME, SCHEME, choose_dealer, shuffle_and_cut

__all__ = ["LEGACY_SCHEME", "SCHEME", "DealsInTurn", "Match", "MatchOver", "deal_hands", "shuffle_and_cut"]


def deal_hands(deck: Sequence[Card], dealer: int) -> list[list[Card]]:
    """3, then 2, then 3 cards each, counter-clockwise from the dealer's right; hands in the order received."""
    hands: list[list[Card]] = [[], [], [], []]
    pos = 0
    for count in (3, 2, 3):
        for i in range(1, 5):
            seat = (dealer + i) % 4
            hands[seat].extend(deck[pos : pos + count])
            pos += count
    return hands


class MatchOver(ValueError):
    """An action or a deal after the match was decided."""


class _Deal(Protocol):
    to_act: int

    @property
    def phase(self) -> str: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...


DealT = TypeVar("DealT", bound=_Deal)


class DealsInTurn(Generic[DealT]):
    """What every match (this one, ``familymatch.FamilyMatch``) does with its deals in turn: the deal in progress,
    who acts, the legal actions, and an action applied to the deal, which is closed (``_close_deal``) when it ends."""

    deals: list[DealT]

    @property
    def over(self) -> bool:
        raise NotImplementedError

    def _close_deal(self, deal: DealT) -> None:
        """Score the ended deal, decide the match or deal the next one."""
        raise NotImplementedError

    @property
    def deal(self) -> DealT:
        return self.deals[-1]

    @property
    def to_act(self) -> int:
        return self.deal.to_act

    @property
    def deal_finished(self) -> bool:
        return bool(self.deals) and self.deals[-1].phase == DONE

    def legal_actions(self) -> list[Action]:
        if self.over or not self.deals:
            return []
        return self.deal.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply an action to the deal in progress; score it and deal the next one when it ends."""
        if self.over:
            raise MatchOver("the match is decided")
        if not self.deals:
            raise ValueError("no deal in progress: start one with start_deal()")
        deal = self.deal
        deal.apply(action)
        if deal.phase == DONE:
            self._close_deal(deal)


class Match(DealsInTurn[Deal]):
    """A match of deals. ``deal`` is the deal in progress (a fresh one follows automatically after each deal)."""

    def __init__(
        self,
        rules: Rules = DEFAULT_RULES,
        seed: int | str = 0,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        scheme: str = SCHEME,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.scheme = scheme  # how the seed deals (shuffle.SCHEMES); old stored tables keep LEGACY_SCHEME
        if first_dealer is None:
            first_dealer = choose_dealer(seed, scheme)
        self.first_dealer = first_dealer
        self.auto_deal = auto_deal
        self.deals = []
        self.results: list[DealResult | None] = []  # None for a passed-out deal
        self.totals = [0, 0]
        self.hanging = 0
        self.winner: int | None = None
        self.verdict: MatchVerdict | None = None
        if auto_deal:
            self.start_deal()

    # --- dealing ---

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % 4

    def start_deal(self, hands: Sequence[Sequence[Card]] | None = None) -> Deal:
        """Begin the next deal, dealt from the seed or with the given hands (as a record lists them)."""
        if self.winner is not None:
            raise MatchOver("the match is decided; no more deals")
        if self.deals and self.deals[-1].phase != DONE:
            raise ValueError("the current deal is not finished")
        dealer = self.next_dealer
        if hands is None:
            hands = deal_hands(shuffle_and_cut(self.seed, len(self.deals), self.scheme), dealer)
        deal = Deal(self.rules, dealer, hands, self.hanging)
        self.deals.append(deal)
        return deal

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know of the deal in progress, with the match score (as ``FamilyMatch.observe``)."""
        return observe(self.deal, seat, (self.totals[0], self.totals[1]), self.hanging)

    @property
    def over(self) -> bool:
        return self.winner is not None

    # --- actions ---

    def _close_deal(self, deal: Deal) -> None:
        result = deal.result
        self.results.append(result)
        if result is not None:
            self.totals[0] += result.score[0]
            self.totals[1] += result.score[1]
            self.hanging = result.hanging
            self.verdict = match_verdict((self.totals[0], self.totals[1]), result, self.rules)
            self.winner = self.verdict.winner
        if self.winner is None and self.auto_deal:
            self.start_deal()
