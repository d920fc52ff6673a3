"""Numbers a person types into the sheet's chat commands: a line's two plain numbers, or a line's number.

``str.isdigit`` and ``int`` disagree about characters such as ``²`` (a digit to one, not a number to the other),
and ``int`` refuses very long numbers; so a word is read as a number only when it is written in the digits 0-9, and
a word that looks like a number but is not one gets an answer that says what to write instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .errors import Msg
from .sheet import SheetError

# Far above any real score, far below the length where int() refuses a string.
MAX_DIGITS: Final = 6


def _looks_like_a_number(word: str) -> bool:
    return any(c.isnumeric() for c in word) and not any(c.isalpha() for c in word)


def whole_number(word: str) -> int | None:
    """The word as a whole number ≥ 0 written in the digits 0-9 (at most MAX_DIGITS of them), else None."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def plain_points(words: Sequence[str]) -> tuple[int, int] | None:
    """Two numbers as written by hand ("90 72"); None when the words are not two number-like words (then they are
    a deal to score). SheetError when they look like numbers but are not whole numbers in the digits 0-9."""
    if len(words) != 2 or not all(_looks_like_a_number(w) for w in words):
        return None
    numbers = []
    for team, word in zip(("A", "B"), words, strict=True):
        number = whole_number(word)
        if number is None:
            raise SheetError(Msg(
                "'{word}' is not a whole number; write each team's points in the digits 0-9, e.g. 90 72",
                {"word": word[:20]}), team)
        numbers.append(number)
    return numbers[0], numbers[1]


def line_number(word: str) -> int:
    """A line's number as typed (1, 2, ...); SheetError saying how to write it otherwise."""
    number = whole_number(word)
    if number is None or number < 1:
        raise SheetError(Msg("'{word}' is not a line number; lines are counted 1, 2, 3, ...", {"word": word[:20]}),
                         "line")
    return number
