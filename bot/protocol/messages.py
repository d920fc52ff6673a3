"""The messages of ``belote-agent/1`` (formats.md §6, §7.6) and the checking of an agent's answers.

The referee writes ``hello`` (naming the game unless it is the Bulgarian one), ``act`` (the seat's view: a Bulgarian
``Observation.to_json()`` or a family ``SeatView.to_json()``), ``deal_end`` and ``quit``; the agent answers ``hello``
and each ``act``. An answer is read leniently where formats.md §1 allows (``10h``,
``T♥``, ``NT``) and checked against the observation it answers, so a wrong answer is caught before it reaches the
engine, with a reason the agent's author can act on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from bot.engine import (
    CALL_NAMES,
    Action,
    Bid,
    CallParseError,
    CardParseError,
    Deal,
    Discard,
    Exchange,
    Observation,
    Play,
    card_str,
    mask_of,
    parse_call,
    parse_card,
    parse_rules,
)
from bot.engine.combos import resolve_kinds
from bot.engine.deal import DISCARD, EXCHANGE
from bot.engine.declarations import KINDS, resolve_declarations
from bot.engine.familyrecord import family_deal_report, family_deal_to_record
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.jsontext import JsonTextError, loads
from bot.engine.record import deal_report
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import TrumpDeal

from . import PROTOCOL

ErrorKind = Literal["illegal", "malformed", "timeout", "crash"]
ERROR_KINDS: Final[tuple[ErrorKind, ...]] = ("illegal", "malformed", "timeout", "crash")

BULGARIAN: Final = "bulgarian"

View = Observation | SeatView
"""What a seat is shown: the Bulgarian game's observation or a family game's view (formats §7.6)."""

_CALL_KEYS: Final = frozenset({"type", "call"})
_DISCARD_KEYS: Final = frozenset({"type", "discard"})
_EXCHANGE_KEYS: Final = frozenset({"type", "exchange"})
_PLAY_KEYS: Final = frozenset({"type", "card", "declare", "belote"})


class ProtocolError(ValueError):
    """A message that breaks the protocol. ``kind`` is how the referee counts it (``malformed`` or ``illegal``)."""

    def __init__(self, kind: ErrorKind, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(reason)


# --- what the referee writes ---


def hello_message(variant: str = BULGARIAN, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The referee's greeting. The Bulgarian game's is §6's unchanged; any other names the game (formats §7.6.1)."""
    if variant == BULGARIAN:
        return {"type": "hello", "protocol": PROTOCOL}
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "variant": variant,
        "rules": dict(rules or {}),
        "seats": VARIANTS[variant].seats,
    }


def game_of(view: View) -> tuple[str, dict[str, Any]]:
    """The game a view belongs to, as a hello names it: the variant and its table options that are not defaults
    (none for the Bulgarian game, whose hello names neither)."""
    if isinstance(view, SeatView):
        return view.variant, dict(view.rules)
    return BULGARIAN, {}


