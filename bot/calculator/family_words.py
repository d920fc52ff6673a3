"""The words players use for a Bela or French deal, in Croatian, French, Bulgarian and English.

Each word is tagged with the languages it belongs to, so a line's language can be told from its words and an
answer about a word that does not parse can suggest words of that language (docs/calculator.md, "Bela and French").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.engine.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, TEN
from bot.engine.declarations import CARRE, QUARTE, QUINT, TIERCE

from .vocabulary import BELOTE, RANK_WORDS

Langs = frozenset[str]
HR: Final = frozenset({"hr"})
FR: Final = frozenset({"fr"})
BG: Final = frozenset({"bg"})
EN: Final = frozenset({"en"})


def _tag(words: Iterable[str], langs: Langs) -> dict[str, Langs]:
    return dict.fromkeys(words, langs)


# The first word of a line names the game.
GAME_WORDS: Final[dict[str, str]] = {
    "bela": "bela", "бела": "bela", "belaa": "bela",
    "belote": "french", "french": "french", "française": "french", "francaise": "french", "francuska": "french",
    "френски": "french",
}  # fmt: skip
TEAM_WORDS: Final[dict[str, int]] = {
    "mi": 0, "nas": 0, "naši": 0, "nasi": 0,
    "vi": 1, "oni": 1, "vas": 1, "njih": 1, "njima": 1,
    "nous": 0, "vous": 1, "eux": 1, "ils": 1,
    "ние": 0, "нас": 0, "вие": 1, "вас": 1, "те": 1, "тях": 1,
    "we": 0, "us": 0, "a": 0, "you": 1, "they": 1, "them": 1, "b": 1,
}  # fmt: skip
CALLER_WORDS: Final = {
    "zvali": HR, "zvao": HR, "zvala": HR, "zvalo": HR, "zove": HR,
    "pris": FR, "prend": FR, "prise": FR, "preneur": FR, "preneurs": FR,
    "избра": BG, "избраха": BG, "каза": BG, "казаха": BG, "играчи": BG,
    "called": EN, "took": EN, "takers": EN, "callers": EN,
}  # fmt: skip
SUIT_WORDS: Final[dict[str, int]] = {
    "tref": 0, "križ": 0, "kriz": 0, "karo": 1, "herc": 2, "srce": 2, "pik": 3,
    "trèfle": 0, "trefle": 0, "carreau": 1, "cœur": 2, "coeur": 2, "pique": 3,
    "спатия": 0, "каро": 1, "купа": 2, "пика": 3,
    "clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
}  # fmt: skip
NOT_A_SUIT: Final = frozenset({"bk", "бк", "вк", "nt", "at", "sa", "ta", "безкоз", "всичкокоз"})
# Words that make the numbers after them declarations ("zvanje 50").
DECLARE_WORDS: Final = {
    "zvanje": HR, "zvanja": HR, "annonce": FR, "annonces": FR, "обява": BG, "обяви": BG, "комбинация": BG,
    "declaration": EN, "declarations": EN, "decl": EN,
}  # fmt: skip
KINDS: Final[dict[str, str]] = {
    "terca": TIERCE, "kvarta": QUARTE, "pedeset": QUARTE, "kvinta": QUINT, "sto": QUINT, "kare": CARRE,
    "tierce": TIERCE, "cinquante": QUARTE, "quarte": QUARTE, "quinte": QUINT, "cent": QUINT, "carré": CARRE,
    "carre": CARRE, "терца": TIERCE, "кварта": QUARTE, "петдесет": QUARTE, "квинта": QUINT, "сто": QUINT,
    "каре": CARRE, "quint": QUINT, "fifty": QUARTE, "hundred": QUINT,
    "bela": BELOTE, "belote": BELOTE, "rebelote": BELOTE, "бела": BELOTE, "белот": BELOTE,
}  # fmt: skip
KIND_LANGS: Final[dict[str, Langs]] = {
    **_tag({"terca", "kvarta", "pedeset", "kvinta", "sto", "kare", "bela"}, HR),
    **_tag({"tierce", "cinquante", "quarte", "quinte", "cent", "carré", "belote", "rebelote"}, FR),
    **_tag({"терца", "кварта", "петдесет", "квинта", "сто", "каре", "бела", "белот"}, BG),
    **_tag({"quint", "fifty", "hundred", "carre"}, EN),
}
# "četiri dečka", "quatre valets", "four jacks": a carré by its rank.
FOUR_WORDS: Final = {"četiri": HR, "cetiri": HR, "quatre": FR, "четири": BG, "four": EN}
# The numbers said for declarations after a declaration word.
VALUES: Final[dict[str, tuple[str, int | None]]] = {
    "20": (TIERCE, None), "50": (QUARTE, None), "100": (QUINT, None), "150": (CARRE, NINE), "200": (CARRE, JACK),
}  # fmt: skip
RANKS: Final[dict[str, int]] = {
    **RANK_WORDS,
    "dečko": JACK, "dečka": JACK, "dečki": JACK, "decko": JACK, "decka": JACK, "decki": JACK, "dečke": JACK,
    "devetka": NINE, "devetke": NINE, "devetki": NINE, "desetka": TEN, "desetke": TEN, "desetki": TEN,
    "as": ACE, "asa": ACE, "asova": ACE, "asovi": ACE, "kralj": KING, "kralja": KING, "kraljevi": KING,
    "kraljeva": KING, "baba": QUEEN, "babe": QUEEN, "dame": QUEEN, "sedmica": SEVEN, "osmica": EIGHT,
    "valet": JACK, "valets": JACK, "neuf": NINE, "dix": TEN, "roi": KING, "rois": KING, "dames": QUEEN,
    "sept": SEVEN, "huit": EIGHT,
}  # fmt: skip
TO_WORDS: Final = frozenset({"do", "au", "à", "до", "to"})
SKIPPED: Final = frozenset({"de", "d", "et", "i", "и", "of", "and", "la", "le"})
VALAT_WORDS: Final = {"štiglja": HR, "stiglja": HR, "štigljа": HR, "capot": FR, "капо": BG, "валат": BG,
                      "valat": EN, "sweep": EN}
HELD_WORDS: Final = {"visi": HR, "visilo": HR, "litige": FR, "висящи": BG, "висят": BG, "задържани": BG,
                     "held": EN, "hanging": EN}
# The tie rule each game's held points come from (bare "visi" or "litige" sets it).
HELD_RULE: Final = {"visi": ("bela", "visi"), "visilo": ("bela", "visi"), "litige": ("french", "litige")}
FELL_WORDS: Final = {"pad": HR, "pao": HR, "pali": HR, "pala": HR, "dedans": FR, "chute": FR, "chuté": FR,
                     "паднаха": BG, "вкарани": BG, "fell": EN, "failed": EN}
PASSED_WORDS: Final = {"prošli": HR, "prosli": HR, "prošao": HR, "prolaz": HR, "fait": FR, "réussi": FR,
                       "изкарани": BG, "изкараха": BG, "passed": EN, "made": EN}
WINNER_WORDS: Final = {"jače": HR, "jace": HR, "jači": HR, "meilleure": FR, "meilleur": FR, "по-силни": BG,
                       "stronger": EN, "best": EN}

WORD_LANGS: Final[dict[str, Langs]] = {
    **_tag({"mi", "nas", "naši", "nasi", "vi", "oni", "vas", "njih", "njima"}, HR),
    **_tag({"nous", "vous", "eux", "ils"}, FR),
    **_tag({"ние", "нас", "вие", "вас", "те", "тях"}, BG),
    **_tag({"we", "us", "you", "they", "them"}, EN),
    **_tag({"tref", "križ", "kriz", "karo", "herc", "srce", "pik"}, HR),
    **_tag({"trèfle", "trefle", "carreau", "cœur", "coeur", "pique"}, FR),
    **_tag({"спатия", "каро", "купа", "пика"}, BG),
    **_tag({"clubs", "diamonds", "hearts", "spades"}, EN),
    **CALLER_WORDS, **DECLARE_WORDS, **KIND_LANGS, **FOUR_WORDS, **VALAT_WORDS, **HELD_WORDS, **FELL_WORDS,
    **PASSED_WORDS, **WINNER_WORDS,
}

# A line for each language that parses, shown when a line lacks something.
EXAMPLES: Final = {
    "hr": "bela mi 92 zvanje 50 bela",
    "fr": "belote pris 65 belote",
    "bg": "бела ние 92 кварта белот",
    "en": "bela we 92 quarte belote",
}
