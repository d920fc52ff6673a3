"""A naive, literal reading of family.md §4 and §5 (Bela for three and for two), used only as a test oracle.

It shares no code with the engine; the play duties (§2.1) and the declarations (§2.2) are those of family_model.py,
which reads the shared sections. Cards are two-character strings, seats 0..n-1 in playing order, each player his
own side. Each function follows the spec's pseudocode, so a disagreement points at one sentence.
"""

from __future__ import annotations

from typing import Any

SUITS = ["clubs", "diamonds", "hearts", "spades"]
SUIT_CHAR = "CDHS"


# --- the deal (§4.2, §5.2): the deck top card first ---


def deal_three(deck: list[str], dealer: int) -> tuple[list[list[str]], list[str]]:
    """(3+3) each from the dealer's right, then 4 each (the talon), then the 2 cards set aside."""
    hands: list[list[str]] = [[], [], []]
    pos = 0
    for count in (3, 3, 4):
        for k in (1, 2, 3):
            seat = (dealer + k) % 3
            hands[seat] += deck[pos : pos + count]
            pos += count
    return hands, deck[pos : pos + 2]


def deal_two(deck: list[str], dealer: int) -> tuple[list[list[str]], str, list[str]]:
    """(3+3) each from the non-dealer, the turned card, 4 each (the talon), the 11 left are the stock."""
    hands: list[list[str]] = [[], []]
    pos = 0
    for count in (3, 3):
        for k in (1, 2):
            hands[(dealer + k) % 2] += deck[pos : pos + count]
            pos += count
    turned = deck[pos]
    pos += 1
    for k in (1, 2):
        hands[(dealer + k) % 2] += deck[pos : pos + 4]
        pos += 4
    return hands, turned, deck[pos:]


# --- choosing trump (§4.3, §5.3): the legal calls after the calls made so far ---


def calls_three(calls: list[str], dealer: int, opts: dict[str, Any]) -> set[str]:
    if opts.get("forced_first_caller", True):
        return set(SUITS)
    player = (dealer + 1 + len(calls)) % 3
    return set(SUITS) if player == dealer else set(SUITS) | {"pass"}


def calls_two(calls: list[str], turned: str) -> set[str]:
    t = SUITS[SUIT_CHAR.index(turned[1])]
    if len(calls) < 2:
        return {t, "pass"}
    others = set(SUITS) - {t}
    return others if len(calls) == 3 else others | {"pass"}


def exchange_holder(hands: list[list[str]], turned: str, trump: str, opts: dict[str, Any]) -> int | None:
    """§5.4: who may exchange the 7 of the turned suit among his first 6 cards, if anybody."""
    rule = opts.get("seven_exchange", "trump")
    turned_suit = SUITS[SUIT_CHAR.index(turned[1])]
    if rule == "off" or (rule == "trump" and trump != turned_suit):
        return None
    seven = "7" + turned[1]
    for seat, hand in enumerate(hands):
        if seven in hand[:6]:
            return seat
    return None


# --- scoring (§4.7, §5.7) ---


def score_three(
    opts: dict[str, Any], caller: int, dealer: int, card_pts: list[int], tricks: list[int], decl: list[int],
    contest_caller: bool | None, belas: list[int],
) -> tuple[list[int], list[int], str]:  # fmt: skip
    """§4.7 line by line; ``card_pts`` include the last trick and the caller's discard; ``contest_caller``: did the
    caller's declaration win the contest (None: nobody declared)."""
    card = list(card_pts)
    for p in range(3):
        if tricks[p] == 10:
            card[p] += opts.get("stiglja_value", 90)
    decl_ = [0, 0, 0]
    bela = [0, 0, 0]
    for p in range(3):
        side_won = contest_caller is not None and contest_caller == (p == caller)
        if side_won and tricks[p] >= 1:
            decl_[p] = decl[p]
        if tricks[p] >= 1:
            bela[p] = belas[p]
    total = [card[p] + decl_[p] + bela[p] for p in range(3)]
    x = caller
    y, z = [(dealer + k) % 3 for k in (1, 2, 3) if (dealer + k) % 3 != x]  # call order
    keep = bela[x] if opts.get("bela_always_counts", False) else 0
    if total[x] > total[y] + total[z]:
        return total, list(total), "passed"
    w = [0, 0, 0]
    w[x], w[y], w[z] = keep, total[y], total[z]
    fall = opts.get("fall_points", "vanish")
    if fall == "higher_opponent":
        w[y if total[y] >= total[z] else z] += total[x] - keep
    elif fall == "both_opponents":
        w[y] += total[x] - keep
        w[z] += total[x] - keep
    return total, w, "fell"


