"""The score request of formats.md §5: reading and checking it, field by field, into a ``DealRequest``.

Every problem found is collected (not just the first), each naming its field and what would be valid. Optional
fields take the values of a plain deal: ``multiplier`` 1, ``declarer`` "A", no valat, no declarations, nothing
hanging, the default table options. One extension: ``teams``, the display names of A and B.
"""

from __future__ import annotations

import dataclasses
import typing
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pydantic import BaseModel

from bot.engine.calls import ALL_TRUMPS, CALL_NAMES, NO_TRUMPS, Contract
from bot.engine.cards import ACE, RANK_CHARS
from bot.engine.declarations import CARRE
from bot.engine.jsontext import lone_surrogate
from bot.engine.rules import DEFAULT_RULES, Rules, RulesError, parse_rules
from bot.engine.scoring import LAST_TEN, card_total
from bot.i18n import _

from .errors import CalculatorError, Msg, Problem, problem
from .vocabulary import (
    CONTRACT_KEYS,
    CONTRACT_WORDS,
    Declared,
    contract_name,
    parse_declaration,
)

TEAM_KEYS: Final = ("A", "B")
FIELDS: Final = (
    "variant",
    "contract",
    "multiplier",
    "declarer",
    "points",
    "valat",
    "declarations",
    "hanging_in",
    "rules",
    "teams",
)
MULTIPLIERS: Final = (1, 2, 4)


def deal_total(contract: Contract) -> int:
    """Card points of the whole deal with the last ten, before the no-trumps doubling: 162, 258 or 130."""
    return card_total(contract) + LAST_TEN


@dataclass(frozen=True, slots=True)
class DealRequest:
    """A checked score request: what a table knows after a real deal. Teams are 0 (A) and 1 (B)."""

    contract: Contract
    points: tuple[int, int]
    multiplier: int = 1
    declarer: int = 0
    valat: int | None = None
    declarations: tuple[tuple[Declared, ...], tuple[Declared, ...]] = ((), ())
    hanging_in: int = 0
    rules: Rules = DEFAULT_RULES
    teams: tuple[str, str] | None = None

    def with_hanging(self, hanging_in: int) -> DealRequest:
        return dataclasses.replace(self, hanging_in=hanging_in)

    def with_rules(self, rules: Rules) -> DealRequest:
        return dataclasses.replace(self, rules=rules)

    def to_json(self) -> dict[str, Any]:
        """The request in the form of formats.md §5 (``teams`` only when names were given)."""
        data: dict[str, Any] = {
            "contract": CALL_NAMES[self.contract],
            "multiplier": self.multiplier,
            "declarer": TEAM_KEYS[self.declarer],
            "points": {"A": self.points[0], "B": self.points[1]},
            "valat": None if self.valat is None else TEAM_KEYS[self.valat],
            "declarations": {
                key: [d.label() for d in self.declarations[t]] for t, key in enumerate(TEAM_KEYS)
            },
            "hanging_in": self.hanging_in,
            "rules": self.rules.to_json(),
        }
        if self.teams is not None:
            data["teams"] = {"A": self.teams[0], "B": self.teams[1]}
        return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A value as the person wrote it in JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _team(value: object, field: str, problems: list[Problem], allow_null: bool = False) -> int | None:
    if value is None and allow_null:
        return None
    if isinstance(value, str) and value.strip().upper() in TEAM_KEYS:
        return TEAM_KEYS.index(value.strip().upper())
    if allow_null:
        problems.append(problem(field, 'must be null, "A" or "B", not {value}', value=_show(value)))
    else:
        problems.append(problem(field, 'must be "A" or "B", not {value}', value=_show(value)))
    return None


def parse_contract_word(value: object) -> Contract | None:
    if not isinstance(value, str):
        return None
    return CONTRACT_WORDS.get(value.strip().lower().replace(" ", ""))


# --- table options ---


