"""Scoring a real-life Bela or French deal with the engine's ``score_bela`` / ``score_french``, and explaining it.

The written numbers, the held points and the outcome come from the engine; the steps only show how the rules of
family §3.7 and §7.8 reach them, so the explanation and the engine cannot disagree about a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.engine.bela import BelaRules, score_bela
from bot.engine.french import FrenchRules, score_french
from bot.engine.trumpdeal import DealScore

from .errors import Msg
from .family_request import DEAL_POINTS, FamilyRequest, parse_family_request
from .score import DEFAULT_TEAM_NAMES, ExplainedAnswer
from .vocabulary import declared_name

FALL_MARK: Final = "—"  # what a fallen calling side writes on the sheet instead of 0
OUTCOMES: Final = {
    "passed": Msg("the callers pass"),
    "fell": Msg("the callers fall"),
    "visi": Msg("the callers' points are held"),
    "made": Msg("the takers make it"),
    "failed": Msg("the takers are dedans"),
    "litige": Msg("litige"),
}
GAME_NAMES: Final = {
    "bela": Msg("Bela"), "french": Msg("French belote"), "bulgarian": Msg("Bulgarian belote"),
    "bela-3": Msg("Bela for three"), "bela-2": Msg("Bela for two"), "bela-open": Msg("Open-card Bela"),
    "bulgarian-3": Msg("Bulgarian belote for three (house rules)"),
    "bulgarian-2": Msg("Bulgarian belote for two (house rules)"),
}

Name = str | Msg


def written(score: int, fell_side: bool) -> str:
    """A written number as the sheet shows it: a dash for a fallen Bela caller that writes nothing (family §3.7)."""
    return FALL_MARK if fell_side and score == 0 else str(score)


@dataclass(frozen=True, slots=True)
class FamilyAnswer(ExplainedAnswer):
    """A scored Bela or French deal: the request, the engine's result and the steps that explain it."""

    request: FamilyRequest
    result: DealScore
    steps: tuple[Msg, ...]

    @property
    def valat(self) -> bool:
        return self.request.valat is not None

    @property
    def variant(self) -> str:
        return self.request.variant

    def _teams(self) -> tuple[str, str] | None:
        return self.request.teams

    def shown(self) -> tuple[str, str]:
        """The two written numbers, a fallen calling side's 0 as a dash."""
        d, r = self.request.declarer, self.result
        dash = r.fell and self.variant == "bela"  # French writes the failed takers' 0 (family §12.5)
        return (written(r.score[0], dash and d == 0), written(r.score[1], dash and d == 1))

    def _more_json(self) -> dict[str, Any]:
        return {"fell": self.result.fell}  # the answer of formats §7.5 adds it after ``outcome``

    def summary(self, lang: str) -> str:
        a, b = self.names(lang)
        sa, sb = self.shown()
        line = Msg("{game}: {a} {sa} : {b} {sb} ({outcome})", {
            "game": GAME_NAMES[self.variant], "a": a, "sa": sa, "b": b, "sb": sb,
            "outcome": OUTCOMES[self.result.outcome]}).render(lang)
        if self.result.hanging:
            line += " " + Msg("{n} held", {"n": self.result.hanging}).render(lang)
        return line


def score_family(data: dict[str, Any]) -> FamilyAnswer:
    """Score a §7.5 request of "bela" or "french" given as parsed JSON (CalculatorError names each bad field)."""
    return score_family_request(parse_family_request(data))


def score_family_request(request: FamilyRequest) -> FamilyAnswer:
    rules = request.rules
    declared = (request.declared_points(0), request.declared_points(1))
    belas = (request.belas(0), request.belas(1))
    if isinstance(rules, BelaRules):
        result = score_bela(rules, request.declarer, request.points, request.valat, declared, request.contest,
                            belas, request.hanging_in)
    else:
        assert isinstance(rules, FrenchRules)
        result = score_french(rules, request.declarer, request.points, request.valat, declared, request.contest,
                              belas, request.hanging_in)
    names: tuple[Name, Name] = request.teams or DEFAULT_TEAM_NAMES
    steps = _head(request, names) + _contest_steps(request, names) + _total_steps(request, result, names)
    steps += _verdict_steps(request, result, names)
    return FamilyAnswer(request, result, tuple(steps))


