"""The one interface every game of the family offers, and the table of variants.

The core, views, bots, calculator, records and protocol use a game only through this shape (docs/architecture.md):
a match (``legal_actions``, ``apply``, ``over``, ``winner``, ``totals``, ``deal``) whose deals answer ``to_act``,
``phase``, ``legal_actions``, ``result``, and a view of one seat. A new game is a new module and a row of
``VARIANTS``, never an ``if variant ==`` elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from pydantic import BaseModel, ValidationError

from .bela import BelaMatch, BelaRules
from .bela2 import BelaTwoMatch, BelaTwoRules
from .bela3 import BelaThreeMatch, BelaThreeRules
from .belaopen import BelaOpenMatch, BelaOpenRules
from .bulgarian_small import BulgarianThreeRules, BulgarianTwoRules
from .bulgarian_small_match import BulgarianThreeMatch, BulgarianTwoMatch, SmallDeal
from .cards import CardMask
from .deal import Action
from .french import FrenchMatch, FrenchRules
from .match import Match
from .observation import Observation
from .rules import Rules, RulesError
from .seatview import SeatView


class GameDeal(Protocol):
    """One deal of any game."""

    dealer: int
    to_act: int

    @property
    def phase(self) -> str: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...


class GameMatch(Protocol):
    """A match of any game: deals in turn until it is decided."""

    seed: int | str
    first_dealer: int
    totals: list[int]
    hanging: int
    winner: int | None

    @property
    def over(self) -> bool: ...

    @property
    def to_act(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    def observe(self, seat: int) -> Observation | SeatView:
        """What ``seat`` may know now: the Bulgarian ``Observation`` or a family ``SeatView`` (same field names for
        the seat's hand, calls, tricks and its legal actions)."""
        ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A game of the family: its name in formats (§7.1), seats, side names, options and match."""

    name: str
    seats: int
    sides: tuple[str, ...]
    rules: type[BaseModel]
    new_match: Callable[..., GameMatch]
    house_rules: bool = False  # a house game (family §8–§9): whoever chooses it is told so
    pack: CardMask = (1 << 32) - 1  # the cards in the game's pack: the Bulgarian house games play without 7s and 8s


VARIANTS: Final[Mapping[str, Variant]] = {
    "bulgarian": Variant("bulgarian", 4, ("A", "B"), Rules, Match),
    "bela": Variant("bela", 4, ("A", "B"), BelaRules, BelaMatch),
    "french": Variant("french", 4, ("A", "B"), FrenchRules, FrenchMatch),
    "bela-3": Variant("bela-3", 3, ("0", "1", "2"), BelaThreeRules, BelaThreeMatch),
    "bela-2": Variant("bela-2", 2, ("0", "1"), BelaTwoRules, BelaTwoMatch),
    "bela-open": Variant("bela-open", 2, ("0", "1"), BelaOpenRules, BelaOpenMatch),
    # House rules (family §8–§9): whoever offers them says so.
    "bulgarian-3": Variant(
        "bulgarian-3", 3, ("0", "1", "2"), BulgarianThreeRules, BulgarianThreeMatch, True, SmallDeal.PACK
    ),
    "bulgarian-2": Variant("bulgarian-2", 2, ("0", "1"), BulgarianTwoRules, BulgarianTwoMatch, True, SmallDeal.PACK),
}


def variant(name: object) -> Variant:
    """The variant of that name, or a ValueError naming the known ones."""
    found = VARIANTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return found


def parse_variant_rules(name: str, data: object) -> Any:
    """A variant's ``rules`` object validated by its own model; RulesError names each bad key, as for Bulgarian."""
    model = variant(name).rules
    if data is None:
        return model()
    if not isinstance(data, dict):
        raise RulesError([("", "must be an object of table options")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ())) or "?"
            kind = err.get("type", "")
            if kind == "extra_forbidden":
                why = f"not a table option of {name}; its options: " + ", ".join(model.model_fields)
            elif kind.startswith("bool"):
                why = "must be true or false"
            elif kind == "literal_error":
                why = str(err.get("msg", "invalid value")).replace("Input should be", "must be")
            elif kind.startswith("int") or kind == "greater_than_equal":
                why = "must be a whole number ≥ 1"
            else:
                why = str(err.get("msg", "invalid value"))
            problems.append((loc, why))
        raise RulesError(problems) from None
