"""Every bot only ever answers with a legal action, under every table option, on many random observations."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.ai.base import Agent
from bot.ai.easy import EasyAgent
from bot.ai.hard import HardAgent
from bot.ai.medium import MediumAgent
from bot.ai.registry import LEVELS, make_agent
from bot.ai.simple import RandomAgent
from bot.engine import Action, Bid, Match, Observation, Play, Rules, observe
from bot.engine.cards import mask_of
from bot.engine.declarations import resolve_declarations

# A quick hard bot: few samples, shallow search (the legality of its answers does not depend on the budget).
QUICK = {n: (3, 2 if n > 3 else n) for n in range(1, 9)}

VARIANTS = [
    {},
    {"auto_declarations": True},
    {"must_undertrump": True},
    {"contra_blocks_bidding": True, "recontra_ends_auction": True},
    {"nt_aces_carre": True, "declaration_comparison": "single_contest", "eight_card_run": 120},
    {"declaration_comparison": "carre_beats_sequence", "long_sequence": "length", "hundred_carre_order": "rank"},
]


def check_legal(obs: Observation, action: Action) -> None:
    """The action is one the observation allows: a legal call, or a legal card with allowed announcements."""
    if obs.legal_calls:
        assert isinstance(action, Bid), action
        assert action.call in obs.legal_calls
        return
    assert isinstance(action, Play), action
    assert action.card in obs.legal_cards
    if obs.rules.auto_declarations:
        assert action.declare == () and action.belote is False
        return
    if action.declare:
        assert obs.declarable, "declared without a combination to declare"
        hand = mask_of(obs.hand)
        assert resolve_declarations(hand, action.declare, obs.contract or 0, obs.rules) is not None
    if action.belote:
        assert action.card in obs.belote_cards


def play_and_check(agents: list[Agent], rules: Rules, seed: int, deals: int) -> int:
    """Play until ``deals`` deals have been played out, checking every answer; the engine must accept each one too.

    Passed-out deals do not count, and a match that ends first is followed by another: how many deals a match lasts
    depends on the cards."""
    checked = played = matches = 0
    while played < deals:
        match = Match(rules, seed=seed if matches == 0 else f"{seed}/{matches}")
        matches += 1
        while not match.over and played < deals:
            deal = match.deal
            seat = deal.to_act
            obs = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging)
            action = agents[seat].act(obs)
            check_legal(obs, action)
            match.apply(action)  # raises IllegalAction if the engine disagrees
            checked += 1
            played += deal.phase == "done" and deal.result is not None
    return checked


FACTORIES: dict[str, Callable[[int], Agent]] = {
    "random": lambda s: RandomAgent(s),
    "easy": lambda s: EasyAgent(s),
    "medium": lambda s: MediumAgent(s),
    "hard": lambda s: HardAgent(s, schedule=QUICK, auction_samples=4),
}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "default")
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_quick_levels_answer_legally_under_every_option(level: str, variant: dict[str, object]) -> None:
    rules = Rules(**variant)  # type: ignore[arg-type]
    for seed in range(4):
        agents = [FACTORIES[level](seed * 4 + i) for i in range(4)]
        assert play_and_check(agents, rules, seed, deals=6) > 100


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "default")
def test_hard_answers_legally_under_every_option(variant: dict[str, object]) -> None:
    rules = Rules(**variant)  # type: ignore[arg-type]
    mixed = [FACTORIES["hard"](1), FACTORIES["medium"](2), FACTORIES["hard"](3), FACTORIES["random"](4)]
    assert play_and_check(mixed, rules, seed=11, deals=1) > 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(VARIANTS),
    steps=st.integers(0, 60),
)
def test_every_level_answers_legally_on_random_observations(seed: int, variant: dict[str, object], steps: int) -> None:
    """Random matches driven by random play to a random point: each level must answer that observation legally."""
    rules = Rules(**variant)  # type: ignore[arg-type]
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    driver = RandomAgent(seed)
    for _ in range(steps):
        if match.over:
            break
        deal = match.deal
        match.apply(driver.act(observe(deal, deal.to_act)))
    assume(not match.over)
    deal = match.deal
    obs = observe(deal, deal.to_act, (match.totals[0], match.totals[1]), match.hanging)
    for factory in FACTORIES.values():
        action = factory(rng.randrange(1000)).act(obs)
        check_legal(obs, action)


def test_make_agent_builds_every_level() -> None:
    for level in LEVELS:
        agent = make_agent(level, seed=1, move_time=1.0)
        assert agent.name == level
        agent.close()


def test_agents_see_only_their_observation() -> None:
    """An observation carries no other seat's cards, so an agent's answer cannot depend on them."""
    match = Match(seed=3)
    while match.deal.phase == "auction":
        match.apply(Bid(6) if 6 in match.deal.legal_calls() and len(match.deal.calls) > 0 else Bid(0))
    deal = match.deal
    obs = observe(deal, deal.to_act)
    # Swapping two other seats' hands changes nothing the seat observes, and so nothing the bots answer.
    others = [s for s in range(4) if s != obs.seat]
    deal.held[others[0]], deal.held[others[1]] = deal.held[others[1]], deal.held[others[0]]
    swapped = observe(deal, deal.to_act)
    assert swapped.hand == obs.hand and swapped.tricks == obs.tricks
    for level in ("easy", "medium"):
        assert FACTORIES[level](5).act(obs) == FACTORIES[level](5).act(swapped)


def test_bots_are_deterministic_for_a_seed() -> None:
    """The same seed and the same observations give the same answers (arena runs and bug reports replay)."""
    match = Match(seed=9)
    seen = 0
    # Until a deal has been played out: a passed-out deal is only four calls, and which deals pass depends on the cards.
    while not match.over and all(result is None for result in match.results):
        deal = match.deal
        obs = observe(deal, deal.to_act)
        answers = {level: FACTORIES[level](3).act(obs) for level in ("easy", "medium", "hard")}
        again = {level: FACTORIES[level](3).act(obs) for level in ("easy", "medium", "hard")}
        assert answers == again
        match.apply(answers["medium"])
        seen += 1
    assert seen > 30
