"""`belote-bot agent --level LEVEL`: one of our bots as a belote-agent/1 program on standard input/output."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from bot.ai.registry import LEVELS, make_agent
from bot.protocol import PROTOCOL
from bot.protocol.agent_runner import run_agent


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "agent",
        help=f"play one of our bots as a {PROTOCOL} agent on standard input/output",
        description=f"Run one of our bots as a {PROTOCOL} agent (formats.md §6 and §7.6, docs/agent-protocol.md): it "
        "reads the referee's JSON lines on standard input and answers on standard output, in whichever game the "
        "referee names (bulgarian, bela, french, bela-3, bela-2, bela-open, bulgarian-3, bulgarian-2). Problems "
        "with the referee's messages are written to standard error.",
    )
    parser.add_argument("--level", choices=LEVELS, default="easy", help="which bot plays (default: easy)")
    parser.add_argument("--seed", default="0", help="seed of the bot's own random choices (default: 0)")
    parser.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long the bot may think per decision; keep it below the referee's limit",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.move_time is not None and args.move_time <= 0:
        print("belote-bot agent: --move-time must be a positive number of seconds", file=sys.stderr)
        return 2
    try:
        agent = make_agent(args.level, seed=args.seed, move_time=args.move_time)
    except ImportError as exc:
        print(f"belote-bot agent: the {args.level} bot is not available: {exc}", file=sys.stderr)
        return 2
    # The protocol is UTF-8 whatever the locale says.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="replace", line_buffering=True)
    return run_agent(agent, stdin, stdout, sys.stderr)
