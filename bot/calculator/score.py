"""Scoring a real-life deal with the engine's own ``score_deal``, and explaining the result step by step.

The explanation is a list of ``Msg`` steps (message id and values), rendered in the asker's language only when
shown; the numbers in it are read from the engine's result, never recomputed by other rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from bot.engine.calls import NO_TRUMPS
from bot.engine.declarations import BELOTE_POINTS, declarations_forfeited
from bot.engine.scoring import DealResult, round_team, round_total, score_deal

from .compare import CountedDeclarations, count_declarations
from .errors import Msg
from .request import DealRequest, deal_total, parse_request
from .vocabulary import Declared, contract_name, declared_name

if TYPE_CHECKING:
    from .family_score import FamilyAnswer
    from .small_score import SmallAnswer

DEFAULT_TEAM_NAMES: Final = (Msg("We"), Msg("You"))
SMALL_SEATS: Final = {"bela-3": 3, "bela-2": 2, "bela-open": 2, "bulgarian-3": 3, "bulgarian-2": 2}
OUTCOME_NAMES: Final = {
    # Whole phrases, not bare words: every domain shares one lookup, and "inside" alone means other things.
    "made": Msg("the game is made"),
    "inside": Msg("the game is inside"),
    "hanging": Msg("the game hangs"),
}


def team_names(request: DealRequest) -> tuple[str | Msg, str | Msg]:
    return request.teams if request.teams is not None else DEFAULT_TEAM_NAMES


def render_name(name: str | Msg, lang: str) -> str:
    return name.render(lang) if isinstance(name, Msg) else name


class _Scored(Protocol):
    @property
    def raw(self) -> Sequence[int]: ...
    @property
    def score(self) -> Sequence[int]: ...
    @property
    def hanging(self) -> int: ...
    @property
    def outcome(self) -> str: ...


class ExplainedAnswer:
    """What every game's answer does alike: the team names, the steps in words, the JSON answer and the text for
    a chat. Each game's answer supplies ``summary`` and whatever its JSON adds (``_more_json``)."""

    __slots__ = ()
    result: _Scored
    steps: tuple[Msg, ...]

    def _teams(self) -> tuple[str, str] | None:
        raise NotImplementedError

    def _more_json(self) -> dict[str, Any]:
        return {}

    def summary(self, lang: str) -> str:
        raise NotImplementedError

    def names(self, lang: str) -> tuple[str, str]:
        teams = self._teams()
        a, b = teams if teams is not None else DEFAULT_TEAM_NAMES
        return render_name(a, lang), render_name(b, lang)

    def explanation(self, lang: str) -> list[str]:
        return [step.render(lang) for step in self.steps]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The answer: ``raw``, ``score``, ``hanging``, ``outcome``, what the game adds, ``explanation``, with
        teams keyed "A"/"B"; ``teams`` echoes the display names the explanation uses."""
        r = self.result
        names = self.names(lang)
        return {
            "raw": {"A": r.raw[0], "B": r.raw[1]},
            "score": {"A": r.score[0], "B": r.score[1]},
            "hanging": r.hanging,
            "outcome": r.outcome,
            **self._more_json(),
            "explanation": self.explanation(lang),
            "teams": {"A": names[0], "B": names[1]},
        }

    def render(self, lang: str) -> str:
        """The answer in words: the summary, then the numbered steps."""
        lines = [self.summary(lang)]
        lines += [f"{i}. {text}" for i, text in enumerate(self.explanation(lang), 1)]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class DealAnswer(ExplainedAnswer):
    """A scored real-life deal: the request, the engine's result and the steps that explain it."""

    request: DealRequest
    result: DealResult
    counted: CountedDeclarations
    steps: tuple[Msg, ...]

    @property
    def valat(self) -> bool:
        return self.result.valat is not None

    def _teams(self) -> tuple[str, str] | None:
        return self.request.teams  # the answer of formats.md §5

    def summary(self, lang: str) -> str:
        """One line for a chat: who writes what, the outcome, what hangs."""
        a, b = self.names(lang)
        r = self.result
        line = Msg(
            "{a} {sa} : {b} {sb} ({outcome})",
            {"a": a, "sa": r.score[0], "b": b, "sb": r.score[1], "outcome": OUTCOME_NAMES[r.outcome]},
        ).render(lang)
        if r.hanging:
            line += " " + Msg("{n} hanging", {"n": r.hanging}).render(lang)
        return line


def score(data: object) -> DealAnswer | FamilyAnswer | SmallAnswer:
    """Score a request given as parsed JSON: formats §5, or §7.5 with a ``variant`` of the family (raises
    CalculatorError naming each bad field)."""
    if isinstance(data, dict) and data.get("variant") in ("bela", "french"):
        from .family_score import score_family  # it builds on this module

        return score_family(data)
    if isinstance(data, dict) and isinstance(data.get("variant"), str) and data["variant"] in SMALL_SEATS:
        from .small_score import score_small  # it builds on this module

        return score_small(data)
    return score_request(parse_request(data))


