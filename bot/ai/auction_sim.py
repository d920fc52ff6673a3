"""Auction decisions by simulation: play each candidate contract out on sampled deals and compare the results.

The seat's five cards are known; its three cards to come and the other hands are dealt evenly at random, and each
deal is then weighed by how likely the calls heard so far are with its hands (``call_likelihood``): the other seats
are taken to call roughly as the fitted model would, so a deal in which an opponent passed holding four jacks counts
little, and a deal the calls make unlikely is not trusted. The search plays out deals picked from a larger pool in
proportion to those weights. Each candidate (every kind of contract the seat may bid, contra or recontra when
legal, or passing) is played to the end by four rule-based players on the *same* deals, so the
comparison between candidates is not blurred by different cards. The value of a candidate is the mean written score
of the seat's team minus the other team's; another call than the rule-based one is made only when it is better by a
margin and by more than the simulation's own noise, and the rule-based call stands whenever the calls leave too few
plausible deals.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.engine import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, Deal, Observation, observe
from bot.engine.cards import mask_of
from bot.engine.deal import DONE

from .base import Budget
from .bidding import auction_view, call_gain
from .medium import MediumAgent
from .sampling import resample

# How sharply a seat is taken to prefer the calls the fitted model values most (game points per deal): the chance of
# a call goes with exp(gain / TEMPERATURE). Part of every call is left to chance (MIX), for players who bid otherwise.
TEMPERATURE = 2.5
MIX = 0.1
POOL = 3  # deals drawn per deal played out
THIN = 12.0  # fewer plausible deals than this (effective number) and the rule-based call stands
RACE = 12  # deals between prunings of the calls clearly worse than the rule-based one
NOISE_Z = 1.5  # another call must beat the rule-based one by this many standard errors as well as by the margin


def sample_full_deal(obs: Observation, rng: random.Random, weights: list[list[float]] | None = None) -> list[list[int]]:
    """Eight cards per seat in the order received: the seat's own five first, then its three to come."""
    mine = mask_of(obs.hand)
    unseen = [c for c in range(32) if not mine >> c & 1]
    rng.shuffle(unseen)
    if weights is None:
        hands = [list(obs.hand) if p == obs.seat else [] for p in range(4)]
        rest = iter(unseen)
        for p in range(4):
            while len(hands[p]) < 8:
                hands[p].append(next(rest))
        return hands
    need = [8 - len(obs.hand) if p == obs.seat else 8 for p in range(4)]
    hands = [list(obs.hand) if p == obs.seat else [] for p in range(4)]
    for c in unseen:
        seats = [p for p in range(4) if need[p] > 0]
        p = rng.choices(seats, [need[q] * weights[q][c] for q in seats])[0] if len(seats) > 1 else seats[0]
        hands[p].append(c)
        need[p] -= 1
    return hands


def call_likelihood(obs: Observation, hands: list[list[int]]) -> float:
    """How likely the calls of the other seats so far are, had they held ``hands`` (their first five cards)."""
    deal = Deal(obs.rules, obs.dealer, hands, obs.hanging)
    weight = 1.0
    for call in obs.calls:
        seat = deal.to_act
        if seat != obs.seat:
            o = observe(deal, seat)
            legal = o.legal_calls
            if len(legal) > 1:
                view = auction_view(o)
                gains = [call_gain(o, c, view) for c in legal]
                top = max(gains)
                odds = [math.exp((g - top) / TEMPERATURE) for g in gains]
                chance = odds[legal.index(call)] / sum(odds, 0.0) if call in legal else 0.0
                weight *= MIX / len(legal) + (1 - MIX) * chance
        deal.call(call)
    return weight


def play_out(obs: Observation, hands: list[list[int]], call: int, player: MediumAgent) -> Deal:
    """The deal after the calls heard so far and ``call``: the rest of the auction and the play by ``player``."""
    deal = Deal(obs.rules, obs.dealer, hands, obs.hanging)
    for earlier in obs.calls:
        deal.call(earlier)
    deal.call(call)
    while deal.phase != DONE:
        deal.apply(player.act(observe(deal, deal.to_act)))
    return deal


def candidate_calls(obs: Observation, prior: int, suits: int = 2) -> list[int]:
    """The calls worth simulating: pass, the medium bot's choice, all trumps, no trumps, the suits its model values
    most, and contra and recontra whenever they are legal.

    The sampled deals are weighed by how likely the calls heard make them (``call_likelihood``), so a bidder's hand
    in them is as strong as its bid shows, and a contra is valued on hands the bid allows. (When the samples were only
    tilted a little by the bids, a contra looked better in them than at the table, and contra was simulated only when
    it was the medium bot's own call.)"""
    view = auction_view(obs)
    bids = sorted((c for c in obs.legal_calls if c < NO_TRUMPS), key=lambda c: -call_gain(obs, c, view))
    keep = {PASS, prior, ALL_TRUMPS, NO_TRUMPS, CONTRA, RECONTRA, *bids[:suits]}
    return [c for c in obs.legal_calls if c in keep]


