"""`belote-bot demo`: four bots play one match through the engine alone; print it or save its record."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.ai.simple import RandomAgent
from bot.cli.account import account, seat_names
from bot.engine import Match, observe
from bot.engine.record import match_to_record
from bot.i18n import LANGUAGES


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="four bots play a match through the engine alone; print it (or write its record)",
        description="Four bots that pick a random legal action play one match through the rules engine alone (no "
        "host, no database), and the match is printed deal by deal: the hands, the auction, every trick and the "
        "score. The same seed gives the same match; --record saves it as a belote-record/1 file for `replay`.",
    )
    parser.add_argument("--seed", default="demo", help="the match seed (same seed, same match; default: demo)")
    parser.add_argument("--record", metavar="FILE", help="write the match as belote-record/1 to FILE")
    parser.add_argument("--lang", choices=LANGUAGES, default="bg", help="language of the account (default: bg)")
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
    names = seat_names(args.lang)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump(match_to_record(match, names, reveal=True), fh, ensure_ascii=False, indent=1)
    print(account(match, names, args.lang))
    return 0
