"""The one-line text form of a score request, as players type it in a chat (docs/calculator.md has the grammar).

``купа 102 60``, ``пика 86 ние``, ``без коз 80 контра вие``, ``всичко коз 154 терца вие 50 ние висящи 8``,
``hearts 102 A belote B tierce:K``. A line is read into the JSON request of formats.md §5 and then checked and
scored exactly like one, so both forms give the same answer and the same errors.

How a team word finds what it names (each team word names one thing):
1. a run of declarations belongs to the team word right after it (``терца вие 50 ние``) or, when that cannot
   account for every run and every team word, to the team word right before it (``A belote B tierce:K``);
2. any other team word names the contract, number of points, ``контра``/``реконтра`` or ``капо`` right before it
   (the team that bid, took those points, said contra or recontra, or took every trick), or else the number or
   ``капо`` right after it (``ние 102 вие 60``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from bot.engine.calls import CALL_NAMES
from bot.engine.declarations import CARRE
from bot.engine.jsontext import JsonTextError, loads, lone_surrogate

from .errors import CalculatorError, Msg, Problem, problem
from .request import TEAM_KEYS, parse_request
from .score import score_request
from .vocabulary import (
    CONTRACT_PHRASES,
    CONTRACT_WORDS,
    KIND_WORDS,
    RANK_WORDS,
    VALUE_WORDS,
    Declared,
    check_declared,
    parse_declaration,
)

if TYPE_CHECKING:
    from .small_score import Answer

TEAM_WORDS: Final[dict[str, int]] = {
    "ние": 0, "нас": 0, "ний": 0, "наши": 0, "we": 0, "us": 0, "a": 0,
    "вие": 1, "вас": 1, "ваши": 1, "те": 1, "тях": 1, "you": 1, "they": 1, "them": 1, "b": 1,
}  # fmt: skip
CONTRA_WORDS: Final[dict[str, int]] = {
    "контра": 2, "к": 2, "k": 2, "x2": 2, "×2": 2, "contra": 2, "double": 2, "doubled": 2, "dbl": 2, "kontra": 2,
    "реконтра": 4, "рк": 4, "x4": 4, "×4": 4, "recontra": 4, "redouble": 4, "redoubled": 4,
    "rekontra": 4,
}  # fmt: skip
VALAT_WORDS: Final = frozenset({"капо", "валат", "капот", "kapo", "capot", "valat"})
HANGING_WORDS: Final = frozenset({"висящи", "висящ", "висят", "висяща", "вис", "hanging", "hang"})
TO_WORDS: Final = frozenset({"до", "to"})
# Bare single letters that are not read as ranks (A/B are teams, к is contra, c/d/h/s are suits).
_BARE_RANK_EXCLUDED: Final = frozenset({"a", "b", "к", "c", "d", "h", "s", "в", "а", "д", "п"})
MAX_DIGITS: Final = 9
# Digits 0-9 only: \d would also take other scripts' digits, and int() refuses past 4,300 digits.
_NUMBER: Final = re.compile(rf"^[0-9]{{1,{MAX_DIGITS}}}$")
_LONG_NUMBER: Final = re.compile(rf"^[0-9]{{{MAX_DIGITS + 1},}}$")


@dataclass
class _Item:
    """One ownable thing in the line: contract, points, contra, valat or a declaration."""

    kind: str  # "contract", "points", "contra", "valat", "declaration"
    pos: int  # the item's last word
    value: Any = None
    owner: int | None = None
    token: str = ""
    start: int = -1  # the item's first word (-1: the same as ``pos``)

    def __post_init__(self) -> None:
        if self.start < 0:
            self.start = self.pos


@dataclass
class _Line:
    items: list[_Item] = field(default_factory=list)
    teams: list[tuple[int, int, str]] = field(default_factory=list)  # (position, team, token)
    hanging: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _normalize(line: str, names: Sequence[str] | None) -> list[str]:
    text = " " + line.lower().replace(",", " ").replace(";", " ") + " "
    for phrase, joined in CONTRACT_PHRASES:
        text = text.replace(f" {phrase} ", f" {joined} ")
    text = text.replace("х2", "x2").replace("х4", "x4")  # a Cyrillic х typed for x
    if names:
        # Renamed teams may be several words; each becomes one marker token.
        for team, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
            text = re.sub(rf"(?<!\S){re.escape(name.lower())}(?!\S)", f"\x00team{team}", text)
    tokens = []
    for token in text.split():
        if token not in CONTRACT_WORDS and token not in RANK_WORDS:
            token = token.strip(".!?")
        if token:
            tokens.append(token)
    return tokens


def _team_of(token: str) -> int | None:
    if token.startswith("\x00team"):
        return int(token[-1])
    return TEAM_WORDS.get(token)


def _bare_rank(token: str) -> int | None:
    if token in _BARE_RANK_EXCLUDED:
        return None
    return RANK_WORDS.get(token)


def _scan(tokens: list[str], originals: list[str], line: _Line) -> None:
    """Read the words into items, team words, hanging points and table options."""
    i = 0
    seen_declaration = False
    points_seen = 0
    while i < len(tokens):
        tok = tokens[i]
        shown = originals[i] if i < len(originals) else tok
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        team = _team_of(tok)
        if _LONG_NUMBER.match(tok):  # no count in a deal is this long (and int() refuses past 4,300 digits)
            line.problems.append(problem("points", "{number} has {digits} digits; no number in a deal has more than "
                                         "{limit}", number=shown[:12] + "…", digits=len(tok), limit=MAX_DIGITS))
        elif team is not None:
            line.teams.append((i, team, shown))
        elif tok in CONTRACT_WORDS:
            line.items.append(_Item("contract", i, CONTRACT_WORDS[tok], token=shown))
        elif tok in CONTRA_WORDS:
            line.items.append(_Item("contra", i, CONTRA_WORDS[tok], token=shown))
        elif tok in VALAT_WORDS:
            line.items.append(_Item("valat", i, token=shown))
        elif tok in HANGING_WORDS:
            if nxt is None or not _NUMBER.match(nxt):
                line.problems.append(problem("hanging_in", "'{word}' must be followed by the hanging points, e.g. "
                                             "'висящи 8' or 'hanging 8'", word=shown))
            else:
                line.hanging = int(nxt)
                i += 1
        elif "=" in tok:
            read_option(shown, line.rules, line.problems)
        elif _NUMBER.match(tok) and nxt is not None and 2 <= int(tok) <= 4 and _kind_of(nxt) is not None:
            # "2 белота": a count of the declaration that follows.
            i = _declaration(tokens, originals, i + 1, line, count=int(tok), start=i)
            seen_declaration = True
            continue
        elif _NUMBER.match(tok):
            if tok in VALUE_WORDS and (seen_declaration or points_seen >= 2):
                kind, top = VALUE_WORDS[tok]
                line.items.append(_Item("declaration", i, Declared(kind, top), token=shown))
            else:
                points_seen += 1
                line.items.append(_Item("points", i, int(tok), token=shown))
        elif _kind_of(tok) is not None:
            i = _declaration(tokens, originals, i, line)
            seen_declaration = True
            continue
        else:
            line.problems.append(_unknown_word(shown, tok, any(it.kind == "contract" for it in line.items)))
        i += 1


def _kind_of(token: str) -> str | None:
    return KIND_WORDS.get(token.partition(":")[0])


def _declaration(
    tokens: list[str], originals: list[str], i: int, line: _Line, count: int = 1, start: int | None = None
) -> int:
    """Read a declaration starting at ``i`` (``терца``, ``терца:К``, ``терца до поп``, ``каре вале``)."""
    tok = tokens[i]
    shown = originals[i]
    end = i + 1
    if ":" in tok:
        parsed = parse_declaration(tok)
    else:
        kind = KIND_WORDS[tok]
        top: int | None = None
        nxt = tokens[end] if end < len(tokens) else None
        if nxt in TO_WORDS and end + 1 < len(tokens) and tokens[end + 1] in RANK_WORDS:
            top = RANK_WORDS[tokens[end + 1]]
            shown = " ".join(originals[i : end + 2])
            end += 2
        elif nxt is not None and _bare_rank(nxt) is not None and not (kind == CARRE and nxt in VALUE_WORDS):
            top = _bare_rank(nxt)
            shown = " ".join(originals[i : end + 1])
            end += 1
        parsed = check_declared(kind, top, shown)
    if isinstance(parsed, Msg):
        line.problems.append(Problem("declarations", parsed))
    else:
        first = i if start is None else start
        for _ in range(count):
            line.items.append(_Item("declaration", end - 1, parsed, token=shown, start=first))
    return end


def option_value(text: str) -> object:
    try:
        return loads(text)
    except JsonTextError:  # not JSON (or hostile JSON): the word itself, which the option check then names
        return text


def read_option(word: str, rules: dict[str, Any], problems: list[Problem]) -> None:
    """A ``key=value`` table option written in a line, into ``rules``."""
    key, _, value = word.partition("=")
    put_option(key.strip(), option_value(value.strip()), rules, problems)


def put_option(key: str, value: object, rules: dict[str, Any], problems: list[Problem]) -> None:
    """A table option of the line, written as ``key=value`` or as its own word (Bela's "visi"), into ``rules``."""
    if key in rules:  # a second value would silently replace the first
        problems.append(problem(f"rules.{key}", "given twice in the line; give each table option once"))
    rules[key] = value


def refuse_lone_surrogates(line: str, teams: Sequence[str] | None) -> None:
    """Refuse a line or team name holding a lone surrogate: bytes that are not UTF-8 on a command line arrive as
    these, and such a string breaks every print and send."""
    for where, text in (("text", line), *zip(("teams.A", "teams.B"), teams or (), strict=False)):
        if lone_surrogate(text) is not None:
            raise CalculatorError(
                [problem(where, "holds a lone surrogate (U+D800 to U+DFFF without its pair), which is not text")]
            )


_VOCABULARY: Final = {
    **{w: "contract" for w in CONTRACT_WORDS if len(w) > 2},
    **{w: "declarations" for w in KIND_WORDS},
    **{w: "teams" for w in TEAM_WORDS if len(w) > 1},
    **{w: "multiplier" for w in CONTRA_WORDS if len(w) > 2},
    **{w: "valat" for w in VALAT_WORDS},
    **{w: "hanging_in" for w in HANGING_WORDS},
}


def _unknown_word(shown: str, token: str, have_contract: bool) -> Problem:
    close = difflib.get_close_matches(token, list(_VOCABULARY), n=1, cutoff=0.7)
    if close:
        field_name = _VOCABULARY[close[0]]
        return problem(field_name, "'{word}' is not understood; did you mean '{guess}'?", word=shown, guess=close[0])
    if not have_contract:
        return problem("contract", "'{word}' is not a contract; use купа, пика, каро, спатия (or ♥ ♠ ♦ ♣), без коз, "
                       "всичко коз, or hearts, spades, diamonds, clubs, nt, at", word=shown)
    return problem("text", "'{word}' is not understood; a score line has a contract, points, контра, teams, "
                   "declarations, капо and висящи (see the grammar)", word=shown)


# --- who owns what ---


def _assign(line: _Line) -> None:
    """Give each item its team (see the module's docstring); report a run or a team word left over.

    Each team word has one role: it names the declarations next to it, or one contract, number, contra or valat.
    Runs of declarations take their team from the same side throughout the line: after them if that accounts for
    every run and every team word, otherwise before them.
    """
    by_end = {it.pos: it for it in line.items}
    by_start = {it.start: it for it in line.items}
    runs = _declaration_runs(line.items)
    team_at = {pos: team for pos, team, _ in line.teams}
    failures: list[Problem] = []
    for mode in ("after", "before"):
        claims = [run[-1].pos + 1 if mode == "after" else run[0].start - 1 for run in runs]
        orphan = next((run for run, pos in zip(runs, claims, strict=True) if pos not in team_at), None)
        if orphan is not None or len(set(claims)) != len(claims):
            words = " ".join(it.token for it in (orphan or runs[0]))
            failures.append(problem("declarations", "whose is '{words}'? write the team after it, e.g. "
                                    "'{words} ние' or '{words} вие'", words=words))
            continue
        owners: dict[int, int] = {}  # id of an item -> its team
        dangling: str | None = None
        for pos, team, tok in line.teams:
            if pos in claims:
                continue
            before = by_end.get(pos - 1)
            after = by_start.get(pos + 1)
            if before is not None and before.kind in _SINGLE and id(before) not in owners:
                owners[id(before)] = team
            elif after is not None and after.kind in ("points", "valat") and id(after) not in owners:
                owners[id(after)] = team
            else:
                dangling = tok
                break
        if dangling is not None:
            failures.append(problem("teams", "'{word}' names no contract, points or declaration; write the "
                                    "team right after what it names, e.g. 'терца вие'", word=dangling))
            continue
        for run, pos in zip(runs, claims, strict=True):
            for it in run:
                it.owner = team_at[pos]
        for it in line.items:
            if id(it) in owners:
                it.owner = owners[id(it)]
        return
    line.problems.append(failures[0])


_SINGLE: Final = ("contract", "points", "contra", "valat")


def _declaration_runs(items: list[_Item]) -> list[list[_Item]]:
    """Declarations next to each other, in order: one team word names them all."""
    runs: list[list[_Item]] = []
    for it in sorted((it for it in items if it.kind == "declaration"), key=lambda it: it.start):
        if runs and (runs[-1][-1].start == it.start or runs[-1][-1].pos + 1 == it.start):
            runs[-1].append(it)
        else:
            runs.append([it])
    return runs


# --- the request ---


def parse_text(
    line: str, teams: Sequence[str] | None = None, rules: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Read a text line into a formats.md §5 request (not yet checked: ``parse_request`` does that).

    ``teams`` are the display names of A and B, which the line may then use as team words; ``rules`` are the
    table's options, to which ``key=value`` words in the line are added.
    """
    refuse_lone_surrogates(line, teams)
    tokens = _normalize(line, teams)
    parsed = _Line()
    _scan(tokens, tokens, parsed)
    if not parsed.problems:  # an unknown word would make every team word look misplaced
        _assign(parsed)
    problems = parsed.problems
    items = parsed.items

    contracts = [it for it in items if it.kind == "contract"]
    contract: int | None = None
    if not contracts:
        if not any(p.field == "contract" for p in problems):
            problems.append(problem("contract", "missing; start the line with the contract: купа, пика, каро, спатия "
                                    "(or ♥ ♠ ♦ ♣), без коз, всичко коз, or hearts, spades, diamonds, clubs, nt, at"))
    elif len({it.value for it in contracts}) > 1:
        problems.append(problem("contract", "two contracts, '{first}' and '{second}'; a deal has one",
                                first=contracts[0].token, second=contracts[1].token))
    else:
        contract = contracts[0].value

    declarer: int | None = contracts[0].owner if contracts else None
    contras = [it for it in items if it.kind == "contra"]
    multiplier = max((it.value for it in contras), default=1)
    for it in contras:
        if it.owner is None:
            continue
        # Contra is said by the defenders, recontra by the declarers.
        bidder = 1 - it.owner if it.value == 2 else it.owner
        if declarer is not None and bidder != declarer:
            problems.append(problem("declarer", "'{word}' does not fit the team named with the contract: contra "
                                    "is said by the defenders, recontra by the declarers", word=it.token))
        declarer = bidder
    if declarer is None:
        declarer = 0

    valats = {it.owner if it.owner is not None else declarer for it in items if it.kind == "valat"}
    if len(valats) > 1:
        problems.append(problem("valat", "both teams cannot take every trick; name one team with 'капо'"))

    points: dict[int, int] = {}
    numbers = [it for it in items if it.kind == "points"]
    if len(numbers) > 2:
        problems.append(problem("points", "{n} numbers for points ({values}); give one or two: the declarers' "
                                "points first, e.g. 'купа 102 60'", n=len(numbers),
                                values=", ".join(it.token for it in numbers)))
    else:
        for it in numbers:
            if it.owner is not None:
                if it.owner in points:
                    problems.append(problem(f"points.{TEAM_KEYS[it.owner]}", "two numbers for the same team"))
                points[it.owner] = it.value
        for it in numbers:
            if it.owner is None:
                team = declarer if declarer not in points else 1 - declarer
                if team in points:
                    problems.append(problem("points", "two numbers for the same team"))
                points[team] = it.value

    if not numbers and not valats and not problems:
        problems.append(problem("points", "missing; write the declarers' points (the last ten included) after the "
                                "contract, e.g. 'купа 102' or 'hearts 102 60'"))
    if problems:
        raise CalculatorError(problems)
    declarations: dict[str, list[str]] = {"A": [], "B": []}
    for it in items:
        if it.kind == "declaration" and it.owner is not None:
            declarations[TEAM_KEYS[it.owner]].append(it.value.label())
    request: dict[str, Any] = {
        "contract": CALL_NAMES[contract] if contract is not None else None,
        "multiplier": multiplier,
        "declarer": TEAM_KEYS[declarer],
        "valat": TEAM_KEYS[valats.pop()] if valats else None,
        "declarations": declarations,
        "hanging_in": parsed.hanging or 0,
        "rules": {**(rules or {}), **parsed.rules},
    }
    if points:
        request["points"] = {TEAM_KEYS[t]: v for t, v in sorted(points.items())}
    if teams is not None:
        request["teams"] = {"A": teams[0], "B": teams[1]}
    return request


def score_text(
    line: str, teams: Sequence[str] | None = None, rules: Mapping[str, Any] | None = None, lang: str = "en"
) -> Answer:
    """Score a text line; raise CalculatorError naming each field that is wrong. A line whose first word names
    Bela or French belote is read in those games' words (``family_text``); ``lang`` is the asker's language, for
    the words an error suggests when the line's own words do not tell."""
    from .family_text import family_game, score_family_text  # it builds on this module
    from .small_text import score_small_text, small_game

    if small_game(line) is not None:
        return score_small_text(line, None, None, rules, lang)
    if family_game(line) is not None:
        return score_family_text(line, None, teams, rules, lang)
    return score_request(parse_request(parse_text(line, teams, rules)))


