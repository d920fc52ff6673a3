"""A naive, literal reading of family.md §1–§3 and §7 (Bela for four, French belote), used only as a test oracle.

It shares no code with the engine. Cards are two-character strings (``"JH"``), seats 0..3 in playing order, team =
seat % 2. Each function follows the spec's pseudocode line by line, so a disagreement points at one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

SEQUENCE = "789TJQKA"  # §1.1 sequence order, for declarations only
TRUMP_ORDER = "J9ATKQ87"  # high to low
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
CARRE_VALUES = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
CARRE_RANK = {"A": 4, "T": 3, "K": 2, "Q": 1}


def points(card: str, trump: str) -> int:
    return TRUMP_POINTS[card[0]] if card[1] == trump else PLAIN_POINTS[card[0]]


def stronger(a: str, b: str, trump: str) -> bool:
    """Does card a beat card b by the order of b's suit (both of one suit)?"""
    order = TRUMP_ORDER if b[1] == trump else PLAIN_ORDER
    return a[1] == b[1] and order.index(a[0]) < order.index(b[0])


def current_winner(trick: list[tuple[int, str]], trump: str) -> tuple[int, str]:
    """§1.2: the highest trump if any trump was played, else the highest card of the led suit."""
    trumps = [e for e in trick if e[1][1] == trump]
    pool = trumps if trumps else [e for e in trick if e[1][1] == trick[0][1][1]]
    order = TRUMP_ORDER if trumps else PLAIN_ORDER
    return min(pool, key=lambda e: order.index(e[1][0]))


def legal_bela(hand: list[str], trick: list[tuple[int, str]], trump: str, me: int, opts: dict[str, Any]) -> set[str]:
    """family §2.1 legalCardsBela."""
    if not trick:
        return set(hand)
    led = trick[0][1][1]
    winning = current_winner(trick, trump)
    of_led = [c for c in hand if c[1] == led]
    if of_led:
        if led == trump:
            higher = [c for c in of_led if stronger(c, winning[1], trump)]
            return set(higher or of_led)
        if winning[1][1] == trump:
            return set(of_led)
        if opts.get("iber", True):
            higher = [c for c in of_led if stronger(c, winning[1], trump)]
            return set(higher or of_led)
        return set(of_led)
    trumps = [c for c in hand if c[1] == trump]
    if not trumps:
        return set(hand)
    if opts.get("partner_exemption", False) and winning[0] % 2 == me % 2:
        return set(hand)
    if winning[1][1] == trump:
        higher = [c for c in trumps if stronger(c, winning[1], trump)]
        if higher:
            return set(higher)
        return set(trumps) if opts.get("must_undertrump", True) else set(hand)
    return set(trumps)


def legal_french(hand: list[str], trick: list[tuple[int, str]], trump: str, me: int, opts: dict[str, Any]) -> set[str]:
    """family §7.4 legalCardsFrench."""
    if not trick:
        return set(hand)
    led = trick[0][1][1]
    winning = current_winner(trick, trump)
    of_led = [c for c in hand if c[1] == led]
    if of_led:
        if led == trump:
            higher = [c for c in of_led if stronger(c, winning[1], trump)]
            return set(higher or of_led)
        return set(of_led)
    trumps = [c for c in hand if c[1] == trump]
    if not trumps:
        return set(hand)
    played_trumps = [c for _, c in trick if c[1] == trump]
    top = min(played_trumps, key=lambda c: TRUMP_ORDER.index(c[0])) if played_trumps else None
    higher = [c for c in trumps if top is None or stronger(c, top, trump)]
    if winning[0] % 2 == me % 2 and winning[0] != me:
        if top is not None and higher:
            return (set(hand) - set(trumps)) | set(higher)
        return set(hand)
    if top is None:
        return set(trumps)
    if higher:
        return set(higher)
    return set(trumps) if opts.get("must_undertrump", True) else set(hand)


# --- declarations (§2.2, §7.5) ---


@dataclass(frozen=True)
class Decl:
    kind: str  # "seq" or "carre"
    value: int
    cards: frozenset[str]
    length: int
    top: int  # index in SEQUENCE
    suit: str


def runs(cards: set[str]) -> list[Decl]:
    """Every maximal run of 3+ in sequence order, per suit: 3 → 20, 4 → 50, 5 or more → 100."""
    found = []
    for suit in "CDHS":
        have = [r in SEQUENCE and (r + suit) in cards for r in SEQUENCE]
        i = 0
        while i < 8:
            if have[i]:
                j = i
                while j < 8 and have[j]:
                    j += 1
                n = j - i
                if n >= 3:
                    value = 20 if n == 3 else 50 if n == 4 else 100
                    found.append(Decl("seq", value, frozenset(SEQUENCE[k] + suit for k in range(i, j)), n, j - 1, suit))
                i = j
            else:
                i += 1
    return found


def carres(cards: set[str]) -> list[Decl]:
    return [
        Decl("carre", v, frozenset(r + s for s in "CDHS"), 4, SEQUENCE.index(r), "")
        for r, v in CARRE_VALUES.items()
        if all(r + s in cards for s in "CDHS")
    ]