# --- the steps ---


def _head(request: FamilyRequest, names: tuple[Name, Name]) -> list[Msg]:
    d = request.declarer
    bela = request.variant == "bela"
    steps = [Msg("Called by {team}.", {"team": names[d]}) if bela else Msg("Taken by {team}.", {"team": names[d]})]
    a, b = request.points
    if request.valat is None and request.given != (True, True):
        known = 0 if request.given[0] else 1
        steps.append(Msg("{team} took {total} − {known} = {rest}.", {
            "team": names[1 - known], "total": DEAL_POINTS, "known": request.points[known],
            "rest": request.points[1 - known]}))
    elif request.valat is None:
        steps.append(Msg("Card points with the last trick: {a} {pa}, {b} {pb}.",
                         {"a": names[0], "pa": a, "b": names[1], "pb": b}))
    return steps


def _contest_steps(request: FamilyRequest, names: tuple[Name, Name]) -> list[Msg]:
    w = request.contest
    if w is None:
        return []
    lo = 1 - w
    items = tuple(declared_name(x) for x in request.combos(w))
    params = {"winner": names[w], "items": items, "points": request.declared_points(w), "loser": names[lo]}
    if not request.combos(lo):
        return [Msg("{winner} declared {items}: {points}.", params)]
    lost = tuple(declared_name(x) for x in request.combos(lo))
    if request.declarations_winner is not None:
        return [Msg("The declarations of {winner} won at the table (declarations_winner): {items}, {points}; "
                    "{lost} ({loser}) do not count.", {**params, "lost": lost})]
    return [Msg("{items} ({winner}) beat {lost} ({loser}): the declarations of {winner} count, {points}; those of "
                "{loser} do not.", {**params, "lost": lost})]


def _parts(request: FamilyRequest, side: int, names: tuple[Name, Name]) -> tuple[list[Msg | int], list[Msg]]:
    """The terms of a side's total (family §3.7, §7.7, §7.8) and the notes on what does not count."""
    rules = request.rules
    valat, contest = request.valat, request.contest
    other = 1 - side
    terms: list[Msg | int] = [request.points[side]]
    notes: list[Msg] = []
    team = {"team": names[side]}
    decl = request.declared_points(side) if contest == side else 0
    belas = request.belas(side)
    if isinstance(rules, BelaRules):
        if valat == side:
            terms.append(Msg("štiglja {n}", {"n": rules.stiglja_value}))
        if valat == other and (decl or belas):  # no trick: nothing of its own counts (family §2.4)
            notes.append(Msg("{team} took no trick: its declarations and bela do not count.", team))
            decl = belas = 0
        if decl:
            terms.append(decl)
        if belas:
            terms.append(Msg("bela {n}", {"n": belas}))
        if valat == side and rules.swept_declarations == "transfer":
            moved = (request.declared_points(other) if contest == other else 0) + request.belas(other)
            if moved:
                terms.append(Msg("{n} from the swept side (swept_declarations: transfer)", {"n": moved}))
        return terms, notes
    assert isinstance(rules, FrenchRules)
    if valat == side:
        terms.append(Msg("capot {n}", {"n": rules.capot_bonus}))
    if decl and valat == other and side != request.declarer and not rules.capot_keeps_declarations:
        notes.append(Msg("{team}: taken capot, so its declarations are lost; its belote stays.", team))
        decl = 0
    if decl:
        terms.append(decl)
    if belas:
        terms.append(Msg("belote {n}", {"n": belas}))
    return terms, notes


def _total_steps(request: FamilyRequest, result: DealScore, names: tuple[Name, Name]) -> list[Msg]:
    steps: list[Msg] = []
    if request.valat is not None:
        team = {"team": names[request.valat]}
        bela = request.variant == "bela"
        steps.append(Msg("Štiglja: every trick to {team}.", team) if bela
                     else Msg("Capot: every trick to {team}.", team))
    sums: list[Msg] = []
    for t in (0, 1):
        terms, notes = _parts(request, t, names)
        steps += notes
        if len(terms) == 1:
            sums.append(Msg("{team}: {total}", {"team": names[t], "total": result.raw[t]}))
        else:
            sums.append(Msg("{team}: {terms} = {total}", {
                "team": names[t], "terms": _plus(terms), "total": result.raw[t]}))
    steps.append(Msg("{a}; {b}.", {"a": sums[0], "b": sums[1]}))
    return steps


