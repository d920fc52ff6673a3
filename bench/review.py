"""The post-deal review's cost: processor time of one review (one seat of one deal) and of a whole deal's four.

Run: ``python bench/review.py [--deals N] [--seed S] [--level medium] [--cpu-cap SECONDS]``. Deals are played by
``--level`` bots in the Bulgarian game; each played-out deal is reviewed for all four seats with the default budget
(``bot.ai.review.REVIEW_CPU``, or ``--cpu-cap``). Times are processor time of the reviewing thread, as the budget
counts it. Also printed: how many reviews ran out of budget and how many card and call notes the reviews made.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.arena import percentile
from bot.ai.registry import make_agent
from bot.ai.review import REVIEW_CPU, review_deal
from bot.engine import Match
from bot.engine.deal import Deal


def played_deals(count: int, seed: str, level: str) -> list[Deal]:
    """``count`` deals with a contract, played out by four bots of ``level``."""
    out: list[Deal] = []
    n = 0
    while len(out) < count:
        match = Match(seed=f"{seed}/{n}")
        bots = [make_agent(level, seed=f"{seed}/{n}/{s}") for s in range(4)]
        deal = match.deal
        while deal.phase != "done":
            match.apply(bots[match.to_act].act(match.observe(match.to_act)))
        if not deal.passed_out:
            out.append(deal)
        n += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", default="review-bench")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--cpu-cap", type=float, default=REVIEW_CPU)
    args = parser.parse_args()
    deals = played_deals(args.deals, args.seed, args.level)
    per_review: list[float] = []
    per_deal: list[float] = []
    short = cards = calls = 0
    for deal in deals:
        total = 0.0
        for seat in range(4):
            start = time.thread_time()
            review = review_deal(deal, seat, cpu=args.cpu_cap)
            spent = time.thread_time() - start
            per_review.append(spent)
            total += spent
            short += not review.complete
            cards += len(review.cards)
            calls += len(review.calls)
        per_deal.append(total)
    print(f"{len(deals)} deals by {args.level} bots, {len(per_review)} reviews, budget {args.cpu_cap:.1f} s each")
    print(f"one review: mean {statistics.mean(per_review):.2f} s, p50 {percentile(per_review, 0.5):.2f} s, "
          f"p90 {percentile(per_review, 0.9):.2f} s, max {max(per_review):.2f} s (processor)")
    print(f"a deal's four reviews: mean {statistics.mean(per_deal):.2f} s, max {max(per_deal):.2f} s")
    print(f"out of budget: {short} of {len(per_review)}; notes: {cards} cards, {calls} calls")


if __name__ == "__main__":
    main()
