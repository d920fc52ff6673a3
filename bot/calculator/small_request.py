"""The score request of the 3- and 2-player games (formats §7.5): `bela-3`, `bela-2`, `bela-open`, `bulgarian-3`
and `bulgarian-2`, read and checked into a ``SmallRequest`` keyed by seat.

As for the other requests every problem is collected, each naming its field and what would be right. What may be
left out follows formats §7.5: one player's points where the deal total is fixed (162, or the Bulgarian contract's
total), the `bela-3` dealer (the seat before the caller), and ``no_trick`` (everyone took a trick).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from pydantic import BaseModel

from bot.engine.bela2 import BelaTwoRules
from bot.engine.bela3 import BelaThreeRules
from bot.engine.belaopen import BelaOpenRules
from bot.engine.calls import ALL_TRUMPS, CALL_NAMES, NO_TRUMPS
from bot.engine.cards import ACE, RANK_CHARS
from bot.engine.declarations import CARRE

from .errors import CalculatorError, Problem, problem
from .family_request import BELA_POINTS, SUITS, family_rules, value_of
from .request import (
    MULTIPLIERS,
    _is_int,
    _show,
    carre_problems,
    deal_total,
    parse_contract_word,
    read_declarations,
    read_points,
    refuse_lone_surrogate,
    rules_problems,
)
from .small_contest import bela_contest
from .vocabulary import CONTRACT_KEYS, LOWEST_TOP, Declared

SEATS: Final = {"bela-3": 3, "bela-2": 2, "bela-open": 2, "bulgarian-3": 3, "bulgarian-2": 2}
BELA_SMALL: Final = ("bela-3", "bela-2", "bela-open")
# Every card is in play: the players' points add up to a known total, so one player's may be left out.
FIXED_TOTAL: Final = ("bela-3", "bela-open", "bulgarian-3")
SEAT_KEYS: Final = ("0", "1", "2")
FULL_DEAL: Final = 162
# The most two bela-3 discards can hold: the J and 9 of trumps.
DISCARD_MOST: Final = 34
# In the 24-card games a run starts at the 9: a tierce ends at the J at the lowest (family §8.2).
LOWEST_TOP_24: Final = {kind: top + 2 for kind, top in LOWEST_TOP.items()}
COMMON_FIELDS: Final = ("variant", "declarer", "points", "valat", "declarations", "hanging_in", "rules", "players")
EXTRA_FIELDS: Final = {
    "bela-3": ("contract", "dealer", "no_trick", "declarations_winner"),
    "bela-2": ("contract", "declarations_winner"),
    "bela-open": ("contract", "declarations_winner"),
    "bulgarian-3": ("contract", "multiplier"),
    "bulgarian-2": ("contract", "multiplier"),
}


@dataclass(frozen=True, slots=True)
class SmallRequest:
    """A checked request of a 3- or 2-player game; every tuple holds one entry per seat."""

    variant: str
    points: tuple[int, ...]
    declarer: int
    rules: BaseModel  # BelaThreeRules, BelaTwoRules, BelaOpenRules, or the Bulgarian Rules
    valat: int | None = None
    declarations: tuple[tuple[Declared, ...], ...] = ()
    hanging_in: int = 0
    made_rule: str = "each"  # bulgarian-3
    contract: int | None = None  # the trump suit (may be unknown in the Bela games) or the Bulgarian contract
    multiplier: int = 1
    dealer: int | None = None  # bela-3: the dealer, which fixes the call order
    no_trick: tuple[int, ...] = ()  # bela-3: the players who took no trick
    declarations_winner: int | None = None  # as given
    contest: int | None = None  # Bela games: the contest side that won (bela-3: 0 the caller, 1 the two others)
    players: tuple[str, ...] | None = None
    given: tuple[bool, ...] = ()  # which players' points the request gave

    @property
    def seats(self) -> int:
        return SEATS[self.variant]

    @property
    def is_bela(self) -> bool:
        return self.variant in BELA_SMALL

    def with_hanging(self, hanging_in: int) -> SmallRequest:
        return dataclasses.replace(self, hanging_in=hanging_in)

    def combos(self, seat: int) -> list[Declared]:
        return [d for d in self.declarations[seat] if not d.is_belote]

    def belotes(self, seat: int) -> int:
        return sum(1 for d in self.declarations[seat] if d.is_belote)

    def belas(self, seat: int) -> int:
        return BELA_POINTS * self.belotes(seat)

    def declared_points(self, seat: int) -> int:
        return sum(value_of(d) for d in self.combos(seat))

    def took_trick(self, seat: int) -> bool:
        if self.valat is not None:
            return seat == self.valat
        return seat not in self.no_trick

    def to_json(self) -> dict[str, Any]:
        """The request in the form of formats §7.5, every player's points given."""
        keys = SEAT_KEYS[: self.seats]
        data: dict[str, Any] = {
            "variant": self.variant,
            "declarer": keys[self.declarer],
            "points": {k: self.points[s] for s, k in enumerate(keys)},
            "valat": None if self.valat is None else keys[self.valat],
            "declarations": {k: [d.label() for d in self.declarations[s]] for s, k in enumerate(keys)},
            "hanging_in": self.hanging_in,
            "rules": {**_rules_json(self.rules), **({"made_rule": self.made_rule} if self.made_rule != "each"
                                                   else {})},
        }
        if self.contract is not None:
            data["contract"] = CALL_NAMES[self.contract]
        if self.variant.startswith("bulgarian"):
            data["multiplier"] = self.multiplier
        if self.variant == "bela-3":
            data["dealer"] = keys[self.dealer if self.dealer is not None else (self.declarer - 1) % 3]
            if self.no_trick:
                data["no_trick"] = [keys[s] for s in self.no_trick]
        if self.declarations_winner is not None:
            data["declarations_winner"] = keys[self.declarations_winner]
        if self.players is not None:
            data["players"] = dict(zip(keys, self.players, strict=True))
        return data


