"""Deal pairs from arena records: several runs pooled into one mean, or two measurements compared pair by pair.

    belote-bot arena --a hard --b medium --deals 300 --seed strength --records runs/s
    belote-bot arena --a hard --b medium --deals 300 --seed strength-b --records runs/sb
    python bench/pairs.py runs/s runs/sb                          # each run and the pooled 600 deal pairs
    python bench/pairs.py runs/s runs/sb --vs old/s old/sb         # the same seeds played by another A, pair by pair
    python bench/pairs.py runs/s runs/sb --by-calls                # split by whether A called as the medium bot

A deal pair is a deal index that both matches of a match pair reached (match-0007-ab.json with A in seats 0 and 2,
match-0007-ba.json with A in seats 1 and 3); its value is A's written score minus B's, averaged over the two, a
passed-out deal 0, as the arena counts it. With ``--vs`` each folder is matched with the one in the same place after
``--vs`` (the same seed), and the difference is taken on the deal pairs both reached: the cards are the same, so
what differs is the play and the calls of the two A's. ``--by-calls`` splits the deal pairs into those where every
call of A with a choice, in both orientations, was the medium bot's (the same auction as medium against medium, so
only the play differs) and the others.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.bidding import BiddingStyle, choose_call
from bot.engine import Deal, observe
from bot.engine.record import replay_record


def medium_calls(played: Deal, team: int) -> bool:
    """Were all of ``team``'s calls with a choice in ``played`` the ones the medium bot would have made?"""
    deal = Deal(played.rules, played.dealer, played.hands, played.hanging_in)
    style = BiddingStyle()
    for call in played.calls:
        obs = observe(deal, deal.to_act)
        if obs.seat & 1 == team and len(obs.legal_calls) > 1 and choose_call(obs, style) != call:
            return False
        deal.call(call)
    return True


def deal_pairs(folder: Path, as_medium: set[tuple[str, int]] | None = None) -> dict[tuple[str, int], float]:
    """(match pair, deal index) → the mean over the two orientations of A's score minus B's; ``as_medium`` collects
    the deal pairs in which A called as the medium bot in both orientations."""
    halves: dict[tuple[str, int], dict[str, float]] = {}
    unlike: set[tuple[str, int]] = set()
    for path in sorted(folder.glob("match-*-*.json")):
        _, pair, side = path.stem.split("-")
        try:
            match = replay_record(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise SystemExit(f"pairs.py: {path} is not an arena record ({exc}); give folders of --records") from None
        a_team = 0 if side == "ab" else 1
        for n, result in enumerate(match.results):
            value = 0.0 if result is None else float(result.score[a_team] - result.score[1 - a_team])
            halves.setdefault((pair, n), {})[side] = value
            if as_medium is not None and not medium_calls(match.deals[n], a_team):
                unlike.add((pair, n))
    pairs = {key: (v["ab"] + v["ba"]) / 2 for key, v in halves.items() if len(v) == 2}
    if as_medium is not None:
        as_medium.update(key for key in pairs if key not in unlike)
    return pairs


def summary(values: list[float]) -> str:
    """The mean per deal and its 95% interval (normal approximation over deal pairs)."""
    n = len(values)
    if n < 2:
        return f"{n} deal pairs: too few for an interval"
    mean = sum(values) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)
    return f"{n} deal pairs: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="--records folders of arena runs")
    parser.add_argument("--vs", type=Path, nargs="+", default=[], help="folders of the same seeds to compare with")
    parser.add_argument("--by-calls", action="store_true", help="split by whether A called as the medium bot")
    args = parser.parse_args(argv)
    for folder in [*args.folders, *args.vs]:
        if not folder.is_dir():
            print(f"pairs.py: {folder} is not a folder of arena records", file=sys.stderr)
            return 2
    if args.vs and len(args.vs) != len(args.folders):
        print(f"pairs.py: --vs takes one folder per folder ({len(args.folders)}), in the same order", file=sys.stderr)
        return 2
    pooled: list[float] = []
    diffs: list[float] = []
    same: list[float] = []
    other: list[float] = []
    for i, folder in enumerate(args.folders):
        as_medium: set[tuple[str, int]] = set()
        mine = deal_pairs(folder, as_medium if args.by_calls else None)
        pooled.extend(mine.values())
        same.extend(v for key, v in mine.items() if key in as_medium)
        other.extend(v for key, v in mine.items() if key not in as_medium)
        print(f"{folder}: {summary(list(mine.values()))}")
        if args.vs:
            theirs = deal_pairs(args.vs[i])
            diffs.extend(v - theirs[key] for key, v in mine.items() if key in theirs)
    if len(args.folders) > 1:
        print(f"pooled: {summary(pooled)}")
    if args.by_calls:
        print(f"A called as medium in both orientations: {summary(same)}")
        print(f"A made a call unlike medium's: {summary(other)}")
    if args.vs:
        print(f"pair by pair against {', '.join(str(f) for f in args.vs)}: {summary(diffs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
