"""`belote-bot demo`: four bots play one match through the engine alone; print it or save its record."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.ai.simple import RandomAgent
from bot.cli.replay import account
from bot.engine import Match, observe
from bot.engine.record import match_to_record

SEATS = ["North", "East", "South", "West"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="four bots play a match through the engine alone; print it (or write its record)",
    )
    parser.add_argument("--seed", default="demo", help="the match seed (same seed, same match)")
    parser.add_argument("--record", metavar="FILE", help="write the match as belote-record/1 to FILE")
    parser.set_defaults(func=run)


def play_match(seed: str) -> Match:
    match = Match(seed=seed)
    agents = [RandomAgent(f"{seed}/{seat}") for seat in range(4)]
    while not match.over:
        deal = match.deal
        seat = deal.to_act
        match.apply(agents[seat].act(observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging)))
    return match


def run(args: argparse.Namespace) -> int:
    match = play_match(args.seed)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump(match_to_record(match, SEATS), fh, ensure_ascii=False, indent=1)
    print(account(match, SEATS))
    return 0
