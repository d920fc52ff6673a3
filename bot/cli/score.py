"""`belote-bot score`: score a real-life deal from a text line or a JSON request, and explain it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.calculator import CalculatorError, Msg, score, score_text
from bot.calculator.text import option_value
from bot.engine.jsontext import MAX_DEPTH, MAX_DIGITS, JsonTextError, loads
from bot.i18n import LANGUAGES

DESCRIPTION = """\
Score one deal played with real cards: the written game points, what hangs, the outcome, and the steps that lead
there. Give the deal as one line of words (Bulgarian or English) or as a JSON request (formats.md §5).
"""

EPILOG = """\
the text line (full grammar: docs/calculator.md in the belote-bot source):
  CONTRACT  купа каро пика спатия ♥ ♦ ♠ ♣ | без коз, бк | всичко коз, вк | hearts ... nt at all
  POINTS    one or two numbers: the declarers' card points with the last ten, then the defenders';
            one number is enough, the other follows from 162 / 258 / 130
  TEAM      ние/вие (us/you, A/B, or the names given with --teams), right after what it names:
            the contract (who bid), a number (whose points), контра (who said it), капо (who took all)
  CONTRA    контра к x2 contra | реконтра рк x4 recontra
  DECLARE   белот терца кварта (50) квинта (100) каре ... with a team word after (терца вие) or before
            (B tierce:K); a top card as терца:К, терца до поп, tierce K; a carré as каре вале, carre:J, 150, 200
  VALAT     капо, валат, capot (капо ние)
  HANGING   висящи 8, hanging 8: the hanging points carried in
  OPTIONS   key=value, e.g. contra_tie=split

Bela and French belote (formats.md §7.5): the first word names the game, bela or belote (french); a team word
(mi/vi, nous/vous, ние/вие, we/you) names the side of everything after it; what no team word names is the callers':
  bela mi 92 zvanje 50 bela        bela vi zvali 70 terca       bela mi štiglja četiri dečka
  belote pris 65 belote            belote 71 tierce litige      belote eux capot nous cinquante
  words: zvali/pris/called (who called), zvanje/annonce + 20 50 100 150 200, terca kvarta kvinta kare,
  tierce cinquante cent carré, bela/belote, štiglja/capot, visi 81 / litige 91 (points held before),
  pad/dedans (checked against the points), jače/meilleure/best (whose declaration won a tie)

Games of three and two (formats.md §7.5): the first words name the game, e.g. bela utroje / бела трима / bela
three / belote à trois (bela-3), bela udvoje (bela-2), otvorena bela (bela-open), белот трима / bulgarian three
(bulgarian-3), белот двама (bulgarian-2); a player word names the seat of what follows: ja/ti/on, аз/ти/той,
me/you/him, moi/toi/lui (seats 0, 1, 2); without a caller word (zvao, избра, called, pris) seat 0 called:
  bela utroje ja 82 ti 60 on 20          bela utroje ti zvao 60 ja 51 on 51 fall_points=higher_opponent
  bela udvoje ja 45 bela ti 71           белот трима купа аз 92 ти 40 той 30 висящи 5
  words: dijelio/раздава/dealer (bela-3 dealer), bez štiha/no trick/без взятка/sans pli (took no trick)

examples:
  belote-bot score купа 102 60
  belote-bot score "всичко коз 154 терца вие 50 ние висящи 8" --lang bg
  belote-bot score --lang en "hearts 102 A belote B tierce:K"
  echo '{"contract": "hearts", "points": {"A": 102}}' | belote-bot score --json -
  belote-bot score --lang hr bela mi 92 zvanje 50 bela
  echo '{"variant": "bela", "points": {"A": 92}}' | belote-bot score --json -

