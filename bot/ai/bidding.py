"""Auction decisions from an evaluation of the five cards held during the auction (rules §3).

Each contract gets a strength number from the hand: roughly the tricks' worth of high trumps and masters the hand
brings to that contract. A contract is bid when its strength reaches a threshold; contra and recontra need more.
The partner's and the opponents' calls shift the numbers: a partner's suit is support, an opponent's suit is danger.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def contract_strength(hand: CardMask, contract: int) -> float:
    if contract == ALL_TRUMPS:
        return all_trumps_strength(hand)
    if contract == NO_TRUMPS:
        return no_trumps_strength(hand)
    return suit_strength(hand, contract)


@dataclass(frozen=True, slots=True)
class BiddingStyle:
    """Thresholds on contract_strength; lower is bolder."""

    suit: float = 5.0
    no_trumps: float = 6.2
    all_trumps: float = 6.4
    overcall_partner: float = 2.0  # extra strength needed to overcall the partner's contract
    contra: float = 7.0
    recontra: float = 6.5

    def threshold(self, contract: int) -> float:
        if contract == ALL_TRUMPS:
            return self.all_trumps
        if contract == NO_TRUMPS:
            return self.no_trumps
        return self.suit


def _partner_support(obs: Observation, contract: int) -> float:
    """Extra strength when the partner has bid this contract (or, for all trumps, any suit)."""
    partner = (obs.seat + 2) & 3
    first = (obs.dealer + 1) & 3
    bonus = 0.0
    for i, call in enumerate(obs.calls):
        who = (first + i) & 3
        if who == partner and call < 6:
            if call == contract:
                bonus = max(bonus, 1.5)
            elif contract == ALL_TRUMPS and call < NO_TRUMPS:
                bonus = max(bonus, 1.0)
            elif contract == NO_TRUMPS and call == NO_TRUMPS:
                bonus = max(bonus, 1.5)
    return bonus


def choose_call(obs: Observation, style: BiddingStyle) -> int:
    """A legal call for the seat: the strongest contract worth bidding, contra/recontra when justified, or pass."""
    legal = obs.legal_calls
    hand = mask_of(obs.hand)
    contract, bidder, _ = _current(obs)
    partner_holds = bidder >= 0 and (bidder ^ obs.seat) & 1 == 0
    if CONTRA in legal:
        defence = defence_strength(hand, contract)
        if defence >= style.contra:
            return CONTRA
    if RECONTRA in legal and contract_strength(hand, contract) + _partner_support(obs, contract) >= style.recontra:
        return RECONTRA
    best, best_margin = PASS, 0.0
    for call in legal:
        if call >= 6:
            continue
        strength = contract_strength(hand, call) + _partner_support(obs, call)
        need = style.threshold(call) + (style.overcall_partner if partner_holds else 0.0)
        margin = strength - need
        if margin >= 0 and (best == PASS or margin >= best_margin):
            best, best_margin = call, margin
    return best


def defence_strength(hand: CardMask, contract: int) -> float:
    """How well the hand defends an opponent's contract (for contra)."""
    if contract == ALL_TRUMPS:
        return all_trumps_strength(hand)
    if contract == NO_TRUMPS:
        return no_trumps_strength(hand)
    return suit_strength(hand, contract) + 1.0


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

