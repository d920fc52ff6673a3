"""What every score sheet does with its lines, whether a column per team (``sheet_base.BaseSheet``) or per player
(``players_sheet.PlayersSheet``): each entry scored with the totals and pot before it, the verdict after the last line,
undo, and corrections that re-score every later line.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .errors import Msg

TotalsT_co = TypeVar("TotalsT_co", covariant=True)


class SheetError(ValueError):
    """A sheet operation that cannot be done, or a stored sheet that is not valid; ``message`` says why."""

    def __init__(self, message: Msg, field: str = "") -> None:
        self.message = message
        self.field = field
        super().__init__(self.render("en"))

    def render(self, lang: str) -> str:
        text = self.message.render(lang)
        return f"{self.field}: {text}" if self.field else text


def check_numbers(written: Iterable[tuple[str, object]]) -> None:
    """Numbers written by hand, each with its field, must be whole numbers ≥ 0 (None: not written)."""
    for key, value in written:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise SheetError(Msg("must be a whole number ≥ 0, not {value}", {"value": value}), key)


class _Request(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class Written(Protocol):
    """What was written on a line of any sheet: a deal's request, or a number per column by hand with the pot after
    them."""

    @property
    def request(self) -> _Request | None: ...
    @property
    def points(self) -> tuple[int, ...] | None: ...
    @property
    def pot(self) -> int | None: ...


class Verdict(Protocol[TotalsT_co]):
    """What a scored line of any sheet (of teams or of players) scored, and says of the match after it."""

    @property
    def score(self) -> TotalsT_co: ...
    @property
    def totals(self) -> TotalsT_co: ...
    @property
    def hanging(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def drawn(self) -> bool: ...


EntryT = TypeVar("EntryT", bound=Written)
LineT = TypeVar("LineT", bound=Verdict[Any])
TotalsT = TypeVar("TotalsT", bound=tuple[int, ...])


class SheetLines(ABC, Generic[EntryT, LineT, TotalsT]):
    """A sheet's entries and their scored lines; each sheet supplies how a line is scored (``_line``)."""

    def __init__(self) -> None:
        self._entries: list[EntryT] = []
        self._lines: list[LineT] = []

    @abstractmethod
    def _line(self, number: int, entry: EntryT, totals: TotalsT, hanging_in: int) -> LineT:
        """The line scored with the pot that reaches it, and the verdict after it."""

    @abstractmethod
    def _no_totals(self) -> TotalsT:
        """The totals before the first line."""

    @abstractmethod
    def _winner_name(self, winner: int) -> str | Msg:
        """The winner's name as the sheet writes it."""

    @abstractmethod
    def _written_json(self, entry: EntryT) -> dict[str, Any]:
        """The stored fields of numbers by hand after ``points`` and ``pot``."""

    # --- reading ---

    @property
    def lines(self) -> list[LineT]:
        return list(self._lines)

    @property
    def totals(self) -> TotalsT:
        return self._lines[-1].totals if self._lines else self._no_totals()

    @property
    def hanging(self) -> int:
        return self._lines[-1].hanging if self._lines else 0

    @property
    def winner(self) -> int | None:
        """The winner's column, or None while the match goes on (or ended in a draw)."""
        return self._lines[-1].winner if self._lines else None

    @property
    def drawn(self) -> bool:
        return bool(self._lines) and self._lines[-1].drawn

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    # --- writing ---

    def undo(self) -> LineT:
        """Remove the last line and return it."""
        if not self._lines:
            raise SheetError(Msg("the sheet is empty; there is no line to undo"))
        self._entries.pop()
        return self._lines.pop()

    def _check_number(self, number: int) -> None:
        """``number`` must be a line of the sheet (1-based)."""
        if not 1 <= number <= len(self._entries):
            raise SheetError(
                Msg(
                    "there is no line {number}; the lines are 1 to {last}",
                    {"number": number, "last": len(self._entries)},
                ),
                "line",
            )

    def _replace(self, number: int, entry: EntryT) -> list[LineT]:
        """Line ``number`` rewritten as ``entry`` and every later line re-scored; the sheet is left unchanged when
        that would end the match before the last line."""
        entries = [*self._entries[: number - 1], entry, *self._entries[number:]]
        self._lines = self._compute(entries)
        self._entries = entries
        return self.lines

    def _append(self, entry: EntryT) -> LineT:
        if self.winner is not None:
            raise SheetError(
                Msg(
                    "the match is over, the winner is {team}; start a new sheet",
                    {"team": self._winner_name(self.winner)},
                )
            )
        if self.drawn:
            raise SheetError(Msg("the match is over: a draw; start a new sheet"))
        line = self._line(len(self._lines) + 1, entry, self.totals, self.hanging)
        self._entries.append(entry)
        self._lines.append(line)
        return line

    def _compute(self, entries: Iterable[EntryT]) -> list[LineT]:
        lines: list[LineT] = []
        totals, hanging = self._no_totals(), 0
        for i, entry in enumerate(entries, 1):
            if lines and (lines[-1].winner is not None or lines[-1].drawn):
                raise SheetError(
                    Msg(
                        "this would end the match at line {number}, but there are lines after it; undo them first",
                        {"number": i - 1},
                    )
                )
            line = self._line(i, entry, totals, hanging)
            lines.append(line)
            totals, hanging = line.totals, line.hanging
        return lines

    # --- the stored form ---

    def _stored_lines(self, keys: Sequence[str], names: str) -> list[dict[str, Any]]:
        """Each line as stored, keyed by column (``keys``): its deal, less what the sheet itself keeps (the game, the
        pot, the options and the names, ``names``), or its numbers by hand; then ``score``, ``hanging`` and
        ``totals``, written for readers (reading recomputes them)."""
        lines = []
        for line, entry in zip(self._lines, self._entries, strict=True):
            item: dict[str, Any]
            if entry.request is not None:
                deal = entry.request.to_json()
                for key in ("variant", "hanging_in", "rules", names):
                    deal.pop(key, None)
                item = {"deal": deal}
            else:
                assert entry.points is not None
                points = dict(zip(keys, entry.points, strict=True))
                item = {"points": points, "pot": entry.pot, **self._written_json(entry)}
            item.update(
                {
                    "score": dict(zip(keys, line.score, strict=True)),
                    "hanging": line.hanging,
                    "totals": dict(zip(keys, line.totals, strict=True)),
                }
            )
            lines.append(item)
        return lines
