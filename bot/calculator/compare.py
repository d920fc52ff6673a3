"""Which announced declarations count, decided by the engine's ``compare_declarations`` (rules §5.5).

A player may describe a sequence without its top card ("терца"). The comparison is run for every top card such a
sequence could have: if the counted declarations never change, the top card did not matter; if they do, the
request is missing a top card, and the error names the ones that decide.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine.cards import ACE
from bot.engine.declarations import (
    CARRE,
    CARRE_VALUE,
    QUARTE,
    QUINT,
    SEQUENCE_VALUE,
    TIERCE,
    Combination,
    compare_declarations,
)
from bot.engine.rules import Rules

from .errors import CalculatorError, Msg, problem
from .vocabulary import LOWEST_TOP, Declared, kind_name

# The run a described sequence came from; a quint is taken as five cards (the request cannot say more).
_LENGTH: Final = {TIERCE: 3, QUARTE: 4, QUINT: 5}
# Beyond this many combinations of unknown top cards, every unknown top card is asked for.
_MAX_TRIALS: Final = 20_000


@dataclass(frozen=True, slots=True)
class CountedDeclarations:
    """Per team: which of its declarations (indices into the request's list, belotes excluded) count."""

    counted: tuple[tuple[int, ...], tuple[int, ...]]
    points: tuple[int, int]  # counted sequences and carrés, in points


def combination(d: Declared, top: int) -> Combination:
    """A described combination as the engine's ``Combination`` (no cards known: mask 0, suit -1)."""
    if d.kind == CARRE:
        return Combination(CARRE, CARRE_VALUE[top], 0, top, -1, 4)
    return Combination(d.kind, SEQUENCE_VALUE[d.kind], 0, top, -1, _LENGTH[d.kind])


def value_of(d: Declared) -> int:
    if d.kind == CARRE and d.top is not None:
        return CARRE_VALUE[d.top]
    return SEQUENCE_VALUE[d.kind]


def team_label(teams: Sequence[str | Msg], team: int) -> str | Msg:
    return teams[team]


def count_declarations(
    declared: tuple[Sequence[Declared], Sequence[Declared]],
    rules: Rules,
    teams: Sequence[str | Msg],
) -> CountedDeclarations:
    """Compare the teams' sequences and carrés under the table options; raise if a missing top card decides."""
    # Positions of the combinations (belotes are never compared) and the unknowns: one per team and kind, since
    # only a team's best combination of a kind can decide a comparison.
    entries = [[(i, d) for i, d in enumerate(declared[t]) if not d.is_belote] for t in (0, 1)]
    unknowns = sorted({(t, d.kind) for t in (0, 1) for _, d in entries[t] if d.top is None})
    domains = [range(LOWEST_TOP[kind], ACE + 1) for _, kind in unknowns]

    def outcome(assignment: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        tops = dict(zip(unknowns, assignment, strict=True))
        combos: list[list[Combination]] = [[], []]
        index: list[dict[int, int]] = [{}, {}]  # id of the Combination object -> position in the request
        for t in (0, 1):
            for i, d in entries[t]:
                c = combination(d, d.top if d.top is not None else tops[(t, d.kind)])
                index[t][id(c)] = i
                combos[t].append(c)
        counted = compare_declarations((combos[0], combos[1]), rules)
        return (
            tuple(sorted(index[0][id(c)] for c in counted[0])),
            tuple(sorted(index[1][id(c)] for c in counted[1])),
        )

    trials = 1
    for domain in domains:
        trials *= len(domain)
    if trials > _MAX_TRIALS:
        _raise_missing(unknowns, teams)
    results = {a: outcome(a) for a in itertools.product(*domains)}
    first = next(iter(results.values()))
    if any(r != first for r in results.values()):
        deciding = [
            u
            for k, u in enumerate(unknowns)
            if any(results[a] != results[(*a[:k], top, *a[k + 1 :])] for a in results for top in domains[k])
        ]
        _raise_missing(deciding, teams)
    points = tuple(sum(value_of(declared[t][i]) for i in first[t]) for t in (0, 1))
    return CountedDeclarations(first, (points[0], points[1]))


def _raise_missing(unknowns: Sequence[tuple[int, str]], teams: Sequence[str | Msg]) -> None:
    items = tuple(Msg("{team}: {kind}", {"team": teams[t], "kind": kind_name(kind)}) for t, kind in unknowns)
    raise CalculatorError([
        problem(
            "declarations",
            "the comparison needs the top card of {items}; write it after a colon, e.g. tierce:K or quint:A",
            items=items,
        )
    ])
