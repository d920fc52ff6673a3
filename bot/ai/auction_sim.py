"""Auction decisions by simulation: play each candidate contract out on sampled deals and compare the results.

The seat's five cards are known; its three cards to come and the other hands are dealt at random, tilted by the
calls heard so far (``sampling.auction_weights``). Each candidate (a contract bid by the seat, contra, recontra, or
the contract in force if the seat passes) is played to the end by four rule-based players on the *same* sampled
deals, so the comparison between candidates is not blurred by different cards. The value of a candidate is the mean
written score of the seat's team minus the other team's.
"""

from __future__ import annotations

import random
import time

from bot.engine import PASS, Deal, Observation, observe
from bot.engine.cards import mask_of
from bot.engine.deal import DONE

from .bidding import auction_view, call_gain
from .medium import MediumAgent
from .sampling import auction_weights


def sample_full_deal(obs: Observation, rng: random.Random, weights: list[list[float]]) -> list[list[int]]:
    """Eight cards per seat in the order received: the seat's own five first, then its three to come."""
    mine = mask_of(obs.hand)
    unseen = [c for c in range(32) if not mine >> c & 1]
    rng.shuffle(unseen)
    need = [8 - len(obs.hand) if p == obs.seat else 8 for p in range(4)]
    hands: list[list[int]] = [list(obs.hand) if p == obs.seat else [] for p in range(4)]
    for c in unseen:
        seats = [p for p in range(4) if need[p] > 0]
        p = rng.choices(seats, [need[q] * weights[q][c] for q in seats])[0] if len(seats) > 1 else seats[0]
        hands[p].append(c)
        need[p] -= 1
    return hands


def play_out(obs: Observation, hands: list[list[int]], call: int, player: MediumAgent) -> Deal:
    """The deal after the calls heard so far and ``call``: the rest of the auction and the play by ``player``."""
    deal = Deal(obs.rules, obs.dealer, hands, obs.hanging)
    for earlier in obs.calls:
        deal.call(earlier)
    deal.call(call)
    while deal.phase != DONE:
        deal.apply(player.act(observe(deal, deal.to_act)))
    return deal


def candidate_calls(obs: Observation, prior: int, contracts: int = 2) -> list[int]:
    """The calls worth simulating: pass, the medium bot's choice and the contracts its model values most.

    Contra and recontra are simulated only when they are the medium bot's choice: the sampled hands know little of
    how strong a bid shows the bidder to be, so a contra looks better in the samples than at the table (against the
    previous medium bot, simulating them whenever legal lost game points)."""
    view = auction_view(obs)
    bids = sorted((c for c in obs.legal_calls if c < 6), key=lambda c: -call_gain(obs, c, view))
    keep = {PASS, prior, *bids[:contracts]}
    return [c for c in obs.legal_calls if c in keep]


def evaluate_calls(
    obs: Observation, calls: list[int], samples: int, seed: int | str, time_cap: float = 0.8
) -> dict[int, float]:
    """Mean (seat's team minus the other team) written score after each call, over the same sampled deals.

    Sampling stops early once ``time_cap`` seconds have passed (only a loaded machine gets there)."""
    start = time.perf_counter()
    rng = random.Random(seed)
    weights = auction_weights(obs)
    player = MediumAgent()
    team = obs.seat & 1
    totals = dict.fromkeys(calls, 0.0)
    done = 0
    while done < samples and (done == 0 or time.perf_counter() - start < time_cap):
        hands = sample_full_deal(obs, rng, weights)
        for call in calls:
            result = play_out(obs, hands, call, player).result
            if result is not None:
                totals[call] += result.score[team] - result.score[1 - team]
        done += 1
    return {c: v / done for c, v in totals.items()}


def simulated_call(
    obs: Observation, samples: int, seed: int | str, prior: int, margin: float = 0.5, time_cap: float = 0.8
) -> int:
    """The call with the best simulated outcome; ``prior`` (the rule-based choice) wins unless beaten by ``margin``."""
    if len(obs.legal_calls) == 1:
        return obs.legal_calls[0]
    values = evaluate_calls(obs, candidate_calls(obs, prior), samples, seed, time_cap)
    best, best_value = prior, values[prior] + margin
    for call, value in values.items():
        if value > best_value:
            best, best_value = call, value
    return best
