"""Sheets of every game the calculator keeps: the Bulgarian ``ScoreSheet`` and the Bela/French ``FamilySheet``.

A stored sheet says its game (``variant``; none is the Bulgarian sheet as it always was), so a chat's or a file's
sheet is read back as the game it keeps, and what is written on it is read in that game's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from .errors import Msg
from .family_request import family_rules
from .family_score import FamilyAnswer
from .family_sheet import FamilyLine, FamilySheet, Written, written_by_hand, wrong_game
from .family_text import family_game, score_family_text
from .family_words import GAME_WORDS
from .players_sheet import PlayersLine, PlayersSheet, written_numbers
from .request import rules_problems
from .score import DealAnswer
from .sheet import ScoreSheet, SheetError, SheetLine
from .sheet_base import sheet_rules
from .small_request import SEATS, _small_rules
from .small_score import SmallAnswer
from .small_text import GAME_PHRASES, score_small_text
from .small_text import GAME_WORDS as SMALL_GAME_WORDS
from .text import score_text
from .written import plain_points


class HandWritten(NamedTuple):
    """A number per player written by hand on a sheet of three or two, and which were written as a dash."""

    points: tuple[int, ...]
    dash: tuple[bool, ...]

Sheet = ScoreSheet | FamilySheet | PlayersSheet
Line = SheetLine | FamilyLine | PlayersLine
# The word that starts a sheet of a game ("/sheet new bela"); the Bulgarian game is the default.
SHEET_GAMES: Final[dict[str, str]] = {**GAME_WORDS, "bulgarian": "bulgarian", "белот": "bulgarian",
                                      "български": "bulgarian", **SMALL_GAME_WORDS}


def load_sheet(data: object) -> Sheet:
    """A stored sheet as the game it keeps; SheetError names the first field that is not valid."""
    if isinstance(data, dict) and data.get("variant") in SEATS:
        return PlayersSheet.from_json(data)
    if isinstance(data, dict) and data.get("variant") not in (None, "bulgarian"):
        return FamilySheet.from_json(data)
    return ScoreSheet.from_json(data)


def new_sheet(variant: str, teams: Sequence[str] | None = None, rules: object = None) -> Sheet:
    """An empty sheet of ``variant`` with its table options (a JSON object; SheetError names a bad one)."""
    if variant == "bulgarian":
        return ScoreSheet(teams or None, sheet_rules(rules_problems(rules if rules is not None else {})))
    if variant in SEATS:
        found, made_rule, problems = _small_rules(variant, rules if rules is not None else {})
        return PlayersSheet(variant, teams or None, sheet_rules((found, problems)), made_rule)
    if variant not in ("bela", "french"):
        raise SheetError(Msg("a sheet keeps bulgarian, bela or french"), "variant")
    return FamilySheet(variant, teams or None, sheet_rules(family_rules(variant, rules)))


def sheet_game(words: Sequence[str]) -> tuple[str, list[str]]:
    """The game a ``new`` command names with its first words, and the words after it (team or player names)."""
    for n in (3, 2):
        if len(words) >= n and " ".join(words[:n]).lower() in GAME_PHRASES:
            return GAME_PHRASES[" ".join(words[:n]).lower()], list(words[n:])
    if words and words[0].lower() in SHEET_GAMES:
        return SHEET_GAMES[words[0].lower()], list(words[1:])
    return "bulgarian", list(words)


def score_on(sheet: Sheet, line: str, lang: str = "en") -> DealAnswer | FamilyAnswer | SmallAnswer:
    """A deal line read in the sheet's game (a sheet of the family needs no game word); a line of another game is
    refused."""
    named = family_game(line)
    if isinstance(sheet, PlayersSheet | FamilySheet) and named is not None and named != sheet.variant:
        raise wrong_game(sheet.variant, named)
    if isinstance(sheet, PlayersSheet):
        return score_small_text(line, sheet.variant, sheet.players, sheet.rules_json(), lang)
    if isinstance(sheet, FamilySheet):
        return score_family_text(line, sheet.variant, sheet.teams, sheet.rules.to_json(), lang)
    if named is not None:
        raise wrong_game("bulgarian", named)
    answer = score_text(line, sheet.teams)
    if isinstance(answer, SmallAnswer):
        raise wrong_game("bulgarian", answer.variant)
    return answer


Entry = tuple[int, int] | Written | DealAnswer | FamilyAnswer | SmallAnswer | HandWritten | dict[str, Any]


def entry_on(sheet: Sheet, words: Sequence[str], lang: str = "en") -> Entry:
    """Two numbers written by hand, or a deal; on a Bela or French sheet a dash ("— 162") writes a fall's nothing;
    on a sheet of three or two, a number (or a dash) per player."""
    if isinstance(sheet, PlayersSheet):
        by_hand = written_numbers(list(words), sheet.seats)
        if by_hand is not None:
            return HandWritten(*by_hand)
        return score_on(sheet, " ".join(words), lang)
    if isinstance(sheet, FamilySheet):
        dashed = written_by_hand(words)
        if dashed is not None:
            return dashed
    return plain_points(list(words)) or score_on(sheet, " ".join(words), lang)


def write_entry(sheet: Sheet, entry: Entry) -> Line:
    """Add what ``entry_on`` read (or a request as JSON) to the sheet."""
    if isinstance(sheet, PlayersSheet):
        if isinstance(entry, HandWritten):
            return sheet.add_points(*entry.points, dash=entry.dash)
        if isinstance(entry, tuple):
            return sheet.add_points(*entry)
        if isinstance(entry, SmallAnswer | dict):
            return sheet.add(entry)
        raise wrong_game(sheet.variant, getattr(getattr(entry, "request", None), "variant", "bulgarian"))
    if isinstance(entry, SmallAnswer | HandWritten):
        raise wrong_game("bulgarian" if isinstance(sheet, ScoreSheet) else sheet.variant,
                         entry.variant if isinstance(entry, SmallAnswer) else "?")
    if isinstance(sheet, FamilySheet):
        if isinstance(entry, Written):
            return sheet.add_points(entry.a, entry.b, dash=(entry.dash_a, entry.dash_b))
        if isinstance(entry, tuple):
            return sheet.add_points(entry[0], entry[1])
        return sheet.add(entry)
    if isinstance(entry, tuple):
        return sheet.add_points(entry[0], entry[1])
    if isinstance(entry, FamilyAnswer):
        raise wrong_game("bulgarian", entry.variant)
    return sheet.add(entry)


def correct_entry(sheet: Sheet, number: int, entry: Entry) -> None:
    """Replace line ``number`` with what ``entry_on`` read; every later line is recomputed."""
    if isinstance(sheet, PlayersSheet):
        if isinstance(entry, HandWritten):
            sheet.correct(number, (entry.points, entry.dash))
        elif isinstance(entry, SmallAnswer | dict | tuple):
            sheet.correct(number, entry)
        else:
            raise wrong_game(sheet.variant, getattr(getattr(entry, "request", None), "variant", "bulgarian"))
        return
    if isinstance(entry, SmallAnswer | HandWritten):
        raise wrong_game("bulgarian" if isinstance(sheet, ScoreSheet) else sheet.variant,
                         entry.variant if isinstance(entry, SmallAnswer) else "?")
    if isinstance(sheet, FamilySheet):
        sheet.correct(number, entry)
    elif isinstance(entry, FamilyAnswer):
        raise wrong_game("bulgarian", entry.variant)
    elif isinstance(entry, tuple):
        sheet.correct(number, (entry[0], entry[1]))
    else:
        sheet.correct(number, entry)
