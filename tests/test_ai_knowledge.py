"""Inference from the public history is never wrong, and sampled deals respect it."""

from __future__ import annotations

import pytest

from bot.ai.knowledge import knowledge_of
from bot.ai.medium import MediumAgent
from bot.ai.sampling import Sampler
from bot.ai.simple import RandomAgent
from bot.engine import Match, Rules, observe
from bot.engine.declarations import resolve_declarations


@pytest.mark.parametrize("rules", [Rules(), Rules(must_undertrump=True)], ids=["default", "must_undertrump"])
@pytest.mark.parametrize("player", ["random", "medium"])
def test_inferred_constraints_hold_for_the_real_hands(rules: Rules, player: str) -> None:
    checked = 0
    for seed in range(6):
        match = Match(rules, seed=seed)
        agents = [RandomAgent(seed * 4 + i) if player == "random" else MediumAgent(i) for i in range(4)]
        while not match.over and len(match.deals) <= 3:
            deal = match.deal
            seat = deal.to_act
            obs = observe(deal, seat)
            if deal.phase == "play":
                k = knowledge_of(obs)
                for p in range(4):
                    if p == seat:
                        continue
                    real = deal.held[p]
                    assert real & k.cannot[p] == 0, f"seat {p} holds a card inferred impossible"
                    assert real & k.must[p] == k.must[p], f"seat {p} lacks a card inferred certain"
                    assert k.hand_size[p] == bin(real).count("1")
                    assert real & ~k.unseen == 0
                checked += 1
            match.apply(agents[seat].act(obs))
    assert checked > 200


@pytest.mark.parametrize("seed", range(10))
def test_sampled_deals_fit_everything_the_seat_knows(seed: int) -> None:
    # Several matches: announced combinations that are hard to deal by chance come up in about one match in four.
    match = Match(seed=seed)
    agents = [MediumAgent(i) for i in range(4)]
    samples = 0
    # Three deals, or more if passed-out deals left too few samples.
    while not match.over and (len(match.deals) <= 2 or samples <= 20):
        deal = match.deal
        seat = deal.to_act
        obs = observe(deal, seat)
        if deal.phase == "play" and len(deal.tricks) in (2, 5):
            k = knowledge_of(obs)
            sampler = Sampler(obs, k, seed=samples)
            for _ in range(5):
                hands = sampler.sample()
                assert hands[seat] == k.hand
                assert sum(bin(h).count("1") for h in hands) == 32 - bin(k.played).count("1")
                for p in range(4):
                    assert bin(hands[p]).count("1") == k.hand_size[p]
                    if p != seat:
                        assert hands[p] & k.cannot[p] == 0
                        assert hands[p] & k.must[p] == k.must[p]
                for p, kinds in k.declared.items():
                    initial = hands[p] | k.played_by[p]
                    assert resolve_declarations(initial, kinds, k.contract, obs.rules) is not None
                samples += 1
        match.apply(agents[seat].act(obs))
    assert samples > 20
