"""`belote-bot sheet FILE ...`: keep a match score sheet in a JSON file (belote-sheet/1) from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.calculator import CalculatorError, Msg, SheetError
from bot.calculator.players_sheet import PlayersSheet
from bot.calculator.sheets import Sheet, correct_entry, entry_on, load_sheet, new_sheet, write_entry
from bot.calculator.small_request import SEATS
from bot.calculator.text import option_value
from bot.engine.jsontext import loads
from bot.i18n import LANGUAGES, _

EPILOG = """\
examples:
  belote-bot sheet match.json new --teams Ана Боби --rule target_score=101
  belote-bot sheet match.json add купа 102 60 белот Ана
  belote-bot sheet match.json add --points 10 6
  belote-bot sheet match.json correct 1 купа 81 Ана
  belote-bot sheet match.json undo
  belote-bot sheet match.json show --lang en
  belote-bot sheet bela.json new --game bela --teams Mi Vi
  belote-bot sheet bela.json add mi 92 zvanje 50 bela --lang hr
  belote-bot sheet bela.json add — 162                   # a fall written by hand: a dash and the points

A deal line has the grammar of `belote-bot score` (see `belote-bot score --help`); a Bela or French sheet reads it in
that game's words without the game word. The sheet carries the hanging (held) points itself.
Exit status: 0 done, 1 the line or the operation is not valid, 2 wrong usage.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sheet",
        help="keep a match score sheet in a JSON file: add, undo, correct, show",
        description="Keep the score sheet of a match played with real cards in a JSON file.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the sheet's JSON file")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGUAGES, default="bg", help="language of the answer (default: bg)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="start a new sheet (overwrites FILE)", parents=[common])
    new.add_argument("--game", choices=("bulgarian", "bela", "french", *SEATS), default="bulgarian",
                     help="the game the sheet keeps (default: bulgarian; bela to 1001, french to 1000; bela-3 to 701, "
                     "bela-2 and bela-open to 501, bulgarian-3 and bulgarian-2 to 151)")
    new.add_argument("--teams", nargs=2, metavar=("A", "B"), help="names of the two teams (default: Ние, Вие)")
    new.add_argument("--players", nargs="+", metavar="NAME",
                     help="a game of three or two: the players' names by seat (0, 1, 2)")
    new.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a table option")
    for name, text in (("add", "add a deal (a score line) or --points A B"),
                       ("correct", "replace line N with a deal or --points A B; later lines are recomputed")):
        sub = actions.add_parser(name, help=text, parents=[common])
        if name == "correct":
            sub.add_argument("number", type=int, help="the line to correct (1 is the first)")
        sub.add_argument("line", nargs="*", help="the deal as words, e.g. купа 102 60")
        sub.add_argument("--points", nargs="+", type=int, metavar="N",
                         help="plain numbers instead: one per team (A B), or one per player on a sheet of three or two")
        sub.add_argument("--pot", type=int, help="with --points: the hanging pot after this line")
        sub.add_argument("--valat", action="store_true", help="with --points: the deal ended in a valat")
    actions.add_parser("undo", help="remove the last line", parents=[common])
    actions.add_parser("show", help="print the sheet", parents=[common])
    parser.set_defaults(func=run)


def _fail(text: str) -> int:
    print(f"belote-bot sheet: {text}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    lang: str = args.lang
    path = Path(args.file)
    if args.action == "new":
        rules: dict[str, Any] = {}
        for item in args.rule:
            key, _sep, value = item.partition("=")
            rules[key.strip()] = option_value(value.strip())
        try:
            if args.players and args.game not in SEATS:
                raise SheetError(Msg("--players names the players of a game of three or two; a team game takes "
                                     "--teams A B"), "players")
            sheet: Sheet = new_sheet(args.game, args.players or args.teams, rules)
        except SheetError as exc:
            return _fail(exc.render(lang))
    else:
        try:
            sheet = load_sheet(loads(path.read_text(encoding="utf-8")))  # bounded: never a RecursionError
        except FileNotFoundError:
            return _fail(Msg(_("{file}: there is no score sheet here yet; start one with: belote-bot sheet {file} new"),
                             {"file": str(path)}).render(lang))
        except OSError as exc:
            return _fail(Msg("{file}: cannot read the file ({reason})",
                             {"file": str(path), "reason": exc.strerror}).render(lang))
        except ValueError as exc:  # not JSON, or not a sheet
            text = exc.render(lang) if isinstance(exc, SheetError) else str(exc)
            return _fail(f"{path}: {text}")
        try:
            _apply(sheet, args)
        except (SheetError, CalculatorError) as exc:
            lines = exc.render(lang)
            return _fail("\n".join(lines) if isinstance(lines, list) else lines)
    path.write_text(json.dumps(sheet.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print("\n".join(sheet.history(lang)))
    return 0


def _apply(sheet: Sheet, args: argparse.Namespace) -> None:
    if args.action in ("add", "correct"):
        if bool(args.points) == bool(args.line):
            raise SheetError(Msg("give either a score line or --points A B"))
        if args.points and isinstance(sheet, PlayersSheet):
            if args.action == "add":
                sheet.add_points(*args.points, pot=args.pot, valat=args.valat)
            else:
                sheet.correct(args.number, tuple(args.points))
            return
        if args.points:
            if len(args.points) != 2:
                raise SheetError(Msg("write a number for each of the {n} players, e.g. {example}",
                                     {"n": 2, "example": "90 72"}), "points")
            a, b = args.points
            if args.action == "add":
                if args.valat:
                    sheet.add_points(a, b, pot=args.pot, valat=True)
                else:
                    sheet.add_points(a, b, pot=args.pot)
            else:
                correct_entry(sheet, args.number, (a, b))
            return
        entry = entry_on(sheet, args.line, args.lang)
        if args.action == "add":
            write_entry(sheet, entry)
        else:
            correct_entry(sheet, args.number, entry)
    elif args.action == "undo":
        sheet.undo()
