"""Duplicate matches between two agents, so that card luck cancels out.

A *match pair* is two matches to the table's target from the same seed: in the first agent A holds seats 0 and 2,
in the second seats 1 and 3. Deal ``n`` of a match is dealt from the seed and ``n`` alone (and the dealer rotates
the same way), so deal ``n`` of both matches has the same hands. For every deal index both matches reached, the
deal pair's difference is the mean, over the two orientations, of A's written score minus B's. Matches that both
finished count towards the match win rates.

With three players a set is three matches, one A against two B with A in each seat in turn, and a deal's difference
is A's score minus the mean of the two B's; with two players it is two matches, head to head with the seats (and so
the hands) swapped (``layouts``).

The arena never lets an illegal action through: an agent that raises, answers later than ``move_time`` or answers
with an illegal action has an error counted against it and the table plays the first legal action instead.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import Action, Match
from bot.engine.deal import DONE
from bot.engine.familyrecord import deal_end_of
from bot.engine.game import GameMatch, variant

from .base import Agent

Z95 = 1.96


@dataclass
class Side:
    """One competitor: its spec, its two seat agents and its statistics."""

    label: str
    agents: tuple[Agent, Agent]
    times: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


@dataclass
class ArenaResult:
    pair_diffs: list[float] = field(default_factory=list)  # per deal pair: A minus B, mean of both orientations
    match_pairs: int = 0
    finished_matches: int = 0
    a_match_wins: int = 0
    b_match_wins: int = 0
    deals_played: int = 0

    def mean_ci(self) -> tuple[float, float, float]:
        """Mean per-deal difference with its 95% confidence interval (normal approximation over deal pairs)."""
        n = len(self.pair_diffs)
        if n == 0:
            return 0.0, 0.0, 0.0
        mean = sum(self.pair_diffs) / n
        if n < 2:
            return mean, mean, mean
        var = sum((d - mean) ** 2 for d in self.pair_diffs) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return mean, mean - half, mean + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def _decide(side: Side, agent: Agent, match: GameMatch, seat: int, move_time: float | None) -> Action:
    """Ask one agent for its action; on any failure count an error and return the first legal action."""
    legal = match.legal_actions()
    obs = match.observe(seat)
    start = time.perf_counter()
    try:
        action: Action | None = agent.act(obs)
    except Exception as exc:  # an agent's bug must not stop the match
        side.errors["exception"] += 1
        side.problems.append(f"seat {seat}: {type(exc).__name__}: {exc}")
        action = None
    elapsed = time.perf_counter() - start
    side.times.append(elapsed)
    # An external program's referee enforces the limit itself and counts its own timeouts (``agent.errors``):
    # timing it here too would count every timeout twice.
    enforces_own_limit = getattr(agent, "errors", None) is not None
    if action is not None and move_time is not None and elapsed > move_time and not enforces_own_limit:
        side.errors["timeout"] += 1
        side.problems.append(f"seat {seat}: answered after {elapsed:.3f} s (limit {move_time} s)")
        action = None
    if action is None:
        return legal[0]
    return action


def _apply(side: Side, match: GameMatch, seat: int, action: Action) -> None:
    try:
        match.apply(action)
    except Exception as exc:  # IllegalAction, or something that is not an action at all
        side.errors["illegal"] += 1
        side.problems.append(f"seat {seat}: {exc}")
        match.apply(match.legal_actions()[0])


def _match_record(match: Any, names: list[str]) -> dict[str, Any]:
    """The match as ``belote-record/1`` with its seed revealed (the arena's seeds are public)."""
    if isinstance(match, Match):
        from bot.engine.record import match_to_record

        return match_to_record(match, names, reveal=True)
    from bot.engine.familyrecord import family_match_to_record

    return family_match_to_record(match, names, reveal=True)


def play_match(
    sides_by_seat: list[tuple[Side, Agent]],
    rules: Any,
    seed: int | str,
    max_deals: int,
    move_time: float | None = None,
    game: str = "bulgarian",
) -> Any:
    """Play one match of ``game`` (to the target, or ``max_deals`` deals at most) between the agents in their seats.
    Returns the match (``Match`` or ``FamilyMatch``)."""
    match: Any = variant(game).new_match(rules, seed=seed, auto_deal=False)
    while not match.over and len(match.deals) < max_deals:
        deal = match.start_deal()
        while deal.phase != DONE:
            seat = deal.to_act
            side, agent = sides_by_seat[seat]
            action = _decide(side, agent, match, seat, move_time)
            _apply(side, match, seat, action)
        report, hands, extra = deal_end_of(deal)
        for _, agent in sides_by_seat:
            agent.deal_end(report, hands, extra)
    return match


def layouts(seats: int) -> list[str]:
    """Who sits where in each match of a set, seat by seat ("a" or "b"). Four seats: A's pair in seats 0 and 2, then
    in 1 and 3. Three: one A against two B, A in each seat in turn. Two: head to head, then the seats swapped. Every
    match of a set is dealt from the same seed, so each deal's cards are played once from every place."""
    if seats == 4:
        return ["abab", "baba"]
    return ["".join("a" if s == i else "b" for s in range(seats)) for i in range(seats)]


def _diffs(match: Any, layout: str, upto: int) -> list[float]:
    """Per deal: the mean written score of A's sides minus that of B's (a passed-out deal 0)."""
    out: list[float] = []
    for result in match.results[:upto]:
        if result is None:
            out.append(0.0)
            continue
        n = len(result.score)  # the scoring sides: a seat's side is its number modulo their count
        a = sorted({s % n for s, who in enumerate(layout) if who == "a"})
        b = sorted({s % n for s, who in enumerate(layout) if who == "b"})
        out.append(sum(result.score[x] for x in a) / len(a) - sum(result.score[x] for x in b) / len(b))
    return out


def run_arena(
    a: Side,
    b: Side,
    deals: int,
    seed: int | str = 0,
    rules: Any = None,
    move_time: float | None = None,
    records: Path | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
    game: str = "bulgarian",
) -> ArenaResult:
    """Play sets of matches of ``game`` (a name of ``bot.engine.game.VARIANTS``, seated by ``layouts``) until
    ``deals`` deals have been compared from every place; ``rules``: that game's options (its defaults when None)."""
    if rules is None:
        rules = variant(game).rules()
    seating = layouts(variant(game).seats)
    result = ArenaResult()
    k = 0
    while len(result.pair_diffs) < deals:
        remaining = deals - len(result.pair_diffs)
        match_seed = f"{seed}/{k}"
        matches = []
        for layout in seating:
            used = {"a": 0, "b": 0}  # each side's seats take its agents in turn
            seats = []
            for who in layout:
                side_ = a if who == "a" else b
                seats.append((side_, side_.agents[used[who] % len(side_.agents)]))
                used[who] += 1
            match = play_match(seats, rules, match_seed, remaining, move_time, game)
            matches.append(match)
            result.deals_played += len(match.deals)
            if records is not None:
                names = [f"{s.label} ({'A' if s is a else 'B'})" for s, _ in seats]
                path = records / f"match-{k:04d}-{layout[:2] if len(layout) == 4 else layout}.json"
                record = _match_record(match, names)
                path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        paired = min(len(m.results) for m in matches)
        per_layout = [_diffs(m, layout, paired) for m, layout in zip(matches, seating, strict=True)]
        result.pair_diffs.extend(sum(ds) / len(ds) for ds in zip(*per_layout, strict=True))
        result.match_pairs += 1
        for layout, match in zip(seating, matches, strict=True):
            if match.over:
                result.finished_matches += 1
                n = len(match.totals)
                if match.winner is not None and any(
                    layout[s] == "a" and s % n == match.winner for s in range(len(layout))
                ):
                    result.a_match_wins += 1
                else:
                    result.b_match_wins += 1
        k += 1
        if progress is not None:
            progress(result)
    return result


def summary(a: Side, b: Side, result: ArenaResult) -> dict[str, Any]:
    mean, low, high = result.mean_ci()
    finished = result.finished_matches
    out: dict[str, Any] = {
        "a": a.label,
        "b": b.label,
        "deal_pairs": len(result.pair_diffs),
        "deals_played": result.deals_played,
        "mean_diff_per_deal": round(mean, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "matches_finished": result.finished_matches,
        "a_match_win_rate": round(result.a_match_wins / finished, 3) if finished else None,
        "b_match_win_rate": round(result.b_match_wins / finished, 3) if finished else None,
    }
    for key, side in (("a", a), ("b", b)):
        errors: dict[str, int] = dict(side.errors)
        for agent in side.agents:
            for kind, count in (getattr(agent, "errors", None) or {}).items():
                if count:
                    errors[f"agent:{kind}"] = errors.get(f"agent:{kind}", 0) + int(count)
        out[f"{key}_decisions"] = len(side.times)
        out[f"{key}_time_p50_ms"] = round(1000 * percentile(side.times, 0.5), 2)
        out[f"{key}_time_p99_ms"] = round(1000 * percentile(side.times, 0.99), 2)
        out[f"{key}_errors"] = errors
    return out
