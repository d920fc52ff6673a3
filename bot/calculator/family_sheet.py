"""The match score sheet of a Bela match (to 1001) or a French one (to 1000): lines, held points, falls, the winner.

The same sheet as ``sheet.ScoreSheet`` (``sheet_base.BaseSheet``: add, plain numbers, undo, corrections that
re-score every later deal, ``to_json``/``from_json``), on the engine's ``score_bela``/``score_french`` and its
end-of-match rules: Bela "na prolaz" (family §2.9: at least the target and more than the other pair; level at the
top plays on; held points do not count until collected) and French (family §7.9: the first to the target; both in
one deal a draw, or with ``both_reach`` "higher_wins" the higher total). A fallen Bela calling pair's nothing is
written as a dash.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.bela import BelaRules, bela_verdict
from bot.engine.french import FrenchRules, french_verdict

from .errors import Msg
from .family_request import FamilyRequest, FamilyRules, family_rules, parse_family_request
from .family_score import FALL_MARK, GAME_NAMES, OUTCOMES, FamilyAnswer, score_family_request
from .request import TEAM_KEYS
from .sheet_base import BaseSheet, PointsModel, SheetError, StoredSheet, check_written, sheet_rules, validate_sheet

FamilySource = FamilyAnswer | FamilyRequest | Mapping[str, Any]


class WrongGame(SheetError):
    """A deal of another game offered to a sheet; ``other`` is that game (a variant), so the chat can say how to
    start a sheet of it."""

    def __init__(self, message: Msg, other: str) -> None:
        super().__init__(message)
        self.other = other


def wrong_game(sheet_game: str, other: object) -> WrongGame:
    """A deal of another game offered to a sheet."""
    names = GAME_NAMES
    return WrongGame(Msg("this sheet keeps a {game} match; a line of {other} does not belong on it", {
        "game": names.get(sheet_game, sheet_game), "other": names.get(str(other), str(other))}), str(other))


class Written(NamedTuple):
    """Two numbers written by hand, and which of them was written as a dash (a Bela fall's nothing)."""

    a: int
    b: int
    dash_a: bool = False
    dash_b: bool = False


DASHES: Final = frozenset({"—", "–", "-", "/"})


def written_by_hand(words: Sequence[str]) -> Written | None:
    """Two words of which at least one is a dash ("— 162"); None otherwise. The other must be a whole number."""
    if len(words) != 2 or not any(w in DASHES for w in words):
        return None
    numbers = []
    for team, word in zip(TEAM_KEYS, words, strict=True):
        if word in DASHES:
            numbers.append(0)
        elif word.isascii() and word.isdigit() and len(word) <= 6:
            numbers.append(int(word))
        else:
            raise SheetError(Msg("'{word}' is not a whole number; write each team's points in the digits 0-9, e.g. "
                                 "90 72", {"word": word[:20]}), team)
    return Written(numbers[0], numbers[1], words[0] in DASHES, words[1] in DASHES)


@dataclass(frozen=True, slots=True)
class FamilyEntry:
    """What was written on a line: a deal to score, or two numbers by hand (``dash``: written as a dash)."""

    request: FamilyRequest | None = None
    points: tuple[int, int] | None = None
    pot: int | None = None  # for numbers by hand: the held points after the line (None: as they were)
    dash: tuple[bool, bool] = (False, False)


@dataclass(frozen=True, slots=True)
class FamilyLine:
    number: int
    entry: FamilyEntry
    score: tuple[int, int]
    shown: tuple[str, str]  # the written numbers as the sheet shows them ("—" for a fall)
    hanging_in: int
    hanging: int
    totals: tuple[int, int]
    winner: int | None
    drawn: bool
    answer: FamilyAnswer | None
    valat: bool = False


class FamilySheet(BaseSheet[FamilyRules, object, FamilyEntry, FamilyLine]):
    """A match sheet of ``bela`` or ``french`` for two teams under one set of table options."""

    def __init__(self, variant: str, teams: Sequence[str] | None = None, rules: FamilyRules | None = None) -> None:
        if variant not in ("bela", "french"):
            raise SheetError(Msg("a sheet keeps bulgarian, bela or french"), "variant")
        super().__init__(teams, rules if rules is not None else (BelaRules() if variant == "bela" else FrenchRules()))
        self.variant = variant

    def add_points(self, a: int, b: int, pot: int | None = None, dash: tuple[bool, bool] = (False, False),
                   valat: bool = False) -> FamilyLine:
        """Two numbers as written by hand; ``dash`` marks a side written as a dash (it wrote 0). ``valat`` is taken
        for the Bulgarian sheet's sake and means nothing here: these games have no capot lock."""
        return self._append(self._plain(a, b, pot, dash))

    # --- the family games' lines ---

    def _request(self, deal: object) -> FamilyRequest:
        if isinstance(deal, FamilyAnswer):
            data = deal.request.to_json()
        elif isinstance(deal, FamilyRequest):
            data = deal.to_json()
        elif isinstance(deal, Mapping):
            data = dict(deal)
        else:  # a Bulgarian answer or request
            raise wrong_game(self.variant, "bulgarian")
        if data.get("variant", "bulgarian") != self.variant:
            raise wrong_game(self.variant, data.get("variant", "bulgarian"))
        data.update(hanging_in=0, rules=self.rules.to_json())
        data.pop("teams", None)
        request = parse_family_request(data)
        return dataclasses.replace(request, teams=self.teams)

    def _deal_entry(self, deal: object) -> FamilyEntry:
        return FamilyEntry(request=self._request(deal))

    def _stored_deal(self, deal: dict[str, Any]) -> object:
        return {**deal, "variant": self.variant}  # a stored line's deal does not repeat the sheet's game

    def _plain(self, a: int, b: int, pot: int | None, dash: tuple[bool, bool]) -> FamilyEntry:
        check_written(a, b, pot)
        return FamilyEntry(points=(a, b), pot=pot, dash=(dash[0] and a == 0, dash[1] and b == 0))

    def _correction(self, deal: object) -> FamilyEntry:
        if isinstance(deal, Written):
            return self._plain(deal.a, deal.b, None, (deal.dash_a, deal.dash_b))
        if isinstance(deal, tuple):
            return self._plain(deal[0], deal[1], None, (False, False))
        return self._deal_entry(deal)

    def _written_entry(self, line: _LineModel) -> FamilyEntry:
        assert line.points is not None
        return self._plain(line.points.A, line.points.B, line.pot, ("A" in line.dash, "B" in line.dash))

    def _written_json(self, entry: FamilyEntry) -> dict[str, Any]:
        return {"dash": [TEAM_KEYS[t] for t in (0, 1) if entry.dash[t]]}

    def _stored_variant(self) -> dict[str, Any]:
        return {"variant": self.variant}

    def _line(self, number: int, entry: FamilyEntry, totals: tuple[int, int], hanging_in: int) -> FamilyLine:
        answer: FamilyAnswer | None = None
        if entry.request is not None:
            answer = score_family_request(entry.request.with_hanging(hanging_in))
            score = (answer.result.score[0], answer.result.score[1])
            hanging, shown, valat = answer.result.hanging, answer.shown(), answer.valat
        else:
            assert entry.points is not None
            score = entry.points
            hanging = hanging_in if entry.pot is None else entry.pot
            shown = (FALL_MARK if entry.dash[0] else str(score[0]), FALL_MARK if entry.dash[1] else str(score[1]))
            valat = False
        new = (totals[0] + score[0], totals[1] + score[1])
        winner, drawn = self._verdict(new)
        return FamilyLine(number, entry, score, shown, hanging_in, hanging, new, winner, drawn, answer, valat)

    def _verdict(self, totals: tuple[int, int]) -> tuple[int | None, bool]:
        if isinstance(self.rules, BelaRules):
            return bela_verdict(totals, self.rules.target_score), False
        return french_verdict(totals, self.rules)

    # --- the family games' words ---

    def _heading(self, names: tuple[str, str]) -> Msg:
        return Msg("{game}: {a} | {b}", {"game": GAME_NAMES[self.variant], "a": names[0], "b": names[1]})

    def _what(self, line: FamilyLine, names: tuple[str, str]) -> Msg:
        assert line.answer is not None
        said = {"team": names[line.answer.request.declarer], "outcome": OUTCOMES[line.answer.result.outcome]}
        return Msg("{team} called: {outcome}", said) if self.variant == "bela" else Msg("{team} took: {outcome}", said)

    def _shown(self, line: FamilyLine) -> tuple[object, object]:
        return line.shown

    def _notes(self, line: FamilyLine) -> list[Msg]:
        return [Msg("{n} held", {"n": line.hanging})] if line.hanging else []

    def _goes_on(self) -> Msg:
        target = self.rules.target_score
        if self.drawn:
            return Msg("Both teams reached {target} in the same deal: a draw.", {"target": target})
        if max(self.totals) >= target:
            return Msg("Level at {total} above the target: play on until one team leads.", {"total": self.totals[0]})
        return Msg("Nobody has reached {target} yet.", {"target": target})

    # --- serialisation ---

    @classmethod
    def from_json(cls, data: object) -> FamilySheet:
        """Rebuild a sheet from ``to_json`` output; SheetError names the first field that is not valid."""
        model = validate_sheet(_SheetModel, data)
        sheet = cls(model.variant, model.team_names(), sheet_rules(family_rules(model.variant, model.rules)))
        sheet._load(model.lines)
        return sheet


class _LineModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deal: dict[str, Any] | None = None
    points: PointsModel | None = None
    pot: int | None = Field(default=None, ge=0)
    dash: list[Literal["A", "B"]] = Field(default_factory=list)
    score: dict[str, int] | None = None
    hanging: int | None = None
    totals: dict[str, int] | None = None


class _SheetModel(StoredSheet):
    variant: Literal["bela", "french"]
    lines: list[_LineModel] = Field(default_factory=list)
    winner: Literal["A", "B", "draw"] | None = None
