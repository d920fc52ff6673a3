"""The messages of ``belote-agent/1`` (formats.md §6) and the checking of an agent's answers.

The referee writes ``hello``, ``act`` (the seat's observation, ``Observation.to_json()``), ``deal_end`` and ``quit``;
the agent answers ``hello`` and each ``act``. An answer is read leniently where formats.md §1 allows (``10h``,
``T♥``, ``NT``) and checked against the observation it answers, so a wrong answer is caught before it reaches the
engine, with a reason the agent's author can act on.
"""

from __future__ import annotations

import json
from typing import Any, Final, Literal

from bot.engine import (
    CALL_NAMES,
    Action,
    Bid,
    CallParseError,
    CardParseError,
    Deal,
    Observation,
    Play,
    card_str,
    mask_of,
    parse_call,
    parse_card,
)
from bot.engine.declarations import KINDS, resolve_declarations
from bot.engine.jsontext import JsonTextError, loads
from bot.engine.record import deal_report

from . import PROTOCOL

ErrorKind = Literal["illegal", "malformed", "timeout", "crash"]
ERROR_KINDS: Final[tuple[ErrorKind, ...]] = ("illegal", "malformed", "timeout", "crash")

_CALL_KEYS: Final = frozenset({"type", "call"})
_PLAY_KEYS: Final = frozenset({"type", "card", "declare", "belote"})


class ProtocolError(ValueError):
    """A message that breaks the protocol. ``kind`` is how the referee counts it (``malformed`` or ``illegal``)."""

    def __init__(self, kind: ErrorKind, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(reason)


# --- what the referee writes ---


def hello_message() -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL}


def act_message(observation: Observation) -> dict[str, Any]:
    return observation.to_json()


def deal_end_message(report: dict[str, Any], hands: list[list[str]]) -> dict[str, Any]:
    return {"type": "deal_end", "report": report, "hands": hands}


def quit_message() -> dict[str, Any]:
    return {"type": "quit"}


def encode(message: dict[str, Any]) -> str:
    """One JSON line, without the newline. Non-ASCII stays readable (the protocol is UTF-8)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def deal_hands(deal: Deal) -> list[list[str]]:
    """All four hands of a deal as received (formats.md §3 order): public only once the deal is over."""
    return [[card_str(c) for c in hand] for hand in deal.hands]


def deal_end_of(deal: Deal) -> tuple[dict[str, Any], list[list[str]]]:
    """What ``Agent.deal_end`` receives for a finished deal: its report (formats.md §4) and the four hands."""
    return deal_report(deal), deal_hands(deal)


# --- reading lines ---


def decode(line: str) -> dict[str, Any]:
    """One JSON object from one line; anything else is ``malformed``."""
    text = line.strip()
    if not text:
        raise ProtocolError("malformed", "an empty line; expected one JSON object")
    try:
        # Bounded depth and number length: a hostile line is refused here, not a RecursionError in the reader.
        data = loads(text, allow_surrogates=True)
    except JsonTextError as exc:
        raise ProtocolError("malformed", f"not valid JSON ({exc.why} at column {exc.column}): {_clip(text)}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"expected a JSON object, got {type(data).__name__}: {_clip(text)}")
    return data


def check_hello(answer: dict[str, Any]) -> str:
    """The agent's name from its ``hello`` answer."""
    if answer.get("type") != "hello":
        raise ProtocolError("malformed", f'expected {{"type": "hello", ...}} first, got {_clip(encode(answer))}')
    if answer.get("protocol") != PROTOCOL:
        raise ProtocolError(
            "malformed", f"the agent speaks protocol {answer.get('protocol')!r}; this referee speaks {PROTOCOL!r}"
        )
    name = answer.get("name", "")
    if not isinstance(name, str):
        raise ProtocolError("malformed", f"hello.name must be a string, not {name!r}")
    return name.strip()


# --- answers ---


def parse_answer(answer: dict[str, Any], observation: Observation) -> Action:
    """The engine action an answer stands for, if the observed seat may take it now.

    Raises ProtocolError: ``malformed`` when the answer is not an action at all, ``illegal`` when it is an action
    the seat may not take now (the reason names the rule and what would be legal).
    """
    auction = observation.phase == "auction"
    if "call" in answer and "card" in answer:
        raise ProtocolError("malformed", 'an answer has either "call" (auction) or "card" (play), not both')
    if "call" in answer:
        _no_other_keys(answer, _CALL_KEYS)
        return _parse_call(answer["call"], observation, auction)
    if "card" in answer:
        _no_other_keys(answer, _PLAY_KEYS)
        return _parse_play(answer, observation, auction)
    expected = '{"call": "pass"}' if auction else '{"card": "' + _first_legal(observation) + '"}'
    raise ProtocolError("malformed", f'the answer has neither "call" nor "card"; expected e.g. {expected}')