def option_choices(model: type[BaseModel], key: str) -> str | None:
    """What a table option accepts, read from the game's rules model itself (None: a whole number)."""
    annotation = model.model_fields[key].annotation
    if annotation is bool:
        return "true, false"
    if typing.get_origin(annotation) is typing.Literal:
        return ", ".join(_show(v) for v in typing.get_args(annotation))
    return None


def option_problem(field: str, model: type[BaseModel], key: str, value: object) -> Problem:
    """A known table option given a value it does not take, and what it does take."""
    choices = option_choices(model, key)
    if choices is None:
        return problem(field, "must be a whole number ≥ 1, not {value}", value=_show(value))
    return problem(field, "must be one of {choices}, not {value}", choices=choices, value=_show(value))


def rules_problems(data: object, prefix: str = "rules") -> tuple[Rules, list[Problem]]:
    """Table options, with each bad key as a problem naming ``rules.<key>`` and what it accepts."""
    try:
        return parse_rules(data), []
    except RulesError as exc:
        problems: list[Problem] = []
        for key, _why in exc.problems:
            name = key.split(".")[0]
            field = f"{prefix}.{name}" if name else prefix
            if not name:
                problems.append(problem(field, "must be an object of table options, e.g. {example}",
                                        example='{"contra_tie": "split"}'))
            elif name not in Rules.model_fields:
                problems.append(problem(field, "unknown table option; the options are: {options}",
                                        options=", ".join(Rules.model_fields)))
            else:
                problems.append(option_problem(field, Rules, name, data.get(name) if isinstance(data, dict) else None))
        return DEFAULT_RULES, problems


# --- declarations ---


def read_declarations(value: object, problems: list[Problem], example: str,
                      keys: Sequence[str] = TEAM_KEYS) -> list[list[Declared]]:
    """Each side's declarations as strings are read (``example``: a right ``declarations`` of the game; ``keys``:
    the game's sides, the teams "A" and "B" or the players' seats)."""
    declared: list[list[Declared]] = [[] for _key in keys]
    if value is None:
        return declared
    if not isinstance(value, dict):
        problems.append(problem("declarations", "must be an object with a list for each team, e.g. {example}",
                                example=example))
        return declared
    for key, items in value.items():
        field = f"declarations.{key}"
        team = list(keys).index(key) if key in keys else None
        if team is None:
            problems.append(_unknown_side(field, key, keys))
            continue
        if not isinstance(items, list):
            problems.append(problem(field, "must be a list of declarations, e.g. {example}",
                                    example='["belote", "tierce:K"]'))
            continue
        for i, item in enumerate(items):
            if not isinstance(item, str):
                problems.append(problem(f"{field}[{i}]", "must be a string such as {example}, not {value}",
                                        example='"tierce:K"', value=_show(item)))
                continue
            parsed = parse_declaration(item)
            if isinstance(parsed, Msg):
                problems.append(Problem(f"{field}[{i}]", parsed))
            else:
                declared[team].append(parsed)
    return declared


def declaration_problems(
    contract: Contract, declared: list[list[Declared]] | tuple[tuple[Declared, ...], ...], rules: Rules
) -> list[Problem]:
    """Declarations that cannot exist in this contract, or not that many times."""
    problems: list[Problem] = []
    if contract == NO_TRUMPS:
        for t, key in enumerate(TEAM_KEYS):
            for i, d in enumerate(declared[t]):
                if d.kind == CARRE and d.top == ACE and rules.nt_aces_carre:
                    continue
                if rules.nt_aces_carre:
                    msgid = _("'{value}' cannot exist in no trumps: only a carré of aces (carre:A) counts there, "
                              "under the option nt_aces_carre")
                else:
                    msgid = _("'{value}' cannot exist in no trumps: no declarations or belotes count there "
                              "(a carré of aces only under the option nt_aces_carre)")
                problems.append(problem(f"declarations.{key}[{i}]", msgid, value=d.label()))
        return problems
    belotes = sum(1 for team in declared for d in team if d.is_belote)
    if contract == ALL_TRUMPS and belotes > 4:
        problems.append(problem("declarations", "all trumps has at most four belotes (one in each suit), not {n}",
                                n=belotes))
    elif contract != ALL_TRUMPS and belotes > 1:
        problems.append(problem("declarations",
                                "a suit contract has one belote at most (the king and queen of trumps), not {n}",
                                n=belotes))
    return problems + carre_problems(declared)


