"""The score request of the Bela and French games (formats §7.5): reading and checking it into a ``FamilyRequest``.

Every problem is collected, each naming its field and what would be right, as for the Bulgarian request. The
declarations contest (family §2.3, §7.5) is run as far as the strings allow: a side whose best declaration is
certainly higher wins it; when lengths, seat order or the trump suit would decide, ``declarations_winner`` says
who won at the table, and it may not contradict what the strings do show.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from bot.engine.bela import BelaRules, bela_option
from bot.engine.cards import ACE
from bot.engine.combos import CARRE_RANK
from bot.engine.declarations import CARRE, CARRE_VALUE, QUARTE, QUINT, SEQUENCE_VALUE, TIERCE
from bot.engine.french import FrenchRules

from .errors import CalculatorError, Problem, problem
from .request import (
    TEAM_KEYS,
    _is_int,
    _show,
    _team,
    _teams,
    carre_problems,
    option_problem,
    parse_contract_word,
    read_declarations,
    read_points,
    refuse_lone_surrogate,
)
from .vocabulary import LOWEST_TOP, Declared, declared_name

FamilyRules = BelaRules | FrenchRules
RULE_MODELS: Final[dict[str, type[BelaRules] | type[FrenchRules]]] = {"bela": BelaRules, "french": FrenchRules}
SUPPORTED: Final = ("bulgarian", "bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2")
# Games of the family the calculator does not score yet (formats §7.1): none left.
NOT_YET: Final[tuple[str, ...]] = ()
DEAL_POINTS: Final = 162  # card points with the last trick in every 32-card game scored here
BELA_POINTS: Final = 20
FAMILY_FIELDS: Final = (
    "variant",
    "declarer",
    "points",
    "valat",
    "declarations",
    "declarations_winner",
    "hanging_in",
    "contract",
    "rules",
    "teams",
)
SUITS: Final = (0, 1, 2, 3)
# A sequence's length in cards by its class; a quint runs 5 to 7 (8 cards of one suit are a belot).
_LENGTHS: Final = {TIERCE: (3,), QUARTE: (4,), QUINT: (5, 6, 7)}

ContestKey = tuple[int, int, int, int, int]
RULES_EXAMPLES: Final = {"french": '{"tie": "litige"}', "bela-3": '{"fall_points": "higher_opponent"}',
                         "bela-2": '{"seven_exchange": "always"}', "bela-open": '{"open_declarations": true}'}


@dataclass(frozen=True, slots=True)
class FamilyRequest:
    """A checked Bela or French request; sides are 0 (A) and 1 (B)."""

    variant: str
    points: tuple[int, int]
    declarer: int = 0
    valat: int | None = None
    declarations: tuple[tuple[Declared, ...], tuple[Declared, ...]] = ((), ())
    declarations_winner: int | None = None  # as given in the request
    contest: int | None = None  # the side whose declarations count in the contest (None: nobody declared)
    hanging_in: int = 0
    rules: FamilyRules = dataclasses.field(default_factory=BelaRules)
    teams: tuple[str, str] | None = None
    contract: int | None = None
    given: tuple[bool, bool] = (True, True)  # which sides' points the request gave

    def with_hanging(self, hanging_in: int) -> FamilyRequest:
        return dataclasses.replace(self, hanging_in=hanging_in)

    def combos(self, side: int) -> list[Declared]:
        return [d for d in self.declarations[side] if not d.is_belote]

    def belas(self, side: int) -> int:
        return BELA_POINTS * sum(1 for d in self.declarations[side] if d.is_belote)

    def declared_points(self, side: int) -> int:
        return sum(value_of(d) for d in self.combos(side))

    def to_json(self) -> dict[str, Any]:
        """The request in the form of formats §7.5 (both sides' points, ``teams`` only when names were given)."""
        data: dict[str, Any] = {
            "variant": self.variant,
            "declarer": TEAM_KEYS[self.declarer],
            "points": {"A": self.points[0], "B": self.points[1]},
            "valat": None if self.valat is None else TEAM_KEYS[self.valat],
            "declarations": {k: [d.label() for d in self.declarations[t]] for t, k in enumerate(TEAM_KEYS)},
            "hanging_in": self.hanging_in,
            "rules": self.rules.to_json(),
        }
        if self.declarations_winner is not None:
            data["declarations_winner"] = TEAM_KEYS[self.declarations_winner]
        if self.contract is not None:
            data["contract"] = ("clubs", "diamonds", "hearts", "spades")[self.contract]
        if self.teams is not None:
            data["teams"] = {"A": self.teams[0], "B": self.teams[1]}
        return data


def value_of(d: Declared) -> int:
    if d.kind == CARRE and d.top is not None:
        return CARRE_VALUE[d.top]
    return SEQUENCE_VALUE[d.kind]


def variant_problem(value: object) -> Problem:
    """A variant the calculator does not score: a game of the family not supported yet, or no game at all."""
    supported = ", ".join(SUPPORTED)
    if isinstance(value, str) and value in NOT_YET:
        return problem("variant", "{value} is not scored by the calculator yet; it scores {supported}",
                       value=_show(value), supported=supported)
    return problem("variant", "{value} is not a game the calculator scores; use one of {supported}",
                   value=_show(value), supported=supported)


# --- table options, checked by the variant's own model ---


def family_rules(variant: str, data: object, prefix: str = "rules",
                 model: type[Any] | None = None) -> tuple[Any, list[Problem]]:
    """The variant's table options (``model``: its options model, if not one of ``RULE_MODELS``); each bad key is
    a problem naming ``rules.<key>`` and what it accepts."""
    model = model or RULE_MODELS[variant]
    if data is None:
        return model(), []
    if not isinstance(data, dict):
        return model(), [problem(prefix, "must be an object of table options, e.g. {example}",
                                 example=RULES_EXAMPLES.get(variant, '{"tie": "visi"}'))]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems: list[Problem] = []
        for key in dict.fromkeys(str(e["loc"][0]) for e in exc.errors() if e.get("loc")):
            field = f"{prefix}.{key}"
            if key not in model.model_fields:
                problems.append(problem(field, "not a table option of {variant}; its options are: {options}",
                                        variant=variant, options=", ".join(model.model_fields)))
                continue
            problems.append(option_problem(field, model, key, data[key]))
        return model(), problems


# --- the contest ---


def key_range(d: Declared, rules: BaseModel) -> tuple[ContestKey, ContestKey]:
    """The lowest and highest contest key (family §2.3, §7.5, without the suit and seat steps) the described
    declaration can have: a missing top card or a quint's unknown length widens it. ``rules``: the options of any
    Bela game (an option the game lacks takes its `bela` default) or of French belote."""
    if d.kind == CARRE:
        assert d.top is not None
        k = (CARRE_VALUE[d.top], 1, CARRE_RANK.get(d.top, 0), 0, d.top)
        return k, k
    tops = [d.top] if d.top is not None else list(range(LOWEST_TOP[d.kind], ACE + 1))
    bela = not isinstance(rules, FrenchRules)
    by_length = bela and bela_option(rules, "sequence_tiebreak") == "length"
    # Under belot_suit "trumps", eight cards of another suit are a quint of eight (family §2.6).
    eight = d.kind == QUINT and bela and bela_option(rules, "belot_suit") == "trumps"
    lengths = (*_LENGTHS[d.kind], 8) if eight else _LENGTHS[d.kind]
    keys = [
        (SEQUENCE_VALUE[d.kind], 0, 0, length if by_length else 0, top)
        for top in tops
        for length in lengths
        if length <= top + 1  # a run to the top card t holds at most t + 1 cards (7 is rank 0)
    ]
    return min(keys), max(keys)


def _best(side: list[Declared], rules: BaseModel) -> tuple[ContestKey, ContestKey, Declared]:
    """The side's best declaration at its lowest and at its highest, and the one that reaches the highest."""
    ranges = [(key_range(d, rules), d) for d in side]
    low = max(r[0][0] for r in ranges)
    high, best = max(((r[0][1], r[1]) for r in ranges), key=lambda p: p[0])
    return low, high, best


def decide_contest(
    rules: FamilyRules,
    combos: tuple[list[Declared], list[Declared]],
    given: int | None,
    problems: list[Problem],
) -> int | None:
    """The side that wins the contest, from the strings and ``declarations_winner``; problems say what is missing
    or contradicted."""
    sides = [t for t in (0, 1) if combos[t]]
    if not sides:
        if given is not None:
            problems.append(problem("declarations_winner", "nobody announced a declaration (bela does not take "
                                    "part in the contest); leave declarations_winner out"))
        return None
    if len(sides) == 1:
        alone = sides[0]
        if given is not None and given != alone:
            problems.append(problem("declarations_winner", "{value} announced no declaration; only {side} did",
                                    value=_show(TEAM_KEYS[given]), side=TEAM_KEYS[alone]))
        return alone
    best = [_best(combos[t], rules) for t in (0, 1)]
    certain = next((t for t in (0, 1) if best[t][0] > best[1 - t][1]), None)
    if certain is not None:
        if given is not None and given != certain:
            problems.append(problem(
                "declarations_winner", "{value} contradicts the declarations: {best} of {winner} beats every "
                "declaration of {loser}", value=_show(TEAM_KEYS[given]), winner=TEAM_KEYS[certain],
                best=declared_name(best[certain][2]), loser=TEAM_KEYS[1 - certain]))
        return certain
    if given is None:
        tops_missing = any(d.top is None for t in (0, 1) for d in combos[t])
        params = {"a": declared_name(best[0][2]), "b": declared_name(best[1][2])}
        if tops_missing:
            problems.append(problem("declarations_winner", "missing: the strings cannot rank {a} of A against {b} "
                                    "of B; give the top cards (tierce:K) or the side whose declaration won at the "
                                    "table, \"A\" or \"B\"", **params))
        else:
            problems.append(problem("declarations_winner", "missing: the strings cannot rank {a} of A against {b} "
                                    "of B (length, seat order or the trump suit decide); give the side whose "
                                    "declaration won at the table, \"A\" or \"B\"", **params))
    return given


# --- the whole request ---


def _declaration_problems(variant: str, rules: FamilyRules, declared: list[list[Declared]]) -> list[Problem]:
    problems: list[Problem] = []
    if rules.no_declarations:
        for t, key in enumerate(TEAM_KEYS):
            for i, d in enumerate(declared[t]):
                if not d.is_belote:
                    problems.append(problem(f"declarations.{key}[{i}]", "'{value}' does not count: the table "
                                            "option no_declarations is on, and only belote counts",
                                            value=d.label()))
    belas = sum(1 for side in declared for d in side if d.is_belote)
    if belas > 1:
        problems.append(problem("declarations", "a deal has one belote at most (the king and queen of trumps), "
                                "not {n}", n=belas))
    return problems + carre_problems(declared)


def _points(data: dict[str, Any], valat: int | None, problems: list[Problem]) -> tuple[tuple[int, int], tuple[
        bool, bool]] | None:
    value = data.get("points")
    given: dict[int, int] = {}
    if value is None:
        if valat is None:
            problems.append(problem("points", "missing; give at least one side's card points with the last trick, "
                                    "e.g. {example}", example='{"A": 92}'))
            return None
    else:
        read = read_points(value, problems, '{"A": 92, "B": 70}', DEAL_POINTS, DEAL_POINTS)
        if read is None:
            return None
        given = read
    if len(given) != len(value or {}):
        return None
    flags = (0 in given, 1 in given)
    if valat is not None:
        if given.get(1 - valat, 0) != 0 or given.get(valat, DEAL_POINTS) != DEAL_POINTS:
            problems.append(problem(
                "valat", "every trick to {team} leaves the other side no points, but the points are A {a}, B {b}; "
                "they are {team} {total} and the other side 0", team=TEAM_KEYS[valat], a=given.get(0, "?"),
                b=given.get(1, "?"), total=DEAL_POINTS))
            return None
        return ((DEAL_POINTS, 0) if valat == 0 else (0, DEAL_POINTS)), flags
    if len(given) == 2:
        if given[0] + given[1] != DEAL_POINTS:
            problems.append(problem("points", "the sides' points must add up to {total} (cards and the last "
                                    "trick), but {a} + {b} = {sum}", total=DEAL_POINTS, a=given[0], b=given[1],
                                    sum=given[0] + given[1]))
            return None
        return (given[0], given[1]), flags
    side, pts = next(iter(given.items()))
    return ((pts, DEAL_POINTS - pts) if side == 0 else (DEAL_POINTS - pts, pts)), flags


def parse_family_request(data: dict[str, Any]) -> FamilyRequest:
    """Check a §7.5 request whose ``variant`` is "bela" or "french"; raise CalculatorError listing every problem."""
    refuse_lone_surrogate(data)
    variant = data.get("variant")
    if variant not in RULE_MODELS:
        raise CalculatorError([variant_problem(variant)])
    assert isinstance(variant, str)
    problems: list[Problem] = []
    for key in data:
        if key not in FAMILY_FIELDS:
            problems.append(problem(str(key), "not a field of a {variant} request; the fields are: {fields}",
                                    variant=variant, fields=", ".join(FAMILY_FIELDS)))
    rules, rule_problems = family_rules(variant, data.get("rules"))
    problems.extend(rule_problems)
    contract: int | None = None
    if data.get("contract") is not None:
        word = parse_contract_word(data["contract"])
        if word not in SUITS:
            problems.append(problem("contract", "{value} is not a trump suit; {variant} is played in clubs, "
                                    "diamonds, hearts or spades (the suit may be left out)",
                                    value=_show(data["contract"]), variant=variant))
        else:
            contract = word
    declarer = _team(data.get("declarer", "A"), "declarer", problems)
    valat = _team(data.get("valat"), "valat", problems, allow_null=True)
    winner = _team(data.get("declarations_winner"), "declarations_winner", problems, allow_null=True)
    hanging_in = data.get("hanging_in", 0)
    if not _is_int(hanging_in) or hanging_in < 0:
        problems.append(problem("hanging_in", "must be a whole number ≥ 0 (the points held before this deal), not "
                                "{value}", value=_show(hanging_in)))
        hanging_in = 0
    points = _points(data, valat, problems)
    declared = read_declarations(data.get("declarations"), problems, '{"A": ["carre:J", "belote"], "B": ["quarte"]}')
    problems.extend(_declaration_problems(variant, rules, declared))
    teams = _teams(data.get("teams"), problems)
    contest: int | None = None
    if not problems:
        combos = ([d for d in declared[0] if not d.is_belote], [d for d in declared[1] if not d.is_belote])
        contest = decide_contest(rules, combos, winner, problems)
    if problems or points is None:
        raise CalculatorError(problems)
    return FamilyRequest(
        variant=variant,
        points=points[0],
        declarer=declarer or 0,
        valat=valat,
        declarations=(tuple(declared[0]), tuple(declared[1])),
        declarations_winner=winner,
        contest=contest,
        hanging_in=hanging_in,
        rules=rules,
        teams=teams,
        contract=contract,
        given=points[1],
    )


