"""Which game a table plays: the words people type after /belot, and the game a chat chose last.

The games are the rows of ``bot.engine.game.VARIANTS``; their names in each language are in ``names.game_name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.game import VARIANTS
from bot.i18n import Translator

from . import names
from .table import GAMES

# Words and phrases that name one game without doubt, in any of our languages (lower case). "belot"/"белот" is the
# Bulgarian game (the command itself), "belote" the French one, "bela" the Croatian one; "utroje"/"udvoje" (Croatian)
# and "за трима"/"за двама" (Bulgarian) say how many play. A phrase naming a game not in VARIANTS names nothing.
_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "bulgarian": ("bulgarian", "bulgare", "bugarski", "bridge", "бридж", "бридж-белот", "белот", "belot", "български"),
    "bela": ("bela", "бела", "croatian", "croate", "hrvatska", "хърватска", "хърватски"),
    "french": ("french", "belote", "française", "francaise", "français", "francais", "francuski", "френски"),
    "bela-3": ("bela-3", "bela3", "utroje", "bela utroje", "bela u troje", "bela za troje", "бела за трима",
               "bela for three", "bela à trois", "bela a trois"),
    "bela-2": ("bela-2", "bela2", "udvoje", "bela udvoje", "bela u dvoje", "bela za dvoje", "бела за двама",
               "bela for two", "bela à deux", "bela a deux"),
    "bela-open": ("bela-open", "otvorena", "otvorena bela", "open bela", "открита бела", "belote découverte",
                  "belote decouverte", "découverte", "decouverte"),
    "bulgarian-3": ("bulgarian-3", "белот за трима", "бридж-белот за трима", "belot za troje", "belot for three",
                    "bridge-belote for three"),
    "bulgarian-2": ("bulgarian-2", "белот за двама", "бридж-белот за двама", "belot za dvoje", "belot for two",
                    "bridge-belote for two"),
}
GAME_WORDS: Final[dict[str, str]] = {w: g for g, words in _WORDS.items() if g in GAMES for w in words}
_LONGEST: Final = max(len(w.split()) for w in GAME_WORDS)


def game_of_word(word: str) -> str | None:
    """The game a typed word (or phrase) names, or None."""
    return GAME_WORDS.get(" ".join(word.strip().lower().lstrip("/").split()))


def game_at(words: Sequence[str], start: int) -> tuple[str, int] | None:
    """The game named by the longest phrase of ``words`` beginning at ``start``, and how many words it took."""
    for n in range(min(_LONGEST, len(words) - start), 0, -1):
        found = game_of_word(" ".join(words[start : start + n]))
        if found is not None:
            return found, n
    return None


def games_list(tr: Translator) -> str:
    """Every game with its name in the reader's language: what /belot accepts."""
    return ", ".join(f"{g} ({names.game_label(g, tr)})" for g in GAMES)


def next_game(game: str, seated: int = 0) -> str:
    """The game the lobby's game button switches to: the next one with a seat for everyone seated."""
    start = GAMES.index(game) if game in GAMES else -1
    for step in range(1, len(GAMES) + 1):
        candidate = GAMES[(start + step) % len(GAMES)]
        if VARIANTS[candidate].seats >= seated:
            return candidate
    return game