def carre_problems(declared: Sequence[Sequence[Declared]]) -> list[Problem]:
    """A carré given more than once: a pack holds one of each rank."""
    carres = Counter(d.top for team in declared for d in team if d.kind == CARRE)
    return [
        problem("declarations", "carre:{rank} is given {n} times; there is one carré of each rank",
                rank=RANK_CHARS[rank], n=n)
        for rank, n in carres.items()
        if n > 1 and rank is not None
    ]


# --- the whole request ---


def refuse_lone_surrogate(data: object) -> None:
    """Refuse a request holding a lone surrogate before anything echoes it: such a string breaks every print and
    send."""
    where = lone_surrogate(data)
    if where is not None:
        raise CalculatorError(
            [problem(where, "holds a lone surrogate (U+D800 to U+DFFF without its pair), which is not text")]
        )


def parse_request(data: object) -> DealRequest:
    """Check a §5 request; raise CalculatorError listing every problem, each naming its field."""
    problems: list[Problem] = []
    refuse_lone_surrogate(data)
    if not isinstance(data, dict):
        raise CalculatorError([problem("request", "must be a JSON object with the fields {fields}",
                                       fields=", ".join(FIELDS))])
    if data.get("variant", "bulgarian") != "bulgarian":
        from .family_request import variant_problem  # the family request reads this module's helpers

        raise CalculatorError([variant_problem(data["variant"])])
    for key in data:
        if key not in FIELDS:
            problems.append(problem(str(key), "unknown field; the fields are: {fields}", fields=", ".join(FIELDS)))

    rules, rule_problems = rules_problems(data.get("rules"))
    problems.extend(rule_problems)

    contract: Contract | None = None
    if "contract" not in data:
        problems.append(problem("contract", "missing; use one of {contracts}", contracts=", ".join(CONTRACT_KEYS)))
    else:
        contract = parse_contract_word(data["contract"])
        if contract is None:
            problems.append(problem("contract", "{value} is not a contract; use one of {contracts}",
                                    value=_show(data["contract"]), contracts=", ".join(CONTRACT_KEYS)))

    multiplier = data.get("multiplier", 1)
    if not _is_int(multiplier) or multiplier not in MULTIPLIERS:
        problems.append(problem("multiplier", "must be 1 (no contra), 2 (contra) or 4 (recontra), not {value}",
                                value=_show(multiplier)))
        multiplier = 1

    declarer = _team(data.get("declarer", "A"), "declarer", problems)
    valat = _team(data.get("valat"), "valat", problems, allow_null=True)

    hanging_in = data.get("hanging_in", 0)
    if not _is_int(hanging_in) or hanging_in < 0:
        problems.append(problem("hanging_in", "must be a whole number ≥ 0 (the game points hanging before this "
                                "deal), not {value}", value=_show(hanging_in)))
        hanging_in = 0

    points = _points(data, contract, valat, problems)
    declared = read_declarations(data.get("declarations"), problems, '{"A": ["belote"], "B": ["tierce:K"]}')
    if contract is not None:
        problems.extend(declaration_problems(contract, declared, rules))
    teams = _teams(data.get("teams"), problems)

    if problems or contract is None or points is None:
        raise CalculatorError(problems)
    return DealRequest(
        contract=contract,
        points=points,
        multiplier=multiplier,
        declarer=declarer or 0,
        valat=valat,
        declarations=(tuple(declared[0]), tuple(declared[1])),
        hanging_in=hanging_in,
        rules=rules,
        teams=teams,
    )