def _rules_json(rules: BaseModel) -> dict[str, Any]:
    return rules.model_dump(exclude_defaults=True)


def _seat(value: object, field: str, seats: int, problems: list[Problem], allow_null: bool = False) -> int | None:
    """A seat written as a string ("0" …); a bare number is accepted too, as people write it."""
    if value is None and allow_null:
        return None
    text = value.strip() if isinstance(value, str) else str(value) if _is_int(value) else None
    if text is not None and text in SEAT_KEYS[:seats]:
        return SEAT_KEYS.index(text)
    choices = ", ".join(_show(k) for k in SEAT_KEYS[:seats])
    if allow_null:
        problems.append(problem(field, "must be null or a seat, one of {choices}, not {value}", choices=choices,
                                value=_show(value)))
    else:
        problems.append(problem(field, "must be a seat, one of {choices}, not {value}", choices=choices,
                                value=_show(value)))
    return None


def _small_rules(variant: str, data: object) -> tuple[BaseModel, str, list[Problem]]:
    """The variant's table options; ``bulgarian-3`` adds ``made_rule`` to every key of formats §2."""
    if variant in BELA_SMALL:
        model = {"bela-3": BelaThreeRules, "bela-2": BelaTwoRules, "bela-open": BelaOpenRules}[variant]
        rules, found = family_rules(variant, data, model=model)
        return rules, "each", found
    made_rule = "each"
    problems: list[Problem] = []
    if isinstance(data, dict) and "made_rule" in data:
        data = dict(data)
        value = data.pop("made_rule")
        if variant != "bulgarian-3":
            problems.append(problem("rules.made_rule", "not a table option of {variant}; it belongs to bulgarian-3",
                                    variant=variant))
        elif value not in ("each", "both_together"):
            problems.append(problem("rules.made_rule", "must be one of {choices}, not {value}",
                                    choices='"each", "both_together"', value=_show(value)))
        else:
            made_rule = str(value)
    rules, found = rules_problems(data)
    return rules, made_rule, problems + found


def _players(value: object, seats: int, problems: list[Problem]) -> tuple[str, ...] | None:
    if value is None:
        return None
    keys = SEAT_KEYS[:seats]
    if isinstance(value, dict) and set(value) == set(keys) and all(
            isinstance(v, str) and v.strip() for v in value.values()):
        return tuple(value[k].strip() for k in keys)
    example = "{" + ", ".join(f'"{k}": "{n}"' for k, n in zip(keys, ("Ana", "Ivo", "Mara"), strict=False)) + "}"
    problems.append(problem("players", "must be an object with a name for each seat, e.g. {example}",
                            example=example))
    return None


