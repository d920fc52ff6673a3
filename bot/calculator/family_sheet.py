"""The match score sheet of a Bela match (to 1001) or a French one (to 1000): lines, held points, falls, the winner.

The same model as ``sheet.ScoreSheet`` (add, plain numbers, undo, corrections that re-score every later deal,
``to_json``/``from_json``), on the engine's ``score_bela``/``score_french`` and its end-of-match rules: Bela "na
prolaz" (family §2.9: at least the target and more than the other pair; level at the top plays on; held points do
not count until collected) and French (family §7.9: the first to the target; both in one deal a draw, or with
``both_reach`` "higher_wins" the higher total). A fallen Bela calling pair's nothing is written as a dash.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.engine.bela import BelaRules, bela_verdict
from bot.engine.french import FrenchRules, french_verdict

from .errors import CalculatorError, Msg
from .family_request import FamilyRequest, FamilyRules, family_rules, parse_family_request
from .family_score import FALL_MARK, GAME_NAMES, OUTCOMES, FamilyAnswer, score_family_request
from .request import TEAM_KEYS
from .score import DEFAULT_TEAM_NAMES, render_name
from .sheet import SHEET_FORMAT, SheetError

FamilySource = FamilyAnswer | FamilyRequest | Mapping[str, Any]


def wrong_game(sheet_game: str, other: object) -> SheetError:
    """A deal of another game offered to a sheet."""
    names = GAME_NAMES
    return SheetError(Msg("this sheet keeps a {game} match; a line of {other} does not belong on it", {
        "game": names.get(sheet_game, sheet_game), "other": names.get(str(other), str(other))}))


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


class FamilySheet:
    """A match sheet of ``bela`` or ``french`` for two teams under one set of table options."""

    def __init__(self, variant: str, teams: Sequence[str] | None = None, rules: FamilyRules | None = None) -> None:
        if variant not in ("bela", "french"):
            raise SheetError(Msg("a sheet keeps bulgarian, bela or french"), "variant")
        if teams is not None and (len(teams) != 2 or not all(isinstance(t, str) and t.strip() for t in teams)):
            raise SheetError(Msg("a sheet needs two non-empty team names"), "teams")
        self.variant = variant
        self.teams: tuple[str, str] | None = (teams[0].strip(), teams[1].strip()) if teams is not None else None
        self.rules: FamilyRules = rules if rules is not None else (BelaRules() if variant == "bela" else FrenchRules())
        self._entries: list[FamilyEntry] = []
        self._lines: list[FamilyLine] = []

    # --- reading ---

    @property
    def lines(self) -> list[FamilyLine]:
        return list(self._lines)

    @property
    def totals(self) -> tuple[int, int]:
        return self._lines[-1].totals if self._lines else (0, 0)

    @property
    def hanging(self) -> int:
        return self._lines[-1].hanging if self._lines else 0

    @property
    def winner(self) -> int | None:
        return self._lines[-1].winner if self._lines else None

    @property
    def drawn(self) -> bool:
        return bool(self._lines) and self._lines[-1].drawn

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    def names(self, lang: str) -> tuple[str, str]:
        if self.teams is not None:
            return self.teams
        return render_name(DEFAULT_TEAM_NAMES[0], lang), render_name(DEFAULT_TEAM_NAMES[1], lang)

    # --- writing ---

    def add(self, deal: object) -> FamilyLine:
        """Add a scored deal (an answer, a request or a §7.5 request as JSON) of the sheet's game; the sheet's held
        points and table options replace the request's ``hanging_in`` and ``rules``."""
        return self._append(FamilyEntry(request=self._request(deal)))

    def add_points(self, a: int, b: int, pot: int | None = None, dash: tuple[bool, bool] = (False, False),
                   valat: bool = False) -> FamilyLine:
        """Two numbers as written by hand; ``dash`` marks a side written as a dash (it wrote 0). ``valat`` is taken
        for the Bulgarian sheet's sake and means nothing here: these games have no capot lock."""
        return self._append(self._plain(a, b, pot, dash))

    def undo(self) -> FamilyLine:
        if not self._lines:
            raise SheetError(Msg("the sheet is empty; there is no line to undo"))
        self._entries.pop()
        return self._lines.pop()

    def correct(self, number: int, deal: object) -> list[FamilyLine]:
        """Replace line ``number`` with a deal or two numbers (a tuple); every later line is recomputed."""
        if not 1 <= number <= len(self._entries):
            raise SheetError(Msg("there is no line {number}; the lines are 1 to {last}",
                                 {"number": number, "last": len(self._entries)}), "line")
        if isinstance(deal, Written):
            entry = self._plain(deal.a, deal.b, None, (deal.dash_a, deal.dash_b))
        elif isinstance(deal, tuple):
            entry = self._plain(deal[0], deal[1], None, (False, False))
        else:
            entry = FamilyEntry(request=self._request(deal))
        entries = [*self._entries[: number - 1], entry, *self._entries[number:]]
        self._lines = self._compute(entries)
        self._entries = entries
        return self.lines

    # --- computing ---

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

    def _plain(self, a: int, b: int, pot: int | None, dash: tuple[bool, bool]) -> FamilyEntry:
        for key, value in (("A", a), ("B", b), ("pot", pot)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise SheetError(Msg("must be a whole number ≥ 0, not {value}", {"value": value}), key)
        return FamilyEntry(points=(a, b), pot=pot, dash=(dash[0] and a == 0, dash[1] and b == 0))

    def _append(self, entry: FamilyEntry) -> FamilyLine:
        if self.winner is not None:
            name: str | Msg = self.teams[self.winner] if self.teams else DEFAULT_TEAM_NAMES[self.winner]
            raise SheetError(Msg("the match is over, the winner is {team}; start a new sheet", {"team": name}))
        if self.drawn:
            raise SheetError(Msg("the match is over: a draw; start a new sheet"))
        line = self._line(len(self._lines) + 1, entry, self.totals, self.hanging)
        self._entries.append(entry)
        self._lines.append(line)
        return line

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

    def _compute(self, entries: Iterable[FamilyEntry]) -> list[FamilyLine]:
        lines: list[FamilyLine] = []
        totals, hanging = (0, 0), 0
        for i, entry in enumerate(entries, 1):
            if lines and (lines[-1].winner is not None or lines[-1].drawn):
                raise SheetError(Msg(
                    "this would end the match at line {number}, but there are lines after it; undo them first",
                    {"number": i - 1}))
            line = self._line(i, entry, totals, hanging)
            lines.append(line)
            totals, hanging = line.totals, line.hanging
        return lines

    # --- showing ---

    def history(self, lang: str) -> list[str]:
        a, b = self.names(lang)
        rows = [Msg("{game}: {a} | {b}", {"game": GAME_NAMES[self.variant], "a": a, "b": b}).render(lang)]
        names = self.names(lang)
        for line in self._lines:
            if line.answer is not None:
                req = line.answer.request
                said = {"team": names[req.declarer], "outcome": OUTCOMES[line.answer.result.outcome]}
                what = Msg("{team} called: {outcome}", said) if self.variant == "bela" else Msg(
                    "{team} took: {outcome}", said)
            else:
                what = Msg("written by hand")
            text = Msg("{number}. {sa} | {sb}  (total {ta} | {tb}; {what})", {
                "number": line.number, "sa": line.shown[0], "sb": line.shown[1],
                "ta": line.totals[0], "tb": line.totals[1], "what": what}).render(lang)
            if line.hanging:
                text += " " + Msg("{n} held", {"n": line.hanging}).render(lang)
            rows.append(text)
        rows.append(self.status(lang))
        return rows

    def status(self, lang: str) -> str:
        names = self.names(lang)
        target = self.rules.target_score
        if not self._lines:
            return Msg("No deals yet; the first to {target} wins.", {"target": target}).render(lang)
        if self.winner is not None:
            return Msg("Winner: {team}, {ta} to {tb}.", {
                "team": names[self.winner], "ta": self.totals[self.winner],
                "tb": self.totals[1 - self.winner]}).render(lang)
        if self.drawn:
            return Msg("Both teams reached {target} in the same deal: a draw.", {"target": target}).render(lang)
        if max(self.totals) >= target:
            return Msg("Level at {total} above the target: play on until one team leads.",
                       {"total": self.totals[0]}).render(lang)
        return Msg("Nobody has reached {target} yet.", {"target": target}).render(lang)

    # --- serialisation ---

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON (``belote-sheet/1`` with ``variant``); ``from_json`` recomputes what is derived."""
        lines = []
        for line in self._lines:
            item: dict[str, Any]
            if line.entry.request is not None:
                deal = line.entry.request.to_json()
                for key in ("variant", "hanging_in", "rules", "teams"):
                    deal.pop(key, None)
                item = {"deal": deal}
            else:
                assert line.entry.points is not None
                item = {"points": {"A": line.entry.points[0], "B": line.entry.points[1]}, "pot": line.entry.pot,
                        "dash": [TEAM_KEYS[t] for t in (0, 1) if line.entry.dash[t]]}
            item.update({"score": {"A": line.score[0], "B": line.score[1]}, "hanging": line.hanging,
                         "totals": {"A": line.totals[0], "B": line.totals[1]}})
            lines.append(item)
        return {
            "format": SHEET_FORMAT,
            "variant": self.variant,
            "teams": None if self.teams is None else {"A": self.teams[0], "B": self.teams[1]},
            "rules": self.rules.to_json(),
            "lines": lines,
            "winner": "draw" if self.drawn else None if self.winner is None else TEAM_KEYS[self.winner],
        }

    @classmethod
    def from_json(cls, data: object) -> FamilySheet:
        try:
            model = _SheetModel.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err.get("loc", ())) or "sheet"
            raise SheetError(Msg("not a valid score sheet: {why}", {"why": err.get("msg", "")}), where) from None
        rules, problems = family_rules(model.variant, model.rules)
        if problems:
            raise SheetError(problems[0].message, problems[0].field)
        sheet = cls(model.variant, None if model.teams is None else (model.teams.A, model.teams.B), rules)
        entries: list[FamilyEntry] = []
        for i, line in enumerate(model.lines):
            if line.deal is not None:
                try:
                    entries.append(FamilyEntry(request=sheet._request({**line.deal, "variant": model.variant})))
                except CalculatorError as exc:
                    first = exc.problems[0]
                    raise SheetError(first.message, f"lines[{i}].deal.{first.field}") from None
            elif line.points is not None:
                dash = ("A" in line.dash, "B" in line.dash)
                entries.append(sheet._plain(line.points.A, line.points.B, line.pot, dash))
            else:
                raise SheetError(Msg("a line needs either deal or points"), f"lines[{i}]")
        sheet._lines = sheet._compute(entries)
        sheet._entries = entries
        return sheet


class _TeamsModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    A: str = Field(min_length=1)
    B: str = Field(min_length=1)


class _PointsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    A: int = Field(ge=0)
    B: int = Field(ge=0)


class _LineModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deal: dict[str, Any] | None = None
    points: _PointsModel | None = None
    pot: int | None = Field(default=None, ge=0)
    dash: list[Literal["A", "B"]] = Field(default_factory=list)
    score: dict[str, int] | None = None
    hanging: int | None = None
    totals: dict[str, int] | None = None


class _SheetModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["belote-sheet/1"]
    variant: Literal["bela", "french"]
    teams: _TeamsModel | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    lines: list[_LineModel] = Field(default_factory=list)
    winner: Literal["A", "B", "draw"] | None = None

