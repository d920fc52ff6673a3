"""How long a `belote-bot` command takes from the shell, start-up included: each command run N times in a fresh
process; the median and the fastest wall time, and the median CPU time (user + system) of the process, in
milliseconds. CPU time hardly moves when other programs load the machine; wall time does. The first line is a bare
Python start for reference.

    python bench/startup.py [--runs 15]

Where the time goes: `python -X importtime -m bot score купа 102 60 2>&1 | sort -t'|' -k2 -n | tail`.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], runs: int, cwd: str) -> tuple[float, float, float]:
    """(median wall, fastest wall, median CPU) in ms."""
    times = []
    cpu = []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), _children_cpu()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((_children_cpu() - cpu_start) * 1000)
    return statistics.median(times), min(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        from bot.ai.simple import RandomAgent
        from bot.engine import Match, Rules, observe
        from bot.engine.record import match_to_record

        # Random bots score fast; a higher target gives a record of 10 deals or more, like a real match's.
        match = Match(Rules(target_score=1001), seed="startup-bench")
        bots = [RandomAgent(seat) for seat in range(4)]
        while not match.over:
            deal = match.deal
            match.apply(bots[deal.to_act].act(observe(deal, deal.to_act, (match.totals[0], match.totals[1]))))
        record = Path(tmp, "match.json")
        record.write_text(json.dumps(match_to_record(match, ["N", "E", "S", "W"])), encoding="utf-8")
        sheet = Path(tmp, "sheet.json")
        subprocess.run([py, "-m", "bot", "sheet", str(sheet), "new"], cwd=tmp, capture_output=True, check=True)
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "belote-bot --help": [py, "-m", "bot", "--help"],
            "belote-bot score купа 102 60": [py, "-m", "bot", "score", "купа 102 60"],
            f"belote-bot replay ({len(match.deals)} deals)": [py, "-m", "bot", "replay", str(record)],
            "belote-bot sheet FILE show": [py, "-m", "bot", "sheet", str(sheet), "show"],
            "belote-bot play --help": [py, "-m", "bot", "play", "--help"],
        }
        print(f"{'command':<34} {'median ms':>10} {'min ms':>8} {'cpu ms':>8}   ({args.runs} runs each)")
        for name, cmd in commands.items():
            median, fastest, cpu = timed(cmd, args.runs, tmp)
            print(f"{name:<34} {median:>10.0f} {fastest:>8.0f} {cpu:>8.0f}")


if __name__ == "__main__":
    main()
