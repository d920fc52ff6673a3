"""Auction decisions from the five cards held during the auction and the calls heard (rules §3).

Every legal call is valued by what it is expected to gain over passing, in game points per deal for the seat's
team, under the real scoring (made, inside, hanging, contra ×2, recontra ×4): a linear model per kind of call (a
suit, no trumps or all trumps, each opening, over the partner's contract or over the opponents'; contra of each kind
of contract; recontra) over features of the hand for that contract and of the auction. The weights were fitted on
deals played out with every call tried (``bench/fit_bidding.py``). The call with the largest expected gain is made
when that gain is positive; otherwise the seat passes.

``contract_strength`` (a hand-made count of the tricks' worth a hand brings to a contract) is one of the features.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, Observation
from bot.engine.cards import ACE, JACK, KING, NINE, QUEEN, SUIT_MASK, TEN, CardMask, mask_of

# What each rank brings in a trump suit and in a plain suit (a rough count of tricks, times three).
_TRUMP_VALUE = {JACK: 3.0, NINE: 2.2, ACE: 1.3, TEN: 1.0, KING: 0.6, QUEEN: 0.6, 0: 0.5, 1: 0.5}
_PLAIN_ACE = 1.1
_PLAIN_TEN_GUARDED = 0.6  # a ten with its ace or with a second card


def _has(hand: CardMask, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _count(hand: CardMask, suit: int) -> int:
    return bin(hand & SUIT_MASK[suit]).count("1")


def suit_strength(hand: CardMask, trump: int) -> float:
    score = 0.0
    for suit in range(4):
        n = _count(hand, suit)
        if suit == trump:
            for rank in range(8):
                if _has(hand, suit, rank):
                    score += _TRUMP_VALUE[rank]
            if n >= 3:
                score += 0.8 * (n - 2)
            if not _has(hand, suit, JACK) and not _has(hand, suit, NINE):
                score -= 1.0
        else:
            if _has(hand, suit, ACE):
                score += _PLAIN_ACE
                if _has(hand, suit, TEN):
                    score += _PLAIN_TEN_GUARDED
            elif _has(hand, suit, TEN) and n >= 2:
                score += 0.3
            if n == 0:
                score += 0.4  # a void to trump with
    return score


def all_trumps_strength(hand: CardMask) -> float:
    score = 0.0
    for suit in range(4):
        j, nine, a = _has(hand, suit, JACK), _has(hand, suit, NINE), _has(hand, suit, ACE)
        if j:
            score += 2.6
            if nine:
                score += 1.6
            if a:
                score += 0.6
        elif nine:
            score += 0.9 if _count(hand, suit) >= 2 else 0.4
        if a and not j:
            score += 0.3
        if _has(hand, suit, KING) and _has(hand, suit, QUEEN):
            score += 0.4  # a belote
    return score


def no_trumps_strength(hand: CardMask) -> float:
    score = 0.0
    for suit in range(4):
        a, t = _has(hand, suit, ACE), _has(hand, suit, TEN)
        if a:
            score += 2.4
            if t:
                score += 1.5
                if _has(hand, suit, KING):
                    score += 0.5
        elif t and _count(hand, suit) >= 2:
            score += 0.6
    return score


@lru_cache(maxsize=4096)
def contract_strength(hand: CardMask, contract: int) -> float:
    if contract == ALL_TRUMPS:
        return all_trumps_strength(hand)
    if contract == NO_TRUMPS:
        return no_trumps_strength(hand)
    return suit_strength(hand, contract)


# --- The fitted model: what a call gains over passing, from the five cards and the calls heard ---
#
# Each kind of call (a suit, no trumps, all trumps, contra of each kind of contract, recontra) has a linear model:
# features of the hand for that contract and of the auction so far, times weights fitted on played-out deals (see
# WEIGHTS). A model's value is the expected written score of the seat's team minus the other team's after that
# call, less the same after passing, in game points per deal.

_J, _9, _A, _T, _K, _Q = (1 << JACK, 1 << NINE, 1 << ACE, 1 << TEN, 1 << KING, 1 << QUEEN)


def _pop(x: int) -> int:
    return bin(x).count("1")


def _suits(hand: CardMask) -> list[int]:
    """The hand's four suits as bytes of ranks (bit ``rank`` set when held)."""
    return [hand >> (8 * s) & 0xFF for s in range(4)]