The JSON answer has raw, score, hanging, outcome (teams as "A"/"B"), explanation (a list of steps) and teams
(the display names used in the explanation). Exit status: 0 scored, 1 the request is not valid (every problem is
named on standard error), 2 wrong usage.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a real-life deal and explain it (text line or JSON request)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("line", nargs="*", help="the deal as words, e.g. купа 102 60 белот ние")
    parser.add_argument("--json", metavar="FILE", help="read a JSON score request from FILE (- for standard input)")
    parser.add_argument("--lang", choices=LANGUAGES, default="bg", help="language of the answer (default: bg)")
    parser.add_argument(
        "--output",
        choices=("words", "json"),
        help="answer in words or as JSON (default: json for --json, words for a text line)",
    )
    parser.add_argument("--teams", nargs=2, metavar=("A", "B"), help="names of the two teams (default: Ние, Вие)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option (formats.md §2), e.g. --rule contra_tie=split; may be repeated",
    )
    parser.set_defaults(func=run)


def _fail(lines: list[str], as_json: bool, fields: list[str] | None = None) -> int:
    for line in lines:
        print(f"belote-bot score: {line}", file=sys.stderr)
    if as_json:
        problems = [
            {"field": f, "message": m.split(": ", 1)[-1]} for f, m in zip(fields or ["request"] * len(lines), lines,
                                                                            strict=True)
        ]
        print(json.dumps({"errors": problems}, ensure_ascii=False, indent=2))
    return 1


def _load(path: str) -> tuple[object | None, Msg | None]:
    name = "stdin" if path == "-" else path
    try:
        with open(path, encoding="utf-8") if path != "-" else sys.stdin as fh:
            text = fh.read()
    except OSError as exc:
        return None, Msg("{file}: cannot read the file ({reason})", {"file": name, "reason": exc.strerror})
    except UnicodeDecodeError:
        return None, Msg("{file}: not UTF-8 text", {"file": name})
    try:
        return loads(text), None
    except JsonTextError as exc:
        at = {"file": name, "line": exc.line, "column": exc.column}
        if exc.kind == "depth":
            return None, Msg("{file}: nested more than {depth} levels deep (line {line}, column {column})",
                             {**at, "depth": MAX_DEPTH})
        if exc.kind == "digits":
            return None, Msg("{file}: a number of {digits} digits (line {line}, column {column}); at most {limit} "
                             "are accepted", {**at, "digits": exc.count, "limit": MAX_DIGITS})
        if exc.kind == "surrogate":
            return None, Msg("{file}: {field} holds a lone surrogate (U+D800 to U+DFFF without its pair), which is "
                             "not text", {"file": name, "field": exc.where})
        return None, Msg("{file}: not valid JSON (line {line}, column {column})", at)


def run(args: argparse.Namespace) -> int:
    lang: str = args.lang
    as_json = args.output == "json" or (args.output is None and args.json is not None)
    if (args.json is None) == (not args.line):
        usage = Msg("give either a text line or --json FILE, e.g. belote-bot score купа 102 60")
        print(f"belote-bot score: {usage.render(lang)}", file=sys.stderr)
        return 2
    rules: dict[str, Any] = {}
    for item in args.rule:
        key, sep, value = item.partition("=")
        if not sep:
            msg = Msg("'{item}' is not KEY=VALUE, e.g. contra_tie=split", {"item": item})
            return _fail([f"rules: {msg.render(lang)}"], as_json, ["rules"])
        rules[key.strip()] = option_value(value.strip())
    # The options are checked with the request, by the model of the game it names.
    try:
        if args.json is not None:
            data, error = _load(args.json)
            if error is not None:
                return _fail([error.render(lang)], as_json)
            if isinstance(data, dict):
                if rules and isinstance(data.get("rules", {}), dict):
                    data = {**data, "rules": {**data.get("rules", {}), **rules}}
                if args.teams:
                    data = {**data, "teams": {"A": args.teams[0], "B": args.teams[1]}}
            answer = score(data)
        else:
            answer = score_text(" ".join(args.line), args.teams, rules, lang)
    except CalculatorError as exc:
        return _fail(exc.render(lang), as_json, exc.fields)
    if as_json:
        print(json.dumps(answer.to_json(lang), ensure_ascii=False, indent=2))
    else:
        print(answer.render(lang))
    return 0