def score_request(request: DealRequest) -> DealAnswer:
    names = team_names(request)
    rules = request.rules
    steps: list[Msg] = []
    declared: list[tuple[Declared, ...]] = list(request.declarations)
    for loser in (0, 1):
        if declared[loser] and declarations_forfeited(loser, request.valat, rules):
            steps.append(Msg("{team}: no trick taken, so its declarations and belotes are lost (table option).",
                             {"team": names[loser]}))
            declared[loser] = ()
    counted = count_declarations((declared[0], declared[1]), rules, names)
    belotes = tuple(BELOTE_POINTS * sum(1 for d in declared[t] if d.is_belote) for t in (0, 1))
    result = score_deal(
        request.contract,
        request.multiplier,
        request.declarer,
        request.points,
        counted.points,
        (belotes[0], belotes[1]),
        request.valat,
        request.hanging_in,
        rules,
    )
    steps = _head(request, names) + steps
    steps += _declaration_steps(declared, counted, names)
    steps += _raw_steps(request, result, names)
    steps += _verdict_steps(result, names)
    return DealAnswer(request, result, counted, tuple(steps))


# --- the steps ---


def _head(request: DealRequest, names: tuple[str | Msg, str | Msg]) -> list[Msg]:
    d = request.declarer
    params = {"contract": contract_name(request.contract), "team": names[d]}
    if request.multiplier == 2:
        first = Msg("Contract: {contract} with contra (×2), declared by {team}.", params)
    elif request.multiplier == 4:
        first = Msg("Contract: {contract} with recontra (×4), declared by {team}.", params)
    else:
        first = Msg("Contract: {contract}, declared by {team}.", params)
    a, b = request.points
    points = Msg(
        "Card points with the last ten: {a} {pa}, {b} {pb} (together {total}).",
        {"a": names[0], "pa": a, "b": names[1], "pb": b, "total": deal_total(request.contract)},
    )
    return [first, points]


def _items(decls: list[Declared]) -> tuple[Msg, ...]:
    return tuple(declared_name(d) for d in decls)


def _declaration_steps(
    declared: list[tuple[Declared, ...]], counted: CountedDeclarations, names: tuple[str | Msg, str | Msg]
) -> list[Msg]:
    steps: list[Msg] = []
    for t in (0, 1):
        combos = [(i, d) for i, d in enumerate(declared[t]) if not d.is_belote]
        if not combos:
            continue
        yes = [d for i, d in combos if i in counted.counted[t]]
        no = [d for i, d in combos if i not in counted.counted[t]]
        other = 1 - t
        if not no:
            steps.append(Msg("{team}: {items}, counted, {points} points.",
                             {"team": names[t], "items": _items(yes), "points": counted.points[t]}))
        elif yes:
            steps.append(Msg(
                "{team}: {items}, counted, {points} points; {lost}, not counted (beaten by {other}).",
                {"team": names[t], "items": _items(yes), "points": counted.points[t], "lost": _items(no),
                 "other": names[other]},
            ))
        elif counted.counted[other]:
            steps.append(Msg("{team}: {items}, not counted: the higher declaration belongs to {other}.",
                             {"team": names[t], "items": _items(no), "other": names[other]}))
        else:
            steps.append(Msg("{team}: {items}, not counted: equal to the best of {other}, so both cancel.",
                             {"team": names[t], "items": _items(no), "other": names[other]}))
    for t in (0, 1):
        n = sum(1 for d in declared[t] if d.is_belote)
        if n:
            steps.append(Msg("{team}: belote ×{n}, {points} points (a belote is never compared).",
                             {"team": names[t], "n": n, "points": n * BELOTE_POINTS}))
    return steps


def _raw_steps(request: DealRequest, result: DealResult, names: tuple[str | Msg, str | Msg]) -> list[Msg]:
    steps: list[Msg] = []
    if request.contract == NO_TRUMPS:
        steps.append(Msg(
            "No trumps: the points are doubled: {a} {pa} × 2 = {da}, {b} {pb} × 2 = {db}.",
            {"a": names[0], "pa": request.points[0] + result.declarations[0], "da":
             2 * (request.points[0] + result.declarations[0]), "b": names[1],
             "pb": request.points[1] + result.declarations[1], "db": 2 * (request.points[1] + result.declarations[1])},
        ))
    if result.valat is not None:
        bonus = result.raw[result.valat] - _raw_without_valat(request, result)
        steps.append(Msg("Valat: every trick went to {team}, +{bonus}.", {"team": names[result.valat], "bonus": bonus}))
    steps.append(Msg("Raw points: {a} {ra}, {b} {rb}.",
                     {"a": names[0], "ra": result.raw[0], "b": names[1], "rb": result.raw[1]}))
    return steps


def _raw_without_valat(request: DealRequest, result: DealResult) -> int:
    t = result.valat
    assert t is not None
    base = request.points[t] + result.declarations[t]
    return 2 * base if request.contract == NO_TRUMPS else base + result.belotes[t]