def _points(
    data: dict[str, Any], contract: Contract | None, valat: int | None, problems: list[Problem]
) -> tuple[int, int] | None:
    total = deal_total(contract) if contract is not None else None
    value = data.get("points")
    given: dict[int, int] = {}
    if value is None:
        if valat is None:
            problems.append(problem("points", "missing; give at least one team's card points with the last ten, "
                                    "e.g. {example}", example='{"A": 102, "B": 60}'))
            return None
    else:
        # Without a contract the points are only checked up to the most any contract has (all trumps' 258).
        read = read_points(value, problems, '{"A": 102, "B": 60}', total, total if total is not None else 258)
        if read is None:
            return None
        given = read
    if total is None or contract is None:
        return None
    if valat is not None:
        other = 1 - valat
        if given.get(other, 0) != 0 or (valat in given and given[valat] != total):
            problems.append(problem(
                "valat",
                "a valat by {team} leaves the other team no points, but the points are A {a}, B {b}; with a valat "
                "they are {team} {total} and the other team 0",
                team=TEAM_KEYS[valat], a=given.get(0, "?"), b=given.get(1, "?"), total=total,
            ))
            return None
        return (total, 0) if valat == 0 else (0, total)
    if len(given) == 2:
        if given[0] + given[1] != total:
            problems.append(problem(
                "points",
                "the teams' points must add up to {total} in {contract} (cards and the last ten), but "
                "{a} + {b} = {sum}",
                total=total, contract=contract_name(contract), a=given[0], b=given[1], sum=given[0] + given[1],
            ))
            return None
        return given[0], given[1]
    if len(given) == 1:
        team, pts = next(iter(given.items()))
        return (pts, total - pts) if team == 0 else (total - pts, pts)
    return None


def _unknown_side(field: str, key: object, keys: Sequence[str]) -> Problem:
    if tuple(keys) == TEAM_KEYS:
        return problem(field, 'unknown team {value}; the teams are "A" and "B"', value=_show(key))
    return problem(field, "unknown player {value}; the players are the seats {seats}", value=_show(key),
                   seats=", ".join(_show(k) for k in keys))


def read_points(value: object, problems: list[Problem], example: str, most: int | None,
                shown_most: int, keys: Sequence[str] = TEAM_KEYS) -> dict[int, int] | None:
    """The ``points`` object: each team's card points from 0 to ``most`` (None: unbounded above; the problem
    names ``shown_most``), keyed by team. A wrong entry is a problem and left out; a value that is not such an
    object is a problem and None."""
    if not isinstance(value, dict) or not value:
        if tuple(keys) == TEAM_KEYS:
            problems.append(problem("points", "must be an object with the points of team A, team B or both, e.g. "
                                    "{example}", example=example))
        else:
            problems.append(problem("points", "must be an object with each player's points keyed by his seat, e.g. "
                                    "{example}", example=example))
        return None
    given: dict[int, int] = {}
    for key, pts in value.items():
        field = f"points.{key}"
        if key not in keys:
            problems.append(_unknown_side(field, key, keys))
        elif not _is_int(pts) or pts < 0 or (most is not None and pts > most):
            problems.append(problem(field, "must be a whole number from 0 to {total}, not {value}",
                                    total=shown_most, value=_show(pts)))
        else:
            given[list(keys).index(key)] = pts
    return given


def _teams(value: object, problems: list[Problem]) -> tuple[str, str] | None:
    if value is None:
        return None
    if (
        isinstance(value, dict)
        and set(value) == set(TEAM_KEYS)
        and all(isinstance(v, str) and v.strip() for v in value.values())
    ):
        return value["A"].strip(), value["B"].strip()
    problems.append(problem("teams", "must be an object with a name for each team, e.g. {example}",
                            example='{"A": "Ние", "B": "Вие"}'))
    return None
