"""The match score sheet: lines of written game points for two teams, the hanging pot and the winner (rules §8–§9).

A pure model. A line is either a scored deal (its request is kept, so a correction of an earlier line can
re-score every later deal with the pot that now reaches it) or two plain numbers written by hand. The winner is
decided after every line with the engine's ``match_verdict``: the target, ties above it, the capot lock and the
end options. Storing a sheet is the host's job: ``to_json`` / ``ScoreSheet.from_json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.engine.rules import DEFAULT_RULES, Rules
from bot.engine.scoring import DealResult, MatchVerdict, match_verdict

from .errors import CalculatorError, Msg
from .request import TEAM_KEYS, DealRequest, parse_request, rules_problems
from .score import DEFAULT_TEAM_NAMES, OUTCOME_NAMES, DealAnswer, render_name, score_request
from .vocabulary import contract_name

SHEET_FORMAT: Final = "belote-sheet/1"


class SheetError(ValueError):
    """A sheet operation that cannot be done, or a stored sheet that is not valid; ``message`` says why."""

    def __init__(self, message: Msg, field: str = "") -> None:
        self.message = message
        self.field = field
        super().__init__(self.render("en"))

    def render(self, lang: str) -> str:
        text = self.message.render(lang)
        return f"{self.field}: {text}" if self.field else text


@dataclass(frozen=True, slots=True)
class Entry:
    """What was written on a line: a deal to score, or two plain numbers.

    For plain numbers, ``pot`` is the hanging pot after the line (None: the pot is left as it was) and ``valat``
    marks a deal that ended in a valat (it cannot end the match while the capot lock is on).
    """

    request: DealRequest | None = None
    points: tuple[int, int] | None = None
    pot: int | None = None
    valat: bool = False


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of the sheet with everything computed for it."""

    number: int  # 1-based, as players count lines
    entry: Entry
    score: tuple[int, int]
    hanging_in: int
    hanging: int
    totals: tuple[int, int]
    valat: bool
    verdict: MatchVerdict
    answer: DealAnswer | None  # the scored deal, for its explanation (None for plain numbers)


AddSource = DealAnswer | DealRequest | Mapping[str, Any]


def _plain_result(score: tuple[int, int], hanging_in: int, hanging: int, valat: bool) -> DealResult:
    # match_verdict reads only the written score, the pot and whether there was a valat; the rest is neutral.
    return DealResult(
        contract=0,
        multiplier=1,
        declarer=0,
        points=(0, 0),
        declarations=(0, 0),
        belotes=(0, 0),
        valat=0 if valat else None,
        raw=(0, 0),
        score=score,
        hanging_in=hanging_in,
        hanging=hanging,
        outcome="made",
        collected=None,
    )


