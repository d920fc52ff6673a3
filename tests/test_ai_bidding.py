"""Auction decisions: the rule-based evaluation of five cards, and the simulation of candidate calls."""

from __future__ import annotations

import random

from bot.ai.auction_sim import candidate_calls, evaluate_calls, sample_full_deal, simulated_call
from bot.ai.bidding import BiddingStyle, choose_call, contract_strength
from bot.ai.sampling import auction_weights
from bot.engine import ALL_TRUMPS, CONTRA, DEFAULT_RULES, NO_TRUMPS, PASS, Deal, observe, parse_card
from bot.engine.cards import mask_of

STYLE = BiddingStyle()


def hand(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def opening(first: str, calls: tuple[int, ...] = ()) -> Deal:
    """A deal (dealer 3) where seat 0 holds ``first`` as its five auction cards, after ``calls``."""
    mine = hand(first)
    rest = [c for c in range(32) if c not in mine]
    hands = [mine + rest[:3], rest[3:11], rest[11:19], rest[19:27]]
    deal = Deal(DEFAULT_RULES, 3, hands)
    for call in calls:
        deal.call(call)
    return deal


def test_strength_follows_the_contract() -> None:
    jacks = mask_of(hand("JC JD JH 9H AS"))
    aces = mask_of(hand("AC AD AH TH KS"))
    assert contract_strength(jacks, ALL_TRUMPS) > contract_strength(jacks, NO_TRUMPS)
    assert contract_strength(aces, NO_TRUMPS) > contract_strength(aces, ALL_TRUMPS)
    assert contract_strength(mask_of(hand("JH 9H AH 7C 8D")), 2) > contract_strength(mask_of(hand("7H 8H QC 9D TS")), 2)


def test_medium_bids_the_contract_its_hand_supports_and_passes_rubbish() -> None:
    assert choose_call(observe(opening("JH 9H AH AC 7D"), 0), STYLE) == 2  # hearts
    assert choose_call(observe(opening("JC JD JH 9H 9D"), 0), STYLE) == ALL_TRUMPS
    assert choose_call(observe(opening("AC AD AH TH TC"), 0), STYLE) == NO_TRUMPS
    assert choose_call(observe(opening("7C 8D 9S 7H QD"), 0), STYLE) == PASS


def test_medium_doubles_a_contract_it_can_beat() -> None:
    # Seat 0 passes, seat 1 bids hearts, seats 2 and 3 pass: seat 0 holds J♥ 9♥ A♥ and two aces against it.
    deal = opening("JH 9H AH AC AD", (PASS, 2, PASS, PASS))
    obs = observe(deal, 0)
    assert CONTRA in obs.legal_calls
    assert choose_call(obs, STYLE) == CONTRA


def test_sampled_deals_keep_the_seats_own_cards_and_deal_the_rest() -> None:
    deal = opening("JC JD JH 9H AS")
    obs = observe(deal, 0)
    hands = sample_full_deal(obs, random.Random(1), auction_weights(obs))
    assert hands[0][:5] == list(obs.hand)
    assert sorted(c for h in hands for c in h) == list(range(32))
    assert [len(h) for h in hands] == [8, 8, 8, 8]


def test_simulation_prefers_all_trumps_with_four_jacks() -> None:
    obs = observe(opening("JC JD JH JS 9S"), 0)
    calls = candidate_calls(obs, choose_call(obs, STYLE))
    assert PASS in calls and ALL_TRUMPS in calls
    values = evaluate_calls(obs, calls, samples=12, seed=3)
    assert values[ALL_TRUMPS] > values[PASS] + 5
    assert simulated_call(obs, 12, 3, prior=PASS) in (ALL_TRUMPS, *range(4))
