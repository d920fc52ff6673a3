"""Contracts and auction calls.

Calls are ints: the six contracts in ascending order (0..5, so ``call > contract`` means a higher bid), then pass,
contra and recontra. The four suit contracts share their number with the suit they make trump.
"""

from __future__ import annotations

from typing import Final

Call = int
Contract = int

CLUBS_CONTRACT: Final = 0
DIAMONDS_CONTRACT: Final = 1
HEARTS_CONTRACT: Final = 2
SPADES_CONTRACT: Final = 3
NO_TRUMPS: Final = 4
ALL_TRUMPS: Final = 5
PASS: Final = 6
CONTRA: Final = 7
RECONTRA: Final = 8

CONTRACTS: Final = (0, 1, 2, 3, 4, 5)
CALL_NAMES: Final = (
    "clubs",
    "diamonds",
    "hearts",
    "spades",
    "no-trumps",
    "all-trumps",
    "pass",
    "contra",
    "recontra",
)
_CALL_LOOKUP: Final = {name: i for i, name in enumerate(CALL_NAMES)}
# Lenient spellings a person might type.
_CALL_LOOKUP.update(
    {
        "c": 0,
        "d": 1,
        "h": 2,
        "s": 3,
        "nt": NO_TRUMPS,
        "no_trumps": NO_TRUMPS,
        "notrumps": NO_TRUMPS,
        "at": ALL_TRUMPS,
        "all_trumps": ALL_TRUMPS,
        "alltrumps": ALL_TRUMPS,
        "double": CONTRA,
        "redouble": RECONTRA,
        "♣": 0,
        "♦": 1,
        "♥": 2,
        "♠": 3,
    }
)


class CallParseError(ValueError):
    """A string that names no call."""


def parse_call(text: str) -> Call:
    if not isinstance(text, str):
        raise CallParseError(f"a call must be a string, not {text!r}")
    call = _CALL_LOOKUP.get(text.strip().lower())
    if call is None:
        raise CallParseError(f"{text!r} is not a call; calls are: {', '.join(CALL_NAMES)}")
    return call


def parse_contract(text: str) -> Contract:
    call = parse_call(text)
    if call not in CONTRACTS:
        raise CallParseError(f"{text!r} is not a contract; contracts are: {', '.join(CALL_NAMES[:6])}")
    return call


def call_name(call: Call) -> str:
    return CALL_NAMES[call]


def is_suit_contract(contract: Contract) -> bool:
    return contract < NO_TRUMPS


def trump_suit(contract: Contract) -> int:
    """The trump suit of a suit contract, or -1 for no trumps and all trumps."""
    return contract if contract < NO_TRUMPS else -1