def score_two(
    opts: dict[str, Any], caller: int, card_pts: list[int], tricks: list[int], decl: list[int],
    winner: int | None, belas: list[int], all_tricks: int = 10,
) -> tuple[list[int], list[int], str]:  # fmt: skip
    """§5.7 (decl and bela per player as §3.7, transfer when one took every trick); a tie falls. The open game
    (§6.6) scores the same way with 16 tricks."""
    stiglja = opts.get("stiglja_value", 90)
    card = [card_pts[p] + (stiglja if tricks[p] == all_tricks else 0) for p in (0, 1)]
    d = [decl[p] if winner == p and tricks[p] >= 1 else 0 for p in (0, 1)]
    b = [belas[p] if tricks[p] >= 1 else 0 for p in (0, 1)]
    total = [card[p] + d[p] + b[p] for p in (0, 1)]
    for p in (0, 1):
        if tricks[p] == all_tricks and opts.get("swept_declarations", "void") == "transfer":
            other = 1 - p
            total[p] += (decl[other] if winner == other else 0) + belas[other]
    c, o = caller, 1 - caller
    keep = b[c] if opts.get("bela_always_counts", False) else 0
    if total[c] > total[o]:
        return total, list(total), "passed"
    w = [0, 0]
    w[c], w[o] = keep, total[c] + total[o] - keep
    return total, w, "fell"


def best_declarer(declared: dict[int, list[Any]], dealer: int, n: int, key: Any) -> int | None:
    """§2.3: the seat holding the single best declaration at the table (``key(d, pos)``), None if none."""
    best = None
    for seat, decls in declared.items():
        pos = (seat - dealer - 1) % n
        for d in decls:
            k = key(d, pos)
            if best is None or k > best[0]:
                best = (k, seat)
    return None if best is None else best[1]


# --- open-card Bela (§6) ---


def deal_open(deck: list[str], dealer: int) -> list[list[str]]:
    """§6.2: piles 0–3 then 4–7: 4 face-down to the non-dealer, 4 to the dealer, 4 face-up on the non-dealer's, 4 on
    the dealer's. Returned as formats §7.3 lists them: 8 face-down, then the 8 covers."""
    nd = (dealer + 1) % 2
    down: dict[int, list[str]] = {0: [], 1: []}
    up: dict[int, list[str]] = {0: [], 1: []}
    pos = 0
    for _ in range(2):
        for target in (down[nd], down[dealer], up[nd], up[dealer]):
            target += deck[pos : pos + 4]
            pos += 4
    return [down[0] + up[0], down[1] + up[1]]


def calls_open(calls: list[str], hands: list[list[str]], dealer: int, opts: dict[str, Any]) -> set[str]:
    """§6.3: Croatian (non-dealer may pass, the dealer must name) or French (two rounds on the dealer's pile-7 card)."""
    if opts.get("open_trump", "croatian") == "croatian":
        return set(SUITS) | {"pass"} if not calls else set(SUITS)
    t = SUITS[SUIT_CHAR.index(hands[dealer][15][1])]
    return {t, "pass"} if len(calls) < 2 else (set(SUITS) - {t}) | {"pass"}


class Layout:
    """One player's 8 piles as §6.4 describes them: a face-down card under a face-up one."""

    def __init__(self, cards: list[str]) -> None:
        self.piles = [[cards[k], cards[8 + k]] for k in range(8)]
        self.turned = [False] * 8

    def playable(self) -> set[str]:
        out = set()
        for k, pile in enumerate(self.piles):
            if len(pile) == 2 or (len(pile) == 1 and self.turned[k]):
                out.add(pile[-1])
        return out

    def play(self, card: str) -> int:
        for k, pile in enumerate(self.piles):
            if pile and pile[-1] == card:
                pile.pop()
                return k
        raise AssertionError(f"{card} is not on top of a pile")

    def turn_up(self, k: int) -> None:
        if len(self.piles[k]) == 1:
            self.turned[k] = True

    def public(self) -> list[list[str | None]]:
        return [
            [c if (i == len(p) - 1 and (len(p) == 2 or self.turned[k])) else None for i, c in enumerate(p)]
            for k, p in enumerate(self.piles)
        ]