def declarations(cards: set[str], sharing: bool) -> list[Decl]:
    """With sharing, every maximal run and carré; without, the most valuable non-overlapping set (carrés win ties)."""
    if sharing:
        return carres(cards) + runs(cards)
    best: list[Decl] = []
    best_key = (-1, -1)
    all_carres = carres(cards)
    for n in range(len(all_carres) + 1):
        for chosen in combinations(all_carres, n):
            used = set().union(*(c.cards for c in chosen)) if chosen else set()
            option = list(chosen) + runs(cards - used)
            key = (sum(d.value for d in option), len(chosen))
            if key > best_key:
                best, best_key = option, key
    return best


def bela_key(d: Decl, pos: int, trump: str, opts: dict[str, Any]) -> tuple[int, ...]:
    """§2.3 key(d)."""
    return (
        d.value,
        1 if d.kind == "carre" else 0,
        CARRE_RANK.get(SEQUENCE[d.top], 0) if d.kind == "carre" else 0,
        d.length if d.kind == "seq" and opts.get("sequence_tiebreak", "length") == "length" else 0,
        d.top,
        1 if opts.get("equal_declaration_priority", "seat") == "trump_first" and d.kind == "seq" and d.suit == trump
        else 0,
        -pos,
    )  # fmt: skip


def french_key(d: Decl, pos: int, trump: str) -> tuple[int, ...]:
    """§7.5 ranking steps 1-6."""
    return (
        d.value,
        1 if d.kind == "carre" else 0,
        CARRE_RANK.get(SEQUENCE[d.top], 0) if d.kind == "carre" else 0,
        d.top if d.kind == "seq" else 0,
        1 if d.kind == "seq" and d.suit == trump else 0,
        -pos,
    )


def contest(declared: dict[int, list[Decl]], dealer: int, key: Any) -> int | None:
    best = None
    for seat, decls in declared.items():
        pos = (seat - dealer - 1) % 4
        for d in decls:
            k = key(d, pos)
            if best is None or k > best[0]:
                best = (k, seat % 2)
    return None if best is None else best[1]


# --- scoring (§3.7, §7.8) ---


def score_bela(
    opts: dict[str, Any], caller: int, card_pts: list[int], tricks: list[int], decl: list[int], winner: int | None,
    belas: list[int], held: int,
) -> tuple[list[int], list[int], int, str]:  # fmt: skip
    stiglja = opts.get("stiglja_value", 90)
    card = [card_pts[t] + (stiglja if tricks[t] == 8 else 0) for t in (0, 1)]
    d = [decl[t] if winner == t and tricks[t] >= 1 else 0 for t in (0, 1)]
    b = [belas[t] if tricks[t] >= 1 else 0 for t in (0, 1)]
    total = [card[t] + d[t] + b[t] for t in (0, 1)]
    for s in (0, 1):
        if tricks[s] == 8 and opts.get("swept_declarations", "void") == "transfer":
            other = 1 - s
            total[s] += (decl[other] if winner == other else 0) + belas[other]
    c, o = caller, 1 - caller
    keep = b[c] if opts.get("bela_always_counts", False) else 0
    w = [0, 0]
    if total[c] > total[o]:
        w[c], w[o], held, outcome = total[c] + held, total[o], 0, "passed"
    elif total[c] < total[o] or opts.get("tie", "pad") == "pad":
        w[c], w[o], held, outcome = keep, total[0] + total[1] - keep + held, 0, "fell"
    else:
        w[c], w[o], held, outcome = keep, total[o], held + total[c] - keep, "visi"
    return total, w, held, outcome


def score_french(
    opts: dict[str, Any], taker: int, card_pts: list[int], tricks: list[int], decl: list[int], winner: int | None,
    belotes: list[int], held: int,
) -> tuple[list[int], list[int], int, str]:  # fmt: skip
    card = [card_pts[t] + (opts.get("capot_bonus", 90) if tricks[t] == 8 else 0) for t in (0, 1)]
    d = [decl[t] if winner == t else 0 for t in (0, 1)]
    taker_, defender = taker, 1 - taker
    if tricks[defender] == 0 and not opts.get("capot_keeps_declarations", False):
        d[defender] = 0
    total = [card[t] + d[t] + belotes[t] for t in (0, 1)]
    tie = opts.get("tie", "share")
    w = [0, 0]
    if tricks[taker_] == 0 or total[taker_] < total[defender] or (total[taker_] == total[defender] and tie == "fail"):
        w[defender] = card[taker_] + card[defender] + d[taker_] + d[defender] + belotes[defender] + held
        w[taker_], held, outcome = belotes[taker_], 0, "failed"
    elif total[taker_] == total[defender] and tie == "litige":
        w[defender], w[taker_], outcome = total[defender], belotes[taker_], "litige"
        held = held + total[taker_] - belotes[taker_]
    else:
        w[taker_], w[defender], held, outcome = total[taker_] + held, total[defender], 0, "made"
    r = opts.get("rounding", 1)
    w = [int((x + r / 2) // r * r) for x in w]  # nearest multiple, a half up
    return total, w, held, outcome


def bela_match_winner(totals: list[int], target: int) -> int | None:
    """§2.9: at least the target and more than every other side; a shared highest total plays on."""
    top = max(totals)
    if top >= target and totals.count(top) == 1:
        return totals.index(top)
    return None


def french_match_end(totals: list[int], target: int, both_reach: str) -> tuple[int | None, bool]:
    """§7.9: (winner, draw)."""
    reached = [t for t in (0, 1) if totals[t] >= target]
    if len(reached) == 1:
        return reached[0], False
    if len(reached) == 2:
        if both_reach == "draw":
            return None, True
        if totals[0] != totals[1]:
            return totals.index(max(totals)), False
    return None, False
