"""Which game a table plays: the words people type after /belot, and the game a chat chose last.

The games are the rows of ``bot.engine.game.VARIANTS``; their names in each language are in ``names.game_name``.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator

from . import names
from .table import GAMES

# Words that name one game without doubt, in any of our languages (lower case). "belot"/"белот" is the Bulgarian
# game (the command itself), "belote" the French one, "bela" the Croatian one.
GAME_WORDS: Final[dict[str, str]] = {
    **{
        w: "bulgarian"
        for w in ("bulgarian", "bulgare", "bugarski", "bridge", "бридж", "бридж-белот", "белот", "belot", "български")
    },
    **{w: "bela" for w in ("bela", "бела", "croatian", "croate", "hrvatska", "хърватска", "хърватски")},
    **{
        w: "french"
        for w in ("french", "belote", "française", "francaise", "français", "francais", "francuski", "френски")
    },
}


def game_of_word(word: str) -> str | None:
    """The game a typed word names, or None."""
    return GAME_WORDS.get(word.strip().lower().lstrip("/"))


def games_list(tr: Translator) -> str:
    """Every game with its name in the reader's language: what /belot accepts."""
    return ", ".join(f"{g} ({names.game_name(g, tr)})" for g in GAMES)


def next_game(game: str) -> str:
    """The game the lobby's game button switches to."""
    return GAMES[(GAMES.index(game) + 1) % len(GAMES)] if game in GAMES else GAMES[0]
