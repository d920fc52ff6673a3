"""Decision time of each bot level: p50 and p99 over the decisions of a few seeded matches.

Run: ``python bench/ai.py [--deals N] [--levels easy,medium,hard] [--seed S] [--cpu]``. Each level plays every seat
against itself; only decisions with a real choice (two or more legal actions) are timed, and the hard level's
decisions are also broken down into the auction and the play by the number of tricks left. ``--cpu`` times the
processor time of the deciding thread instead of the wall clock: the time a decision takes on one core of its own,
whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.arena import percentile
from bot.ai.registry import LEVELS, make_agent
from bot.engine import Match, observe
from bot.engine.deal import DONE


def bench(level: str, deals: int, seed: str, cpu: bool = False) -> tuple[list[float], dict[int, list[float]]]:
    clock = time.thread_time if cpu else time.perf_counter
    agents = [make_agent(level, seed=f"{seed}/{i}") for i in range(4)]
    times: list[float] = []
    by_tricks: dict[int, list[float]] = defaultdict(list)
    played = 0
    game = 0
    while played < deals:
        match = Match(seed=f"{seed}/{level}/{game}", auto_deal=False)
        game += 1
        while not match.over and played < deals:
            deal = match.start_deal()
            played += 1
            while deal.phase != DONE:
                seat = deal.to_act
                obs = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging)
                start = clock()
                action = agents[seat].act(obs)
                elapsed = clock() - start
                if len(obs.legal_calls) + len(obs.legal_cards) > 1:
                    times.append(elapsed)
                    by_tricks[0 if obs.legal_calls else 8 - len(obs.tricks)].append(elapsed)
                match.apply(action)
    return times, by_tricks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--cpu", action="store_true", help="time processor time of the thread, not the wall clock")
    args = parser.parse_args()
    for level in args.levels.split(","):
        times, by_tricks = bench(level, args.deals, args.seed, args.cpu)
        print(
            f"{level:7s} decisions {len(times):5d}  p50 {1000 * percentile(times, 0.5):8.2f} ms  "
            f"p99 {1000 * percentile(times, 0.99):8.2f} ms  max {1000 * max(times):8.2f} ms"
        )
        if level == "hard":
            for left in sorted(by_tricks, key=lambda n: (n != 0, -n)):
                t = by_tricks[left]
                what = "auction        " if left == 0 else f"{left} tricks left  "
                print(
                    f"        {what}{len(t):4d} decisions, mean {1000 * statistics.mean(t):7.1f} ms, "
                    f"p99 {1000 * percentile(t, 0.99):7.1f} ms"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