def _plus(terms: list[Msg | int]) -> Msg | int:
    """The terms joined by plus signs, each rendered in the asker's language."""
    joined: Msg | int = terms[0]
    for term in terms[1:]:
        joined = Msg("{a} + {b}", {"a": joined, "b": term})
    return joined


def _verdict_steps(request: FamilyRequest, result: DealScore, names: tuple[Name, Name]) -> list[Msg]:
    d, o = request.declarer, 1 - request.declarer
    raw, score = result.raw, result.score
    params: dict[str, object] = {
        "c": raw[d], "o": raw[o], "callers": names[d], "others": names[o], "both": raw[0] + raw[1],
        "written": score[o] - request.hanging_in if result.outcome in ("fell", "failed") else score[o],
        "held": result.hanging - request.hanging_in, "keep": score[d],
    }
    rules = request.rules
    steps: list[Msg] = []
    outcome = result.outcome
    if outcome == "passed":
        steps.append(Msg("{c} > {o}: the callers ({callers}) pass and each pair writes its own.", params))
    elif outcome == "fell":
        if raw[d] == raw[o]:
            steps.append(Msg("{c} = {o}: a tie falls (tie: pad); {others} write both totals.", params))
        else:
            steps.append(Msg("{c} < {o}: the callers ({callers}) fall; {others} write both totals.", params))
        if score[d]:
            steps.append(Msg("The callers keep their bela, {keep} (bela_always_counts); {others} write {both} − "
                             "{keep} = {written}.", params))
    elif outcome == "visi":
        steps.append(Msg("{c} = {o}: a tie (tie: visi); {others} write their own {o}, and the callers' {held} are "
                         "held for the pair that wins the next decided deal.", params))
    elif outcome == "made":
        if raw[d] == raw[o]:
            steps.append(Msg("{c} = {o}: equal totals are no fall (tie: share); each team writes its own.", params))
        else:
            steps.append(Msg("{c} > {o}: the takers ({callers}) make it; each team writes its own.", params))
    elif outcome == "failed":
        if request.valat == o:
            steps.append(Msg("The takers ({callers}) took no trick: they are dedans; {others} write every point "
                             "and every declaration: {written}.", params))
        elif raw[d] == raw[o]:
            steps.append(Msg("{c} = {o}: equal totals fail the takers (tie: fail); {others} write every point and "
                             "every declaration: {written}.", params))
        else:
            steps.append(Msg("{c} < {o}: the takers ({callers}) are dedans; {others} write every point and every "
                             "declaration: {written}.", params))
    else:  # litige
        steps.append(Msg("{c} = {o}: litige; {others} write their own {o}, and the takers' {held} are held for the "
                         "team that wins the next deal.", params))
    if outcome in ("failed", "litige") and score[d]:
        steps.append(Msg("The takers keep their belote, {keep}.", params))
    if request.hanging_in:
        if result.hanging >= request.hanging_in:
            steps.append(Msg("The {n} points held before stay held.", {"n": request.hanging_in}))
        else:
            gets = o if result.fell else d
            steps.append(Msg("The {n} points held before go to {team}.",
                             {"n": request.hanging_in, "team": names[gets]}))
    if isinstance(rules, FrenchRules) and rules.rounding > 1:
        steps.append(Msg("Each written number is rounded to the nearest {step} (a half up).", {"step": rules.rounding}))
    dash = result.fell and request.variant == "bela"
    sa, sb = (written(score[t], dash and t == d) for t in (0, 1))
    steps.append(Msg("Written: {a} {sa}, {b} {sb}; held after the deal: {h}.", {
        "a": names[0], "sa": sa, "b": names[1], "sb": sb, "h": result.hanging}))
    return steps