def _sequence_points(ranks: int) -> int:
    """Points of the sequences in one suit's byte of ranks (sequence order 7..A)."""
    points = run = 0
    for rank in range(9):
        if rank < 8 and ranks >> rank & 1:
            run += 1
            continue
        points += 100 if run >= 5 else 50 if run == 4 else 20 if run == 3 else 0
        run = 0
    return points


_SEQUENCE_POINTS = tuple(_sequence_points(b) for b in range(256))
_CARRES = tuple((sum(1 << (s * 8 + rank) for s in range(4)), value) for rank, value in (
    (JACK, 200), (NINE, 150), (ACE, 100), (TEN, 100), (KING, 100), (QUEEN, 100),
))  # fmt: skip


def _combinations(hand: CardMask) -> float:
    """Points of the sequences and carrés among the cards, in tens (one card may count in both here)."""
    points = sum(_SEQUENCE_POINTS[hand >> (8 * s) & 0xFF] for s in range(4))
    points += sum(value for mask, value in _CARRES if hand & mask == mask)
    return points / 10.0


def _suit_hand(hand: CardMask, trump: int) -> list[float]:
    suits = _suits(hand)
    t = suits[trump]
    n = _pop(t)
    side_aces = side_at = side_tens = bare_tens = voids = singles = 0
    for s in range(4):
        b = suits[s]
        if s == trump:
            continue
        singles += _pop(b) == 1 and b != _A
        if b & _A:
            side_aces += 1
            side_at += bool(b & _T)
        elif b & _T:
            side_tens += b != _T
            bare_tens += b == _T
        voids += not b
    return [
        float(bool(t & _J)),
        float(bool(t & _9)),
        float(bool(t & _A)),
        float(bool(t & _T)),
        float(bool(t & _K)) + float(bool(t & _Q)),
        float(t & (_K | _Q) == _K | _Q),
        float(n),
        float(max(0, n - 2)),
        float(t & (_J | _9) == _J | _9),
        float(side_aces),
        float(side_at),
        float(side_tens),
        float(bare_tens),
        float(voids),
        float(singles),
        float(n >= 3 and bool(t & _J)),
        _combinations(hand),
    ]


_SUIT_HAND = (
    "trump J", "trump 9", "trump A", "trump 10", "trump K, Q", "belote", "trumps", "trumps past two",
    "trump J and 9", "side aces", "side A-10", "side 10 guarded", "side 10 bare", "side voids",
    "side singletons, not aces", "trump J and three trumps", "combinations / 10",
)  # fmt: skip


def _no_trumps_hand(hand: CardMask) -> list[float]:
    aces = at = atk = tens = bare_tens = kings = longest = voids = 0
    for b in _suits(hand):
        if b & _A:
            aces += 1
            if b & _T:
                at += 1
                atk += bool(b & _K)
        elif b & _T:
            tens += b != _T
            bare_tens += b == _T
        if b & _K and not b & _A and b != _K:
            kings += 1
        longest = max(longest, _pop(b))
        voids += not b
    return [
        float(aces), float(at), float(atk), float(tens), float(bare_tens), float(kings), float(longest),
        float(voids), float(aces >= 3), _combinations(hand),
    ]  # fmt: skip


_NO_TRUMPS_HAND = (
    "aces", "A-10", "A-10-K", "10 guarded", "10 bare", "K guarded", "longest suit", "voids", "three aces",
    "combinations / 10",
)  # fmt: skip


def _all_trumps_hand(hand: CardMask) -> list[float]:
    jacks = nines = j9 = ja = nines_guarded = bare_nines = aces = belotes = voids = tens = 0
    for b in _suits(hand):
        if b & _J:
            jacks += 1
            j9 += bool(b & _9)
            ja += bool(b & _A)
        elif b & _9:
            nines_guarded += b != _9
            bare_nines += b == _9
        if b & _9:
            nines += 1
        if b & _A and not b & _J:
            aces += 1
        belotes += b & (_K | _Q) == _K | _Q
        tens += bool(b & _T and b & (_J | _9))
        voids += not b
    return [
        float(jacks), float(nines), float(j9), float(ja), float(nines_guarded), float(bare_nines), float(aces),
        float(belotes), float(voids), float(jacks >= 3), float(tens), _combinations(hand),
    ]  # fmt: skip


