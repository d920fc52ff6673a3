"""A deliberately naive, literal reading of the rules spec (bulgarian-belote.md §3–§10, formats.md §2).

Used only as a test oracle: it shares no code with the engine. Cards are two-character strings (``"JH"``), calls and
contracts are their formats.md names, seats are 0..3 in playing order and team = seat % 2. Speed does not matter;
every function follows the spec's pseudocode line by line, so that a disagreement with the engine points at one
sentence of the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

RANKS = "789TJQKA"  # sequence order (§1), used for declarations only
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
TRUMP_ORDER = "J9ATKQ87"  # high to low (§1)
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

CONTRACTS = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps"]
NT = "no-trumps"
AT = "all-trumps"
PASS = "pass"
CONTRA = "contra"
RECONTRA = "recontra"
TRUMP_OF = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


def team(seat: int) -> int:
    return seat % 2


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


# --- §3.4 the auction ---


@dataclass
class Auction:
    """The auction state after some calls, replayed literally from the pseudocode of §3.4."""

    dealer: int
    contra_blocks_bidding: bool = False
    recontra_ends_auction: bool = False
    contract: str | None = None
    bidder: int | None = None
    mult: int = 1
    passes_in_row: int = 0
    player: int = 0
    state: str = "open"  # "open", "ended" (a contract stands), "redeal" (four passes)
    calls: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.player = (self.dealer + 1) % 4  # rightOf(dealer): the next seat in playing order

    def legal(self) -> set[str]:
        if self.state != "open":
            return set()
        legal = {PASS}
        level = -1 if self.contract is None else CONTRACTS.index(self.contract)
        legal |= {c for c in CONTRACTS if CONTRACTS.index(c) > level}
        if self.contract is not None and self.bidder is not None:
            if team(self.player) != team(self.bidder) and self.mult == 1:
                legal.add(CONTRA)
            if self.mult == 2 and team(self.player) == team(self.bidder):
                legal.add(RECONTRA)
        if self.contra_blocks_bidding and self.mult >= 2:
            legal -= set(CONTRACTS)
        return legal

    def call(self, call: str) -> None:
        if call not in self.legal():
            raise ValueError(f"oracle: {call} is not legal now")
        self.calls.append(call)
        if call in CONTRACTS:
            self.contract, self.bidder, self.mult, self.passes_in_row = call, self.player, 1, 0
        elif call == CONTRA:
            self.mult, self.passes_in_row = 2, 0
        elif call == RECONTRA:
            self.mult, self.passes_in_row = 4, 0
            if self.recontra_ends_auction:
                self.state = "ended"
                return
        else:
            self.passes_in_row += 1
        if self.contract is None and self.passes_in_row == 4:
            self.state = "redeal"
            return
        if self.contract is not None and self.passes_in_row == 3:
            self.state = "ended"
            return
        self.player = (self.player + 1) % 4


# --- §4.2 trick winner, §4.3 legal cards ---


def is_trump(card: str, contract: str) -> bool:
    return contract == AT or (contract in TRUMP_OF and suit(card) == TRUMP_OF[contract])


def beats_by_trump_order(a: str, b: str) -> bool:
    return TRUMP_ORDER.index(rank(a)) < TRUMP_ORDER.index(rank(b))


def beats_by_plain_order(a: str, b: str) -> bool:
    return PLAIN_ORDER.index(rank(a)) < PLAIN_ORDER.index(rank(b))


def current_winner(trick: list[tuple[int, str]], contract: str) -> tuple[int, str]:
    """§4.2: the (seat, card) now winning a trick given as (seat, card) pairs in play order."""
    led = suit(trick[0][1])
    if contract in TRUMP_OF:
        trumps = [(s, c) for s, c in trick if suit(c) == TRUMP_OF[contract]]
        if trumps:
            best = trumps[0]
            for s, c in trumps[1:]:
                if beats_by_trump_order(c, best[1]):
                    best = (s, c)
            return best
    of_led = [(s, c) for s, c in trick if suit(c) == led]
    best = of_led[0]
    for s, c in of_led[1:]:
        stronger = beats_by_trump_order(c, best[1]) if contract == AT else beats_by_plain_order(c, best[1])
        if stronger:
            best = (s, c)
    return best


def legal_cards(
    hand: list[str], trick: list[tuple[int, str]], contract: str, me: int, must_undertrump: bool = False
) -> list[str]:
    """§4.3 legalCards, with the formats.md §2 variant ``must_undertrump``."""
    if not trick:
        return list(hand)
    led = suit(trick[0][1])
    winner = current_winner(trick, contract)
    partner_wins = team(winner[0]) == team(me) and winner[0] != me
    of_led = [c for c in hand if suit(c) == led]
    if of_led:
        if contract == AT or (contract in TRUMP_OF and led == TRUMP_OF[contract]):
            table_of_led = [c for _, c in trick if suit(c) == led]
            top = table_of_led[0]
            for c in table_of_led[1:]:
                if beats_by_trump_order(c, top):
                    top = c
            higher = [c for c in of_led if beats_by_trump_order(c, top)]
            return higher if higher else of_led
        return of_led
    if contract in (NT, AT):
        return list(hand)
    t = TRUMP_OF[contract]
    trumps = [c for c in hand if suit(c) == t]
    if not trumps:
        return list(hand)
    if partner_wins:
        return list(hand)
    if suit(winner[1]) == t:
        higher = [c for c in trumps if beats_by_trump_order(c, winner[1])]
        if higher:
            return higher
        # No under-trump duty by default; the "pisser" variant must still play a trump.
        return trumps if must_undertrump else list(hand)
    return trumps


def card_points(card: str, contract: str) -> int:
    return TRUMP_POINTS[rank(card)] if is_trump(card, contract) else PLAIN_POINTS[rank(card)]


# --- §5.3 belote ---


def belote_allowed(card: str, hand: list[str], trick: list[tuple[int, str]], contract: str) -> bool:
    """May a belote be announced with ``card`` played from ``hand`` (before the play) onto ``trick``?"""
    if contract == NT or rank(card) not in "KQ":
        return False
    if contract in TRUMP_OF and suit(card) != TRUMP_OF[contract]:
        return False  # in a suit contract the belote is the trump K+Q only (§5.2)
    other = ("Q" if rank(card) == "K" else "K") + suit(card)
    if other not in hand:
        return False
    if not trick:
        return True  # leading
    if suit(trick[0][1]) == suit(card):
        return True  # following the led suit
    return contract in TRUMP_OF  # trumping, over-trumping or under-trumping in a suit contract


# --- §5.1, §5.4 finding declarations ---


@dataclass(frozen=True)
class Combo:
    kind: str  # tierce, quarte, quint, carre
    value: int
    cards: frozenset[str]
    top: str  # top rank of a sequence, rank of a carré
    suit: str | None  # None for a carré
    length: int  # the whole run a sequence belongs to; 4 for a carré


CARRE_VALUES = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}


def _runs_in(cards: set[str], eight_card_run: int) -> list[Combo]:
    found = []
    for s in SUITS:
        i = 0
        while i < 8:
            if RANKS[i] + s not in cards:
                i += 1
                continue
            j = i
            while j < 8 and RANKS[j] + s in cards:
                j += 1
            length = j - i
            run = [RANKS[k] + s for k in range(i, j)]
            if length == 8 and eight_card_run == 120:
                # formats §2: the 8-card run as 100 + 20 (a quint of the top five and a tierce of the bottom three).
                found.append(Combo("quint", 100, frozenset(run[3:]), "A", s, 8))
                found.append(Combo("tierce", 20, frozenset(run[:3]), "9", s, 3))
            elif length >= 3:
                kind = {3: "tierce", 4: "quarte"}.get(length, "quint")
                value = {3: 20, 4: 50}.get(length, 100)
                found.append(Combo(kind, value, frozenset(run), RANKS[j - 1], s, length))
            i = j
    return found


def declaration_sets(
    hand: list[str], contract: str, eight_card_run: int = 100, nt_aces_carre: bool = False
) -> list[frozenset[Combo]]:
    """Every non-empty set the hand may declare: any choice of its carrés, then the runs of the cards left (§5.4)."""
    cards = set(hand)
    carres = []
    for r, value in CARRE_VALUES.items():
        if contract == NT and not (nt_aces_carre and r == "A"):
            continue
        four = frozenset(r + s for s in SUITS)
        if four <= cards:
            carres.append(Combo("carre", value, four, r, None, 4))
    out: list[frozenset[Combo]] = []
    for n in range(len(carres) + 1):
        for chosen in combinations(carres, n):
            used: set[str] = set()
            for c in chosen:
                used |= c.cards
            seqs = [] if contract == NT else _runs_in(cards - used, eight_card_run)
            option = frozenset([*chosen, *seqs])
            if option and option not in out:
                out.append(option)
    return out


def announceable(
    hand: list[str], kinds: list[str], contract: str, eight_card_run: int = 100, nt_aces_carre: bool = False
) -> list[frozenset[Combo]]:
    """Every set of exactly these kinds (one entry per combination) that one declarable set contains."""
    wanted = sorted(kinds)
    out: list[frozenset[Combo]] = []
    for option in declaration_sets(hand, contract, eight_card_run, nt_aces_carre):
        for n in range(len(option) + 1):
            for sub in combinations(sorted(option, key=repr), n):
                if sorted(c.kind for c in sub) == wanted and frozenset(sub) not in out:
                    out.append(frozenset(sub))
    return out


# --- §5.5, §5.6 comparing the teams' declarations ---


@dataclass(frozen=True)
class CompareOptions:
    declaration_comparison: str = "separate"
    hundred_carre_order: str = "points"
    long_sequence: str = "top_card"


def sequence_key(c: Combo, opt: CompareOptions) -> tuple[int, int, int]:
    klass = {"tierce": 3, "quarte": 4, "quint": 5}[c.kind]
    length = c.length if opt.long_sequence == "length" else 0
    return (klass, length, RANKS.index(c.top))


def carre_key(c: Combo, opt: CompareOptions) -> tuple[int, int]:
    if opt.hundred_carre_order == "points":
        tiebreak = TRUMP_POINTS[c.top]  # A 11 > 10 10 > K 4 > Q 3
    else:
        tiebreak = "QKA".find(c.top) + 1 if c.top != "T" else 0  # A > K > Q > 10
    return (c.value, tiebreak)


def _separate(a: list[Combo], b: list[Combo], opt: CompareOptions) -> tuple[list[Combo], list[Combo]]:
    counted: tuple[list[Combo], list[Combo]] = ([], [])
    for category in ("sequence", "carre"):
        in_cat_a = [c for c in a if (c.kind == "carre") == (category == "carre")]
        in_cat_b = [c for c in b if (c.kind == "carre") == (category == "carre")]

        def key(c: Combo) -> tuple[int, ...]:
            return carre_key(c, opt) if category == "carre" else sequence_key(c, opt)  # noqa: B023

        if in_cat_a and not in_cat_b:
            counted[0].extend(in_cat_a)
        elif in_cat_b and not in_cat_a:
            counted[1].extend(in_cat_b)
        elif in_cat_a and in_cat_b:
            best_a = max(key(c) for c in in_cat_a)
            best_b = max(key(c) for c in in_cat_b)
            if best_a > best_b:
                counted[0].extend(in_cat_a)
            elif best_b > best_a:
                counted[1].extend(in_cat_b)
    return counted


def counted_declarations(a: list[Combo], b: list[Combo], opt: CompareOptions) -> tuple[list[Combo], list[Combo]]:
    """The sequences and carrés each team scores (belotes are never compared)."""
    mode = opt.declaration_comparison
    if mode == "separate":
        return _separate(a, b, opt)
    if mode == "carre_kills_quint":
        a_has_carre = any(c.kind == "carre" for c in a)
        b_has_carre = any(c.kind == "carre" for c in b)
        a2 = [c for c in a if not (b_has_carre and c.kind == "quint")]
        b2 = [c for c in b if not (a_has_carre and c.kind == "quint")]
        return _separate(a2, b2, opt)
    if mode == "single_contest":
        # One contest of the single most valuable combination; at equal value a carré beats a sequence.
        def key(c: Combo) -> tuple[int, ...]:
            inner = carre_key(c, opt) if c.kind == "carre" else sequence_key(c, opt)
            return (c.value, 1 if c.kind == "carre" else 0, *inner)
    else:  # carre_beats_sequence: any carré outranks any sequence

        def key(c: Combo) -> tuple[int, ...]:
            inner = carre_key(c, opt) if c.kind == "carre" else sequence_key(c, opt)
            return (1 if c.kind == "carre" else 0, *inner)

    if not a and not b:
        return [], []
    if not b:
        return list(a), []
    if not a:
        return [], list(b)
    best_a, best_b = max(map(key, a)), max(map(key, b))
    if best_a > best_b:
        return list(a), []
    if best_b > best_a:
        return [], list(b)
    return [], []


# --- §6–§8, §10 scoring ---


@dataclass(frozen=True)
class ScoreOptions:
    nt_valat_doubled: bool = False
    valat_multiplied: bool = True
    contra_tie: str = "all_hang"
    inside_keeps_belote: bool = False


@dataclass(frozen=True)
class Score:
    raw: tuple[int, int]
    score: tuple[int, int]
    hanging: int
    outcome: str


def round_team(contract: str, x: int, is_higher: bool) -> int:
    """§7.1–§7.4, spelt out per contract."""
    q, r = divmod(x, 10)
    if contract == NT:
        return q + 1 if r >= 5 else q
    boundary = 4 if contract == AT else 6
    if r > boundary:
        return q + 1
    if r < boundary:
        return q
    return q if is_higher else q + 1


def round_total(x: int) -> int:
    return int(x / 10 + 0.5)


def score_deal(
    contract: str,
    mult: int,
    declarers: int,
    points: tuple[int, int],
    declarations: tuple[int, int],
    belotes: tuple[int, int],
    valat: int | None,
    hanging_in: int,
    opt: ScoreOptions,
) -> Score:
    """§10 scoreDeal. ``points`` include the last ten; ``declarations`` are counted sequences and carrés (in no
    trumps only the nt_aces_carre carré, doubled with the cards); ``belotes`` are points (20 each)."""
    d, o = declarers, 1 - declarers
    raw = [0, 0]
    for t in (0, 1):
        if contract == NT:
            raw[t] = 2 * (points[t] + declarations[t])
        else:
            raw[t] = points[t] + declarations[t] + belotes[t]
    if valat is not None:
        raw[valat] += 180 if (contract == NT and opt.nt_valat_doubled) else 90
    total = raw[0] + raw[1]
    outcome = "made" if raw[d] > raw[o] else "inside" if raw[d] < raw[o] else "hanging"
    score = [0, 0]
    if mult > 1:
        m = 1 if (valat is not None and not opt.valat_multiplied) else mult
        if raw[0] == raw[1]:
            if opt.contra_tie == "split":
                score[o] = round_team(contract, raw[o], True) * m
                pot = hanging_in + round_team(contract, raw[d], False) * m
                return Score((raw[0], raw[1]), (score[0], score[1]), pot, outcome)
            return Score((raw[0], raw[1]), (0, 0), hanging_in + round_total(total) * m, outcome)
        w = 0 if raw[0] > raw[1] else 1
        score[w] = round_total(total) * m + hanging_in
        return Score((raw[0], raw[1]), (score[0], score[1]), 0, outcome)
    if raw[d] < raw[o]:
        if opt.inside_keeps_belote:
            score[d] = 2 * (belotes[d] // 20)
            score[o] = round_total(total - belotes[d]) + hanging_in
        else:
            score[o] = round_total(total) + hanging_in
        return Score((raw[0], raw[1]), (score[0], score[1]), 0, outcome)
    if raw[d] == raw[o]:
        score[o] = round_team(contract, raw[o], True)
        return Score((raw[0], raw[1]), (score[0], score[1]), hanging_in + round_team(contract, raw[d], False), outcome)
    score[d] = round_team(contract, raw[d], True) + hanging_in
    score[o] = round_team(contract, raw[o], False)
    return Score((raw[0], raw[1]), (score[0], score[1]), 0, outcome)


# --- §9 end of the match ---


@dataclass(frozen=True)
class EndOptions:
    target_score: int = 151
    capot_blocks_finish: bool = True
    winner_must_score_last_deal: bool = False
    no_finish_while_hanging: bool = False


def match_winner(
    totals: tuple[int, int], deal_score: tuple[int, int], deal_was_valat: bool, hanging: int, opt: EndOptions
) -> int | None:
    """The §10 match loop after a played deal: the winning team, or None while the match goes on."""
    if deal_was_valat and opt.capot_blocks_finish:
        return None  # "С капо не се излиза"
    if totals[0] == totals[1]:
        return None
    leader = 0 if totals[0] > totals[1] else 1
    if totals[leader] < opt.target_score:
        return None
    if opt.winner_must_score_last_deal and deal_score[leader] <= 0:
        return None
    if opt.no_finish_while_hanging and hanging != 0:
        return None
    return leader