def _parse_call(value: object, observation: Observation, auction: bool) -> Bid:
    if not isinstance(value, str):
        raise ProtocolError("malformed", f'call must be a string like "pass" or "spades", not {value!r}')
    try:
        call = parse_call(value)
    except CallParseError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    if not auction:
        raise ProtocolError(
            "illegal", f'the auction is over: answer with a card, e.g. {{"card": "{_first_legal(observation)}"}}'
        )
    if call not in observation.legal_calls:
        legal = ", ".join(CALL_NAMES[c] for c in observation.legal_calls)
        raise ProtocolError("illegal", f"{CALL_NAMES[call]} is not a legal call now; legal: {legal}")
    return Bid(call)


def _parse_play(answer: dict[str, Any], observation: Observation, auction: bool) -> Play:
    value = answer["card"]
    if not isinstance(value, str):
        raise ProtocolError("malformed", f'card must be a string like "JH", not {value!r}')
    try:
        card = parse_card(value)
    except CardParseError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    declare_value = answer.get("declare", [])
    if not isinstance(declare_value, list) or not all(isinstance(k, str) for k in declare_value):
        raise ProtocolError("malformed", f'declare must be a list of kinds like ["tierce"], not {declare_value!r}')
    declare = tuple(k.strip().lower() for k in declare_value)
    unknown = [k for k in declare if k not in KINDS]
    if unknown:
        raise ProtocolError("malformed", f"unknown declaration {unknown[0]!r}; kinds are {', '.join(KINDS)}")
    belote = answer.get("belote", False)
    if not isinstance(belote, bool):
        raise ProtocolError("malformed", f"belote must be true or false, not {belote!r}")
    if auction:
        legal = ", ".join(CALL_NAMES[c] for c in observation.legal_calls)
        raise ProtocolError("illegal", f'the auction is on: answer with {{"call": ...}}; legal calls: {legal}')
    if card not in observation.legal_cards:
        legal = ", ".join(card_str(c) for c in observation.legal_cards)
        where = "is not in your hand" if card not in observation.hand else "may not be played now"
        raise ProtocolError("illegal", f"{card_str(card)} {where}; legal cards: {legal}")
    if observation.rules.auto_declarations:
        # Announcements are made for every player under this table option; what the agent asked for is moot.
        return Play(card)
    if declare:
        if not observation.declarable:
            raise ProtocolError(
                "illegal",
                "nothing may be declared now: declarations go with the player's first card, "
                "and only combinations the hand holds (declarable is empty)",
            )
        hand = mask_of(observation.hand)
        contract = -1 if observation.contract is None else observation.contract
        if resolve_declarations(hand, declare, contract, observation.rules) is None:
            offered = ", ".join(observation.declarable)
            raise ProtocolError(
                "illegal",
                f"the hand does not hold {', '.join(declare)} as separate combinations (one card in one); "
                f"declarable: {offered}",
            )
    if belote and card not in observation.belote_cards:
        allowed = ", ".join(card_str(c) for c in observation.belote_cards) or "none"
        raise ProtocolError(
            "illegal",
            f"no belote may be announced with {card_str(card)}: it needs the king or queen of trumps with the "
            f"other card still in hand; cards that may carry a belote now: {allowed}",
        )
    return Play(card, declare, belote)


def _no_other_keys(answer: dict[str, Any], allowed: frozenset[str]) -> None:
    extra = sorted(set(answer) - allowed)
    if extra:
        raise ProtocolError(
            "malformed", f"unknown field {extra[0]!r} in the answer; allowed: {', '.join(sorted(allowed - {'type'}))}"
        )


def action_to_json(action: Action) -> dict[str, Any]:
    """The answer that stands for an action (what our own agents write)."""
    if isinstance(action, Bid):
        return {"call": CALL_NAMES[action.call]}
    answer: dict[str, Any] = {"card": card_str(action.card)}
    if action.declare:
        answer["declare"] = list(action.declare)
    if action.belote:
        answer["belote"] = True
    return answer


def fallback_action(observation: Observation) -> Action:
    """What the referee plays for a seat whose agent failed: the first legal action, announcing nothing."""
    if observation.phase == "auction":
        return Bid(observation.legal_calls[0])
    return Play(observation.legal_cards[0])


def _first_legal(observation: Observation) -> str:
    return card_str(observation.legal_cards[0]) if observation.legal_cards else "JH"


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
