"""The result of a deal (rules §6–§8, §10): raw totals, the verdict, rounding, contra, valat and the hanging pot.

This is the one implementation of the scoring rules; the game and the real-life calculator both call
``score_deal``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .calls import ALL_TRUMPS, NO_TRUMPS, Contract
from .declarations import BELOTE_POINTS
from .rules import Rules

Outcome = Literal["made", "inside", "hanging"]
Team = int  # 0 = A (seats 0 and 2), 1 = B (seats 1 and 3)
TEAM_NAMES: Final = ("A", "B")

VALAT_BONUS: Final = 90
LAST_TEN: Final = 10


def card_total(contract: Contract) -> int:
    return 120 if contract == NO_TRUMPS else 248 if contract == ALL_TRUMPS else 152


def _boundary(contract: Contract) -> int:
    # The one ambiguous remainder (§7): 6 in a suit contract, 4 in all trumps.
    return 4 if contract == ALL_TRUMPS else 6


def round_team(contract: Contract, raw: int, is_higher: bool) -> int:
    """One team's raw total in game points (§7.1–§7.4); at the boundary the higher team rounds down."""
    q, r = divmod(raw, 10)
    if contract == NO_TRUMPS:
        return q + (1 if r >= 5 else 0)
    th = _boundary(contract)
    if r > th:
        return q + 1
    if r < th:
        return q
    return q if is_higher else q + 1


def round_total(raw: int) -> int:
    """A whole deal's total in game points (totals end in 0, 2 or 8, so never a half)."""
    return (raw + 5) // 10


@dataclass(frozen=True, slots=True)
class DealResult:
    """The written result of one played deal, with the facts an explanation needs."""

    contract: Contract
    multiplier: int
    declarer: Team
    points: tuple[int, int]  # card points with the last ten, before the NT doubling
    declarations: tuple[int, int]  # counted sequences and carrés
    belotes: tuple[int, int]  # counted belotes, in points
    valat: Team | None
    raw: tuple[int, int]
    score: tuple[int, int]
    hanging_in: int
    hanging: int  # the pot after this deal
    outcome: Outcome
    collected: Team | None  # who took the hanging points carried in

    @property
    def total(self) -> int:
        return self.raw[0] + self.raw[1]


def raw_totals(
    contract: Contract,
    points: tuple[int, int],
    declarations: tuple[int, int],
    belotes: tuple[int, int],
    valat: Team | None,
    rules: Rules,
) -> tuple[int, int]:
    """§6.1: cards and last ten, NT doubling, counted declarations and belotes, the valat bonus after the doubling."""
    raw = [0, 0]
    for t in (0, 1):
        if contract == NO_TRUMPS:
            # Only a carré of aces (option nt_aces_carre) can be counted in no trumps; it is doubled too.
            raw[t] = 2 * (points[t] + declarations[t])
        else:
            raw[t] = points[t] + declarations[t] + belotes[t]
    if valat is not None:
        raw[valat] += 2 * VALAT_BONUS if contract == NO_TRUMPS and rules.nt_valat_doubled else VALAT_BONUS
    return raw[0], raw[1]


def score_deal(
    contract: Contract,
    multiplier: int,
    declarer: Team,
    points: tuple[int, int],
    declarations: tuple[int, int],
    belotes: tuple[int, int],
    valat: Team | None,
    hanging_in: int,
    rules: Rules,
) -> DealResult:
    """Score one played deal (§10). ``declarations`` and ``belotes`` are the points each team has counted."""
    raw = raw_totals(contract, points, declarations, belotes, valat, rules)
    d, o = declarer, 1 - declarer
    total = raw[0] + raw[1]
    score = [0, 0]
    hanging = 0
    collected: Team | None = None
    if raw[d] > raw[o]:
        outcome: Outcome = "made"
    elif raw[d] < raw[o]:
        outcome = "inside"
    else:
        outcome = "hanging"

    if multiplier > 1:
        m = multiplier if (valat is None or rules.valat_multiplied) else 1
        if outcome == "hanging":
            if rules.contra_tie == "split":
                score[o] = round_team(contract, raw[o], True) * m
                hanging = hanging_in + round_team(contract, raw[d], False) * m
            else:
                hanging = hanging_in + round_total(total) * m
        else:
            winner = d if outcome == "made" else o
            score[winner] = round_total(total) * m + hanging_in
            collected = winner
    elif outcome == "inside":
        if rules.inside_keeps_belote:
            kept = belotes[d] // BELOTE_POINTS * 2
            score[d] = kept
            score[o] = round_total(total) - kept + hanging_in
        else:
            score[o] = round_total(total) + hanging_in
        collected = o
    elif outcome == "hanging":
        score[o] = round_team(contract, raw[o], True)
        hanging = hanging_in + round_team(contract, raw[d], False)
    else:
        score[d] = round_team(contract, raw[d], True) + hanging_in
        score[o] = round_team(contract, raw[o], False)
        collected = d
    if hanging_in == 0:
        collected = None
    return DealResult(
        contract=contract,
        multiplier=multiplier,
        declarer=declarer,
        points=points,
        declarations=declarations,
        belotes=belotes,
        valat=valat,
        raw=raw,
        score=(score[0], score[1]),
        hanging_in=hanging_in,
        hanging=hanging,
        outcome=outcome,
        collected=collected,
    )


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    winner: Team | None
    reason: str  # why the match is (not) over: "target", "capot_lock", "tie", "hanging", "no_score", "below"


def match_verdict(
    totals: tuple[int, int], deal: DealResult, rules: Rules
) -> MatchVerdict:
    """§9: is the match over after this played deal (passed-out deals are never checked)?"""
    if deal.valat is not None and rules.capot_blocks_finish:
        return MatchVerdict(None, "capot_lock")
    if totals[0] == totals[1]:
        return MatchVerdict(None, "tie" if totals[0] >= rules.target_score else "below")
    leader = 0 if totals[0] > totals[1] else 1
    if totals[leader] < rules.target_score:
        return MatchVerdict(None, "below")
    if rules.winner_must_score_last_deal and deal.score[leader] <= 0:
        return MatchVerdict(None, "no_score")
    if rules.no_finish_while_hanging and deal.hanging > 0:
        return MatchVerdict(None, "hanging")
    return MatchVerdict(leader, "target")
