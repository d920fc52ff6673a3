"""Auction decisions: the fitted model of what a call gains over passing, and the simulation of candidate calls."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from bot.ai.auction_sim import call_likelihood, candidate_calls, evaluate_calls, sample_full_deal, simulated_call
from bot.ai.base import Budget
from bot.ai.bidding import (
    FEATURE_NAMES,
    WEIGHTS,
    BiddingStyle,
    auction_view,
    call_features,
    call_gain,
    choose_call,
    contract_strength,
    model_of,
)
from bot.ai.medium import MediumAgent
from bot.ai.sampling import auction_weights
from bot.engine import ALL_TRUMPS, CONTRA, DEFAULT_RULES, NO_TRUMPS, PASS, RECONTRA, Deal, observe, parse_card
from bot.engine.cards import mask_of
from bot.engine.deal import DONE
from tests.bench_scripts import bench_script

STYLE = BiddingStyle()
HEARTS, SPADES = 2, 3


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


def fit_script() -> ModuleType:
    return bench_script("fit_bidding")


def test_strength_follows_the_contract() -> None:
    jacks = mask_of(hand("JC JD JH 9H AS"))
    aces = mask_of(hand("AC AD AH TH KS"))
    assert contract_strength(jacks, ALL_TRUMPS) > contract_strength(jacks, NO_TRUMPS)
    assert contract_strength(aces, NO_TRUMPS) > contract_strength(aces, ALL_TRUMPS)
    assert contract_strength(mask_of(hand("JH 9H AH 7C 8D")), 2) > contract_strength(mask_of(hand("7H 8H QC 9D TS")), 2)


def test_every_model_has_one_weight_per_feature() -> None:
    assert set(WEIGHTS) == set(FEATURE_NAMES)
    for model, names in FEATURE_NAMES.items():
        assert len(WEIGHTS[model]) == len(names), model
    # Every call of a real auction is valued by a model whose features it fills exactly.
    rng = random.Random(5)
    player = MediumAgent()
    seen = set()
    for _ in range(40):
        deck = list(range(32))
        rng.shuffle(deck)
        deal = Deal(DEFAULT_RULES, rng.randrange(4), [deck[i : i + 8] for i in range(0, 32, 8)])
        while deal.phase == "auction":
            obs = observe(deal, deal.to_act)
            for call in obs.legal_calls:
                if call != PASS:
                    model = model_of(obs, call)
                    seen.add(model)
                    assert len(call_features(obs, call)) == len(FEATURE_NAMES[model])
            deal.apply(player.act(obs))
    assert {"suit/open", "no_trumps/open", "all_trumps/open", "contra_suit"} <= seen


def test_medium_bids_the_contract_its_hand_supports_and_passes_rubbish() -> None:
    assert choose_call(observe(opening("JH 9H AH AC 7D"), 0), STYLE) == HEARTS
    assert choose_call(observe(opening("JC JD JH 9H 9D"), 0), STYLE) == ALL_TRUMPS
    assert choose_call(observe(opening("AC AD AH TH TC"), 0), STYLE) == NO_TRUMPS
    assert choose_call(observe(opening("7C 8D 9S 7H QD"), 0), STYLE) == PASS


def test_a_higher_trump_is_worth_more_to_a_suit_bid() -> None:
    obs_jack = observe(opening("JH 9H 8H AC 7D"), 0)
    obs_seven = observe(opening("7H 9H 8H AC 7D"), 0)
    assert call_gain(obs_jack, HEARTS) > call_gain(obs_seven, HEARTS)
    assert call_gain(obs_jack, HEARTS) > call_gain(obs_jack, SPADES)  # no spade at all


def test_the_auction_view_reads_who_bid_what() -> None:
    # Dealer 3: seat 0 speaks first. Seat 0 passes, seat 1 bids hearts, seat 2 (the partner) all trumps, seat 3 passes.
    obs = observe(opening("JH 9H AH AC AD", (PASS, HEARTS, ALL_TRUMPS, PASS)), 0)
    view = auction_view(obs)
    assert view.partner == {ALL_TRUMPS} and view.opponents == {HEARTS} and not view.mine
    assert view.contract == ALL_TRUMPS and view.bidder == 2 and view.multiplier == 1
    assert view.spoke and not view.partner_passed and view.leads_first
    assert model_of(obs, CONTRA) == "contra_all_trumps"


def test_medium_doubles_a_contract_it_can_beat() -> None:
    # Seat 0 passes, seat 1 bids hearts, seats 2 and 3 pass: seat 0 holds J♥ 9♥ A♥ and two aces against it.
    deal = opening("JH 9H AH AC AD", (PASS, HEARTS, PASS, PASS))
    obs = observe(deal, 0)
    assert CONTRA in obs.legal_calls
    assert choose_call(obs, STYLE) == CONTRA


def test_medium_does_not_double_with_nothing_against_the_contract() -> None:
    deal = opening("7C 8C 7D QS 8H", (PASS, HEARTS, PASS, PASS))
    obs = observe(deal, 0)
    assert CONTRA in obs.legal_calls and choose_call(obs, STYLE) != CONTRA
    assert RECONTRA not in obs.legal_calls


def test_a_bolder_style_bids_more() -> None:
    shy, bold = BiddingStyle(margin=20.0), BiddingStyle(margin=-20.0)
    obs = observe(opening("JH 9H AH AC 7D"), 0)
    assert choose_call(obs, shy) == PASS
    assert choose_call(observe(opening("7C 8D 9S 7H QD"), 0), bold) != PASS


def test_the_collector_values_each_call_by_playing_the_deal_out() -> None:
    fit = fit_script()
    lines = fit.collect_range(("test", 0, 3))
    assert lines
    rows = [fit.json.loads(line) for line in lines]
    # Replaying deal 0's auction as recorded: each decision lists every legal call, and the value of the call the
    # medium bot made at its last decision is the deal's own written difference for that seat's team.
    first = [r for r in rows if r["n"] == 0]
    deal = fit.deal_of("test", 0)
    for row in first:
        replay = fit.deal_of("test", 0)
        for call in row["calls"]:
            replay.call(call)
        assert sorted(int(c) for c in row["values"]) == sorted(replay.legal_calls())
    player = MediumAgent()
    while deal.phase != DONE:
        deal.apply(player.act(observe(deal, deal.to_act)))
    last = first[-1]
    seat = (deal.dealer + 1 + len(last["calls"])) % 4
    made = deal.calls[len(last["calls"])]
    result = deal.result
    expected = 0 if result is None else result.score[seat & 1] - result.score[1 - (seat & 1)]
    assert last["values"][str(made)] == expected


def test_least_squares_recovers_the_weights_of_a_linear_rule() -> None:
    fit = fit_script()
    rng = random.Random(2)
    rows = []
    for _ in range(4000):
        x = [1.0, rng.random(), float(rng.randrange(3))]
        rows.append((x, 2.0 - 3.0 * x[1] + 0.5 * x[2]))
    w = fit.least_squares(rows)
    assert w == pytest.approx([2.0, -3.0, 0.5], abs=0.05)


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
    # Enough sampled deals that the answer does not hang on which cards the samples dealt (with 12, one seed in ten
    # drew deals where all trumps looked no better than a pass), and no time cap, which a busy machine would hit.
    values = evaluate_calls(obs, calls, samples=128, seed=3, budget=Budget(60))
    assert values[ALL_TRUMPS] > values[PASS] + 5
    assert simulated_call(obs, 128, 3, prior=PASS, budget=Budget(60)) in (ALL_TRUMPS, *range(4))


def test_the_simulation_weighs_a_contra_and_a_recontra_whenever_they_are_legal() -> None:
    # The sampled deals are weighed by the calls heard, so a contra is valued on hands the bid allows, whether or not
    # the medium bot would double.
    obs = observe(opening("JH 9H AH AC AD", (PASS, HEARTS, PASS, PASS)), 0)
    assert CONTRA in candidate_calls(obs, prior=CONTRA)
    calls = candidate_calls(obs, prior=PASS)
    assert PASS in calls and CONTRA in calls and any(c < 6 for c in calls)
    doubled = observe(opening("JH 9H AH AC AD", (HEARTS, CONTRA)), 2)  # seat 2 speaks for the doubled bidder's team
    assert RECONTRA in doubled.legal_calls and RECONTRA in candidate_calls(doubled, prior=PASS)


def test_a_pass_with_four_jacks_makes_a_sampled_deal_unlikely() -> None:
    # Seats 0 and 1 passed, seat 2 bid hearts; seat 3 is to call. Only the first five cards count in the auction. A
    # deal in which seat 1 passed holding four jacks is one the calls make unlikely; with small cards it is not.
    mine = hand("AC TC KC AD TD")
    bidder = hand("JH 9H QH 8H 8S")
    strong = hand("JC JD JS 9S 9C")
    weak = hand("7C 8C 7D 8D 7S")
    rest = [c for c in range(32) if c not in mine + bidder + strong + weak]

    def deal_with(first: list[int], later: list[int]) -> list[list[int]]:
        tail = rest[5:] + later
        return [rest[:5] + tail[0:3], first + tail[3:6], bidder + tail[6:9], mine + tail[9:12]]

    deal = Deal(DEFAULT_RULES, 3, deal_with(weak, strong))
    for call in (PASS, PASS, HEARTS):
        deal.call(call)
    obs = observe(deal, 3)
    assert call_likelihood(obs, deal_with(strong, weak)) < call_likelihood(obs, deal_with(weak, strong)) / 3


def test_a_thin_simulation_keeps_the_medium_call() -> None:
    obs = observe(opening("JC JD JH JS 9S"), 0)
    # Five deals are too few to overrule the rule-based call, however good another call looks on them.
    assert simulated_call(obs, 5, 3, prior=PASS) == PASS
    assert simulated_call(obs, 40, 3, prior=PASS) != PASS


def test_all_trumps_and_no_trumps_are_always_simulated() -> None:
    obs = observe(opening("7C 8C 9D 7S 8H"), 0)
    calls = candidate_calls(obs, PASS)
    assert ALL_TRUMPS in calls and NO_TRUMPS in calls and PASS in calls