_ALL_TRUMPS_HAND = (
    "jacks", "nines", "J-9", "J-A", "9 guarded, no J", "9 bare, no J", "A, no J", "belotes", "voids", "three jacks",
    "10 with J or 9", "combinations / 10",
)  # fmt: skip


@lru_cache(maxsize=4096)  # a seat's hand is valued again at each of its calls, and in every simulated auction
def _hand(hand: CardMask, contract: int) -> tuple[float, ...]:
    if contract == ALL_TRUMPS:
        return tuple(_all_trumps_hand(hand))
    if contract == NO_TRUMPS:
        return tuple(_no_trumps_hand(hand))
    return tuple(_suit_hand(hand, contract))


@dataclass(frozen=True, slots=True)
class AuctionView:
    """What the calls so far say, from the seat's side of the table."""

    mine: frozenset[int]  # contracts the seat bid
    partner: frozenset[int]  # contracts the partner bid
    opponents: frozenset[int]  # contracts the opponents bid
    contract: int  # the contract in force, -1 if none
    bidder: int
    multiplier: int
    position: int  # the seat's place in the order of speaking: 0 first (the dealer's right) .. 3 the dealer
    spoke: bool  # the seat has called before
    partner_passed: bool  # the partner has called, and only passes
    leads_first: bool  # the seat's team leads to the first trick (the dealer's right is on it)


def auction_view(obs: Observation) -> AuctionView:
    first = (obs.dealer + 1) & 3
    partner = (obs.seat + 2) & 3
    mine: set[int] = set()
    partners: set[int] = set()
    opponents: set[int] = set()
    partner_spoke = False
    for i, call in enumerate(obs.calls):
        who = (first + i) & 3
        partner_spoke |= who == partner
        if call < 6:
            (mine if who == obs.seat else partners if who == partner else opponents).add(call)
    contract, bidder, mult = _current(obs)
    return AuctionView(
        frozenset(mine),
        frozenset(partners),
        frozenset(opponents),
        contract,
        bidder,
        mult,
        (obs.seat - first) & 3,
        any((first + i) & 3 == obs.seat for i in range(len(obs.calls))),
        partner_spoke and not partners,
        (obs.seat - first) & 1 == 0,
    )


def _bid_context(v: AuctionView, hand: CardMask, contract: int) -> list[float]:
    suits = _suits(hand)
    partner_suits = [suits[c] for c in v.partner if c < NO_TRUMPS]
    opponent_suits = [suits[c] for c in v.opponents if c < NO_TRUMPS]
    strength = contract_strength(hand, contract)
    return [
        float(contract in v.partner),
        float(any(c < NO_TRUMPS and c != contract for c in v.partner)),
        float(NO_TRUMPS in v.partner and contract != NO_TRUMPS),
        float(contract in v.opponents),
        float(any(c != contract for c in v.opponents)),
        float(v.leads_first),
        float(v.position == 0),
        float(v.position == 3),
        float(v.spoke),
        float(v.partner_passed),
        float(v.multiplier > 1),
        float(bool(v.mine)),
        float(sum(_pop(b) for b in partner_suits)),
        float(sum(bool(b & (_J | _9)) for b in partner_suits)),
        float(sum(_pop(b) for b in opponent_suits)),
        float(sum(bool(b & _J) for b in opponent_suits)),
        float(sum(bool(b & _A) for b in opponent_suits)),
        float(v.contract == NO_TRUMPS),
        strength,
        strength * strength / 10.0,
    ]


_BID_CONTEXT = (
    "partner bid it", "partner bid another suit", "partner bid no trumps", "opponent bid it",
    "opponent bid another", "we lead first", "first to speak", "dealer", "second turn", "partner passed", "doubled",
    "I bid before", "cards in partner's suits", "J or 9 of partner's suits", "cards in opponents' suits",
    "J of opponents' suits", "A of opponents' suits", "no trumps stands", "contract_strength",
    "contract_strength squared / 10",
)  # fmt: skip


def _contra_context(v: AuctionView, seat: int) -> list[float]:
    return [
        float(bool(v.partner)),
        float(bool(v.mine)),
        float(len(v.opponents) >= 2),
        float(v.leads_first),
        float(v.bidder == (seat + 1) & 3),
    ]