# --- points ---


def _points(req: dict[str, Any], variant: str, contract: int | None, declarer: int | None, valat: int | None,
            no_trick: tuple[int, ...], problems: list[Problem]) -> tuple[tuple[int, ...], tuple[bool, ...]] | None:
    seats = SEATS[variant]
    keys = SEAT_KEYS[:seats]
    if variant.startswith("bulgarian"):
        if contract is None:
            return None
        total = deal_total(contract)
    else:
        total = FULL_DEAL
    fixed = variant in FIXED_TOTAL
    example = "{" + ", ".join(f'"{k}": {p}' for k, p in zip(keys, (60, 80, 22) if seats == 3 else (60, 56),
                                                            strict=False)) + "}"
    value = req.get("points")
    given: dict[int, int] = {}
    if value is not None:
        read = read_points(value, problems, example, total, total, keys)
        if read is None or len(read) != len(value):
            return None
        given = read
    elif valat is None:
        problems.append(problem("points", "missing; give each player's card points with the last trick, keyed by "
                                "seat, e.g. {example}", example=example))
        return None
    flags = tuple(s in given for s in range(seats))
    if valat is not None:
        won = _valat_points(variant, given, total, fixed, declarer, valat, problems)
        return None if won is None else (won, flags)
    for s in no_trick:
        if given.get(s, 0) and not (variant == "bela-3" and s == declarer and given[s] <= DISCARD_MOST):
            problems.append(problem(f"points.{keys[s]}", "player {seat} took no trick (no_trick), so his points "
                                    "are 0, not {value}", seat=_show(keys[s]), value=given[s]))
            return None
    if fixed:
        missing = [s for s in range(seats) if s not in given]
        if len(missing) > 1:
            problems.append(problem("points", "give the points of at least {n} players; the last one is the rest "
                                    "of {total}", n=seats - 1, total=total))
            return None
        if not missing:
            if sum(given.values()) != total:
                problems.append(problem("points", "the players' points must add up to {total} (cards and the last "
                                        "trick), but {terms} = {sum}", total=total,
                                        terms=" + ".join(str(given[s]) for s in range(seats)),
                                        sum=sum(given.values())))
                return None
            return tuple(given[s] for s in range(seats)), flags
        rest = total - sum(given.values())
        if rest < 0:
            problems.append(problem("points", "the points given already add up to {sum}, more than the {total} of "
                                    "the whole deal", sum=sum(given.values()), total=total))
            return None
        given[missing[0]] = rest
        return tuple(given[s] for s in range(seats)), flags
    missing_keys = [_show(keys[s]) for s in range(seats) if s not in given]
    if missing_keys:
        problems.append(problem("points", "missing the points of {seats}: in {variant} some cards stay out of "
                                "play, so every player's points are needed", seats=", ".join(missing_keys),
                                variant=variant))
        return None
    whole = sum(given.values())
    if not 10 <= whole <= total:
        problems.append(problem("points", "the players' points add up to {sum}; with cards out of play the deal "
                                "holds at least 10 (the last trick) and at most {total}", sum=whole, total=total))
        return None
    return tuple(given[s] for s in range(seats)), flags


