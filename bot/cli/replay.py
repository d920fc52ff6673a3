"""`belote-bot replay FILE [--json]`: replay a belote-record/1 file and print an account or the report."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.engine import Deal, Match, card_symbol
from bot.engine.calls import CALL_NAMES
from bot.engine.familyrecord import family_match_report, is_family_record, parse_family_record, replay_family_record
from bot.engine.jsontext import JsonTextError, loads
from bot.engine.record import (
    RecordError,
    ReplayError,
    deal_report,
    match_report,
    parse_record,
    replay_record,
)

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
        print(account(match, record.seats))
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


def _seat(names: list[str], seat: int) -> str:
    return f"{names[seat]} ({'AB'[seat & 1]})"


def deal_account(deal: Deal, number: int, names: list[str]) -> list[str]:
    lines = [f"Deal {number}: dealer {_seat(names, deal.dealer)}"]
    for seat in range(4):
        lines.append(f"  {_seat(names, seat)}: {' '.join(card_symbol(c) for c in deal.hands[seat])}")
    calls = [f"{names[(deal.dealer + 1 + i) % 4]} {CALL_NAMES[c]}" for i, c in enumerate(deal.calls)]
    lines.append("  Auction: " + (", ".join(calls) if calls else "(not started)"))
    report = deal_report(deal)
    if deal.passed_out:
        lines.append("  All four passed: no deal is played, the hanging pot stays " + str(deal.hanging_in))
        return lines
    if report["contract"] is None:
        lines.append("  (the auction is not over)")
        return lines
    mult = {1: "", 2: " doubled (contra)", 4: " redoubled (recontra)"}[deal.multiplier]
    lines.append(f"  Contract: {report['contract']}{mult} by {_seat(names, deal.bidder)}")
    for a in deal.announcements:
        what = f"belote in {CALL_NAMES[a.belote_suit]}" if a.belote_suit >= 0 else "declares " + ", ".join(a.kinds)
        lines.append(f"  {names[a.seat]} {what}")
    for n, trick in enumerate(deal.tricks, 1):
        cards = " ".join(card_symbol(c) for c in trick.cards)
        lines.append(f"  Trick {n}: {names[trick.leader]} leads {cards} -> {names[trick.winner]}")
    if deal.trick:
        lines.append(f"  Trick {len(deal.tricks) + 1} (in progress): " + " ".join(card_symbol(c) for c in deal.trick))
    result = deal.result
    if result is None:
        return lines
    counted = deal.counted_declarations()
    for team in (0, 1):
        if counted[team]:
            lines.append(f"  Team {'AB'[team]} scores " + ", ".join(f"{c.label()} ({c.value})" for c in counted[team]))
    if result.valat is not None:
        lines.append(f"  Valat (capot) by team {'AB'[result.valat]}")
    lines.append(
        f"  Raw A {result.raw[0]} : B {result.raw[1]} -> {result.outcome}; written A {result.score[0]}, "
        f"B {result.score[1]}; hanging {result.hanging}"
    )
    return lines


def account(match: Match, names: list[str]) -> str:
    lines = [f"Seats: {', '.join(_seat(names, s) for s in range(4))}"]
    totals = [0, 0]
    for number, (deal, result) in enumerate(zip(match.deals, [*match.results, None], strict=False), 1):
        lines.extend(deal_account(deal, number, names))
        if result is not None:
            totals[0] += result.score[0]
            totals[1] += result.score[1]
            lines.append(f"  Match: A {totals[0]} : B {totals[1]}")
    if match.winner is not None:
        lines.append(f"Winner: team {'AB'[match.winner]} ({names[match.winner]} and {names[match.winner + 2]}), "
                     f"{match.totals[0]} : {match.totals[1]}")
    else:
        lines.append(f"No winner yet: A {match.totals[0]} : B {match.totals[1]}, hanging {match.hanging}")
    return "\n".join(lines)