_CONTRA_CONTEXT = ("partner bid", "I bid", "opponents bid twice", "we lead first", "bidder plays after me")


def _kind(contract: int) -> str:
    return "all_trumps" if contract == ALL_TRUMPS else "no_trumps" if contract == NO_TRUMPS else "suit"


def model_of(obs: Observation, call: int) -> str:
    """The name of the model (a key of WEIGHTS) that values ``call``."""
    if call == CONTRA:
        return "contra_" + _kind(_current(obs)[0])
    if call == RECONTRA:
        return "recontra"
    contract, bidder, _ = _current(obs)
    if contract < 0:
        return _kind(call) + "/open"
    return _kind(call) + ("/over partner" if (bidder ^ obs.seat) & 1 == 0 else "/over opponents")


def call_features(obs: Observation, call: int, view: AuctionView | None = None) -> list[float]:
    """The features ``model_of(obs, call)`` weighs: a constant 1, then the hand's, then the auction's."""
    v = view or auction_view(obs)
    hand = mask_of(obs.hand)
    if call == CONTRA:
        return [1.0, *_hand(hand, v.contract), *_contra_context(v, obs.seat)]
    if call == RECONTRA:
        c = v.contract
        strength = contract_strength(hand, c)
        return [1.0, float(c == NO_TRUMPS), float(c == ALL_TRUMPS), strength, float(v.bidder == obs.seat)]
    return [1.0, *_hand(hand, call), *_bid_context(v, hand, call)]


_HANDS = {"suit": _SUIT_HAND, "no_trumps": _NO_TRUMPS_HAND, "all_trumps": _ALL_TRUMPS_HAND}
FEATURE_NAMES: dict[str, tuple[str, ...]] = {
    **{
        f"{kind}/{situation}": ("constant", *names, *_BID_CONTEXT)
        for kind, names in _HANDS.items()
        for situation in ("open", "over partner", "over opponents")
    },
    **{"contra_" + kind: ("constant", *names, *_CONTRA_CONTEXT) for kind, names in _HANDS.items()},
    "recontra": ("constant", "no trumps", "all trumps", "contract_strength", "I bid it"),
}


def _current(obs: Observation) -> tuple[int, int, int]:
    """(contract, bidder, multiplier) in force during the auction, from the calls so far."""
    contract, bidder, mult = -1, -1, 1
    first = (obs.dealer + 1) & 3
    for i, call in enumerate(obs.calls):
        if call < 6:
            contract, bidder, mult = call, (first + i) & 3, 1
        elif call == CONTRA:
            mult = 2
        elif call == RECONTRA:
            mult = 4
    return contract, bidder, mult


