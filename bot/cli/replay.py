"""`belote-bot replay FILE [--json]`: replay a belote-record/1 file and print an account or the report."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.account import account
from bot.engine.familyrecord import family_match_report, is_family_record, parse_family_record, replay_family_record
from bot.engine.jsontext import JsonTextError, loads
from bot.engine.record import (
    RecordError,
    ReplayError,
    match_report,
    parse_record,
    replay_record,
)
from bot.i18n import LANGUAGES

from .replay_family import family_account


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game record (belote-record/1) and check every action",
        description="Replay a belote-record/1 file: print a readable account of each deal and the match, or with "
        "--json the replay report. An illegal action stops the replay with exit status 1; a malformed file "
        "gives exit status 2.",
    )
    parser.add_argument("file", help="the record file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the replay report as JSON (formats.md §4)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the account (default: en)")
    parser.set_defaults(func=run)


def load_json(path: str) -> tuple[object | None, str | None]:
    """Read JSON from a file or standard input; on failure, a one-line reason instead."""
    name = "standard input" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except OSError as exc:
        return None, f"{name}: cannot read: {exc.strerror}"
    except UnicodeDecodeError:
        return None, f"{name}: not UTF-8 text"
    try:
        return loads(text), None
    except JsonTextError as exc:
        if exc.kind == "surrogate":
            return None, f"{name}: malformed record: {exc.where}: {exc.why}"
        return None, f"{name}: not valid JSON ({exc.where}: {exc.why})"


def run(args: argparse.Namespace) -> int:
    data, problem = load_json(args.file)
    if problem:
        print(f"belote-bot replay: {problem}", file=sys.stderr)
        return 2
    if is_family_record(data):  # bela, french (formats §7)
        return run_family(data, args.json)
    try:
        record = parse_record(data)
        match = replay_record(record)
    except RecordError as exc:
        print(f"belote-bot replay: malformed record: {exc}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"belote-bot replay: illegal action: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(match_report(match), ensure_ascii=False, indent=2))
    else:
        print(account(match, record.seats, args.lang))
    return 0


def run_family(data: object, as_json: bool) -> int:
    try:
        record = parse_family_record(data)
        family = replay_family_record(record)
    except RecordError as exc:
        print(f"belote-bot replay: malformed record: {exc}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"belote-bot replay: illegal action: {exc}", file=sys.stderr)
        return 1
    report = family_match_report(family)
    print(json.dumps(report, ensure_ascii=False, indent=2) if as_json else family_account(family, record.seats))
    return 0