def _valat_points(variant: str, given: dict[int, int], total: int, fixed: bool, declarer: int | None, valat: int,
                  problems: list[Problem]) -> tuple[int, ...] | None:
    """Every trick to ``valat``: the others have 0, except a bela-3 caller's discards, which stay his."""
    seats = SEATS[variant]
    keys = SEAT_KEYS[:seats]
    points = [0] * seats
    for s in range(seats):
        if s == valat:
            continue
        pts = given.get(s, 0)
        discards = variant == "bela-3" and s == declarer
        if pts and not (discards and pts <= DISCARD_MOST):
            if discards:
                problems.append(problem(f"points.{keys[s]}", "every trick went to {seat}: the caller keeps only his "
                                        "two discards, at most {most}, not {value}", seat=_show(keys[valat]),
                                        most=DISCARD_MOST, value=pts))
            else:
                problems.append(problem(f"points.{keys[s]}", "every trick went to {seat}, so this player has 0, not "
                                        "{value}", seat=_show(keys[valat]), value=pts))
            return None
        points[s] = pts
    if fixed:
        rest = total - sum(points)
        if valat in given and given[valat] != rest:
            problems.append(problem(f"points.{keys[valat]}", "every trick went to {seat}, so his points are {rest}, "
                                    "not {value}", seat=_show(keys[valat]), rest=rest, value=given[valat]))
            return None
        points[valat] = rest
        return tuple(points)
    if valat not in given:
        problems.append(problem(f"points.{keys[valat]}", "missing: in {variant} some cards stay out of play, so "
                                "the points of the player who took every trick are needed", variant=variant))
        return None
    if given[valat] < 10:
        problems.append(problem(f"points.{keys[valat]}", "every trick includes the last one (10), so at least 10, "
                                "not {value}", value=given[valat]))
        return None
    points[valat] = given[valat]
    return tuple(points)


# --- declarations ---


def _declaration_problems(variant: str, rules: Any, contract: int | None,
                          declared: list[list[Declared]]) -> list[Problem]:
    problems: list[Problem] = []
    keys = SEAT_KEYS[: SEATS[variant]]
    belotes = sum(1 for side in declared for d in side if d.is_belote)
    for s, key in enumerate(keys):
        for i, d in enumerate(declared[s]):
            field = f"declarations.{key}[{i}]"
            if variant == "bela-open":
                if d.is_belote and not rules.open_bela:
                    problems.append(problem(field, "'{value}' does not count in bela-open unless the table option "
                                            "open_bela is on", value=d.label()))
                elif not d.is_belote and not rules.open_declarations:
                    problems.append(problem(field, "'{value}' does not count in bela-open unless the table option "
                                            "open_declarations is on", value=d.label()))
            elif variant in BELA_SMALL:
                if not d.is_belote and rules.no_declarations:
                    problems.append(problem(field, "'{value}' does not count: the table option no_declarations is "
                                            "on, and only belote counts", value=d.label()))
            elif contract == NO_TRUMPS and not (d.kind == CARRE and d.top == ACE and rules.nt_aces_carre):
                problems.append(problem(field, "'{value}' cannot exist in no trumps: no declarations or belotes "
                                        "count there (a carré of aces only under the option nt_aces_carre)",
                                        value=d.label()))
            short = d.top is not None and d.kind != CARRE and d.top < LOWEST_TOP_24[d.kind]
            if variant.startswith("bulgarian") and short:
                problems.append(problem(field, "'{value}' cannot exist with 24 cards (9 to A): the top card is one "
                                        "of {ranks}", value=d.label(),
                                        ranks=", ".join(RANK_CHARS[r] for r in range(LOWEST_TOP_24[d.kind], 8))))
    if contract == ALL_TRUMPS and belotes > 4:
        problems.append(problem("declarations", "all trumps has at most four belotes (one in each suit), not {n}",
                                n=belotes))
    elif contract != ALL_TRUMPS and belotes > 1:
        problems.append(problem("declarations", "a deal has one belote at most (the king and queen of trumps), "
                                "not {n}", n=belotes))
    return problems + carre_problems(declared)


# --- the whole request ---


