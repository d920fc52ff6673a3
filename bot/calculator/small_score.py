"""Scoring a real-life deal of a 3- or 2-player game with the engine's own scoring, and explaining it per player.

`bela-3` is scored by ``bela3.score_bela3``, `bela-2` and `bela-open` by ``bela.score_bela`` (a tie falls, as in
the engine's games), `bulgarian-3`/`-2` by ``bulgarian_small.score_three``/``score_two`` on raw totals built as
`bulgarian-belote.md` §6.1 builds them. The steps only show how the rules reach the engine's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.engine.bela import score_bela
from bot.engine.bela3 import BelaThreeRules, score_bela3
from bot.engine.bulgarian_small import round_ind, score_three, score_two
from bot.engine.calls import NO_TRUMPS
from bot.engine.declarations import BELOTE_POINTS
from bot.engine.rules import Rules
from bot.engine.scoring import VALAT_BONUS
from bot.engine.trumpdeal import DealScore

from .errors import Msg
from .family_score import FALL_MARK, GAME_NAMES, FamilyAnswer
from .request import deal_total
from .score import OUTCOME_NAMES, DealAnswer, render_name
from .small_contest import count_players
from .small_request import FULL_DEAL, SEAT_KEYS, SmallRequest, parse_small_request
from .vocabulary import contract_name, declared_name

Name = str | Msg
SMALL_GAME_NAMES: Final = {name: GAME_NAMES[name] for name in ("bela-3", "bela-2", "bela-open", "bulgarian-3",
                                                                 "bulgarian-2")}
SMALL_OUTCOMES: Final = {"passed": Msg("the caller passes"), "fell": Msg("the caller falls")}


def default_names(seats: int) -> tuple[Msg, ...]:
    return tuple(Msg("Player {seat}", {"seat": SEAT_KEYS[s]}) for s in range(seats))


@dataclass(frozen=True, slots=True)
class SmallAnswer:
    """A scored deal of a 3- or 2-player game: the request, what each player writes, and the steps."""

    request: SmallRequest
    result: DealScore  # raw, score, hanging, outcome, fell (fell: Bela games only)
    steps: tuple[Msg, ...]

    @property
    def variant(self) -> str:
        return self.request.variant

    @property
    def valat(self) -> bool:
        return self.request.valat is not None

    def names(self, lang: str) -> tuple[str, ...]:
        given = self.request.players
        return given if given is not None else tuple(n.render(lang) for n in default_names(self.request.seats))

    def shown(self) -> tuple[str, ...]:
        """The written numbers, a fallen Bela caller's 0 as a dash (family §4.7, §5.7)."""
        r, d = self.result, self.request.declarer
        return tuple(FALL_MARK if self.request.is_bela and r.fell and s == d and n == 0 else str(n)
                     for s, n in enumerate(r.score))

    def explanation(self, lang: str) -> list[str]:
        return [step.render(lang) for step in self.steps]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The answer of formats §7.5 keyed by seat, with ``players``, the names the explanation uses."""
        keys = SEAT_KEYS[: self.request.seats]
        r = self.result
        data: dict[str, Any] = {
            "raw": dict(zip(keys, r.raw, strict=True)),
            "score": dict(zip(keys, r.score, strict=True)),
            "hanging": r.hanging,
            "outcome": r.outcome,
        }
        if self.request.is_bela:
            data["fell"] = r.fell
        data["explanation"] = self.explanation(lang)
        data["players"] = dict(zip(keys, self.names(lang), strict=True))
        return data

    def summary(self, lang: str) -> str:
        outcome = SMALL_OUTCOMES[self.result.outcome] if self.request.is_bela else OUTCOME_NAMES[self.result.outcome]
        written = ", ".join(f"{n} {s}" for n, s in zip(self.names(lang), self.shown(), strict=True))
        line = Msg("{game}: {written} ({outcome})", {"game": SMALL_GAME_NAMES[self.variant], "written": written,
                                                      "outcome": outcome}).render(lang)
        if self.result.hanging:
            line += " " + Msg("{n} hanging", {"n": self.result.hanging}).render(lang)
        return line

    def render(self, lang: str) -> str:
        lines = [self.summary(lang)]
        lines += [f"{i}. {text}" for i, text in enumerate(self.explanation(lang), 1)]
        return "\n".join(lines)


# What the calculator answers for any game it scores.
Answer = DealAnswer | FamilyAnswer | SmallAnswer


def score_small(data: dict[str, Any]) -> SmallAnswer:
    """Score a §7.5 request of a 3- or 2-player game given as parsed JSON (CalculatorError names each bad field)."""
    return score_small_request(parse_small_request(data))


def score_small_request(request: SmallRequest) -> SmallAnswer:
    names: tuple[Name, ...] = request.players or default_names(request.seats)
    if request.is_bela:
        return _score_bela(request, names)
    return _score_bulgarian(request, names)


# --- Bela ---


def _score_bela(request: SmallRequest, names: tuple[Name, ...]) -> SmallAnswer:
    seats, d = request.seats, request.declarer
    declared = [request.declared_points(s) for s in range(seats)]
    belas = [request.belas(s) for s in range(seats)]
    if request.variant == "bela-3":
        assert isinstance(request.rules, BelaThreeRules) and request.dealer is not None
        tricks = [10 if request.valat == s else 0 if not request.took_trick(s) else 1 for s in range(seats)]
        result = score_bela3(request.rules, d, request.dealer, request.points, tricks, declared, request.contest,
                             belas)
    else:
        p = request.points
        result = score_bela(request.rules, d, (p[0], p[1]), request.valat, (declared[0], declared[1]),
                            request.contest, (belas[0], belas[1]), 0)
    steps = _head(request, names) + _bela_contest_steps(request, names) + _bela_total_steps(request, result, names)
    steps += _bela_verdict(request, result, names)
    return SmallAnswer(request, result, tuple(steps))


def _head(request: SmallRequest, names: tuple[Name, ...]) -> list[Msg]:
    d = request.declarer
    if request.is_bela:
        steps = [Msg("Called by {team}.", {"team": names[d]})]
    else:
        params = {"contract": contract_name(request.contract or 0), "team": names[d]}
        if request.multiplier == 2:
            steps = [Msg("Contract: {contract} with contra (×2), declared by {team}.", params)]
        elif request.multiplier == 4:
            steps = [Msg("Contract: {contract} with recontra (×4), declared by {team}.", params)]
        else:
            steps = [Msg("Contract: {contract}, declared by {team}.", params)]
    p = request.points
    missing = [s for s, g in enumerate(request.given) if not g]
    if request.valat is None and len(missing) == 1:
        m = missing[0]
        total = FULL_DEAL if request.is_bela else deal_total(request.contract or 0)
        known = " − ".join(str(p[s]) for s in range(request.seats) if s != m)
        steps.append(Msg("{player} has {total} − {known} = {rest}.",
                         {"player": names[m], "total": total, "known": known, "rest": p[m]}))
    elif request.valat is None:
        steps.append(Msg("Card points with the last trick: {items}.", {"items": _each(names, p)}))
    return steps


def _each(names: tuple[Name, ...], numbers: tuple[int, ...] | tuple[str, ...]) -> tuple[Msg, ...]:
    return tuple(Msg("{name} {n}", {"name": names[s], "n": n}) for s, n in enumerate(numbers))


def _bela_contest_steps(request: SmallRequest, names: tuple[Name, ...]) -> list[Msg]:
    w = request.contest
    if w is None:
        return []
    seats, d = request.seats, request.declarer
    side = [s for s in range(seats) if (w == 0 and s == d) or (w == 1 and s != d)] if seats == 3 else [w]
    winners = tuple(names[s] for s in side if request.combos(s))
    losers = tuple(names[s] for s in range(seats) if s not in side and request.combos(s))
    items = tuple(declared_name(x) for s in side for x in request.combos(s))
    lost = tuple(declared_name(x) for s in range(seats) if s not in side for x in request.combos(s))
    points = sum(request.declared_points(s) for s in side)
    params = {"winner": _joined(winners), "items": items, "points": points,
              "loser": _joined(losers) if losers else "", "lost": lost}
    if not lost:
        return [Msg("{winner} declared {items}: {points}.", params)]
    if request.declarations_winner is not None:
        return [Msg("The declarations of {winner} won at the table (declarations_winner): {items}, {points}; "
                    "{lost} ({loser}) do not count.", params)]
    return [Msg("{items} ({winner}) beat {lost} ({loser}): the declarations of {winner} count, {points}; those of "
                "{loser} do not.", params)]


def _joined(names: tuple[Name, ...]) -> Name:
    out: Name = names[0]
    for name in names[1:]:
        out = Msg("{a} + {b}", {"a": out, "b": name})
    return out


def _bela_total_steps(request: SmallRequest, result: DealScore, names: tuple[Name, ...]) -> list[Msg]:
    rules = request.rules
    steps: list[Msg] = []
    if request.valat is not None:
        steps.append(Msg("Štiglja: every trick to {team}.", {"team": names[request.valat]}))
    sums: list[Msg] = []
    bela3 = request.variant == "bela-3"
    for s in range(request.seats):
        terms: list[Msg | int] = [request.points[s]]
        counts = request.contest == (0 if s == request.declarer else 1) if bela3 else request.contest == s
        decl = request.declared_points(s) if counts else 0
        belas = request.belas(s)
        if request.valat == s:
            terms.append(Msg("štiglja {n}", {"n": getattr(rules, "stiglja_value", 90)}))
        if not request.took_trick(s) and (decl or belas):
            steps.append(Msg("{player} took no trick: his declarations and bela do not count.",
                             {"player": names[s]}))
            decl = belas = 0
        if decl:
            terms.append(decl)
        if belas:
            terms.append(Msg("bela {n}", {"n": belas}))
        if request.valat == s and getattr(rules, "swept_declarations", "void") == "transfer":
            o = 1 - s
            moved = (request.declared_points(o) if request.contest == o else 0) + request.belas(o)
            if moved:
                terms.append(Msg("{n} from the swept side (swept_declarations: transfer)", {"n": moved}))
        if len(terms) == 1:
            sums.append(Msg("{team}: {total}", {"team": names[s], "total": result.raw[s]}))
        else:
            sums.append(Msg("{team}: {terms} = {total}", {"team": names[s], "terms": _plus(terms),
                                                           "total": result.raw[s]}))
    steps.append(Msg("{items}.", {"items": tuple(sums)}))
    return steps


def _plus(terms: list[Msg | int]) -> Msg | int:
    joined: Msg | int = terms[0]
    for term in terms[1:]:
        joined = Msg("{a} + {b}", {"a": joined, "b": term})
    return joined


def _bela_verdict(request: SmallRequest, result: DealScore, names: tuple[Name, ...]) -> list[Msg]:
    d, raw, score = request.declarer, result.raw, result.score
    others = [s for s in range(request.seats) if s != d]
    against = " + ".join(str(raw[s]) for s in others)
    params: dict[str, object] = {"c": raw[d], "o": against, "caller": names[d], "keep": score[d],
                                 "gift": raw[d] - score[d]}
    steps: list[Msg] = []
    if result.outcome == "passed":
        steps.append(Msg("{c} > {o}: {caller} passes and every player writes his own.", params))
    elif request.variant == "bela-3":
        steps.append(Msg("{c} ≤ {o}: {caller} falls and writes a dash; the others write their own.", params))
        fall = getattr(request.rules, "fall_points", "vanish")
        if fall == "higher_opponent":
            gets = next(s for s in others if score[s] != raw[s])
            steps.append(Msg("{player}, the higher opponent, also writes the caller's {gift} (fall_points: "
                             "higher_opponent).", {**params, "player": names[gets]}))
        elif fall == "both_opponents":
            steps.append(Msg("Each opponent also writes the caller's {gift} (fall_points: both_opponents).", params))
        else:
            steps.append(Msg("The caller's points vanish: nobody writes them.", params))
    else:
        o = others[0]
        steps.append(Msg("{c} ≤ {o}: {caller} falls (a tie falls); {other} writes both totals.",
                         {**params, "other": names[o]}))
    if result.fell and score[d]:
        steps.append(Msg("{caller} keeps his bela, {keep} (bela_always_counts).", params))
    shown = tuple(FALL_MARK if result.fell and s == d and n == 0 else str(n) for s, n in enumerate(score))
    steps.append(Msg("Written: {items}.", {"items": _each(names, shown)}))
    return steps


# --- Bulgarian with 3 or 2 players ---


def _score_bulgarian(request: SmallRequest, names: tuple[Name, ...]) -> SmallAnswer:
    rules = request.rules
    assert isinstance(rules, Rules) and request.contract is not None
    seats, c = request.seats, request.contract
    steps = _head(request, names)
    declared = [list(request.declarations[s]) for s in range(seats)]
    if request.valat is not None and not rules.valat_team_keeps_declarations:
        for s in range(seats):
            if s != request.valat and declared[s]:
                steps.append(Msg("{team}: no trick taken, so its declarations and belotes are lost (table option).",
                                 {"team": names[s]}))
                declared[s] = []
    counted, decl = count_players(declared, rules, names)
    for s in range(seats):
        combos = [(i, x) for i, x in enumerate(declared[s]) if not x.is_belote]
        yes = tuple(declared_name(x) for i, x in combos if i in counted[s])
        no = tuple(declared_name(x) for i, x in combos if i not in counted[s])
        if yes:
            steps.append(Msg("{team}: {items}, counted, {points} points.", {"team": names[s], "items": yes,
                                                                             "points": decl[s]}))
        if no:
            steps.append(Msg("{player}: {items}, not counted (a higher or an equal declaration of another "
                             "player).", {"player": names[s], "items": no}))
    belotes = [BELOTE_POINTS * sum(1 for x in declared[s] if x.is_belote) for s in range(seats)]
    raw = []
    for s in range(seats):
        # No trumps doubles cards and declarations and has no belote (rules §6.1).
        value = 2 * (request.points[s] + decl[s]) if c == NO_TRUMPS else request.points[s] + decl[s] + belotes[s]
        if request.valat == s:
            value += 2 * VALAT_BONUS if c == NO_TRUMPS and rules.nt_valat_doubled else VALAT_BONUS
        raw.append(value)
    if c == NO_TRUMPS:
        steps.append(Msg("No trumps: every player's points are doubled."))
    if request.valat is not None:
        steps.append(Msg("Valat: every trick went to {team}, +{bonus}.", {
            "team": names[request.valat], "bonus": 2 * VALAT_BONUS if c == NO_TRUMPS and rules.nt_valat_doubled
            else VALAT_BONUS}))
    steps.append(Msg("Raw points: {items}.", {"items": _each(names, tuple(raw))}))
    d = request.declarer
    if seats == 3:
        s3 = score_three(rules, "both_together" if request.made_rule == "both_together" else "each", c,
                         request.multiplier, d, raw, request.hanging_in, request.belotes(d), request.valat)
        small = s3
    else:
        small = score_two(rules, c, request.multiplier, d, raw, request.hanging_in, request.valat)
    result = DealScore(tuple(raw), small.score, small.pot, small.outcome, small.outcome == "inside")
    steps += _bulgarian_verdict(request, result, names)
    return SmallAnswer(request, result, tuple(steps))


def _bulgarian_verdict(request: SmallRequest, result: DealScore, names: tuple[Name, ...]) -> list[Msg]:
    d, raw, c = request.declarer, result.raw, request.contract or 0
    others = [s for s in range(request.seats) if s != d]
    together = request.made_rule == "both_together" and request.seats == 3
    against = sum(raw[s] for s in others) if together else max(raw[s] for s in others)
    params: dict[str, object] = {"declarer": names[d], "d": raw[d], "o": against}
    steps: list[Msg] = []
    if result.outcome == "made":
        steps.append(Msg("{declarer} has {d}, more than the others together ({o}): the game is made.", params)
                     if together else
                     Msg("{declarer} has {d}, more than each other player (at most {o}): the game is made.", params))
    elif result.outcome == "hanging":
        steps.append(Msg("{declarer} has {d}, as much as {o}: the game hangs.", params))
    else:
        steps.append(Msg("{declarer} has {d}, less than {o}: the game is inside.", params))
    if request.multiplier > 1:
        # `valat_multiplied` false writes a valat deal once, as the engine does.
        once = request.valat is not None and not getattr(request.rules, "valat_multiplied", True)
        if once:
            steps.append(Msg("A valat is not multiplied by contra (table option)."))
        steps.append(Msg("With contra or recontra the whole deal, {total} → {rounded}, × {m}, goes to one side.", {
            "total": sum(raw), "rounded": round_ind(c, sum(raw)), "m": 1 if once else request.multiplier}))
    elif result.outcome == "inside":
        steps.append(Msg("The declarer's points go to the opponent with more raw points (shared when they are "
                         "equal); each number is rounded alone."))
    else:
        steps.append(Msg("Each player's raw points are rounded alone: {items}.", {"items": tuple(
            Msg("{raw} → {points}", {"raw": raw[s], "points": round_ind(c, raw[s])}) for s in range(request.seats))}))
    if request.hanging_in:
        if result.hanging >= request.hanging_in:
            steps.append(Msg("The {n} points that were hanging stay in the pot.", {"n": request.hanging_in}))
        else:
            steps.append(Msg("The {n} hanging points go to the winner of the deal.", {"n": request.hanging_in}))
    steps.append(Msg("Written: {items}; hanging after the deal: {h}.", {"items": _each(names, result.score),
                                                                         "h": result.hanging}))
    return steps


def render_names(names: tuple[Name, ...], lang: str) -> tuple[str, ...]:
    return tuple(render_name(n, lang) for n in names)
