"""Decision time of each bot level: p50 and p99 over the decisions of a few seeded matches.

Run: ``python bench/ai.py [--deals N] [--levels easy,medium,hard] [--seed S] [--cpu] [--variant GAME]``. Each level
plays every seat against itself, in the Bulgarian game or in ``--variant GAME`` (any game of the table of variants,
``bela-3``, ``bela-2`` and ``bela-open`` included, or ``all``); only decisions with a real choice (two or more legal
actions) are timed, and the hard level's decisions are also broken down into the auction (the call, and the 3-player
discard or 2-player seven exchange) and the play by the number of tricks left. ``--cpu`` times the
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

from typing import Any

from bot.ai.arena import percentile
from bot.ai.registry import LEVELS, make_agent
from bot.engine.deal import DONE
from bot.engine.game import VARIANTS


def bench(
    level: str, deals: int, seed: str, cpu: bool = False, variant: str = "bulgarian"
) -> tuple[list[float], dict[int, list[float]]]:
    clock = time.thread_time if cpu else time.perf_counter
    agents = [make_agent(level, seed=f"{seed}/{i}") for i in range(VARIANTS[variant].seats)]
    times: list[float] = []
    by_tricks: dict[int, list[float]] = defaultdict(list)
    played = 0
    game = 0
    while played < deals:
        # The Bulgarian seeds are those of the bench before it knew other games, so its figures stay comparable.
        match_seed = f"{seed}/{level}/{game}" if variant == "bulgarian" else f"{seed}/{variant}/{level}/{game}"
        match: Any = VARIANTS[variant].new_match(VARIANTS[variant].rules(), seed=match_seed, auto_deal=False)
        game += 1
        while not match.over and played < deals:
            deal = match.start_deal()
            tricks = getattr(deal, "TRICKS", 8)
            played += 1
            while deal.phase != DONE:
                seat = deal.to_act
                obs = match.observe(seat)
                start = clock()
                action = agents[seat].act(obs)
                elapsed = clock() - start
                if len(obs.legal_calls) + len(obs.legal_cards) + len(getattr(obs, "legal_exchange", ())) > 1:
                    times.append(elapsed)
                    # the call, the 3-player discard and the 2-player exchange come before the first trick
                    before_play = bool(obs.legal_calls) or obs.phase in ("discard", "exchange")
                    by_tricks[0 if before_play else tricks - len(obs.tricks)].append(elapsed)
                match.apply(action)
    return times, by_tricks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--cpu", action="store_true", help="time processor time of the thread, not the wall clock")
    parser.add_argument("--variant", default="bulgarian", choices=[*VARIANTS, "all"], help="the game played")
    args = parser.parse_args()
    games = list(VARIANTS) if args.variant == "all" else [args.variant]
    for variant in games:
        if len(games) > 1:
            print(variant)
        run(args, variant)
    return 0


def run(args: argparse.Namespace, variant: str) -> None:
    for level in args.levels.split(","):
        times, by_tricks = bench(level, args.deals, args.seed, args.cpu, variant)
        print(
            f"{level:7s} decisions {len(times):5d}  p50 {1000 * percentile(times, 0.5):8.2f} ms  "
            f"p99 {1000 * percentile(times, 0.99):8.2f} ms  max {1000 * max(times):8.2f} ms"
        )
        if level == "hard":
            for left in sorted(by_tricks, key=lambda n: (n != 0, -n)):
                t = by_tricks[left]
                what = "auction        " if left == 0 else f"{left:2d} tricks left "
                print(
                    f"        {what}{len(t):4d} decisions, mean {1000 * statistics.mean(t):7.1f} ms, "
                    f"p99 {1000 * percentile(t, 0.99):7.1f} ms"
                )


if __name__ == "__main__":
    sys.exit(main())
