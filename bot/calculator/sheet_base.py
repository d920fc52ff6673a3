"""What every team game's score sheet keeps the same way beyond its lines, undo and corrections (``sheet_lines``,
shared with the sheets of players): the team names, adding a deal, the history and the stored form.

``sheet.ScoreSheet`` (Bulgarian) and ``family_sheet.FamilySheet`` (Bela, French) supply only what their games do
differently: how a line is scored, the verdict after it, what is written by hand (a valat, a fall's dash), the words
of the history and the stored ``variant``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import CalculatorError, Msg, Problem
from .request import TEAM_KEYS
from .score import DEFAULT_TEAM_NAMES, render_name
from .sheet_lines import SheetError as SheetError  # where the sheets' modules have always imported it from
from .sheet_lines import SheetLines, check_numbers

SHEET_FORMAT: Final = "belote-sheet/1"


class _Request(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class _Rules(Protocol):
    @property
    def target_score(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


class SheetEntry(Protocol):
    """What was written on a line: a deal's request, or two numbers by hand with the pot after them."""

    @property
    def request(self) -> _Request | None: ...
    @property
    def points(self) -> tuple[int, int] | None: ...
    @property
    def pot(self) -> int | None: ...


class ScoredLine(Protocol):
    """A line with what the sheet computed for it."""

    @property
    def number(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def hanging(self) -> int: ...
    @property
    def totals(self) -> tuple[int, int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def drawn(self) -> bool: ...


class LineModel(Protocol):
    """A stored line as the game's pydantic model read it."""

    @property
    def deal(self) -> dict[str, Any] | None: ...
    @property
    def points(self) -> PointsModel | None: ...


RulesT = TypeVar("RulesT", bound=_Rules)
DealT = TypeVar("DealT")
EntryT = TypeVar("EntryT", bound=SheetEntry)
LineT = TypeVar("LineT", bound=ScoredLine)
ModelT = TypeVar("ModelT", bound=BaseModel)
FoundT = TypeVar("FoundT")


def check_written(a: object, b: object, pot: object) -> None:
    """Numbers written by hand must be whole numbers ≥ 0."""
    check_numbers((("A", a), ("B", b), ("pot", pot)))


def validate_sheet(model: type[ModelT], data: object) -> ModelT:
    """A stored sheet read by its game's model; SheetError names the first field that is not valid."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "sheet"
        raise SheetError(Msg("not a valid score sheet: {why}", {"why": err.get("msg", "")}), where) from None


def sheet_rules(found: tuple[FoundT, Sequence[Problem]]) -> FoundT:
    """Table options as the game's parser found them; SheetError names the first one that is not valid."""
    rules, problems = found
    if problems:
        raise SheetError(problems[0].message, problems[0].field)
    return rules


class BaseSheet(SheetLines[EntryT, LineT, tuple[int, int]], Generic[RulesT, DealT, EntryT, LineT]):
    """A match sheet for two teams under one set of table options (``rules``)."""

    def __init__(self, teams: Sequence[str] | None, rules: RulesT) -> None:
        if teams is not None and (len(teams) != 2 or not all(isinstance(t, str) and t.strip() for t in teams)):
            raise SheetError(Msg("a sheet needs two non-empty team names"), "teams")
        super().__init__()
        self.teams: tuple[str, str] | None = (teams[0].strip(), teams[1].strip()) if teams is not None else None
        self.rules: RulesT = rules

    def _no_totals(self) -> tuple[int, int]:
        return (0, 0)

    def _winner_name(self, winner: int) -> str | Msg:
        return self.teams[winner] if self.teams else DEFAULT_TEAM_NAMES[winner]

    # --- what each game supplies ---

    @abstractmethod
    def _deal_entry(self, deal: DealT) -> EntryT:
        """A deal of the sheet's game as a line to score (CalculatorError or SheetError when it is not valid)."""

    @abstractmethod
    def _correction(self, deal: DealT | tuple[int, int]) -> EntryT:
        """What ``correct`` writes on a line: a deal, or numbers by hand."""

    @abstractmethod
    def _stored_deal(self, deal: dict[str, Any]) -> DealT:
        """A stored line's deal as ``add`` takes it."""

    @abstractmethod
    def _written_entry(self, line: Any) -> EntryT:
        """Numbers by hand as the stored line (the game's ``LineModel``) has them."""

    @abstractmethod
    def _heading(self, names: tuple[str, str]) -> Msg:
        """The history's first row."""

    @abstractmethod
    def _what(self, line: LineT, names: tuple[str, str]) -> Msg:
        """What a scored deal's line says it was."""

    @abstractmethod
    def _shown(self, line: LineT) -> tuple[object, object]:
        """A line's two numbers as the history writes them."""

    @abstractmethod
    def _notes(self, line: LineT) -> list[Msg]:
        """What the history adds after a line (the pot, a valat)."""

    @abstractmethod
    def _goes_on(self) -> Msg:
        """Why the match goes on, or how a drawn one ended."""

    @abstractmethod
    def _stored_variant(self) -> dict[str, Any]:
        """The stored ``variant`` field ({} for the Bulgarian sheet, whose stored form never had it)."""

    # --- reading ---

    def names(self, lang: str) -> tuple[str, str]:
        if self.teams is not None:
            return self.teams
        return render_name(DEFAULT_TEAM_NAMES[0], lang), render_name(DEFAULT_TEAM_NAMES[1], lang)

    # --- writing ---

    def add(self, deal: DealT) -> LineT:
        """Add a scored deal of the sheet's game (an answer, a request, or a request as JSON); the sheet's pot and
        table options replace the request's ``hanging_in`` and ``rules``."""
        return self._append(self._deal_entry(deal))

    def correct(self, number: int, deal: DealT | tuple[int, int]) -> list[LineT]:
        """Replace line ``number`` (1-based) with a deal or two plain numbers; every later line is recomputed.

        Returns the lines after the correction. If the correction would end the match before the last line, the
        sheet is left unchanged and SheetError says so.
        """
        self._check_number(number)
        return self._replace(number, self._correction(deal))

    # --- showing ---

    def history(self, lang: str) -> list[str]:
        """The sheet as lines of text: each line's score, the running totals and the pot; then the verdict."""
        names = self.names(lang)
        rows = [self._heading(names).render(lang)]
        for line, entry in zip(self._lines, self._entries, strict=True):
            what = self._what(line, names) if entry.request is not None else Msg("written by hand")
            shown = self._shown(line)
            text = Msg("{number}. {sa} | {sb}  (total {ta} | {tb}; {what})", {
                "number": line.number, "sa": shown[0], "sb": shown[1],
                "ta": line.totals[0], "tb": line.totals[1], "what": what,
            }).render(lang)
            for note in self._notes(line):
                text += " " + note.render(lang)
            rows.append(text)
        rows.append(self.status(lang))
        return rows

    def status(self, lang: str) -> str:
        """Who won, or why the match goes on."""
        if not self._lines:
            return Msg("No deals yet; the first to {target} wins.",
                       {"target": self.rules.target_score}).render(lang)
        if self.winner is not None:
            return Msg("Winner: {team}, {ta} to {tb}.", {
                "team": self.names(lang)[self.winner], "ta": self.totals[self.winner],
                "tb": self.totals[1 - self.winner]}).render(lang)
        return self._goes_on().render(lang)

    # --- serialisation ---

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON (``belote-sheet/1``). ``score``, ``hanging`` and ``totals`` of each line and the
        ``winner`` are written for readers; ``from_json`` recomputes them from the entries."""
        lines = self._stored_lines(TEAM_KEYS, "teams")
        return {
            "format": SHEET_FORMAT,
            **self._stored_variant(),
            "teams": None if self.teams is None else {"A": self.teams[0], "B": self.teams[1]},
            "rules": self.rules.to_json(),
            "lines": lines,
            "winner": "draw" if self.drawn else None if self.winner is None else TEAM_KEYS[self.winner],
        }

    def _load(self, stored: Sequence[LineModel]) -> None:
        """Write the stored lines on this empty sheet (``from_json``); SheetError names the first bad field."""
        entries: list[EntryT] = []
        for i, line in enumerate(stored):
            if line.deal is not None:
                try:
                    entries.append(self._deal_entry(self._stored_deal(line.deal)))
                except CalculatorError as exc:
                    first = exc.problems[0]
                    raise SheetError(first.message, f"lines[{i}].deal.{first.field}") from None
            elif line.points is not None:
                entries.append(self._written_entry(line))
            else:
                raise SheetError(Msg("a line needs either deal or points"), f"lines[{i}]")
        self._lines = self._compute(entries)
        self._entries = entries


class TeamsModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    A: str = Field(min_length=1)
    B: str = Field(min_length=1)


class PointsModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    A: int = Field(ge=0)
    B: int = Field(ge=0)


class StoredSheet(BaseModel):
    """A stored sheet; each game's model narrows ``variant``, ``lines`` and ``winner`` (the fields keep this order)."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["belote-sheet/1"]
    variant: str | None = None
    teams: TeamsModel | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    lines: list[Any] = Field(default_factory=list)
    winner: str | None = None

    def team_names(self) -> tuple[str, str] | None:
        return None if self.teams is None else (self.teams.A, self.teams.B)
