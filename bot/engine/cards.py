"""Cards, suits and ranks, as small ints and bitmasks.

A card is an int 0..31: ``suit * 8 + rank``. Ranks are numbered in *sequence order* (7 8 9 T J Q K A = 0..7), the
order declarations use, so a sequence is a run of set bits inside one suit's byte. A set of cards is a 32-bit mask
(bit ``card``). Trump and plain strength are lookup tables over the rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
Suit = int
Rank = int
CardMask = int

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
RANKS: Final = tuple(range(8))

RANK_CHARS: Final = "789TJQKA"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

ALL_CARDS: Final = tuple(range(32))
FULL_DECK: Final[CardMask] = (1 << 32) - 1
SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in SUITS)

# Strength inside a suit (higher wins). Trump order J 9 A T K Q 8 7; plain order A T K Q J 9 8 7.
TRUMP_STRENGTH: Final = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH: Final = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> Rank:
    return card & 7


def make_card(rank: Rank, suit: Suit) -> Card:
    return suit * 8 + rank


def _higher_table(strength: tuple[int, ...]) -> tuple[CardMask, ...]:
    table = []
    for card in ALL_CARDS:
        suit, rank = card >> 3, card & 7
        mask = 0
        for other in RANKS:
            if strength[other] > strength[rank]:
                mask |= 1 << (suit * 8 + other)
        table.append(mask)
    return tuple(table)


# HIGHER_TRUMP[c]: the cards of c's suit that beat c in trump order (likewise plain order).
HIGHER_TRUMP: Final = _higher_table(TRUMP_STRENGTH)
HIGHER_PLAIN: Final = _higher_table(PLAIN_STRENGTH)


class CardParseError(ValueError):
    """A card string that is not a card."""


_SUIT_LOOKUP: Final = {
    **{ch: i for i, ch in enumerate(SUIT_CHARS)},
    **{ch.lower(): i for i, ch in enumerate(SUIT_CHARS)},
    **{ch: i for i, ch in enumerate(SUIT_SYMBOLS)},
    "♧": CLUBS,
    "♢": DIAMONDS,
    "♡": HEARTS,
    "♤": SPADES,
}
_RANK_LOOKUP: Final = {
    **{ch: i for i, ch in enumerate(RANK_CHARS)},
    **{ch.lower(): i for i, ch in enumerate(RANK_CHARS)},
    "10": TEN,
}


def parse_card(text: str) -> Card:
    """Read a card leniently: ``JH``, ``jh``, ``10H``, ``T♥``. Raises CardParseError with the reason."""
    if not isinstance(text, str):
        raise CardParseError(f"a card must be a string like 'JH', not {text!r}")
    s = text.strip()
    if len(s) < 2:
        raise CardParseError(f"{text!r} is not a card: write rank then suit, e.g. 'JH', 'TS', '7C'")
    rank = _RANK_LOOKUP.get(s[:-1])
    suit = _SUIT_LOOKUP.get(s[-1])
    if rank is None or suit is None:
        raise CardParseError(
            f"{text!r} is not a card: rank is one of 7 8 9 T(10) J Q K A, suit one of C D H S or ♣ ♦ ♥ ♠"
        )
    return suit * 8 + rank


def card_str(card: Card) -> str:
    """The canonical two-character form, e.g. ``JH``."""
    return RANK_CHARS[card & 7] + SUIT_CHARS[card >> 3]


def card_symbol(card: Card) -> str:
    """A display form with the suit symbol, e.g. ``J♥``; ``10`` for the ten."""
    rank = "10" if card & 7 == TEN else RANK_CHARS[card & 7]
    return rank + SUIT_SYMBOLS[card >> 3]


def mask_of(cards: Iterable[Card]) -> CardMask:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: CardMask) -> Iterator[Card]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# _BYTE_CARDS[suit][byte]: the cards of one suit's byte of a mask (card_list runs on every legal-move query).
_BYTE_CARDS: Final = tuple(
    tuple(tuple(suit * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256)) for suit in range(4)
)


def card_list(mask: CardMask) -> list[Card]:
    """The cards of a mask, lowest first."""
    return [
        *_BYTE_CARDS[0][mask & 0xFF],
        *_BYTE_CARDS[1][mask >> 8 & 0xFF],
        *_BYTE_CARDS[2][mask >> 16 & 0xFF],
        *_BYTE_CARDS[3][mask >> 24 & 0xFF],
    ]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]