# Fitted by ``python bench/fit_bidding.py collect --deals 40000 --seed fit --out calls.jsonl --workers 2``, run with
# the medium bot of commit c647d3f (its auction by hand-set thresholds on contract_strength, which this model
# replaced) in every seat, then ``python bench/fit_bidding.py fit calls.jsonl``. Data collected with this model
# itself in every seat fitted worse against that bot (docs/strength.md). Game points per deal; "samples" counts calls.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "all_trumps/open": (  # 73774 samples
        -13.90,  # constant
        +0.98,  # jacks
        +0.82,  # nines
        +0.12,  # J-9
        -1.39,  # J-A
        +0.34,  # 9 guarded, no J
        +0.36,  # 9 bare, no J
        -1.11,  # A, no J
        -0.49,  # belotes
        -0.04,  # voids
        -1.41,  # three jacks
        -0.41,  # 10 with J or 9
        +0.19,  # combinations / 10
        +0.00,  # partner bid it
        +0.00,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        -2.49,  # we lead first
        -0.76,  # first to speak
        +1.18,  # dealer
        +0.00,  # second turn
        -0.55,  # partner passed
        +0.00,  # doubled
        +0.00,  # I bid before
        +0.00,  # cards in partner's suits
        +0.00,  # J or 9 of partner's suits
        +0.00,  # cards in opponents' suits
        +0.00,  # J of opponents' suits
        +0.00,  # A of opponents' suits
        +0.00,  # no trumps stands
        +1.83,  # contract_strength
        +0.53,  # contract_strength squared / 10
    ),
    "all_trumps/over opponents": (  # 59013 samples
        -11.52,  # constant
        +1.29,  # jacks
        +0.89,  # nines
        +0.66,  # J-9
        -2.82,  # J-A
        +0.13,  # 9 guarded, no J
        +0.10,  # 9 bare, no J
        -2.13,  # A, no J
        -0.96,  # belotes
        -0.42,  # voids
        -1.78,  # three jacks
        -1.21,  # 10 with J or 9
        -0.28,  # combinations / 10
        +0.00,  # partner bid it
        +3.58,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        -2.43,  # we lead first
        -0.34,  # first to speak
        +1.33,  # dealer
        +1.63,  # second turn
        -0.93,  # partner passed
        -13.38,  # doubled
        -0.35,  # I bid before
        +0.37,  # cards in partner's suits
        -1.09,  # J or 9 of partner's suits
        -2.94,  # cards in opponents' suits
        -1.44,  # J of opponents' suits
        +0.99,  # A of opponents' suits
        +3.43,  # no trumps stands
        +1.84,  # contract_strength
        +0.49,  # contract_strength squared / 10
    ),
    "all_trumps/over partner": (  # 27679 samples
        -22.44,  # constant
        +1.52,  # jacks
        +1.81,  # nines
        +1.10,  # J-9
        -3.73,  # J-A
        -0.04,  # 9 guarded, no J
        +0.75,  # 9 bare, no J
        -2.46,  # A, no J
        -0.77,  # belotes
        +0.35,  # voids
        +0.07,  # three jacks
        -1.51,  # 10 with J or 9
        +0.19,  # combinations / 10
        +0.00,  # partner bid it
        +4.92,  # partner bid another suit
        -3.94,  # partner bid no trumps
        +0.00,  # opponent bid it
        -3.47,  # opponent bid another
        +3.03,  # we lead first
        -4.81,  # first to speak
        +6.68,  # dealer
        +6.48,  # second turn
        +4.10,  # partner passed
        +6.07,  # doubled
        -2.02,  # I bid before
        -1.82,  # cards in partner's suits
        -5.54,  # J or 9 of partner's suits
        -0.18,  # cards in opponents' suits
        +2.34,  # J of opponents' suits
        -1.73,  # A of opponents' suits
        -3.94,  # no trumps stands
        +2.68,  # contract_strength
        -0.35,  # contract_strength squared / 10
    ),
    "contra_all_trumps": (  # 4817 samples
        -78.69,  # constant
        +22.17,  # jacks
        +6.71,  # nines
        +10.59,  # J-9
        -9.46,  # J-A
        +1.91,  # 9 guarded, no J
        -5.80,  # 9 bare, no J
        -2.16,  # A, no J
        +2.09,  # belotes
        +0.34,  # voids
        +0.00,  # three jacks
        -2.97,  # 10 with J or 9
        +4.77,  # combinations / 10
        +15.84,  # partner bid
        +8.58,  # I bid
        -6.25,  # opponents bid twice
        -11.95,  # we lead first
        +0.85,  # bidder plays after me
    ),
    "contra_no_trumps": (  # 3898 samples
        -46.68,  # constant
        +10.17,  # aces
        +12.70,
        +0.91,  # A-10-K
        +6.98,  # 10 guarded
        +0.25,  # 10 bare
        -1.68,  # K guarded
        +0.30,  # longest suit
        -1.91,  # voids
        +0.00,  # three aces
        -2.83,  # combinations / 10
        +10.58,  # partner bid
        +9.15,  # I bid
        +1.52,  # opponents bid twice
        -3.60,  # we lead first
        -1.83,  # bidder plays after me
    ),
    "contra_suit": (  # 54837 samples
        -31.66,  # constant
        +11.58,  # trump J
        +6.73,  # trump 9
        +4.06,  # trump A
        +2.23,  # trump 10
        +1.91,  # trump K, Q
        +2.12,  # belote
        -0.07,  # trumps
        +6.90,  # trumps past two
        +5.08,  # trump J and 9
        +4.40,  # side aces
        +1.82,  # side A-10
        +1.15,  # side 10 guarded
        -0.23,  # side 10 bare
        +4.27,  # side voids
        +0.77,  # side singletons, not aces
        -0.10,  # trump J and three trumps
        +2.65,  # combinations / 10
        +1.63,  # partner bid
        +0.88,  # I bid
        -17.77,  # opponents bid twice
        -3.09,  # we lead first
        -4.13,  # bidder plays after me
    ),
    "no_trumps/open": (  # 73774 samples
        -13.62,  # constant
        -0.44,  # aces
        +1.46,
        +0.30,  # A-10-K
        +1.88,  # 10 guarded
        +2.18,  # 10 bare
        +0.94,  # K guarded
        +0.23,  # longest suit
        -0.26,  # voids
        -1.30,  # three aces
        -0.76,  # combinations / 10
        +0.00,  # partner bid it
        +0.00,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        -1.20,  # we lead first
        -0.46,  # first to speak
        +0.64,  # dealer
        +0.00,  # second turn
        -0.10,  # partner passed
        +0.00,  # doubled
        +0.00,  # I bid before
        +0.00,  # cards in partner's suits
        +0.00,  # J or 9 of partner's suits
        +0.00,  # cards in opponents' suits
        +0.00,  # J of opponents' suits
        +0.00,  # A of opponents' suits
        +0.00,  # no trumps stands
        +2.40,  # contract_strength
        +0.01,  # contract_strength squared / 10
    ),
    "no_trumps/over opponents": (  # 55115 samples
        -7.23,  # constant
        -0.14,  # aces
        +0.95,
        -0.88,  # A-10-K
        +1.40,  # 10 guarded
        +1.39,  # 10 bare
        +0.32,  # K guarded
        +0.40,  # longest suit
        -0.75,  # voids
        -2.92,  # three aces
        -1.88,  # combinations / 10
        +0.00,  # partner bid it
        +0.34,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        -1.48,  # we lead first
        -0.48,  # first to speak
        +0.95,  # dealer
        +0.84,  # second turn
        -0.50,  # partner passed
        -12.74,  # doubled
        -0.05,  # I bid before
        +0.92,  # cards in partner's suits
        +1.09,  # J or 9 of partner's suits
        -2.96,  # cards in opponents' suits
        -7.00,  # J of opponents' suits
        +2.65,  # A of opponents' suits
        +0.00,  # no trumps stands
        +1.49,  # contract_strength
        +0.34,  # contract_strength squared / 10
    ),
    "no_trumps/over partner": (  # 25788 samples
        -17.55,  # constant
        -0.80,  # aces
        +1.69,
        +0.16,  # A-10-K
        +1.93,  # 10 guarded
        +0.92,  # 10 bare
        +0.73,  # K guarded
        +0.49,  # longest suit
        -0.78,  # voids
        -2.23,  # three aces
        -1.05,  # combinations / 10
        +0.00,  # partner bid it
        +0.46,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        -1.02,  # opponent bid another
        +3.63,  # we lead first
        -5.04,  # first to speak
        +5.97,  # dealer
        +5.72,  # second turn
        -0.46,  # partner passed
        +7.36,  # doubled
        -2.87,  # I bid before
        -1.40,  # cards in partner's suits
        -2.44,  # J or 9 of partner's suits
        -0.12,  # cards in opponents' suits
        -5.08,  # J of opponents' suits
        +1.10,  # A of opponents' suits
        +0.00,  # no trumps stands
        +1.85,  # contract_strength
        +0.07,  # contract_strength squared / 10
    ),
    "recontra": (  # 479 samples
        -9.66,  # constant
        +0.00,  # no trumps
        +29.79,  # all trumps
        +4.14,  # contract_strength
        -22.93,  # I bid it
    ),
    "suit/open": (  # 295096 samples
        -9.24,  # constant
        +0.78,  # trump J
        -0.41,  # trump 9
        -0.49,  # trump A
        +0.02,  # trump 10
        +0.62,  # trump K, Q
        +0.89,  # belote
        +1.49,  # trumps
        -0.71,  # trumps past two
        +0.89,  # trump J and 9
        +0.17,  # side aces
        -0.04,  # side A-10
        +0.36,  # side 10 guarded
        +0.34,  # side 10 bare
        -0.15,  # side voids
        -0.03,  # side singletons, not aces
        -0.49,  # trump J and three trumps
        +0.54,  # combinations / 10
        +0.00,  # partner bid it
        +0.00,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        +0.11,  # we lead first
        +0.19,  # first to speak
        +0.03,  # dealer
        +0.00,  # second turn
        -0.05,  # partner passed
        +0.00,  # doubled
        +0.00,  # I bid before
        +0.00,  # cards in partner's suits
        +0.00,  # J or 9 of partner's suits
        +0.00,  # cards in opponents' suits
        +0.00,  # J of opponents' suits
        +0.00,  # A of opponents' suits
        +0.00,  # no trumps stands
        +0.79,  # contract_strength
        +0.44,  # contract_strength squared / 10
    ),
    "suit/over opponents": (  # 71073 samples
        -2.71,  # constant
        +1.23,  # trump J
        -0.16,  # trump 9
        -1.34,  # trump A
        -0.18,  # trump 10
        +0.59,  # trump K, Q
        +1.14,  # belote
        +1.78,  # trumps
        -0.53,  # trumps past two
        +0.80,  # trump J and 9
        -1.12,  # side aces
        +0.23,  # side A-10
        -0.02,  # side 10 guarded
        +0.50,  # side 10 bare
        -1.39,  # side voids
        -0.45,  # side singletons, not aces
        -0.88,  # trump J and three trumps
        -0.63,  # combinations / 10
        +0.00,  # partner bid it
        -0.11,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        +0.00,  # opponent bid another
        +0.30,  # we lead first
        -0.73,  # first to speak
        +1.46,  # dealer
        +1.18,  # second turn
        -0.46,  # partner passed
        -19.64,  # doubled
        +1.00,  # I bid before
        +0.08,  # cards in partner's suits
        -0.22,  # J or 9 of partner's suits
        -2.76,  # cards in opponents' suits
        -4.84,  # J of opponents' suits
        +1.50,  # A of opponents' suits
        +0.00,  # no trumps stands
        +0.77,  # contract_strength
        +0.60,  # contract_strength squared / 10
    ),
    "suit/over partner": (  # 31806 samples
        -18.18,  # constant
        +1.74,  # trump J
        +0.19,  # trump 9
        -3.00,  # trump A
        -0.31,  # trump 10
        +0.83,  # trump K, Q
        +2.08,  # belote
        +2.50,  # trumps
        -0.78,  # trumps past two
        +1.95,  # trump J and 9
        -1.75,  # side aces
        +0.63,  # side A-10
        +0.12,  # side 10 guarded
        +0.25,  # side 10 bare
        -1.23,  # side voids
        -0.51,  # side singletons, not aces
        +0.04,  # trump J and three trumps
        +0.46,  # combinations / 10
        +0.00,  # partner bid it
        -1.41,  # partner bid another suit
        +0.00,  # partner bid no trumps
        +0.00,  # opponent bid it
        -0.47,  # opponent bid another
        +10.39,  # we lead first
        -9.29,  # first to speak
        +10.12,  # dealer
        +9.26,  # second turn
        +1.41,  # partner passed
        +13.04,  # doubled
        -3.21,  # I bid before
        -2.31,  # cards in partner's suits
        -1.90,  # J or 9 of partner's suits
        +0.83,  # cards in opponents' suits
        -1.70,  # J of opponents' suits
        -0.82,  # A of opponents' suits
        +0.00,  # no trumps stands
        +0.81,  # contract_strength
        +0.33,  # contract_strength squared / 10
    ),
}


@dataclass(frozen=True, slots=True)
class BiddingStyle:
    """How much a call must gain over passing (game points per deal, by the fitted model) to be made."""

    margin: float = 0.0
    double_margin: float = 0.0  # contra and recontra: their estimates are the noisiest


def call_gain(obs: Observation, call: int, view: AuctionView | None = None) -> float:
    """What ``call`` is expected to gain over passing, in game points per deal for the seat's team."""
    if call == PASS:
        return 0.0
    weights = WEIGHTS[model_of(obs, call)]
    return sum(w * x for w, x in zip(weights, call_features(obs, call, view), strict=True))


def choose_call(obs: Observation, style: BiddingStyle) -> int:
    """A legal call for the seat: the one the model expects to gain most over passing, if it gains enough."""
    legal = obs.legal_calls
    if len(legal) == 1:
        return legal[0]
    view = auction_view(obs)
    best, best_gain = PASS, 0.0
    for call in legal:
        if call == PASS:
            continue
        gain = call_gain(obs, call, view) - (style.double_margin if call >= CONTRA else style.margin)
        if gain > best_gain:
            best, best_gain = call, gain
    return best
