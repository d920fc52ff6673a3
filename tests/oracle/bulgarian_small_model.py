"""A naive, literal reading of family.md §8 and §9 (Bulgarian bridge-belote for three and for two, 24 cards, house
rules), used only as a test oracle.

It shares no code with the engine. What §8.1 carries over from bulgarian-belote.md (the trick winner, card points,
the belote rule, finding declarations, the comparison keys) is the four-player oracle's (model.py); everything that
changes with three or two players each on his own is spelt out here from §8.3–§8.8 and §9.1–§9.5. Cards are
two-character strings, seats 0..n-1 in playing order, each player his own side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.oracle.model import (
    AT,
    CONTRA,
    CONTRACTS,
    NT,
    PASS,
    RECONTRA,
    TRUMP_OF,
    Combo,
    CompareOptions,
    beats_by_trump_order,
    carre_key,
    current_winner,
    declaration_sets,
    sequence_key,
    suit,
)

SMALL_RANKS = "9TJQKA"

# --- §8.3, §9.1 the deal: the pack's top card first ---


def deal(pack: list[str], dealer: int, n: int) -> list[list[str]]:
    """Only the 24 cards 9..A of the pack, in its order; 3 each from the dealer's right, 2 each, then (after the
    auction) 3 each. Hands in the order received."""
    cards = [c for c in pack if c[0] in SMALL_RANKS]
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for count in (3, 2, 3):
        for k in range(1, n + 1):
            hands[(dealer + k) % n] += cards[pos : pos + count]
            pos += count
    return hands


# --- §8.4, §9.2 the auction ---


@dataclass
class Auction:
    n: int
    dealer: int
    opts: dict[str, Any]

    def __post_init__(self) -> None:
        self.calls: list[str] = []
        self.contract: str | None = None
        self.bidder: int | None = None
        self.mult = 1
        self.passes = 0
        self.player = (self.dealer + 1) % self.n
        self.state = "open"  # "ended", "redeal"

    def legal(self) -> set[str]:
        if self.state != "open":
            return set()
        out = {PASS}
        level = -1 if self.contract is None else CONTRACTS.index(self.contract)
        if not (self.opts.get("contra_blocks_bidding", False) and self.mult >= 2):
            out |= set(CONTRACTS[level + 1 :])
        if self.contract is not None:
            # Contra: any player but the bidder, while undoubled; recontra: the bidder, after a contra.
            if self.mult == 1 and self.player != self.bidder:
                out.add(CONTRA)
            if self.mult == 2 and self.player == self.bidder:
                out.add(RECONTRA)
        return out

    def call(self, call: str) -> None:
        assert call in self.legal(), call
        self.calls.append(call)
        if call == PASS:
            self.passes += 1
        else:
            self.passes = 0
            if call == CONTRA:
                self.mult = 2
            elif call == RECONTRA:
                self.mult = 4
            else:
                self.contract, self.bidder, self.mult = call, self.player, 1
        self.player = (self.player + 1) % self.n
        if call == RECONTRA and self.opts.get("recontra_ends_auction", False):
            self.state = "ended"
        elif self.contract is None and self.passes == self.n:
            self.state = "redeal"  # everyone passed: the next dealer deals
        elif self.contract is not None and self.passes == self.n - 1:
            self.state = "ended"  # the next n-1 players passed


# --- §8.5, §9.3 the play: bulgarian-belote §4.3 with no partner ---


def legal_cards(hand: list[str], trick: list[tuple[int, str]], contract: str, must_undertrump: bool) -> list[str]:
    if not trick:
        return list(hand)
    led = suit(trick[0][1])
    of_led = [c for c in hand if suit(c) == led]
    if of_led:
        if contract == AT or TRUMP_OF.get(contract) == led:
            top = max((c for _, c in trick if suit(c) == led), key=lambda c: -"J9ATKQ".index(c[0]))
            higher = [c for c in of_led if beats_by_trump_order(c, top)]
            return higher or of_led
        return of_led
    if contract in (NT, AT):
        return list(hand)
    trump = TRUMP_OF[contract]
    trumps = [c for c in hand if suit(c) == trump]
    if not trumps:
        return list(hand)
    winning = current_winner(trick, contract)[1]  # never a partner's: every player is alone
    if suit(winning) == trump:
        higher = [c for c in trumps if beats_by_trump_order(c, winning)]
        if higher:
            return higher
        return trumps if must_undertrump else list(hand)
    return trumps


# --- §8.6 declarations, each player his own side ---


def best_set(hand: list[str], contract: str, opts: dict[str, Any]) -> list[Combo]:
    """The most valuable set the hand may declare; at equal value the one with more carrés."""
    sets = declaration_sets(hand, contract, 100, opts.get("nt_aces_carre", False))
    if not sets:
        return []
    return list(max(sets, key=lambda s: (sum(c.value for c in s), sum(c.kind == "carre" for c in s))))


def _key(c: Combo, opt: CompareOptions) -> tuple[int, ...]:
    return carre_key(c, opt) if c.kind == "carre" else sequence_key(c, opt)


def _only_best(keys: dict[int, tuple[int, ...]]) -> int | None:
    """The one player whose key is highest; None when nobody has one, or two share it (the category is cancelled)."""
    if not keys:
        return None
    top = max(keys.values())
    holders = [p for p, k in keys.items() if k == top]
    return holders[0] if len(holders) == 1 else None


def counted(declared: list[list[Combo]], opts: dict[str, Any]) -> list[list[Combo]]:
    opt = CompareOptions(
        opts.get("declaration_comparison", "separate"),
        opts.get("hundred_carre_order", "points"),
        opts.get("long_sequence", "top_card"),
    )
    n = len(declared)
    out: list[list[Combo]] = [[] for _ in range(n)]
    mode = opt.declaration_comparison
    if mode in ("separate", "carre_kills_quint"):
        decl = [list(d) for d in declared]
        if mode == "carre_kills_quint":
            has_carre = [any(c.kind == "carre" for c in d) for d in declared]
            decl = [
                [c for c in d if not (c.kind == "quint" and any(has_carre[q] for q in range(n) if q != p))]
                for p, d in enumerate(declared)
            ]
        for carres in (False, True):
            cat = {p: [c for c in d if (c.kind == "carre") == carres] for p, d in enumerate(decl)}
            keys = {p: max(_key(c, opt) for c in cs) for p, cs in cat.items() if cs}
            w = _only_best(keys)
            if w is not None:
                out[w] = out[w] + cat[w]
        return out
    if mode == "single_contest":

        def key(c: Combo) -> tuple[int, ...]:
            return (c.value, int(c.kind == "carre"), *_key(c, opt))

    else:

        def key(c: Combo) -> tuple[int, ...]:
            return (int(c.kind == "carre"), *_key(c, opt))

    w = _only_best({p: max(map(key, d)) for p, d in enumerate(declared) if d})
    if w is not None:
        out[w] = list(declared[w])
    return out


# --- §8.7, §9.4 scoring ---


def raw_totals(
    contract: str,
    cards: list[int],
    declared: list[list[Combo]],
    belotes: list[int],
    took: list[int],
    opts: dict[str, Any],
) -> tuple[list[int], int | None, list[int]]:
    """Each player's raw total (bulgarian-belote §6.1 per player), the valat player, and the belotes that count.
    ``cards`` include the last ten; ``belotes`` are how many each announced."""
    n = len(cards)
    valat = next((p for p in range(n) if took[p] == 8), None)
    decl = [list(d) for d in declared]
    bel = list(belotes)
    if valat is not None and not opts.get("valat_team_keeps_declarations", True):
        for p in range(n):
            if p != valat:
                decl[p], bel[p] = [], 0
    count = counted(decl, opts)
    raw = []
    for p in range(n):
        d = sum(c.value for c in count[p])
        r = 2 * (cards[p] + d) if contract == NT else cards[p] + d + 20 * bel[p]  # no belote exists in NT
        if p == valat:
            r += 180 if contract == NT and opts.get("nt_valat_doubled", False) else 90
        raw.append(r)
    return raw, valat, bel


def round_ind(contract: str, x: int) -> int:
    q, r = divmod(x, 10)
    if contract in (NT, AT):
        return q + 1 if r >= 5 else q
    return q + 1 if r >= 6 else q


def score_three(
    contract: str, mult: int, d: int, raw: list[int], pot_in: int, d_belotes: int, valat: int | None,
    opts: dict[str, Any],
) -> tuple[list[int], int, str]:
    """§8.7, line by line: what each player writes, the pot after the deal, the verdict."""
    o1, o2 = (d + 1) % 3, (d + 2) % 3
    against = max(raw[o1], raw[o2]) if opts.get("made_rule", "each") == "each" else raw[o1] + raw[o2]
    verdict = "made" if raw[d] > against else "hanging" if raw[d] == against else "inside"
    higher = max(raw[o1], raw[o2])
    receivers = [o for o in (o1, o2) if raw[o] == higher]

    def share(amount: int, o: int) -> int:
        if len(receivers) == 1:
            return amount
        return amount // 2 + (amount % 2 if o == o1 else 0)

    w = [0, 0, 0]
    if mult == 1:
        if verdict == "made":
            w = [round_ind(contract, r) for r in raw]
            w[d] += pot_in
            return w, 0, verdict
        if verdict == "hanging":
            w[o1], w[o2] = round_ind(contract, raw[o1]), round_ind(contract, raw[o2])
            return w, pot_in + round_ind(contract, raw[d]), verdict
        keep = d_belotes if opts.get("inside_keeps_belote", False) else 0
        w[d] = 2 * keep
        for o in (o1, o2):
            if o in receivers:
                w[o] = round_ind(contract, raw[o] + (raw[d] - 20 * keep) // len(receivers)) + share(pot_in, o)
            else:
                w[o] = round_ind(contract, raw[o])
        return w, 0, verdict
    m = 1 if valat is not None and not opts.get("valat_multiplied", True) else mult
    won = round_ind(contract, sum(raw)) * m
    if verdict == "made":
        w[d] = won + pot_in
        return w, 0, verdict
    if verdict == "hanging":
        if opts.get("contra_tie", "all_hang") == "split":
            w[o1], w[o2] = round_ind(contract, raw[o1]) * m, round_ind(contract, raw[o2]) * m
            return w, pot_in + round_ind(contract, raw[d]) * m, verdict
        return w, pot_in + won, verdict
    for o in receivers:
        w[o] = share(won, o) + share(pot_in, o)
    return w, 0, verdict


def score_two(
    contract: str, mult: int, d: int, raw: list[int], pot_in: int, valat: int | None, opts: dict[str, Any]
) -> tuple[list[int], int, str]:
    """§9.4, line by line."""
    o = 1 - d
    total = raw[d] + raw[o]
    w = [0, 0]
    if mult == 1:
        if raw[d] > raw[o]:
            w[d], w[o] = round_ind(contract, raw[d]) + pot_in, round_ind(contract, raw[o])
            return w, 0, "made"
        if raw[d] < raw[o]:
            w[o] = round_ind(contract, total) + pot_in
            return w, 0, "inside"
        w[o] = round_ind(contract, raw[o])
        return w, pot_in + round_ind(contract, raw[d]), "hanging"
    m = 1 if valat is not None and not opts.get("valat_multiplied", True) else mult
    if raw[d] != raw[o]:
        more = d if raw[d] > raw[o] else o
        w[more] = round_ind(contract, total) * m + pot_in
        return w, 0, "made" if more == d else "inside"
    if opts.get("contra_tie", "all_hang") == "split":
        w[o] = round_ind(contract, raw[o]) * m
        return w, pot_in + round_ind(contract, raw[d]) * m, "hanging"
    return w, pot_in + round_ind(contract, total) * m, "hanging"


# --- §8.8 the end of the match ---


def match_winner(totals: list[int], written: list[int], valat: bool, pot: int, opts: dict[str, Any]) -> int | None:
    if valat and opts.get("capot_blocks_finish", True):
        return None
    best = max(totals)
    if best < opts.get("target_score", 151) or totals.count(best) > 1:
        return None
    leader = totals.index(best)
    if opts.get("winner_must_score_last_deal", False) and written[leader] <= 0:
        return None
    if opts.get("no_finish_while_hanging", False) and pot != 0:
        return None
    return leader
