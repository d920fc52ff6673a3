"""`belote-bot` command line. Each subcommand is a module of this package that defines ``register(subparsers)``
(which adds its parser and sets ``func``); ``func(args)`` returns the exit status.

Only the module of the subcommand being run is imported: the others would load the engine, pydantic, storage and
the chat libraries for nothing (bench/startup.py measures it). The list below gives the one-line help that
``belote-bot --help`` shows without importing anything.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> the one-line help (the module bot.cli.<name> registers the same text; tests/test_cli_startup.py checks).
COMMANDS: dict[str, str] = {
    "agent": "play one of our bots as a belote-agent/1 agent on standard input/output",
    "arena": "play duplicate matches between two agents and report who is stronger",
    "demo": "four bots play a match through the engine alone; print it (or write its record)",
    "migrate": "move a SQLite database into PostgreSQL (run again, it moves nothing)",
    "play": "play a match in the terminal against bots",
    "replay": "replay a game record (belote-record/1) and check every action",
    "run": "run the chat bots (or the terminal table when no token is set)",
    "scan": "name the cards in a photo of won cards and count their points",
    "score": "score a real-life deal and explain it (text line or JSON request)",
    "sheet": "keep a match score sheet in a JSON file: add, undo, correct, show",
    "verify": "check that every deal of a game record follows from its revealed seed",
}


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word that is not an option), if it is one of ours."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the full arguments of the subcommand in ``argv`` (of every one when ``argv`` is None)."""
    parser = argparse.ArgumentParser(
        prog="belote-bot",
        description="Bulgarian Bridge-Belote: chat bot, rules engine, score calculator and bots.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _chosen(argv) if argv is not None else None
    for name, text in COMMANDS.items():
        if argv is None or name == chosen:
            importlib.import_module(f"bot.cli.{name}").register(subparsers)
        else:
            subparsers.add_parser(name, help=text)  # listed in --help; never parsed in this run
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
