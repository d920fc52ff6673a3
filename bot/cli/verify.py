"""`belote-bot verify RECORD`: check that every deal of a record came from the seed the match committed to.

Bulgarian records and the `bela` and `french` records of formats §7.3 alike (a French deal's last three cards per
seat follow from the seed once the record's bids say who took the turned card).

Exit status 0 when the seed matches the commitment and every deal's hands follow from it (docs/fairness.md), 1
naming the first deal that does not (or the commitment that does not match), 2 for a file that is not a
well-formed record or has no seed to check.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check that every deal of a game record follows from its revealed seed",
        description="Check a belote-record/1 file of a finished match (Bulgarian, Bela or French belote): the "
        "revealed seed must hash to the commitment shown at the start, and every deal's hands (and French turned "
        "card) must follow from that seed (docs/fairness.md). "
        "Exit status 0 when they do, 1 naming the first deal that does not, 2 for a malformed file.",
    )
    parser.add_argument("file", help="the record file, or - for standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here, so that the command line starts without loading what other subcommands do not need.
    from bot.cli.replay import load_json
    from bot.engine.fairness import verify_record
    from bot.engine.record import RecordError

    data, problem = load_json(args.file)
    if problem:
        print(f"belote-bot verify: {problem}", file=sys.stderr)
        return 2
    try:
        verdict = verify_record(data)
    except RecordError as exc:
        print(f"belote-bot verify: malformed record: {exc}", file=sys.stderr)
        return 2
    if verdict.problem:
        print(f"belote-bot verify: {verdict.problem}", file=sys.stderr)
        return 1
    print(verdict.account)
    return 0
