"""The words a player may use for contracts, declarations and card ranks, in Bulgarian and English.

Both the JSON request and the one-line text form read declarations and ranks through these tables, so
``tierce:K``, ``терца:К`` and ``терца до поп`` mean the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine.calls import ALL_TRUMPS, NO_TRUMPS, Contract
from bot.engine.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, RANK_CHARS, SEVEN, TEN
from bot.engine.declarations import CARRE, QUARTE, QUINT, TIERCE
from bot.i18n import _

from .errors import Msg

BELOTE: Final = "belote"
DECLARATION_KINDS: Final = (BELOTE, TIERCE, QUARTE, QUINT, CARRE)

# The lowest top card each sequence can have (7-8-9 is the lowest tierce).
LOWEST_TOP: Final = {TIERCE: NINE, QUARTE: TEN, QUINT: JACK}
CARRE_RANKS: Final = (JACK, NINE, ACE, TEN, KING, QUEEN)

CONTRACT_WORDS: Final[dict[str, Contract]] = {
    # Bulgarian
    "спатия": 0, "спатии": 0, "трефа": 0, "трефи": 0, "кръст": 0,
    "каро": 1,
    "купа": 2, "купи": 2, "купа.": 2,
    "пика": 3, "пики": 3,
    "безкоз": NO_TRUMPS, "бк": NO_TRUMPS, "б.к.": NO_TRUMPS, "б.к": NO_TRUMPS,
    "всичкокоз": ALL_TRUMPS, "вк": ALL_TRUMPS, "в.к.": ALL_TRUMPS, "в.к": ALL_TRUMPS, "всичко": ALL_TRUMPS,
    # English and the canonical names
    "clubs": 0, "club": 0, "c": 0,
    "diamonds": 1, "diamond": 1, "d": 1,
    "hearts": 2, "heart": 2, "h": 2,
    "spades": 3, "spade": 3, "s": 3,
    "no-trumps": NO_TRUMPS, "notrumps": NO_TRUMPS, "no_trumps": NO_TRUMPS, "notrump": NO_TRUMPS,
    "nt": NO_TRUMPS, "sa": NO_TRUMPS,
    "all-trumps": ALL_TRUMPS, "alltrumps": ALL_TRUMPS, "all_trumps": ALL_TRUMPS, "alltrump": ALL_TRUMPS,
    "at": ALL_TRUMPS, "all": ALL_TRUMPS, "ta": ALL_TRUMPS,
    # Suit symbols
    "♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3,
}  # fmt: skip
# Multi-word names are joined before a line is split into words.
CONTRACT_PHRASES: Final = (
    ("без коз", "безкоз"),
    ("без-коз", "безкоз"),
    ("всичко коз", "всичкокоз"),
    ("всичко-коз", "всичкокоз"),
    ("no trumps", "notrumps"),
    ("no trump", "notrumps"),
    ("all trumps", "alltrumps"),
    ("all trump", "alltrumps"),
)

CONTRACT_KEYS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")

KIND_WORDS: Final[dict[str, str]] = {
    "belote": BELOTE, "belot": BELOTE, "belotes": BELOTE, "bela": BELOTE,
    "белот": BELOTE, "белота": BELOTE, "белоти": BELOTE,
    "tierce": TIERCE, "tierces": TIERCE, "terce": TIERCE, "terca": TIERCE, "terz": TIERCE,
    "терца": TIERCE, "терци": TIERCE,
    "quarte": QUARTE, "quartes": QUARTE, "quart": QUARTE, "kvarta": QUARTE, "fifty": QUARTE,
    "кварта": QUARTE, "кварти": QUARTE, "петдесет": QUARTE,
    "quint": QUINT, "quints": QUINT, "quinte": QUINT, "kvinta": QUINT, "hundred": QUINT,
    "квинта": QUINT, "квинти": QUINT, "сто": QUINT,
    "carre": CARRE, "carré": CARRE, "carres": CARRE, "carrés": CARRE, "kare": CARRE,
    "каре": CARRE, "карета": CARRE,
}  # fmt: skip
# The numbers players say for declarations ("50 ние" is a quarte); a carré of 9s or Js by its value too.
VALUE_WORDS: Final[dict[str, tuple[str, int | None]]] = {
    "20": (TIERCE, None),
    "50": (QUARTE, None),
    "100": (QUINT, None),
    "150": (CARRE, NINE),
    "200": (CARRE, JACK),
}

RANK_WORDS: Final[dict[str, int]] = {
    **{ch.lower(): i for i, ch in enumerate(RANK_CHARS)},
    "10": TEN,
    # Bulgarian card letters (В вале, Д дама, К/П поп, А асо) and names, singular and plural
    "в": JACK, "д": QUEEN, "к": KING, "п": KING, "а": ACE,
    "седем": SEVEN, "седмица": SEVEN, "седмици": SEVEN,
    "осем": EIGHT, "осмица": EIGHT, "осмици": EIGHT,
    "девет": NINE, "деветка": NINE, "деветки": NINE, "девятка": NINE, "девятки": NINE,
    "десет": TEN, "десетка": TEN, "десетки": TEN,
    "вале": JACK, "валета": JACK, "валет": JACK,
    "дама": QUEEN, "дами": QUEEN,
    "поп": KING, "попа": KING, "попове": KING, "поп.": KING,
    "асо": ACE, "аса": ACE, "асa": ACE,
    "seven": SEVEN, "sevens": SEVEN, "eight": EIGHT, "eights": EIGHT, "nine": NINE, "nines": NINE,
    "ten": TEN, "tens": TEN, "jack": JACK, "jacks": JACK, "queen": QUEEN, "queens": QUEEN,
    "king": KING, "kings": KING, "ace": ACE, "aces": ACE,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Declared:
    """One announced declaration as a player describes it: a kind and, if given, the top card's rank."""

    kind: str
    top: int | None = None

    def label(self) -> str:
        """The request's notation: ``belote``, ``tierce``, ``tierce:K``, ``carre:J``."""
        return self.kind if self.top is None else f"{self.kind}:{RANK_CHARS[self.top]}"

    @property
    def is_belote(self) -> bool:
        return self.kind == BELOTE