def game(variant: str, rules: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """A game as ``game_of`` names it, from a variant and table options (checked: RulesError names a bad key)."""
    if variant == BULGARIAN:
        parse_rules(dict(rules or {}))
        return BULGARIAN, {}
    options: dict[str, Any] = parse_variant_rules(variant, dict(rules or {})).model_dump(exclude_defaults=True)
    return variant, options


def act_message(view: View) -> dict[str, Any]:
    return view.to_json()


def deal_end_message(
    report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``extra``: a family deal's record fields beside ``hands`` (``turned``; formats §7.6.4)."""
    return {"type": "deal_end", "report": report, "hands": hands, **(extra or {})}


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


# The fields of a family deal's record that are not hands, bids or play: what deal_end carries beside the hands.
_RECORD_ONLY: Final = frozenset({"dealer", "hands", "bids", "play"})


def family_deal_end_of(deal: TrumpDeal) -> tuple[dict[str, Any], list[list[str]], dict[str, Any]]:
    """A finished family deal's report (formats §7.4), its hands as the record lists them (§7.3) and its extra
    record fields (``turned`` in French belote)."""
    record = family_deal_to_record(deal)
    extra = {k: v for k, v in record.items() if k not in _RECORD_ONLY}
    return family_deal_report(deal), record["hands"], extra


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
    hello_variants(answer)
    return name.strip()


def hello_variants(answer: dict[str, Any]) -> tuple[str, ...] | None:
    """The variants the agent plays, if its ``hello`` lists them (formats §7.6.1); None when it does not say."""
    variants = answer.get("variants")
    if variants is None:
        return None
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ProtocolError(
            "malformed", f'hello.variants must be a list of variant names like ["bulgarian", "bela"], not {variants!r}'
        )
    return tuple(v.strip().lower() for v in variants)


def refusal(name: str, variants: Sequence[str] | None, variant: str) -> str | None:
    """Why an agent that plays ``variants`` cannot sit at a table of ``variant`` (None: it can)."""
    if variants is None or variant in variants:
        return None
    listed = ", ".join(variants) if variants else "none"
    return f"{name or 'the agent'} plays {listed}, not {variant}: it says so in its hello (variants)"


# --- answers ---


def parse_answer(answer: dict[str, Any], observation: View) -> Action:
    """The engine action an answer stands for, if the observed seat may take it now.

    Raises ProtocolError: ``malformed`` when the answer is not an action at all, ``illegal`` when it is an action
    the seat may not take now (the reason names the rule and what would be legal).
    """
    auction = observation.phase == "auction"
    if "call" in answer and "card" in answer:
        raise ProtocolError("malformed", 'an answer has either "call" (auction) or "card" (play), not both')
    between = observation.phase in (DISCARD, EXCHANGE)  # the bela-3 discard, the bela-2 seven exchange
    if "call" in answer:
        _no_other_keys(answer, _CALL_KEYS)
        if between:
            raise ProtocolError("illegal", f"now is the {observation.phase}: answer with {_phase_example(observation)}")
        return _parse_call(answer["call"], observation, auction)
    if "card" in answer:
        _no_other_keys(answer, _PLAY_KEYS)
        if between:
            raise ProtocolError("illegal", f"now is the {observation.phase}: answer with {_phase_example(observation)}")
        return _parse_play(answer, observation, auction)
    if "discard" in answer:
        _no_other_keys(answer, _DISCARD_KEYS)
        return _parse_discard(answer["discard"], observation)
    if "exchange" in answer:
        _no_other_keys(answer, _EXCHANGE_KEYS)
        return _parse_exchange(answer["exchange"], observation)
    expected = '{"call": "pass"}' if auction else '{"card": "' + _first_legal(observation) + '"}'
    if observation.phase in (DISCARD, EXCHANGE):
        expected = _phase_example(observation)
    raise ProtocolError("malformed", f'the answer has neither "call" nor "card"; expected e.g. {expected}')


def _phase_example(observation: View) -> str:
    if observation.phase == DISCARD:
        return '{"discard": [' + ", ".join(f'"{card_str(c)}"' for c in observation.legal_cards[:2]) + "]}"
    return '{"exchange": true} or {"exchange": false}'


def _parse_discard(value: object, observation: View) -> Discard:
    """The 3-player caller's two discards (formats §7.6.3): two distinct cards of ``legal``."""
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(c, str) for c in value):
        raise ProtocolError(
            "malformed", f'discard must be a list of two cards like ["7C", "QD"], not {_clip(repr(value))}')
    try:
        chosen = tuple(parse_card(c) for c in value)
    except CardParseError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    if observation.phase != DISCARD:
        raise ProtocolError("illegal", "there is no discard now: only the bela-3 caller discards, right after the "
                            "call")
    if chosen[0] == chosen[1]:
        raise ProtocolError("illegal", f"the two discards must be two different cards, not {card_str(chosen[0])} twice")
    wrong = [c for c in chosen if c not in observation.legal_cards]
    if wrong:
        raise ProtocolError("illegal", f"{card_str(wrong[0])} is not one of the caller's 12 cards; legal: "
                            + ", ".join(card_str(c) for c in observation.legal_cards))
    return Discard(chosen)


def _parse_exchange(value: object, observation: View) -> Exchange:
    """The answer to the 2-player seven exchange (formats §7.6.3): true (take the turned card) or false."""
    if not isinstance(value, bool):
        raise ProtocolError("malformed", f"exchange must be true or false, not {_clip(repr(value))}")
    if observation.phase != EXCHANGE or not isinstance(observation, SeatView) or value not in (
            observation.legal_exchange):
        raise ProtocolError("illegal", "there is no seven exchange now: it is asked of the holder of the 7 of the "
                            "turned suit, right after the call in bela-2")
    return Exchange(value)


def _calling(observation: View) -> str:
    """What the calling phase is called in this game: the Bulgarian auction, the family games' call for trump."""
    return "the call for trump" if isinstance(observation, SeatView) else "the auction"


def _parse_call(value: object, observation: View, auction: bool) -> Bid:
    if not isinstance(value, str):
        raise ProtocolError("malformed", f'call must be a string like "pass" or "spades", not {value!r}')
    try:
        call = parse_call(value)
    except CallParseError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    if not auction:
        raise ProtocolError(
            "illegal",
            f'{_calling(observation)} is over: answer with a card, e.g. {{"card": "{_first_legal(observation)}"}}',
        )
    if call not in observation.legal_calls:
        legal = ", ".join(CALL_NAMES[c] for c in observation.legal_calls)
        raise ProtocolError("illegal", f"{CALL_NAMES[call]} is not a legal call now; legal: {legal}")
    return Bid(call)


def _parse_play(answer: dict[str, Any], observation: View, auction: bool) -> Play:
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
        raise ProtocolError(
            "illegal", f'{_calling(observation)} is on: answer with {{"call": ...}}; legal calls: {legal}'
        )
    if card not in observation.legal_cards:
        legal = ", ".join(card_str(c) for c in observation.legal_cards)
        where = "is not in your hand" if card not in observation.hand else "may not be played now"
        raise ProtocolError("illegal", f"{card_str(card)} {where}; legal cards: {legal}")
    if observation.auto_declarations:
        # Announcements are made for every player under this table option; what the agent asked for is moot.
        return Play(card)
    if declare:
        if not observation.declarable:
            raise ProtocolError(
                "illegal",
                "nothing may be declared now: declarations go with the player's first card, "
                "and only combinations the hand holds (declarable is empty)",
            )
        if not _holds(observation, declare):
            offered = ", ".join(observation.declarable)
            separate = "" if _sharing(observation) else " as separate combinations (one card in one)"
            raise ProtocolError(
                "illegal", f"the hand does not hold {', '.join(declare)}{separate}; declarable: {offered}"
            )
    if belote and card not in observation.belote_cards:
        allowed = ", ".join(card_str(c) for c in observation.belote_cards) or "none"
        raise ProtocolError(
            "illegal",
            f"no belote may be announced with {card_str(card)}: it needs the king or queen of trumps with the "
            f"other card still in hand; cards that may carry a belote now: {allowed}",
        )
    return Play(card, declare, belote)


def _holds(observation: View, declare: tuple[str, ...]) -> bool:
    """Does the seat's hand hold the announced kinds, as the game resolves them (formats §3, §7.3)?"""
    hand = mask_of(observation.hand)
    contract = -1 if observation.contract is None else observation.contract
    if isinstance(observation, SeatView):
        # Which combinations the kinds stand for depends on their ranking; whether the hand holds them does not.
        return resolve_kinds(hand, declare, contract, _sharing(observation), lambda _: ()) is not None
    return resolve_declarations(hand, declare, contract, observation.rules) is not None


def _sharing(observation: View) -> bool:
    """May one card serve in two declarations (Bela's ``declaration_card_sharing``, on unless the table turns it
    off)? Never in the Bulgarian game or French belote."""
    if not isinstance(observation, SeatView):
        return False
    rules = parse_variant_rules(observation.variant, observation.rules)
    return bool(getattr(rules, "declaration_card_sharing", False))


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
    if isinstance(action, Discard):
        return {"discard": [card_str(c) for c in action.cards]}
    if isinstance(action, Exchange):
        return {"exchange": action.take}
    answer: dict[str, Any] = {"card": card_str(action.card)}
    if action.declare:
        answer["declare"] = list(action.declare)
    if action.belote:
        answer["belote"] = True
    return answer


def fallback_action(observation: View) -> Action:
    """What the referee plays for a seat whose agent failed: the first legal action, announcing nothing (in the
    bela-3 discard the first two cards offered, in the bela-2 seven exchange the first answer offered)."""
    if observation.phase == "auction":
        return Bid(observation.legal_calls[0])
    if observation.phase == DISCARD:
        return Discard(tuple(observation.legal_cards[:2]))
    if observation.phase == EXCHANGE and isinstance(observation, SeatView):
        return Exchange(observation.legal_exchange[0])
    return Play(observation.legal_cards[0])


def _first_legal(observation: View) -> str:
    return card_str(observation.legal_cards[0]) if observation.legal_cards else "JH"


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
