"""What the agent protocol costs per decision, for each game: reading an act message back (in process), and a whole
match with one seat played by `belote-bot agent --level random` in its own process (the referee's round trip: write
the act line, the program reads it, answers, the referee checks the answer).

    python bench/protocol.py [--matches 3]

Prints, per variant: microseconds to read one act message (median over every decision of the matches), and the
median and 95th percentile of the round trip through the external program, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.ai.simple import RandomAgent  # noqa: E402
from bot.engine import Match, parse_rules  # noqa: E402
from bot.engine.game import VARIANTS, parse_variant_rules  # noqa: E402
from bot.protocol.agent_runner import view_from_json  # noqa: E402
from bot.protocol.referee import ProcessAgent  # noqa: E402


def new_match(variant: str, seed: str) -> Any:
    if variant == "bulgarian":
        return Match(parse_rules({}), seed)
    return VARIANTS[variant].new_match(parse_variant_rules(variant, {}), seed=seed)


def read_times(variant: str, matches: int) -> list[float]:
    """Microseconds to decode and read back each act message of random matches."""
    times = []
    for k in range(matches):
        match = new_match(variant, f"read-{k}")
        agent = RandomAgent(k)
        while not match.over:
            view = match.observe(match.to_act)
            line = json.dumps(view.to_json())
            start = time.perf_counter()
            view_from_json(json.loads(line))
            times.append((time.perf_counter() - start) * 1e6)
            match.apply(agent.act(view))
    return times


def round_trips(variant: str, matches: int) -> list[float]:
    """Milliseconds per decision of a seat played by `belote-bot agent --level random` in its own process."""
    times: list[float] = []
    command = [sys.executable, "-m", "bot", "agent", "--level", "random"]
    for k in range(matches):
        with ProcessAgent(command, move_time=5, variant=variant, cwd=str(ROOT)) as external:
            match = new_match(variant, f"trip-{k}")
            seats = [external, RandomAgent(1), RandomAgent(2), RandomAgent(3)]
            while not match.over:
                seat = match.to_act
                view = match.observe(seat)
                start = time.perf_counter()
                action = seats[seat].act(view)
                if seat == 0:
                    times.append((time.perf_counter() - start) * 1000)
                match.apply(action)
            assert external.error_count == 0, list(external.problems)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    print(f"{'variant':10} {'decisions':>9} {'read µs':>8} {'trip ms (median)':>17} {'trip ms (p95)':>14}")
    for variant in ("bulgarian", "bela", "french"):
        reads = read_times(variant, args.matches)
        trips = sorted(round_trips(variant, args.matches))
        p95 = trips[min(len(trips) - 1, int(0.95 * len(trips)))]
        print(f"{variant:10} {len(trips):>9} {statistics.median(reads):>8.0f} {statistics.median(trips):>17.2f} "
              f"{p95:>14.2f}")


if __name__ == "__main__":
    main()
