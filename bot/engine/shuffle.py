"""Shuffling and cutting a deal's deck from the match seed (docs/fairness.md gives the exact steps).

``hmac-sha256/1`` (the scheme of every new match): the bytes of HMAC-SHA256(seed, "deal/<n>/<block>") drive an
unbiased Fisher–Yates shuffle and the cut, by rejection sampling. Knowing some dealt cards tells nothing about the
seed or about other deals, unlike a Mersenne Twister seeded with a small number.

``python-random`` is the scheme matches used before: ``random.Random(f"{seed}/{n}")``. It is kept only so tables
and saved matches from before replay to exactly the same deals.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator
from typing import Final

from .cards import Card

SCHEME: Final = "hmac-sha256/1"
LEGACY_SCHEME: Final = "python-random"
SCHEMES: Final = (SCHEME, LEGACY_SCHEME)

# The cut leaves at least this many cards in each part (a cut of one card is no cut).
MIN_CUT: Final = 3


class SchemeError(ValueError):
    """A dealing scheme this engine does not know."""


def seed_key(seed: int | str) -> bytes:
    """The HMAC key of a seed: the UTF-8 bytes of its text (an int in decimal)."""
    return str(seed).encode("utf-8")


def commitment(seed: int | str) -> str:
    """What the group sees when a match starts: SHA-256 of the seed's key bytes, in lowercase hex."""
    return hashlib.sha256(seed_key(seed)).hexdigest()


def _bytes(key: bytes, label: str) -> Iterator[int]:
    block = 0
    while True:
        yield from hmac.digest(key, f"{label}/{block}".encode("ascii"), "sha256")
        block += 1


def _below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound) for bound <= 256: one byte, rejected while it falls in the uneven tail."""
    limit = 256 - 256 % bound
    for byte in stream:
        if byte < limit:
            return byte % bound
    raise AssertionError("unreachable: the byte stream is endless")


def shuffle_and_cut(seed: int | str, deal_number: int, scheme: str = SCHEME) -> list[Card]:
    """The deck of deal ``deal_number`` (0 for the first), top card first, after the shuffle and the cut."""
    if scheme == SCHEME:
        stream = _bytes(seed_key(seed), f"deal/{deal_number}")
        deck = list(range(32))
        for i in range(31, 0, -1):
            j = _below(stream, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        cut = MIN_CUT + _below(stream, 32 - 2 * MIN_CUT + 1)  # the player on the dealer's left cuts
        return deck[cut:] + deck[:cut]
    if scheme == LEGACY_SCHEME:
        rng = random.Random(f"{seed}/{deal_number}")
        deck = list(range(32))
        rng.shuffle(deck)
        cut = rng.randint(MIN_CUT, 32 - MIN_CUT)
        return deck[cut:] + deck[:cut]
    raise SchemeError(f"unknown dealing scheme {scheme!r}; known: {', '.join(SCHEMES)}")


def choose_dealer(seed: int | str, scheme: str = SCHEME, seats: int = 4) -> int:
    """The first dealer when none is given: drawn from the seed as well, uniformly among ``seats``."""
    if scheme == SCHEME:
        return _below(_bytes(seed_key(seed), "dealer"), seats)
    if scheme == LEGACY_SCHEME:
        return random.Random(f"{seed}/dealer").randrange(seats)
    raise SchemeError(f"unknown dealing scheme {scheme!r}; known: {', '.join(SCHEMES)}")
