"""The match score sheet of a game of three or two players (`bela-3`, `bela-2`, `bela-open`, `bulgarian-3`,
`bulgarian-2`): one column per player, each line a scored deal or numbers written by hand, undo, corrections that
re-score every later deal, and the verdict after each line.

It keeps the shape of ``sheet_base.BaseSheet`` (add, add_points, undo, correct, history, status, to_json /
from_json), with a column per seat instead of a pair of teams. The end of the match is the game's: Bela "na prolaz"
(family §2.9: at least the target and more than every other player; level at the top plays on) and the Bulgarian
house rules of family §8.8 (to 151, more than each other player, the capot lock and the end options read with
"player" for "team"). A fallen Bela caller's nothing is written as a dash.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.bela import bela_verdict
from bot.engine.bulgarian_small import small_verdict
from bot.engine.rules import Rules

from .errors import CalculatorError, Msg
from .family_score import FALL_MARK
from .score import OUTCOME_NAMES
from .sheet_base import SHEET_FORMAT, sheet_rules, validate_sheet
from .sheet_lines import SheetError, SheetLines, check_numbers
from .small_request import BELA_SMALL, SEAT_KEYS, SEATS, SmallRequest, _small_rules, parse_small_request
from .small_score import SMALL_GAME_NAMES, SMALL_OUTCOMES, SmallAnswer, default_names, score_small_request
from .vocabulary import contract_name

DASHES: Final = frozenset({"—", "–", "-", "/"})
PlayersSource = SmallAnswer | SmallRequest | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PlayersEntry:
    """What was written on a line: a deal to score, or a number per player by hand (``dash``: written as a dash)."""

    request: SmallRequest | None = None
    points: tuple[int, ...] | None = None
    pot: int | None = None  # by hand: the Bulgarian pot after the line (None: as it was)
    dash: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayersLine:
    number: int
    entry: PlayersEntry
    score: tuple[int, ...]
    shown: tuple[str, ...]
    hanging_in: int
    hanging: int
    totals: tuple[int, ...]
    winner: int | None
    reason: str  # why the match goes on: below, tie, capot_lock, no_score, hanging (or "target")
    answer: SmallAnswer | None
    valat: bool = False

    @property
    def drawn(self) -> bool:
        return False  # these games never end in a draw


def written_numbers(words: Sequence[str], seats: int) -> tuple[tuple[int, ...], tuple[bool, ...]] | None:
    """A number (or a dash) per player as written by hand ("82 60 20", "— 140 22"); None when the words are not
    that many number-like words (then they are a deal). SheetError names a word that is not a whole number."""
    if len(words) != seats or not all(w in DASHES or w[:1].isdigit() for w in words):
        return None
    numbers: list[int] = []
    for key, word in zip(SEAT_KEYS, words, strict=False):
        if word in DASHES:
            numbers.append(0)
        elif word.isascii() and word.isdigit() and len(word) <= 6:
            numbers.append(int(word))
        else:
            raise SheetError(Msg("'{word}' is not a whole number; write each player's points in the digits 0-9, "
                                 "e.g. 82 60 20", {"word": word[:20]}), key)
    return tuple(numbers), tuple(w in DASHES for w in words)


def players_verdict(variant: str, rules: Any, totals: tuple[int, ...], line_score: tuple[int, ...],
                    valat: int | None, hanging: int) -> tuple[int | None, str]:
    """Who won after a line, or why the match goes on: Bela family §2.9; the Bulgarian games family §8.8 decided by
    the engine's ``small_verdict`` (``valat``: the player who took every trick), the reason only told for the
    sheet."""
    target = rules.target_score
    best = max(totals)
    if variant in BELA_SMALL:
        winner = bela_verdict(totals, target)
        return winner, "target" if winner is not None else "tie" if best >= target else "below"
    assert isinstance(rules, Rules)
    winner = small_verdict(rules, totals, line_score, hanging, valat)
    if winner is not None:
        return winner, "target"
    # Why the engine's verdict lets the match go on, in the order it asks.
    if valat is not None and rules.capot_blocks_finish:
        return None, "capot_lock"
    if best < target:
        return None, "below"
    if totals.count(best) > 1:
        return None, "tie"
    if rules.winner_must_score_last_deal and line_score[totals.index(best)] <= 0:
        return None, "no_score"
    return None, "hanging"


class PlayersSheet(SheetLines[PlayersEntry, PlayersLine, tuple[int, ...]]):
    """A match sheet of a 3- or 2-player game under one set of table options."""

    def __init__(self, variant: str, players: Sequence[str] | None = None, rules: Any = None,
                 made_rule: str = "each") -> None:
        if variant not in SEATS:
            raise SheetError(Msg("a sheet keeps bulgarian, bela or french"), "variant")
        super().__init__()
        self.variant = variant
        self.seats = SEATS[variant]
        if players is not None and (len(players) != self.seats or
                                    not all(isinstance(p, str) and p.strip() for p in players)):
            raise SheetError(Msg("a sheet of {game} needs {n} non-empty player names",
                                 {"game": SMALL_GAME_NAMES[variant], "n": self.seats}), "players")
        self.players: tuple[str, ...] | None = tuple(p.strip() for p in players) if players is not None else None
        if rules is None:
            rules, made_rule, _ = _small_rules(variant, {})
        self.rules = rules
        self.made_rule = made_rule

    @property
    def teams(self) -> tuple[str, ...] | None:
        """The players' names (the name the team sheets give their names)."""
        return self.players

    def rules_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self.rules.model_dump(exclude_defaults=True)
        if self.made_rule != "each":
            data["made_rule"] = self.made_rule
        return data

    def _no_totals(self) -> tuple[int, ...]:
        return (0,) * self.seats

    def _winner_name(self, winner: int) -> str | Msg:
        return self.players[winner] if self.players else default_names(self.seats)[winner]

    def _written_json(self, entry: PlayersEntry) -> dict[str, Any]:
        return {"dash": [SEAT_KEYS[s] for s in range(self.seats) if entry.dash[s]]}

    # --- reading ---

    def names(self, lang: str) -> tuple[str, ...]:
        if self.players is not None:
            return self.players
        return tuple(n.render(lang) for n in default_names(self.seats))

    # --- writing ---

    def add(self, deal: PlayersSource) -> PlayersLine:
        """Add a scored deal of the sheet's game; the sheet's pot, options and names replace the request's."""
        return self._append(PlayersEntry(request=self._request(deal)))

    def add_points(self, *numbers: int, pot: int | None = None, dash: Sequence[bool] = (),
                   valat: bool = False) -> PlayersLine:
        """A number per player as written by hand (``dash``: the players written as a dash, who wrote 0)."""
        return self._append(self._plain(tuple(numbers), pot, tuple(dash)))

    def correct(self, number: int, deal: PlayersSource | tuple[int, ...] | tuple[tuple[int, ...], tuple[
            bool, ...]]) -> list[PlayersLine]:
        """Replace line ``number`` (1-based) with a deal or a number per player; every later line is re-scored."""
        self._check_number(number)
        if isinstance(deal, tuple) and deal and isinstance(deal[0], tuple):
            entry = self._plain(deal[0], None, deal[1])
        elif isinstance(deal, tuple):
            entry = self._plain(deal, None, ())  # type: ignore[arg-type]
        else:
            entry = PlayersEntry(request=self._request(deal))
        return self._replace(number, entry)

    def _request(self, deal: object) -> SmallRequest:
        if isinstance(deal, SmallAnswer):
            data = deal.request.to_json()
        elif isinstance(deal, SmallRequest):
            data = deal.to_json()
        elif isinstance(deal, Mapping):
            data = dict(deal)
        else:
            from .family_sheet import wrong_game  # it reads the game's names

            raise wrong_game(self.variant, getattr(deal, "variant", "bulgarian"))
        if data.get("variant", "bulgarian") != self.variant:
            from .family_sheet import wrong_game

            raise wrong_game(self.variant, data.get("variant", "bulgarian"))
        data.update(rules=self.rules_json())
        if self.variant.startswith("bulgarian"):
            data["hanging_in"] = 0
        else:
            data.pop("hanging_in", None)
        data.pop("players", None)
        return dataclasses.replace(parse_small_request(data), players=self.players)

    def _plain(self, numbers: tuple[int, ...], pot: int | None, dash: tuple[bool, ...]) -> PlayersEntry:
        if len(numbers) != self.seats:
            raise SheetError(Msg("write a number for each of the {n} players, e.g. {example}", {
                "n": self.seats, "example": "82 60 20" if self.seats == 3 else "90 72"}), "points")
        check_numbers([*zip(SEAT_KEYS, numbers, strict=False), ("pot", pot)])
        marks = tuple(bool(dash[s]) and numbers[s] == 0 if s < len(dash) else False for s in range(self.seats))
        return PlayersEntry(points=numbers, pot=pot, dash=marks)

    def _line(self, number: int, entry: PlayersEntry, totals: tuple[int, ...], hanging_in: int) -> PlayersLine:
        answer: SmallAnswer | None = None
        if entry.request is not None:
            request = entry.request.with_hanging(hanging_in) if self.variant.startswith("bulgarian") else \
                entry.request
            answer = score_small_request(request)
            score, hanging, shown, valat = answer.result.score, answer.result.hanging, answer.shown(), answer.valat
            swept = answer.request.valat
            if self.variant in BELA_SMALL:
                hanging = hanging_in  # Bela of three or two never holds points; a written pot stays
        else:
            assert entry.points is not None
            score = entry.points
            hanging = hanging_in if entry.pot is None else entry.pot
            shown = tuple(FALL_MARK if entry.dash[s] else str(score[s]) for s in range(self.seats))
            valat, swept = False, None
        new = tuple(t + s for t, s in zip(totals, score, strict=True))
        winner, reason = players_verdict(self.variant, self.rules, new, score, swept, hanging)
        return PlayersLine(number, entry, score, shown, hanging_in, hanging, new, winner, reason, answer, valat)

    # --- showing ---

    def history(self, lang: str) -> list[str]:
        """The sheet as text: a column per player, each line's numbers, the running totals and the pot; then the
        verdict."""
        names = self.names(lang)
        rows = [Msg("{game}: {names}", {"game": SMALL_GAME_NAMES[self.variant],
                                        "names": " | ".join(names)}).render(lang)]
        for line in self._lines:
            what = self._what(line, names) if line.entry.request is not None else Msg("written by hand")
            text = Msg("{number}. {scores}  (total {totals}; {what})", {
                "number": line.number, "scores": " | ".join(line.shown),
                "totals": " | ".join(str(t) for t in line.totals), "what": what}).render(lang)
            if line.hanging:
                text += " " + Msg("{n} hanging", {"n": line.hanging}).render(lang)
            rows.append(text)
        rows.append(self.status(lang))
        return rows

    def _what(self, line: PlayersLine, names: tuple[str, ...]) -> Msg:
        assert line.answer is not None
        request, result = line.answer.request, line.answer.result
        if request.is_bela:
            return Msg("{player} called: {outcome}", {"player": names[request.declarer],
                                                    "outcome": SMALL_OUTCOMES[result.outcome]})
        return Msg("{contract} by {player}, {outcome}", {
            "contract": contract_name(request.contract or 0), "player": names[request.declarer],
            "outcome": OUTCOME_NAMES[result.outcome]})

    def status(self, lang: str) -> str:
        target = self.rules.target_score
        if not self._lines:
            return Msg("No deals yet; the first to {target} wins.", {"target": target}).render(lang)
        if self.winner is not None:
            return Msg("Winner: {player}, with {total}.", {"player": self.names(lang)[self.winner],
                                                          "total": self.totals[self.winner]}).render(lang)
        reasons = {
            "capot_lock": Msg("The last deal was a valat: nobody goes out on a valat; one more deal."),
            "tie": Msg("Level at {total} above the target: play on until one player leads.",
                       {"total": max(self.totals)}),
            "no_score": Msg("The leader wrote nothing in the last deal, so he cannot go out on it (table option)."),
            "hanging": Msg("Points are hanging, and nobody goes out while they hang (table option)."),
        }
        reason = reasons.get(self._lines[-1].reason, Msg("Nobody has reached {target} yet.", {"target": target}))
        return reason.render(lang)

    # --- serialisation ---

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON (``belote-sheet/1`` with ``variant`` and ``players`` keyed by seat)."""
        keys = SEAT_KEYS[: self.seats]
        lines = self._stored_lines(keys, "players")
        return {
            "format": SHEET_FORMAT,
            "variant": self.variant,
            "players": None if self.players is None else dict(zip(keys, self.players, strict=True)),
            "rules": self.rules_json(),
            "lines": lines,
            "winner": None if self.winner is None else keys[self.winner],
        }

    @classmethod
    def from_json(cls, data: object) -> PlayersSheet:
        """Rebuild a sheet from ``to_json`` output; SheetError names the first field that is not valid."""
        model = validate_sheet(_SheetModel, data)
        rules, made_rule, problems = _small_rules(model.variant, model.rules)
        sheet_rules((rules, problems))
        seats = SEATS[model.variant]
        keys = SEAT_KEYS[:seats]
        players = None
        if model.players is not None:
            if set(model.players) != set(keys):
                raise SheetError(Msg("must name each seat, {seats}", {"seats": ", ".join(keys)}), "players")
            players = [model.players[k] for k in keys]
        sheet = cls(model.variant, players, rules, made_rule)
        entries: list[PlayersEntry] = []
        for i, line in enumerate(model.lines):
            if line.deal is not None:
                try:
                    entries.append(PlayersEntry(request=sheet._request({**line.deal, "variant": model.variant})))
                except CalculatorError as exc:
                    first = exc.problems[0]
                    raise SheetError(first.message, f"lines[{i}].deal.{first.field}") from None
            elif line.points is not None:
                if set(line.points) != set(keys):
                    raise SheetError(Msg("must name each seat, {seats}", {"seats": ", ".join(keys)}),
                                     f"lines[{i}].points")
                entries.append(sheet._plain(tuple(line.points[k] for k in keys), line.pot,
                                            tuple(k in line.dash for k in keys)))
            else:
                raise SheetError(Msg("a line needs either deal or points"), f"lines[{i}]")
        sheet._lines = sheet._compute(entries)
        sheet._entries = entries
        return sheet


class _LineModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deal: dict[str, Any] | None = None
    points: dict[str, int] | None = None
    pot: int | None = Field(default=None, ge=0)
    dash: list[str] = Field(default_factory=list)
    score: dict[str, int] | None = None
    hanging: int | None = None
    totals: dict[str, int] | None = None


class _SheetModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["belote-sheet/1"]
    variant: Literal["bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2"]
    players: dict[str, str] | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    lines: list[_LineModel] = Field(default_factory=list)
    winner: str | None = None