def parse_small_request(data: dict[str, Any]) -> SmallRequest:
    """Check a §7.5 request of a 3- or 2-player game; raise CalculatorError listing every problem."""
    refuse_lone_surrogate(data)
    variant = str(data.get("variant"))
    seats = SEATS[variant]
    keys = SEAT_KEYS[:seats]
    fields = COMMON_FIELDS + EXTRA_FIELDS[variant]
    problems: list[Problem] = []
    for key in data:
        if key not in fields:
            problems.append(problem(str(key), "not a field of a {variant} request; the fields are: {fields}",
                                    variant=variant, fields=", ".join(fields)))
    rules, made_rule, found = _small_rules(variant, data.get("rules"))
    problems.extend(found)
    contract = _contract(data, variant, problems)
    multiplier = data.get("multiplier", 1)
    if not _is_int(multiplier) or multiplier not in MULTIPLIERS:
        problems.append(problem("multiplier", "must be 1 (no contra), 2 (contra) or 4 (recontra), not {value}",
                                value=_show(multiplier)))
        multiplier = 1
    declarer = _seat(data.get("declarer", "0"), "declarer", seats, problems)
    valat = _seat(data.get("valat"), "valat", seats, problems, allow_null=True)
    dealer = _seat(data["dealer"], "dealer", seats, problems) if data.get("dealer") is not None else None
    no_trick = _no_trick(data.get("no_trick"), valat, problems)
    winner = _seat(data.get("declarations_winner"), "declarations_winner", seats, problems, allow_null=True)
    hanging_in = data.get("hanging_in", 0)
    if variant in BELA_SMALL:
        if hanging_in not in (0, None) or isinstance(hanging_in, bool):
            problems.append(problem("hanging_in", "{variant} never holds points over to the next deal (a tie "
                                    "falls), so it is 0, not {value}", variant=variant, value=_show(hanging_in)))
        hanging_in = 0
    elif not _is_int(hanging_in) or hanging_in < 0:
        problems.append(problem("hanging_in", "must be a whole number ≥ 0 (the game points hanging before this "
                                "deal), not {value}", value=_show(hanging_in)))
        hanging_in = 0
    points = _points(data, variant, contract, declarer, valat, no_trick, problems)
    example = "{" + ", ".join(f'"{k}": {v}' for k, v in zip(keys, ('["tierce"]', '["carre:T"]', '[]'),
                                                            strict=False)) + "}"
    declared = read_declarations(data.get("declarations"), problems, example, keys)
    problems.extend(_declaration_problems(variant, rules, contract, declared))
    players = _players(data.get("players"), seats, problems)
    contest: int | None = None
    if not problems and variant in BELA_SMALL and declarer is not None:
        contest = bela_contest(variant, rules, declarer, declared, winner, problems)
    if problems or points is None or declarer is None:
        raise CalculatorError(problems)
    return SmallRequest(
        variant=variant,
        points=points[0],
        declarer=declarer,
        rules=rules,
        valat=valat,
        declarations=tuple(tuple(d) for d in declared),
        hanging_in=hanging_in,
        made_rule=made_rule,
        contract=contract,
        multiplier=multiplier,
        dealer=(declarer - 1) % 3 if variant == "bela-3" and dealer is None else dealer,
        no_trick=no_trick,
        declarations_winner=winner,
        contest=contest,
        players=players,
        given=points[1],
    )


def _contract(data: dict[str, Any], variant: str, problems: list[Problem]) -> int | None:
    value = data.get("contract")
    if variant in BELA_SMALL:
        if value is None:
            return None
        word = parse_contract_word(value)
        if word in SUITS:
            return word
        problems.append(problem("contract", "{value} is not a trump suit; {variant} is played in clubs, diamonds, "
                                "hearts or spades (the suit may be left out)", value=_show(value), variant=variant))
        return None
    if value is None:
        problems.append(problem("contract", "missing; use one of {contracts}", contracts=", ".join(CONTRACT_KEYS)))
        return None
    word = parse_contract_word(value)
    if word is None:
        problems.append(problem("contract", "{value} is not a contract; use one of {contracts}", value=_show(value),
                                contracts=", ".join(CONTRACT_KEYS)))
    return word


def _no_trick(value: object, valat: int | None, problems: list[Problem]) -> tuple[int, ...]:
    """The bela-3 players who took no trick; naming two of them says the third took every trick (a valat)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(problem("no_trick", "must be a list of seats, e.g. {example}", example='["2"]'))
        return ()
    seats: list[int] = []
    for i, item in enumerate(value):
        s = _seat(item, f"no_trick[{i}]", 3, problems)
        if s is not None and s not in seats:
            seats.append(s)
    if valat is not None and seats:
        problems.append(problem("no_trick", "with a valat the other two took no trick; leave no_trick out"))
        return ()
    if len(seats) >= 2:
        rest = [s for s in range(3) if s not in seats]
        if rest:
            problems.append(problem("no_trick", "that leaves every trick to {seat}: write it as \"valat\": {seat}",
                                    seat=_show(SEAT_KEYS[rest[0]])))
        else:
            problems.append(problem("no_trick", "somebody took the tricks: name at most one player"))
        return ()
    return tuple(sorted(seats))
