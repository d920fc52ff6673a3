"""Whose declarations count in the 3- and 2-player games, from the request's strings.

Bela (family §4.6, §5.6, §6.5): one contest; in `bela-3` the caller against the two opponents together, whose
players then each write their own. Bulgarian with 3 or 2 players (family §8.6, §9.3): `bulgarian-belote.md` §5 with
each player a side: per category the single best player scores all of his, and a best held exactly alike by two
players cancels the category for everyone: the engine's ``compare_players``, the very rule its games play.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from pydantic import BaseModel

from bot.engine.cards import ACE
from bot.engine.declarations import Combination, compare_players
from bot.engine.rules import Rules

from .compare import _MAX_TRIALS, _raise_missing, combination, value_of
from .errors import Msg, Problem, problem
from .family_request import ContestKey, _best
from .vocabulary import LOWEST_TOP, Declared, declared_name

SEAT_KEYS: Final = ("0", "1", "2")


# --- Bela ---


def bela_contest(variant: str, rules: BaseModel, caller: int, declared: Sequence[Sequence[Declared]],
                 given: int | None, problems: list[Problem]) -> int | None:
    """The contest side that wins (bela-3: 0 the caller, 1 the two opponents; bela-2, bela-open: the seat), from
    the strings and ``declarations_winner`` (a seat); problems say what is missing or contradicted."""
    seats = len(declared)
    combos = [[d for d in declared[s] if not d.is_belote] for s in range(seats)]
    if seats == 3:
        side_of = [0 if s == caller else 1 for s in range(3)]
        sides = [combos[caller], [d for s in range(3) if s != caller for d in combos[s]]]
    else:
        side_of = [0, 1]
        sides = combos
    label = ["0", "1"] if seats == 2 else [SEAT_KEYS[caller], " + ".join(SEAT_KEYS[s] for s in range(3)
                                                                         if s != caller)]
    given_side = None if given is None else side_of[given]
    if given is not None and not combos[given]:
        problems.append(problem("declarations_winner", "player {seat} announced no declaration (bela does not take "
                                "part in the contest)", seat=SEAT_KEYS[given]))
        return None
    present = [t for t in (0, 1) if sides[t]]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    best: list[tuple[ContestKey, ContestKey, Declared]] = [_best(sides[t], rules) for t in (0, 1)]
    certain = next((t for t in (0, 1) if best[t][0] > best[1 - t][1]), None)
    if certain is not None:
        if given is not None and given_side != certain:
            problems.append(problem("declarations_winner", "{value} contradicts the declarations: {best} of {winner} "
                                    "beats every declaration of {loser}", value=_quoted(given),
                                    best=declared_name(best[certain][2]), winner=label[certain],
                                    loser=label[1 - certain]))
        return certain
    if given_side is None:
        tops_missing = any(d.top is None for side in sides for d in side)
        hint = Msg("give the top cards (tierce:K) or the seat of the player whose declaration won at the table") \
            if tops_missing else Msg("give the seat of the player whose declaration won at the table")
        problems.append(problem("declarations_winner", "missing: the strings cannot rank {a} of {la} against {b} of "
                                "{lb}; {hint}", a=declared_name(best[0][2]), la=label[0], b=declared_name(best[1][2]),
                                lb=label[1], hint=hint))
    return given_side


def _quoted(seat: int) -> str:
    return f'"{SEAT_KEYS[seat]}"'


# --- Bulgarian with each player a side ---


def count_players(declared: Sequence[Sequence[Declared]], rules: Rules,
                  names: Sequence[str | Msg]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Per player: which of his declarations count (indices into his list) and their points; every top card a
    sequence without one could have is tried (24 cards: from the J up), and one that decides is asked for."""
    n = len(declared)
    entries = [[(i, d) for i, d in enumerate(declared[p]) if not d.is_belote] for p in range(n)]
    unknowns = sorted({(p, d.kind) for p in range(n) for _, d in entries[p] if d.top is None})
    domains = [range(LOWEST_TOP[kind] + 2, ACE + 1) for _, kind in unknowns]

    def outcome(assignment: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        tops = dict(zip(unknowns, assignment, strict=True))
        combos: list[list[Combination]] = [[] for _ in range(n)]
        index: list[dict[int, int]] = [{} for _ in range(n)]
        for p in range(n):
            for i, d in entries[p]:
                c = combination(d, d.top if d.top is not None else tops[(p, d.kind)])
                index[p][id(c)] = i
                combos[p].append(c)
        counted = compare_players(combos, rules)
        return tuple(tuple(sorted(index[p][id(c)] for c in counted[p])) for p in range(n))

    trials = 1
    for domain in domains:
        trials *= len(domain)
    if trials > _MAX_TRIALS:
        _raise_missing(unknowns, names)
    results = {a: outcome(a) for a in itertools.product(*domains)}
    first = next(iter(results.values()))
    if any(r != first for r in results.values()):
        deciding = [
            u for k, u in enumerate(unknowns)
            if any(results[a] != results[(*a[:k], top, *a[k + 1:])] for a in results for top in domains[k])
        ]
        _raise_missing(deciding, names)
    points = tuple(sum(value_of(declared[p][i]) for i in first[p]) for p in range(n))
    return first, points