def _rounding(contract: int, raw: int, written: int, higher: bool) -> Msg:
    """How one team's raw points became game points, read from the engine's rounding."""
    if contract == NO_TRUMPS:
        return Msg("{raw} → {points} (no trumps: to the nearest ten)", {"raw": raw, "points": written})
    if round_team(contract, raw, True) != round_team(contract, raw, False):
        if higher:
            return Msg("{raw} → {points} (ends in {r}: the team with more points rounds down, the other up)",
                       {"raw": raw, "points": written, "r": raw % 10})
        return Msg("{raw} → {points} (ends in {r}: the team with fewer points, or the hanging part, rounds up)",
                   {"raw": raw, "points": written, "r": raw % 10})
    if raw % 10 == 0:
        return Msg("{raw} → {points}", {"raw": raw, "points": written})
    if written * 10 < raw:
        return Msg("{raw} → {points} (rounded down)", {"raw": raw, "points": written})
    return Msg("{raw} → {points} (rounded up)", {"raw": raw, "points": written})


def _verdict_steps(result: DealResult, names: tuple[str | Msg, str | Msg]) -> list[Msg]:
    d = result.declarer
    o = 1 - d
    c = result.contract
    raw = result.raw
    total = raw[0] + raw[1]
    steps: list[Msg] = []
    if result.outcome == "made":
        steps.append(Msg("The declarers ({declarers}) have more, {d} to {o}: the game is made.",
                         {"declarers": names[d], "d": raw[d], "o": raw[o]}))
    elif result.outcome == "inside":
        steps.append(Msg("The declarers ({declarers}) have less, {d} to {o}: they are inside.",
                         {"declarers": names[d], "d": raw[d], "o": raw[o]}))
    else:
        steps.append(Msg("Both teams have {d}: the game hangs.", {"d": raw[d]}))
    carried = result.hanging_in
    if result.multiplier > 1:
        word = Msg("contra") if result.multiplier == 2 else Msg("recontra")
        rt = round_total(total)
        if result.outcome != "hanging":
            w = d if result.outcome == "made" else o
            written = result.score[w] - carried
            m = written // rt if rt else result.multiplier
            steps.append(Msg(
                "With {contra} the team with more points, {team}, writes the whole deal: {total} → {rounded}, "
                "× {m} = {written}.",
                {"contra": word, "team": names[w], "total": total, "rounded": rt, "m": m, "written": written},
            ))
            if result.valat is not None and m == 1:
                steps.append(Msg("A valat is not multiplied by contra (table option)."))
        elif result.score[o] == 0:
            steps.append(Msg(
                "With {contra} and equal points nobody writes: the whole deal, {rounded} × {m} = {hang}, hangs.",
                {"contra": word, "rounded": rt, "m": result.multiplier, "hang": result.hanging - carried},
            ))
        else:
            steps.append(Msg(
                "With {contra} and equal points the defenders ({defenders}) write their half, {written}; the half of "
                "the declarers ({declarers}), {hang}, hangs (table option).",
                {"contra": word, "defenders": names[o], "written": result.score[o], "declarers": names[d],
                 "hang": result.hanging - carried},
            ))
    elif result.outcome == "inside":
        kept = result.score[d]
        if kept:
            steps.append(Msg(
                "The declarers ({declarers}) are inside but keep their belotes, {kept} (table option); the "
                "defenders ({defenders}) write the rest of {total} → {rounded}: {written}.",
                {"declarers": names[d], "kept": kept, "defenders": names[o], "total": total,
                 "rounded": round_total(total), "written": result.score[o] - carried},
            ))
        else:
            steps.append(Msg("The defenders ({defenders}) write everything: {total} → {written}.",
                             {"defenders": names[o], "total": total, "written": result.score[o] - carried}))
    elif result.outcome == "hanging":
        steps.append(Msg("The defenders ({team}) write their own points: {rounding}.",
                         {"team": names[o], "rounding": _rounding(c, raw[o], result.score[o], True)}))
        hang = result.hanging - carried
        steps.append(Msg("The points of the declarers ({team}) hang for the next deal: {rounding}.",
                         {"team": names[d], "rounding": _rounding(c, raw[d], hang, False)}))
    else:
        steps.append(Msg("{team}: {rounding}.", {"team": names[d],
                                                 "rounding": _rounding(c, raw[d], result.score[d] - carried, True)}))
        steps.append(Msg("{team}: {rounding}.", {"team": names[o],
                                                 "rounding": _rounding(c, raw[o], result.score[o], False)}))
    if carried:
        if result.collected is not None:
            steps.append(Msg("The {n} hanging points go to {team}.",
                             {"team": names[result.collected], "n": carried}))
        else:
            steps.append(Msg("The {n} points that were hanging stay in the pot.", {"n": carried}))
    steps.append(Msg(
        "Written: {a} {sa}, {b} {sb}; hanging after the deal: {h}.",
        {"a": names[0], "sa": result.score[0], "b": names[1], "sb": result.score[1], "h": result.hanging},
    ))
    return steps

