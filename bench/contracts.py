"""Contracts per side from arena records: how often each side declared each kind of contract, and how often it made it.

    belote-bot arena --a hard --b medium --deals 600 --seed strength --records runs/hm
    python bench/contracts.py runs/hm

A side is an arena label with its letter ("hard (A)"). A contract is *made* when the declarers' side is not inside
and not hanging; doubled contracts count under their kind. Deals of a match pair both orientations counted.
``--calls`` also counts, for each side, the calls with a choice where the medium bot would have called otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from bot.ai.bidding import BiddingStyle, choose_call
from bot.engine import ALL_TRUMPS, CALL_NAMES, NO_TRUMPS, Deal, observe
from bot.engine.record import replay_record

KINDS = ("suit", "no trumps", "all trumps")


def kind_of(contract: int) -> str:
    return "all trumps" if contract == ALL_TRUMPS else "no trumps" if contract == NO_TRUMPS else "suit"


def tally(
    folder: Path, calls: dict[str, Counter[str]] | None = None
) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]], int]:
    """(declared[side][kind], made[side][kind], deals) over every record in ``folder``; with ``calls``, also count
    there each side's calls with a choice ("all") and those unlike the medium bot's ("medium → made")."""
    declared: dict[str, Counter[str]] = {}
    made: dict[str, Counter[str]] = {}
    deals = 0
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            seats = data["seats"]
            match = replay_record(data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            message = f"contracts.py: {path} is not an arena record ({exc}); give the folder of --records"
            raise SystemExit(message) from None
        if calls is not None:
            for deal in match.deals:
                _compare_calls(deal, seats, calls)
        for result in match.results:
            deals += 1
            if result is None:
                continue  # passed out
            side = seats[result.declarer]  # seats 0 and 2 are team 0, 1 and 3 team 1
            kind = kind_of(result.contract)
            declared.setdefault(side, Counter())[kind] += 1
            if result.outcome == "made":
                made.setdefault(side, Counter())[kind] += 1
    return declared, made, deals


def _compare_calls(played: Deal, seats: list[str], calls: dict[str, Counter[str]]) -> None:
    deal = Deal(played.rules, played.dealer, played.hands, played.hanging_in)
    style = BiddingStyle()
    for call in played.calls:
        seat = deal.to_act
        obs = observe(deal, seat)
        if len(obs.legal_calls) > 1:
            side = calls.setdefault(seats[seat], Counter())
            side["all"] += 1
            medium = choose_call(obs, style)
            if medium != call:
                side[f"{CALL_NAMES[medium]} → {CALL_NAMES[call]}"] += 1
        deal.call(call)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the --records folder of an arena run")
    parser.add_argument("--calls", action="store_true", help="count the calls unlike the medium bot's")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"contracts.py: {args.folder} is not a folder of arena records", file=sys.stderr)
        return 2
    calls: dict[str, Counter[str]] | None = {} if args.calls else None
    declared, made, deals = tally(args.folder, calls)
    print(f"{deals} deals")
    for side in sorted(declared):
        parts = []
        for kind in KINDS:
            n, m = declared[side][kind], made.get(side, Counter())[kind]
            parts.append(f"{kind} {n} (made {100 * m / n:.0f}%)" if n else f"{kind} 0")
        shown = side if len(side) <= 30 else f"{side[:22]}… {side[-3:]}"  # a program's long command line
        print(f"{shown:>30}: " + ", ".join(parts))
        if calls is not None and side in calls:
            counted = calls[side]
            other = sum(n for k, n in counted.items() if k != "all")
            top = ", ".join(f"{k} {n}" for k, n in counted.most_common(7) if k != "all")
            print(f"{'':>30}  {counted['all']} calls with a choice, {other} unlike medium's: {top}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