def parse_rank(text: str) -> int | None:
    return RANK_WORDS.get(text.strip().lower())


def rank_choices(kind: str) -> str:
    """The valid top cards of a sequence kind, or the carré ranks, as letters."""
    if kind == CARRE:
        return ", ".join(RANK_CHARS[r] for r in CARRE_RANKS)
    return ", ".join(RANK_CHARS[r] for r in range(LOWEST_TOP[kind], ACE + 1))


DECLARATION_HELP: Final = (
    "belote, tierce, quarte, quint (optionally with the top card: tierce:K, quint:A), "
    "carre:J, carre:9, carre:A, carre:T, carre:K, carre:Q"
)


def check_declared(kind: str, top: int | None, text: str) -> Declared | Msg:
    """A declaration if the kind can have this top card, otherwise the reason it cannot."""
    if kind == BELOTE:
        if top is not None:
            return Msg("'{value}': a belote is the king and queen of one suit; write just belote", {"value": text})
        return Declared(kind)
    if kind == CARRE:
        if top is None:
            return Msg(
                "'{value}': say which carré: carre:J, carre:9, carre:A, carre:T, carre:K or carre:Q",
                {"value": text},
            )
        if top not in CARRE_RANKS:
            return Msg(
                "'{value}': a carré is of J, 9, A, T, K or Q; four 7s or four 8s are not a declaration",
                {"value": text},
            )
        return Declared(kind, top)
    if top is not None and top < LOWEST_TOP[kind]:
        return Msg(
            "'{value}': a {kind} cannot end at {rank}; its top card is one of {ranks}",
            {"value": text, "kind": kind_name(kind), "rank": RANK_CHARS[top], "ranks": rank_choices(kind)},
        )
    return Declared(kind, top)


def parse_declaration(text: str) -> Declared | Msg:
    """Read ``kind[:rank]`` (``tierce:K``, ``терца:К``, ``carre:J``, ``каре:вале``) leniently."""
    raw = text.strip()
    head, sep, tail = raw.partition(":")
    kind = KIND_WORDS.get(head.strip().lower())
    if kind is None:
        return Msg("'{value}' is not a declaration; use {choices}", {"value": text, "choices": DECLARATION_HELP})
    top: int | None = None
    if sep:
        top = parse_rank(tail)
        if top is None:
            return Msg(
                "'{value}': '{rank}' is not a card rank; ranks are 7 8 9 T(10) J Q K A",
                {"value": text, "rank": tail},
            )
    return check_declared(kind, top, text)


_KIND_NAMES: Final = {
    BELOTE: _("belote"),
    TIERCE: _("tierce"),
    QUARTE: _("quarte"),
    QUINT: _("quint"),
    CARRE: _("carré"),
}
_CONTRACT_NAMES: Final = (
    _("clubs"),
    _("diamonds"),
    _("hearts"),
    _("spades"),
    _("no trumps"),
    _("all trumps"),
)


def kind_name(kind: str) -> Msg:
    return Msg(_KIND_NAMES[kind])


def contract_name(contract: Contract) -> Msg:
    return Msg(_CONTRACT_NAMES[contract])


def declared_name(d: Declared) -> Msg:
    """A declaration in words: ``tierce to the K`` / ``терца до поп``."""
    if d.top is None:
        return kind_name(d.kind)
    if d.kind == CARRE:
        return Msg("carré of {rank}", {"rank": rank_name(d.top, plural=True)})
    return Msg("{kind} to the {rank}", {"kind": kind_name(d.kind), "rank": rank_name(d.top)})


_RANK_NAMES: Final = ("7", "8", "9", "10", _("jack"), _("queen"), _("king"), _("ace"))
_RANK_PLURALS: Final = (_("7s"), _("8s"), _("9s"), _("10s"), _("jacks"), _("queens"), _("kings"), _("aces"))


def rank_name(rank: int, plural: bool = False) -> Msg:
    return Msg(_RANK_PLURALS[rank] if plural else _RANK_NAMES[rank])