class ScoreSheet:
    """A match sheet for two teams under one set of table options."""

    def __init__(self, teams: Sequence[str] | None = None, rules: Rules = DEFAULT_RULES) -> None:
        if teams is not None and (len(teams) != 2 or not all(isinstance(t, str) and t.strip() for t in teams)):
            raise SheetError(Msg("a sheet needs two non-empty team names"), "teams")
        self.teams: tuple[str, str] | None = (teams[0].strip(), teams[1].strip()) if teams is not None else None
        self.rules = rules
        self.variant = "bulgarian"
        self._entries: list[Entry] = []
        self._lines: list[SheetLine] = []

    # --- reading ---

    @property
    def lines(self) -> list[SheetLine]:
        return list(self._lines)

    @property
    def totals(self) -> tuple[int, int]:
        return self._lines[-1].totals if self._lines else (0, 0)

    @property
    def hanging(self) -> int:
        return self._lines[-1].hanging if self._lines else 0

    @property
    def verdict(self) -> MatchVerdict | None:
        return self._lines[-1].verdict if self._lines else None

    @property
    def winner(self) -> int | None:
        """0 (A), 1 (B), or None while the match goes on."""
        return self._lines[-1].verdict.winner if self._lines else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def names(self, lang: str) -> tuple[str, str]:
        if self.teams is not None:
            return self.teams
        return render_name(DEFAULT_TEAM_NAMES[0], lang), render_name(DEFAULT_TEAM_NAMES[1], lang)

    # --- writing ---

    def add(self, deal: AddSource) -> SheetLine:
        """Add a scored deal (a calculator answer, a request, or a §5 request as JSON); the sheet's pot and table
        options replace the request's ``hanging_in`` and ``rules``."""
        return self._append(Entry(request=self._request(deal)))

    def add_points(self, a: int, b: int, pot: int | None = None, valat: bool = False) -> SheetLine:
        """Add two plain numbers as written by hand (see ``Entry`` for ``pot`` and ``valat``)."""
        return self._append(self._plain(a, b, pot, valat))

    def undo(self) -> SheetLine:
        """Remove the last line and return it."""
        if not self._lines:
            raise SheetError(Msg("the sheet is empty; there is no line to undo"))
        self._entries.pop()
        return self._lines.pop()

    def correct(self, number: int, deal: AddSource | tuple[int, int]) -> list[SheetLine]:
        """Replace line ``number`` (1-based) with a deal or two plain numbers; every later line is recomputed.

        Returns the lines after the correction. If the correction would end the match before the last line, the
        sheet is left unchanged and SheetError says so.
        """
        if not 1 <= number <= len(self._entries):
            raise SheetError(Msg("there is no line {number}; the lines are 1 to {last}",
                                 {"number": number, "last": len(self._entries)}), "line")
        if isinstance(deal, tuple):
            entry = self._plain(deal[0], deal[1], None, False)
        else:
            entry = Entry(request=self._request(deal))
        entries = [*self._entries[: number - 1], entry, *self._entries[number:]]
        self._lines = self._compute(entries)
        self._entries = entries
        return self.lines

    # --- computing ---

    def _request(self, deal: AddSource) -> DealRequest:
        if isinstance(deal, DealAnswer):
            request = deal.request
        elif isinstance(deal, DealRequest):
            request = deal
        else:
            other = deal.get("variant", "bulgarian") if isinstance(deal, Mapping) else "another game"
            if other != "bulgarian":
                from .family_sheet import wrong_game  # it builds on this module

                raise wrong_game("bulgarian", other)
            request = parse_request(dict(deal))
        return dataclasses.replace(request, hanging_in=0, rules=self.rules, teams=self.teams)

    def _plain(self, a: int, b: int, pot: int | None, valat: bool) -> Entry:
        for key, value in (("A", a), ("B", b), ("pot", pot)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise SheetError(Msg("must be a whole number ≥ 0, not {value}", {"value": value}), key)
        return Entry(points=(a, b), pot=pot, valat=valat)

    def _append(self, entry: Entry) -> SheetLine:
        if self.winner is not None:
            name: str | Msg = self.teams[self.winner] if self.teams else DEFAULT_TEAM_NAMES[self.winner]
            raise SheetError(Msg("the match is over, the winner is {team}; start a new sheet", {"team": name}))
        line = self._line(len(self._lines) + 1, entry, self.totals, self.hanging)
        self._entries.append(entry)
        self._lines.append(line)
        return line

    def _line(self, number: int, entry: Entry, totals: tuple[int, int], hanging_in: int) -> SheetLine:
        answer: DealAnswer | None = None
        if entry.request is not None:
            answer = score_request(entry.request.with_hanging(hanging_in))
            result = answer.result
            score, hanging, valat = result.score, result.hanging, result.valat is not None
        else:
            assert entry.points is not None
            score = entry.points
            hanging = hanging_in if entry.pot is None else entry.pot
            valat = entry.valat
            result = _plain_result(score, hanging_in, hanging, valat)
        new_totals = (totals[0] + score[0], totals[1] + score[1])
        verdict = match_verdict(new_totals, result, self.rules)
        return SheetLine(number, entry, score, hanging_in, hanging, new_totals, valat, verdict, answer)

    def _compute(self, entries: Iterable[Entry]) -> list[SheetLine]:
        lines: list[SheetLine] = []
        totals, hanging = (0, 0), 0
        for i, entry in enumerate(entries, 1):
            if lines and lines[-1].verdict.winner is not None:
                raise SheetError(Msg(
                    "this would end the match at line {number}, but there are lines after it; undo them first",
                    {"number": i - 1}))
            line = self._line(i, entry, totals, hanging)
            lines.append(line)
            totals, hanging = line.totals, line.hanging
        return lines

    # --- showing ---

    def history(self, lang: str) -> list[str]:
        """The sheet as lines of text: each line's score, the running totals and the pot; then the verdict."""
        a, b = self.names(lang)
        rows = [Msg("{a} | {b}", {"a": a, "b": b}).render(lang)]
        for line in self._lines:
            if line.answer is not None:
                what: Msg = Msg("{contract}, {outcome}", {
                    "contract": contract_name(line.answer.request.contract),
                    "outcome": OUTCOME_NAMES[line.answer.result.outcome],
                })
            else:
                what = Msg("written by hand")
            text = Msg("{number}. {sa} | {sb}  (total {ta} | {tb}; {what})", {
                "number": line.number, "sa": line.score[0], "sb": line.score[1],
                "ta": line.totals[0], "tb": line.totals[1], "what": what,
            }).render(lang)
            if line.hanging:
                text += " " + Msg("{n} hanging", {"n": line.hanging}).render(lang)
            if line.valat:
                text += " " + Msg("(valat)").render(lang)
            rows.append(text)
        rows.append(self.status(lang))
        return rows

    def status(self, lang: str) -> str:
        """Who won, or why the match goes on."""
        names = self.names(lang)
        verdict = self.verdict
        if verdict is None:
            return Msg("No deals yet; the first to {target} wins.", {"target": self.rules.target_score}).render(lang)
        if verdict.winner is not None:
            return Msg("Winner: {team}, {ta} to {tb}.", {
                "team": names[verdict.winner], "ta": self.totals[verdict.winner],
                "tb": self.totals[1 - verdict.winner]}).render(lang)
        reasons = {
            "capot_lock": Msg("The last deal was a valat: nobody goes out on a valat; one more deal."),
            "tie": Msg("Level at {total} above the target: play on until one team leads.",
                       {"total": self.totals[0]}),
            "no_score": Msg("The leaders wrote nothing in the last deal, so they cannot go out on it (table option)."),
            "hanging": Msg("Points are hanging, and nobody goes out while they hang (table option)."),
            "below": Msg("Nobody has reached {target} yet.", {"target": self.rules.target_score}),
        }
        return reasons.get(verdict.reason, reasons["below"]).render(lang)

    # --- serialisation ---

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON (``belote-sheet/1``). ``score``, ``hanging`` and ``totals`` of each line and the
        ``winner`` are written for readers; ``from_json`` recomputes them from the entries."""
        lines = []
        for line in self._lines:
            item: dict[str, Any]
            if line.entry.request is not None:
                deal = line.entry.request.to_json()
                for key in ("hanging_in", "rules", "teams"):
                    deal.pop(key, None)
                item = {"deal": deal}
            else:
                assert line.entry.points is not None
                item = {"points": {"A": line.entry.points[0], "B": line.entry.points[1]}, "pot": line.entry.pot,
                        "valat": line.entry.valat}
            item.update({
                "score": {"A": line.score[0], "B": line.score[1]},
                "hanging": line.hanging,
                "totals": {"A": line.totals[0], "B": line.totals[1]},
            })
            lines.append(item)
        return {
            "format": SHEET_FORMAT,
            "teams": None if self.teams is None else {"A": self.teams[0], "B": self.teams[1]},
            "rules": self.rules.to_json(),
            "lines": lines,
            "winner": None if self.winner is None else TEAM_KEYS[self.winner],
        }

    @classmethod
    def from_json(cls, data: object) -> ScoreSheet:
        """Rebuild a sheet from ``to_json`` output; SheetError names the first field that is not valid."""
        try:
            model = _SheetModel.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err.get("loc", ())) or "sheet"
            raise SheetError(Msg("not a valid score sheet: {why}", {"why": err.get("msg", "")}), where) from None
        rules, problems = rules_problems(model.rules)
        if problems:
            raise SheetError(problems[0].message, problems[0].field)
        teams = None if model.teams is None else (model.teams.A, model.teams.B)
        sheet = cls(teams, rules)
        entries: list[Entry] = []
        for i, line in enumerate(model.lines):
            if line.deal is not None:
                try:
                    request = sheet._request(line.deal)
                except CalculatorError as exc:
                    first = exc.problems[0]
                    raise SheetError(first.message, f"lines[{i}].deal.{first.field}") from None
                entries.append(Entry(request=request))
            elif line.points is not None:
                entries.append(sheet._plain(line.points.A, line.points.B, line.pot, line.valat))
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
    valat: bool = False
    # Written for readers; recomputed on load.
    score: dict[str, int] | None = None
    hanging: int | None = None
    totals: dict[str, int] | None = None


class _SheetModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["belote-sheet/1"]
    variant: Literal["bulgarian"] | None = None
    teams: _TeamsModel | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    lines: list[_LineModel] = Field(default_factory=list)
    winner: Literal["A", "B"] | None = None