@dataclass
class Simulation:
    """Per candidate call, the written results (seat's team minus the other) on the deals played out."""

    results: dict[int, list[float]]
    times: list[int]  # how many times each deal was picked from the pool
    effective: float  # effective number of distinct plausible deals in the pool

    def mean(self, call: int) -> float:
        results = self.results[call]
        n = sum(self.times[: len(results)])
        return sum((t * r for t, r in zip(self.times, results, strict=False)), 0.0) / n if n else 0.0

    def edge(self, call: int, over: int) -> tuple[float, float]:
        """Mean advantage of ``call`` over ``over`` on the deals both were played on, and its standard error."""
        diffs = [a - b for a, b in zip(self.results[call], self.results[over], strict=False)]
        times = self.times[: len(diffs)]
        n = sum(times)
        if n < 2:
            return 0.0, math.inf
        mean = sum((t * d for t, d in zip(times, diffs, strict=True)), 0.0) / n
        var = sum((t * (d - mean) ** 2 for t, d in zip(times, diffs, strict=True)), 0.0) / (n - 1)
        return mean, math.sqrt(var / max(1.0, min(n, self.effective)))


def simulate(
    obs: Observation,
    calls: list[int],
    samples: int,
    seed: int | str,
    budget: Budget | None = None,
    pool: int = POOL,
    prior: int | None = None,
) -> Simulation:
    """Play every call out on deals picked from ``pool`` × ``samples`` drawn ones by how well they fit the calls.

    With a ``prior``, a call clearly worse than it (by two standard errors) stops being played out after every
    ``RACE`` deals, which leaves the time to the close ones. Playing out stops early once the ``budget`` is spent."""
    budget = budget or Budget(0.8)
    rng = random.Random(seed)
    drawn = [sample_full_deal(obs, rng) for _ in range(max(1, pool * samples))]
    weights = [call_likelihood(obs, hands) for hands in drawn]
    total = sum(weights, 0.0)
    sim = Simulation({c: [] for c in calls}, [], 0.0)
    if total <= 0:
        return sim
    sim.effective = total * total / sum((w * w for w in weights), 0.0)
    picked = resample(drawn, weights, samples, rng)
    picked.sort(key=lambda p: -p[1])  # the likeliest deals first, in case time runs out
    player = MediumAgent()
    team = obs.seat & 1
    live = list(calls)
    for hands, times in picked:
        if sim.times and budget.spent():
            break
        if prior is not None and sim.times and len(sim.times) % RACE == 0:
            live = [c for c in live if c == prior or _within_reach(sim.edge(c, prior))]
        for call in live:
            result = play_out(obs, hands, call, player).result
            sim.results[call].append(0.0 if result is None else result.score[team] - result.score[1 - team])
        sim.times.append(times)
    return sim


def _within_reach(edge: tuple[float, float]) -> bool:
    """Not clearly worse: the mean advantage is above minus two standard errors."""
    mean, error = edge
    return mean + 2 * error > 0


def evaluate_calls(
    obs: Observation, calls: list[int], samples: int, seed: int | str, budget: Budget | None = None
) -> dict[int, float]:
    """Mean (seat's team minus the other team) written score after each call, over the same plausible deals."""
    sim = simulate(obs, calls, samples, seed, budget)
    return {c: sim.mean(c) for c in calls}


def simulated_call(
    obs: Observation,
    samples: int,
    seed: int | str,
    prior: int,
    margin: float = 0.5,
    budget: Budget | None = None,
) -> int:
    """The call with the best simulated outcome; ``prior`` (the rule-based choice) stands unless another call beats
    it by ``margin`` and by ``NOISE_Z`` standard errors, or whenever the simulation is thin."""
    if len(obs.legal_calls) == 1:
        return obs.legal_calls[0]
    calls = candidate_calls(obs, prior)
    if len(calls) == 1:
        return prior
    sim = simulate(obs, calls, samples, seed, budget, prior=prior)
    if sim.effective < THIN or sum(sim.times) < THIN:
        return prior
    best, best_edge = prior, 0.0
    for call in calls:
        if call == prior:
            continue
        if len(sim.results[call]) < len(sim.times):
            continue  # dropped as clearly worse
        edge, error = sim.edge(call, prior)
        if edge > margin and edge > NOISE_Z * error and edge > best_edge:
            best, best_edge = call, edge
    return best
