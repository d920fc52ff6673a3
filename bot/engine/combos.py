"""Declarations of the one-trump family games (family §2.2–§2.3, §7.5): what a hand holds, and the one contest.

The finding of runs and carrés is the Bulgarian engine's (declarations.py); what differs is whether a card may serve
in two declarations, and how the single best declaration at the table is ranked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from .cards import ACE, KING, QUEEN, TEN, CardMask
from .declarations import (
    CARRE,
    KINDS,
    Combination,
    best_declarations,
    carres_in,
    resolve_declarations,
    sequences_in,
)
from .rules import DEFAULT_RULES

# A Bulgarian Rules object with the options the family games need from the shared finder: an 8-card run is one
# quint of length 8 (eight_card_run 100), and carrés are found in every suit contract.
_FINDER_RULES: Final = DEFAULT_RULES
# Two hundred-carrés rank A > 10 > K > Q (family §2.3 step 3, §7.5 step 3).
CARRE_RANK: Final = {ACE: 4, TEN: 3, KING: 2, QUEEN: 1}

# A contest key: bigger is better. ``pos`` is the declarer's place in the call order (0 = the dealer's right).
ContestKey = Callable[[Combination, int, int], tuple[int, ...]]


def every_combination(hand: CardMask, trump: int) -> tuple[Combination, ...]:
    """Each maximal run and each carré, even when they share a card (Bela's default, family §2.2)."""
    return (*carres_in(hand, trump, _FINDER_RULES), *sequences_in(hand, _FINDER_RULES))


def best_disjoint(hand: CardMask, trump: int) -> tuple[Combination, ...]:
    """The most valuable set of non-overlapping combinations (a carré winning a tie in value)."""
    return best_declarations(hand, trump, _FINDER_RULES)


def resolve_kinds(
    hand: CardMask, kinds: Sequence[str], trump: int, sharing: bool, rank: Callable[[Combination], tuple[int, ...]]
) -> tuple[Combination, ...] | None:
    """The combinations a player's announced kinds stand for, or None if the hand does not hold them.

    With sharing, each kind takes the highest-ranking combinations of that kind the hand holds; without, the most
    valuable non-overlapping set of exactly those kinds (the Bulgarian rule, §5.4).
    """
    if not kinds:
        return ()
    if not sharing:
        return resolve_declarations(hand, kinds, trump, _FINDER_RULES)
    held = sorted(every_combination(hand, trump), key=rank, reverse=True)
    picked: list[Combination] = []
    for kind in dict.fromkeys(kinds):
        want = sum(1 for k in kinds if k == kind)
        of_kind = [c for c in held if c.kind == kind]
        if len(of_kind) < want:
            return None
        picked.extend(of_kind[:want])
    return tuple(picked)


def unknown_kinds(kinds: Iterable[object]) -> list[object]:
    return [k for k in kinds if not isinstance(k, str) or k not in KINDS]


def contest_winner(
    declared: Sequence[tuple[Combination, ...]], side_of: Sequence[int], dealer: int, key: ContestKey, trump: int
) -> int | None:
    """The side whose single best declaration is highest (family §2.3, §7.5), None when nobody declared.

    ``declared[seat]`` are the seat's announced combinations. The key ends with the call order, so it never ties.
    """
    n = len(declared)
    best: tuple[tuple[int, ...], int] | None = None
    for seat in range(n):
        pos = (seat - dealer - 1) % n
        for combo in declared[seat]:
            k = key(combo, trump, pos)
            if best is None or k > best[0]:
                best = (k, side_of[seat])
    return None if best is None else best[1]


def carre_rank(c: Combination) -> int:
    return CARRE_RANK.get(c.top, 0) if c.kind == CARRE else 0
