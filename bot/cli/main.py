"""`belote-bot` command line. Each module in this package that defines ``register(subparsers)`` adds a subcommand
(and sets ``func`` on its parser); ``func(args)`` returns the exit status."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import bot.cli as cli_package


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="belote-bot",
        description="Bulgarian Bridge-Belote: chat bot, rules engine, score calculator and bots.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(cli_package.__path__), key=lambda m: m.name):
        if info.name in ("main", "__main__") or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bot.cli.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
