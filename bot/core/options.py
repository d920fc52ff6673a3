"""A table's options: the game it plays (a name of ``bot.engine.game.VARIANTS``), that game's rules checked by its
own options model, and the table's own settings (timer, away policy, bots, language, card tracker), with the ranges
a chat may set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.config import AWAY_POLICIES, BOT_LEVELS, AwayPolicy
from bot.engine.game import VARIANTS, parse_variant_rules, variant
from bot.i18n import LANGUAGES

LANGS = LANGUAGES
# The games a table may play: every row of bot.engine.game.VARIANTS, seating its own number of players.
GAMES = tuple(VARIANTS)
DEFAULT_GAME = "bulgarian"  # a log written before tables had a game is a Bulgarian table
EXTRA_KEYS = ("timer", "away", "level", "lang", "tracker", "review")


def rule_keys(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The table options of that game's rules (formats §2 for the Bulgarian game, §7.2 for the others)."""
    return tuple(rules_model(game).model_fields)


def rules_model(game: str) -> type[BaseModel]:
    return variant(game).rules


RULE_KEYS = rule_keys()  # the Bulgarian game's
ALL_RULE_KEYS = tuple(dict.fromkeys(k for g in GAMES for k in rule_keys(g)))  # every game's, for stale presses


def ascii_number(text: str, digits: int = 9) -> int | None:
    """A whole number written in ASCII digits (at most ``digits`` of them), else None. ``str.isdigit`` alone also
    accepts superscripts and other digits ``int`` refuses ("²"), and any length."""
    text = text.strip()
    if not text or len(text) > digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


class TableError(ValueError):
    """An event that does not fit the table (a corrupt or foreign log)."""


@dataclass(slots=True)
class Options:
    rules: dict[str, Any] = field(default_factory=dict)  # the game's options (formats §2, §7.2), only those set
    timer: int = 60
    away: AwayPolicy = "bot_turn"
    level: str = "medium"
    lang: str = "bg"
    tracker: bool = False  # each hand gets a button showing the cards played and still out (bot/core/tracker.py)
    game: str = DEFAULT_GAME  # a name of bot.engine.game.VARIANTS
    review: bool = True  # a deal's result offers each player the hard bot's review of their play (core/review.py)

    def to_json(self) -> dict[str, Any]:
        return {"rules": dict(self.rules), "timer": self.timer, "away": self.away, "level": self.level,
                "lang": self.lang, "tracker": self.tracker, "game": self.game, "review": self.review}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        game = str(data.get("game", DEFAULT_GAME))
        if game not in VARIANTS:
            raise TableError(f"unknown game {game!r}")
        return cls(dict(data.get("rules", {})), int(data["timer"]), data["away"], str(data["level"]),
                   str(data["lang"]), bool(data.get("tracker", False)), game, bool(data.get("review", True)))


class OptionError(ValueError):
    """A table option that is unknown (``allowed`` empty) or a value it does not take (``allowed`` says which)."""

    def __init__(self, key: str, allowed: str) -> None:
        self.key = key
        self.allowed = allowed
        super().__init__(f"{key}: must be {allowed}" if allowed else f"{key}: unknown option")


# A table's numeric options and the ranges a chat may set (the rules themselves allow any target; a chat's match to
# a 4,000-digit score would never end, and a turn of a day keeps a table waiting as long).
TARGET_SCORE_RANGE = (1, 3000)
TIMER_RANGE = (0, 3600)


def _allowed_values(key: str, game: str = DEFAULT_GAME) -> str:
    """What a rule option takes, in the words of formats.md §2 and §7.2 (language-neutral codes)."""
    annotation = rules_model(game).model_fields[key].annotation
    default = rules_model(game).model_fields[key].default
    if isinstance(default, bool):
        return "true, false"
    args = getattr(annotation, "__args__", ())
    if args:
        return ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in args)
    return f"{TARGET_SCORE_RANGE[0]}-{TARGET_SCORE_RANGE[1]}"


def check_game(value: Any) -> str:
    """A game's name (bot.engine.game.VARIANTS), or an OptionError naming the games."""
    text = str(value).strip().lower()
    if text not in VARIANTS:
        raise OptionError("game", ", ".join(GAMES))
    return text


def check_option(key: str, value: Any, agents: tuple[str, ...] = (), game: str = DEFAULT_GAME) -> Any:
    """The option's value for a table of ``game``, validated by that game's own options model; raises OptionError
    naming what would be valid."""
    if key == "game":
        return check_game(value)
    if key == "timer":
        low, high = TIMER_RANGE
        if isinstance(value, str):
            value = ascii_number(value.strip().removesuffix("s"))
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise OptionError(key, f"{low}-{high}")
        return value
    if key == "away":
        if value not in AWAY_POLICIES:
            raise OptionError(key, ", ".join(AWAY_POLICIES))
        return value
    if key == "level":
        if value not in BOT_LEVELS and value not in agents:
            raise OptionError(key, ", ".join((*BOT_LEVELS, *agents)))
        return value
    if key == "lang":
        if value not in LANGS:
            raise OptionError(key, ", ".join(LANGS))
        return value
    if key in ("tracker", "review"):  # the card tracker (off unless switched on), the post-deal review (on)
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in ("on", "true", "yes", "1", "off", "false", "no", "0"):
            raise OptionError(key, "on, off")
        return text in ("on", "true", "yes", "1")
    if key not in rule_keys(game):
        raise OptionError(key, "")
    if isinstance(value, str):
        text = value.strip().lower()
        default = rules_model(game).model_fields[key].default
        if isinstance(default, bool):
            if text not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
                raise OptionError(key, _allowed_values(key, game))
            value = text in ("true", "on", "yes", "1")
        elif isinstance(default, int):
            number = ascii_number(text)
            if number is None:
                raise OptionError(key, _allowed_values(key, game))
            value = number
        else:
            value = text
    low, high = TARGET_SCORE_RANGE
    if key == "target_score" and (not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high):
        raise OptionError(key, _allowed_values(key, game))
    try:
        parse_variant_rules(game, {key: value})
    except ValueError:
        raise OptionError(key, _allowed_values(key, game)) from None
    return value


def rules_for_game(rules: dict[str, Any], game: str) -> dict[str, Any]:
    """The options set at a table that keep their meaning in ``game``: keys the game lacks (or values it refuses)
    are dropped when a lobby switches games."""
    kept = {}
    for key, value in rules.items():
        if key in rule_keys(game):
            try:
                parse_variant_rules(game, {key: value})
            except ValueError:
                continue
            if rules_model(game).model_fields[key].default != value:
                kept[key] = value
    return kept
