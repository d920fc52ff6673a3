"""Rebuilding a seat's ``Observation`` from an ``act`` message (formats.md §6).

This is how a program that receives our protocol can reuse our bots: the message carries everything a seat may
know, and this module reads exactly that back, checked, and derives nothing that is hidden (the bidder's seat comes
from the public bids, the belote cards from the seat's own hand and the trick on the table).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.engine import (
    CONTRACTS,
    Announcement,
    Call,
    CallParseError,
    Card,
    CardParseError,
    Observation,
    RulesError,
    Trick,
    mask_of,
    parse_call,
    parse_card,
    parse_contract,
    parse_rules,
)
from bot.engine.declarations import KINDS, belote_allowed

from .messages import ProtocolError

_SUITS = "CDHS"


class _Model(BaseModel):
    # Agents read liberally (formats §6): fields a later version may add are ignored, never an error.
    model_config = ConfigDict(extra="ignore", strict=True)


class _TrickModel(_Model):
    leader: int = Field(ge=0, le=3)
    cards: list[str] = Field(min_length=4, max_length=4)
    winner: int = Field(ge=0, le=3)


class _TrickInProgress(_Model):
    leader: int = Field(ge=0, le=3)
    cards: list[str] = Field(max_length=3)


class _AnnouncedModel(_Model):
    seat: int = Field(ge=0, le=3)
    declare: list[str] | None = None
    belote: Literal["C", "D", "H", "S"] | None = None


class _Teams(_Model):
    A: int
    B: int


class ActMessage(_Model):
    """The shape of an ``act`` message; meaning is checked after it."""

    # A field with no value yet may be null (or absent): the auction's trick, an empty list, a false flag.
    type: Literal["act"]
    variant: Literal["bulgarian"] | None = None
    rules: dict[str, Any] | None = None
    seat: int = Field(ge=0, le=3)
    dealer: int = Field(ge=0, le=3)
    hand: list[str] = Field(max_length=8)
    bids: list[str] | None = None
    contract: str | None = None
    multiplier: Literal[1, 2, 4] | None = None
    declarer: Literal["A", "B"] | None = None
    tricks: list[_TrickModel] | None = Field(default=None, max_length=7)
    trick: _TrickInProgress | None = None
    announced: list[_AnnouncedModel] | None = None
    score: _Teams | None = None
    hanging: int | None = Field(default=None, ge=0)
    legal: list[str] = Field(min_length=1)
    declarable: list[str] | None = None
    belote: bool | None = None


def observation_from_json(message: dict[str, Any]) -> Observation:
    """The observation an ``act`` message renders. Raises ProtocolError (``malformed``) naming the bad field."""
    try:
        act = ActMessage.model_validate(message)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:3]:
            where = ".".join(str(p) for p in err["loc"]) or "message"
            problems.append(f"act.{where}: {err['msg']}")
        raise ProtocolError("malformed", "; ".join(problems)) from None
    try:
        rules = parse_rules(act.rules or {})
    except RulesError as exc:
        raise ProtocolError("malformed", f"act.{exc}") from None

    hand = _cards(act.hand, "hand")
    calls = tuple(_call(text, f"bids[{i}]") for i, text in enumerate(act.bids or ()))
    tricks = tuple(
        Trick(t.leader, tuple(_cards(t.cards, f"tricks[{i}].cards")), t.winner)
        for i, t in enumerate(act.tricks or ())
    )
    # No trick yet (null in the auction): the next one is led by the last trick's winner, or the dealer's right.
    trick = act.trick or _TrickInProgress(leader=tricks[-1].winner if tricks else (act.dealer + 1) % 4, cards=[])
    current = tuple(_cards(trick.cards, "trick.cards"))
    seen = list(hand) + [c for t in tricks for c in t.cards] + list(current)
    if len(set(seen)) != len(seen):
        raise ProtocolError("malformed", "act: a card appears twice among hand, tricks and trick")

    auction = act.contract is None
    if auction:
        if act.multiplier is not None or act.declarer is not None or tricks or current:
            raise ProtocolError(
                "malformed", "act: with contract null (the auction) multiplier, declarer, tricks and trick are empty"
            )
        if len(hand) != 5:
            raise ProtocolError("malformed", f"act.hand: the auction is played on 5 cards, not {len(hand)}")
        if (act.dealer + 1 + len(calls)) % 4 != act.seat:
            raise ProtocolError("malformed", f"act.seat: after {len(calls)} bids it is not seat {act.seat}'s call")
        contract = None
        bidder = None
        legal_calls = tuple(_call(text, f"legal[{i}]") for i, text in enumerate(act.legal))
        legal_cards: tuple[Card, ...] = ()
    else:
        contract, bidder = _contract(act, calls)
        if (trick.leader + len(current)) % 4 != act.seat:
            raise ProtocolError("malformed", f"act.seat: seat {act.seat} is not the next to play to the trick")
        if len(hand) != 8 - len(tricks):
            raise ProtocolError(
                "malformed", f"act.hand: after {len(tricks)} tricks the seat holds {8 - len(tricks)} cards"
            )
        legal_calls = ()
        legal_cards = tuple(_cards(act.legal, "legal"))
        if not set(legal_cards) <= set(hand):
            raise ProtocolError("malformed", "act.legal: a legal card that is not in the hand")

    declarable = act.declarable or []
    unknown = [k for k in declarable if k not in KINDS]
    if unknown:
        raise ProtocolError("malformed", f"act.declarable: unknown kind {unknown[0]!r}; kinds are {', '.join(KINDS)}")
    belote_cards: tuple[Card, ...] = ()
    if act.belote and contract is not None:
        led = current[0] >> 3 if current else None
        held = mask_of(hand)
        belote_cards = tuple(c for c in legal_cards if belote_allowed(c, held, contract, led))
        if not belote_cards:
            raise ProtocolError("malformed", "act.belote: true, but no legal card can carry a belote")

    return Observation(
        rules=rules,
        seat=act.seat,
        dealer=act.dealer,
        phase="auction" if auction else "play",
        to_act=act.seat,
        hand=tuple(hand),
        calls=calls,
        contract=contract,
        multiplier=act.multiplier,
        bidder=bidder,
        tricks=tricks,
        trick_leader=trick.leader,
        trick=current,
        announced=tuple(_announcement(a, i) for i, a in enumerate(act.announced or ())),
        score=(act.score.A, act.score.B) if act.score else (0, 0),
        hanging=act.hanging or 0,
        legal_calls=legal_calls,
        legal_cards=legal_cards,
        declarable=tuple(declarable),
        belote_cards=belote_cards,
    )


def _contract(act: ActMessage, calls: tuple[Call, ...]) -> tuple[int, int]:
    assert act.contract is not None
    try:
        contract = parse_contract(act.contract)
    except CallParseError as exc:
        raise ProtocolError("malformed", f"act.contract: {exc}") from None
    # The bidder is public: the seat that made the last contract call.
    made = [i for i, call in enumerate(calls) if call in CONTRACTS]
    if not made or calls[made[-1]] != contract:
        raise ProtocolError("malformed", f"act.bids: the last contract bid is not {act.contract}")
    bidder = (act.dealer + 1 + made[-1]) % 4
    if act.multiplier is None or act.declarer is None:
        raise ProtocolError("malformed", "act: once a contract stands, multiplier and declarer are given")
    if "AB"[bidder & 1] != act.declarer:
        raise ProtocolError("malformed", f"act.declarer: the bids make team {'AB'[bidder & 1]} the declarer")
    return contract, bidder


def _cards(texts: list[str], where: str) -> list[Card]:
    cards = []
    for i, text in enumerate(texts):
        try:
            cards.append(parse_card(text))
        except CardParseError as exc:
            raise ProtocolError("malformed", f"act.{where}[{i}]: {exc}") from None
    return cards


def _call(text: str, where: str) -> Call:
    try:
        return parse_call(text)
    except CallParseError as exc:
        raise ProtocolError("malformed", f"act.{where}: {exc}") from None


def _announcement(item: _AnnouncedModel, index: int) -> Announcement:
    if (item.declare is None) == (item.belote is None):
        raise ProtocolError("malformed", f"act.announced[{index}]: give either declare or belote")
    if item.belote is not None:
        return Announcement(item.seat, (), _SUITS.index(item.belote))
    assert item.declare is not None
    unknown = [k for k in item.declare if k not in KINDS]
    if unknown:
        raise ProtocolError("malformed", f"act.announced[{index}]: unknown kind {unknown[0]!r}")
    return Announcement(item.seat, tuple(item.declare))
