"""Declarations (rules §5): finding a hand's combinations, resolving what a player announced, and comparing teams.

Sequences are runs of three or more in one suit in sequence order 7..A; carrés are four of a rank 9..A. One card
serves one combination only (§5.4): each way of using the carrés a hand holds leaves runs for the sequences.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations as subsets
from typing import Final, NamedTuple

from .calls import ALL_TRUMPS, NO_TRUMPS, Contract
from .cards import ACE, JACK, KING, NINE, QUEEN, RANK_CHARS, SUIT_CHARS, TEN, CardMask
from .rules import Rules

TIERCE: Final = "tierce"
QUARTE: Final = "quarte"
QUINT: Final = "quint"
CARRE: Final = "carre"
KINDS: Final = (TIERCE, QUARTE, QUINT, CARRE)
BELOTE_POINTS: Final = 20

SEQUENCE_VALUE: Final = {TIERCE: 20, QUARTE: 50, QUINT: 100}
_SEQUENCE_CLASS: Final = {TIERCE: 3, QUARTE: 4, QUINT: 5}
CARRE_VALUE: Final = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
# Rank of the hundred-carrés among themselves, by option hundred_carre_order.
_HUNDRED_ORDER: Final = {
    "points": {ACE: 4, TEN: 3, KING: 2, QUEEN: 1},
    "rank": {ACE: 4, KING: 3, QUEEN: 2, TEN: 1},
}


class Combination(NamedTuple):
    """One declared combination. ``top`` is the top rank of a sequence or the rank of a carré."""

    kind: str
    value: int
    mask: CardMask
    top: int
    suit: int  # -1 for a carré
    length: int  # the whole run a sequence came from (for long_sequence="length"); 4 for a carré

    @property
    def is_carre(self) -> bool:
        return self.kind == CARRE

    def label(self) -> str:
        """Compact notation: ``tierce:K`` (with suit ``tierce:KH``) or ``carre:J``."""
        if self.kind == CARRE:
            return f"carre:{RANK_CHARS[self.top]}"
        return f"{self.kind}:{RANK_CHARS[self.top]}{SUIT_CHARS[self.suit]}"


def _runs_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    table = []
    for byte in range(256):
        runs = []
        rank = 0
        while rank < 8:
            if byte >> rank & 1:
                start = rank
                while rank < 8 and byte >> rank & 1:
                    rank += 1
                if rank - start >= 3:
                    runs.append((start, rank - start))
            else:
                rank += 1
        table.append(tuple(runs))
    return tuple(table)


# RUNS[byte]: (lowest rank, length) of every run of 3+ set bits in one suit's byte.
RUNS: Final = _runs_table()


def _sequences(hand: CardMask, rules: Rules) -> list[Combination]:
    found = []
    for suit in range(4):
        for low, length in RUNS[hand >> (8 * suit) & 0xFF]:
            top = low + length - 1
            mask = ((1 << length) - 1) << (8 * suit + low)
            if length == 8 and rules.eight_card_run == 120:
                # Counted as a quint of the top five plus a tierce of the bottom three.
                found.append(Combination(QUINT, 100, mask & ~(0b111 << 8 * suit), top, suit, 8))
                found.append(Combination(TIERCE, 20, 0b111 << 8 * suit, low + 2, suit, 3))
                continue
            kind = TIERCE if length == 3 else QUARTE if length == 4 else QUINT
            found.append(Combination(kind, SEQUENCE_VALUE[kind], mask, top, suit, length))
    return found


def _carres(hand: CardMask, contract: Contract, rules: Rules) -> list[Combination]:
    found = []
    for rank, value in CARRE_VALUE.items():
        if contract == NO_TRUMPS and not (rank == ACE and rules.nt_aces_carre):
            continue
        mask = 0x01010101 << rank
        if hand & mask == mask:
            found.append(Combination(CARRE, value, mask, rank, -1, 4))
    return found


def sequences_in(hand: CardMask, rules: Rules) -> list[Combination]:
    """Every maximal run of three or more in the hand (the family games share this with the Bulgarian one)."""
    return _sequences(hand, rules)


def carres_in(hand: CardMask, contract: Contract, rules: Rules) -> list[Combination]:
    """Every four of a kind of J, 9, A, 10, K or Q in the hand."""
    return _carres(hand, contract, rules)


def declaration_options(hand: CardMask, contract: Contract, rules: Rules) -> list[tuple[Combination, ...]]:
    """Every maximal set of non-overlapping combinations the hand can declare, one per choice of carrés."""
    carres = _carres(hand, contract, rules)
    options = []
    for n in range(len(carres) + 1):
        for chosen in subsets(carres, n):
            used = 0
            for c in chosen:
                used |= c.mask
            seqs = [] if contract == NO_TRUMPS else _sequences(hand & ~used, rules)
            if chosen or seqs:
                options.append((*chosen, *seqs))
    return options


def _set_rank(combos: Sequence[Combination], rules: Rules) -> tuple[int, int, list[tuple[int, int, tuple[int, ...]]]]:
    # Most valuable first; at equal value prefer carrés, then the combinations that compare higher (§5.5 keys).
    return (
        sum(c.value for c in combos),
        sum(1 for c in combos if c.is_carre),
        sorted(((c.value, int(c.is_carre), _key(c, rules)) for c in combos), reverse=True),
    )


def best_declarations(hand: CardMask, contract: Contract, rules: Rules) -> tuple[Combination, ...]:
    """The most valuable legal set (a carré wins a tie in value): what auto_declarations announces."""
    options = declaration_options(hand, contract, rules)
    if not options:
        return ()
    return max(options, key=lambda o: _set_rank(o, rules))


def resolve_declarations(
    hand: CardMask, kinds: Iterable[str], contract: Contract, rules: Rules
) -> tuple[Combination, ...] | None:
    """The most valuable non-overlapping combinations of exactly these kinds, or None if the hand cannot supply them."""
    wanted = Counter(kinds)
    if not wanted:
        return ()
    best: tuple[Combination, ...] | None = None
    for option in declaration_options(hand, contract, rules):
        picked: list[Combination] = []
        for kind, count in wanted.items():
            # Within one option the strongest combinations of a kind come first.
            of_kind = sorted((c for c in option if c.kind == kind), key=lambda c: (c.value, _key(c, rules)))
            if len(of_kind) < count:
                break
            picked.extend(of_kind[-count:])
        else:
            candidate = tuple(picked)
            if best is None or _set_rank(candidate, rules) > _set_rank(best, rules):
                best = candidate
    return best


def declarable_kinds(hand: CardMask, contract: Contract, rules: Rules) -> tuple[str, ...]:
    """The kinds a player is offered to announce: one entry per combination of the best set."""
    return tuple(c.kind for c in best_declarations(hand, contract, rules))


# --- comparison between the teams (§5.5) ---


def sequence_key(c: Combination, rules: Rules) -> tuple[int, int, int]:
    return (_SEQUENCE_CLASS[c.kind], c.length if rules.long_sequence == "length" else 0, c.top)


def carre_key(c: Combination, rules: Rules) -> int:
    if c.top == JACK:
        return 6
    if c.top == NINE:
        return 5
    return _HUNDRED_ORDER[rules.hundred_carre_order][c.top]


def _key(c: Combination, rules: Rules) -> tuple[int, ...]:
    return (carre_key(c, rules),) if c.is_carre else sequence_key(c, rules)


def _best_side(keys: Sequence[tuple[int, ...] | None]) -> int | None:
    """The one side whose key is highest; None when no side has one or the highest is shared (it cancels)."""
    top = max((k for k in keys if k is not None), default=None)
    if top is None:
        return None
    holders = [s for s, k in enumerate(keys) if k == top]
    return holders[0] if len(holders) == 1 else None


def compare_players(
    declared: Sequence[Sequence[Combination]], rules: Rules
) -> tuple[tuple[Combination, ...], ...]:
    """The combinations each side scores under ``rules.declaration_comparison`` (belotes are not compared), for two
    teams or for 3 and 2 players each on his own (family §8.6): an exactly equal best cancels that contest for all."""
    sides = [list(d) for d in declared]
    mode = rules.declaration_comparison
    counted: list[list[Combination]] = [[] for _ in sides]
    if mode in ("separate", "carre_kills_quint"):
        if mode == "carre_kills_quint":
            carre = [any(c.is_carre for c in d) for d in sides]
            # A side's quints are void when any other side declared a carré.
            sides = [
                [c for c in d if c.kind != QUINT] if any(carre[:s] + carre[s + 1 :]) else d
                for s, d in enumerate(sides)
            ]
        for is_carre in (False, True):
            of_kind = [[c for c in d if c.is_carre == is_carre] for d in sides]
            winner = _best_side([max((_key(c, rules) for c in d), default=None) for d in of_kind])
            if winner is not None:
                counted[winner].extend(of_kind[winner])
    else:
        if mode == "single_contest":

            def key(c: Combination) -> tuple[int, ...]:
                return (c.value, int(c.is_carre), *_key(c, rules))

        else:  # carre_beats_sequence

            def key(c: Combination) -> tuple[int, ...]:
                return (int(c.is_carre), *_key(c, rules))

        winner = _best_side([max(map(key, d), default=None) for d in sides])
        if winner is not None:
            counted[winner].extend(sides[winner])
    return tuple(tuple(c) for c in counted)


def compare_declarations(
    declared: tuple[Sequence[Combination], Sequence[Combination]], rules: Rules
) -> tuple[tuple[Combination, ...], tuple[Combination, ...]]:
    """The combinations each team scores under ``rules.declaration_comparison`` (belotes are not compared)."""
    a, b = compare_players(declared, rules)
    return a, b


def declarations_forfeited(team: int, valat: int | None, rules: Rules) -> bool:
    """Option valat_team_keeps_declarations=false: the team that took no trick loses its declarations and belotes."""
    return valat is not None and team != valat and not rules.valat_team_keeps_declarations


def belote_allowed(card: int, hand: CardMask, contract: Contract, led_suit: int | None) -> bool:
    """May a belote be announced with this card (§5.3)? ``led_suit`` is None when the card leads the trick."""
    rank, suit = card & 7, card >> 3
    if rank not in (KING, QUEEN) or contract == NO_TRUMPS:
        return False
    other = card ^ (KING ^ QUEEN)  # K and Q differ only in the rank bits
    if not hand >> other & 1:
        return False
    if contract == ALL_TRUMPS:
        return led_suit is None or led_suit == suit
    return suit == contract
