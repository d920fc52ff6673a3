"""The match score sheet: lines of written game points for two teams, the hanging pot and the winner (rules §8–§9).

A pure model. A line is either a scored deal (its request is kept, so a correction of an earlier line can
re-score every later deal with the pot that now reaches it) or two plain numbers written by hand. The winner is
decided after every line with the engine's ``match_verdict``: the target, ties above it, the capot lock and the
end options. Storing a sheet is the host's job: ``to_json`` / ``ScoreSheet.from_json``. What every game's sheet does
alike is written once in ``sheet_base.BaseSheet``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.rules import DEFAULT_RULES, Rules
from bot.engine.scoring import DealResult, MatchVerdict, match_verdict

from .errors import Msg
from .request import DealRequest, parse_request, rules_problems
from .score import OUTCOME_NAMES, DealAnswer, score_request
from .sheet_base import (
    SHEET_FORMAT,
    BaseSheet,
    PointsModel,
    SheetError,
    StoredSheet,
    check_written,
    sheet_rules,
    validate_sheet,
)
from .vocabulary import contract_name

__all__ = ["SHEET_FORMAT", "AddSource", "Entry", "ScoreSheet", "SheetError", "SheetLine"]


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

    @property
    def winner(self) -> int | None:
        return self.verdict.winner

    @property
    def drawn(self) -> bool:
        return False  # a Bulgarian match plays on until one team wins


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


class ScoreSheet(BaseSheet[Rules, AddSource, Entry, SheetLine]):
    """A match sheet of the Bulgarian game for two teams under one set of table options."""

    def __init__(self, teams: Sequence[str] | None = None, rules: Rules = DEFAULT_RULES) -> None:
        super().__init__(teams, rules)
        self.variant = "bulgarian"

    @property
    def verdict(self) -> MatchVerdict | None:
        return self._lines[-1].verdict if self._lines else None

    def add_points(self, a: int, b: int, pot: int | None = None, valat: bool = False) -> SheetLine:
        """Add two plain numbers as written by hand (see ``Entry`` for ``pot`` and ``valat``)."""
        return self._append(self._plain(a, b, pot, valat))

    # --- the Bulgarian game's lines ---

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

    def _deal_entry(self, deal: AddSource) -> Entry:
        return Entry(request=self._request(deal))

    def _stored_deal(self, deal: dict[str, Any]) -> AddSource:
        return deal

    def _plain(self, a: int, b: int, pot: int | None, valat: bool) -> Entry:
        check_written(a, b, pot)
        return Entry(points=(a, b), pot=pot, valat=valat)

    def _correction(self, deal: AddSource | tuple[int, int]) -> Entry:
        if isinstance(deal, tuple):
            return self._plain(deal[0], deal[1], None, False)
        return self._deal_entry(deal)

    def _written_entry(self, line: _LineModel) -> Entry:
        assert line.points is not None
        return self._plain(line.points.A, line.points.B, line.pot, line.valat)

    def _written_json(self, entry: Entry) -> dict[str, Any]:
        return {"valat": entry.valat}

    def _stored_variant(self) -> dict[str, Any]:
        return {}

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

    # --- the Bulgarian game's words ---

    def _heading(self, names: tuple[str, str]) -> Msg:
        return Msg("{a} | {b}", {"a": names[0], "b": names[1]})

    def _what(self, line: SheetLine, names: tuple[str, str]) -> Msg:
        assert line.answer is not None
        return Msg("{contract}, {outcome}", {
            "contract": contract_name(line.answer.request.contract),
            "outcome": OUTCOME_NAMES[line.answer.result.outcome],
        })

    def _shown(self, line: SheetLine) -> tuple[object, object]:
        return line.score

    def _notes(self, line: SheetLine) -> list[Msg]:
        notes: list[Msg] = []
        if line.hanging:
            notes.append(Msg("{n} hanging", {"n": line.hanging}))
        if line.valat:
            notes.append(Msg("(valat)"))
        return notes

    def _goes_on(self) -> Msg:
        assert self.verdict is not None
        reasons = {
            "capot_lock": Msg("The last deal was a valat: nobody goes out on a valat; one more deal."),
            "tie": Msg("Level at {total} above the target: play on until one team leads.",
                       {"total": self.totals[0]}),
            "no_score": Msg("The leaders wrote nothing in the last deal, so they cannot go out on it (table option)."),
            "hanging": Msg("Points are hanging, and nobody goes out while they hang (table option)."),
            "below": Msg("Nobody has reached {target} yet.", {"target": self.rules.target_score}),
        }
        return reasons.get(self.verdict.reason, reasons["below"])

    # --- serialisation ---

    @classmethod
    def from_json(cls, data: object) -> ScoreSheet:
        """Rebuild a sheet from ``to_json`` output; SheetError names the first field that is not valid."""
        model = validate_sheet(_SheetModel, data)
        sheet = cls(model.team_names(), sheet_rules(rules_problems(model.rules)))
        sheet._load(model.lines)
        return sheet


class _LineModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deal: dict[str, Any] | None = None
    points: PointsModel | None = None
    pot: int | None = Field(default=None, ge=0)
    valat: bool = False
    # Written for readers; recomputed on load.
    score: dict[str, int] | None = None
    hanging: int | None = None
    totals: dict[str, int] | None = None


class _SheetModel(StoredSheet):
    variant: Literal["bulgarian"] | None = None
    lines: list[_LineModel] = Field(default_factory=list)
    winner: Literal["A", "B"] | None = None
