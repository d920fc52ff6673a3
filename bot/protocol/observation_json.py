"""Rebuilding a seat's ``Observation`` from an ``act`` message (formats.md §6).

This is how a program that receives our protocol can reuse our bots: the message carries everything a seat may
know, and this module reads exactly that back, checked, and derives nothing that is hidden (the bidder's seat comes
from the public bids, the belote cards from the seat's own hand and the trick on the table).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from bot.engine import (
    CONTRACTS,
    Call,
    CallParseError,
    Card,
    Observation,
    RulesError,
    Trick,
    mask_of,
    parse_contract,
    parse_rules,
)
from bot.engine.declarations import belote_allowed

from .act_json import (
    ActModel,
    announcement,
    call,
    cards,
    check_calling_seat,
    check_declarable,
    check_seen_once,
    legal_play,
    validate_act,
)
from .messages import ProtocolError


class _TrickModel(ActModel):
    leader: int = Field(ge=0, le=3)
    cards: list[str] = Field(min_length=4, max_length=4)
    winner: int = Field(ge=0, le=3)


class _TrickInProgress(ActModel):
    leader: int = Field(ge=0, le=3)
    cards: list[str] = Field(max_length=3)


class _AnnouncedModel(ActModel):
    seat: int = Field(ge=0, le=3)
    declare: list[str] | None = None
    belote: Literal["C", "D", "H", "S"] | None = None


class _Teams(ActModel):
    A: int
    B: int


class ActMessage(ActModel):
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
    act = validate_act(ActMessage, message)
    try:
        rules = parse_rules(act.rules or {})
    except RulesError as exc:
        raise ProtocolError("malformed", f"act.{exc}") from None

    hand = cards(act.hand, "hand")
    calls = tuple(call(text, f"bids[{i}]") for i, text in enumerate(act.bids or ()))
    tricks = tuple(
        Trick(t.leader, tuple(cards(t.cards, f"tricks[{i}].cards")), t.winner)
        for i, t in enumerate(act.tricks or ())
    )
    # No trick yet (null in the auction): the next one is led by the last trick's winner, or the dealer's right.
    trick = act.trick or _TrickInProgress(leader=tricks[-1].winner if tricks else (act.dealer + 1) % 4, cards=[])
    current = tuple(cards(trick.cards, "trick.cards"))
    check_seen_once(hand, tricks, current)

    auction = act.contract is None
    if auction:
        if act.multiplier is not None or act.declarer is not None or tricks or current:
            raise ProtocolError(
                "malformed", "act: with contract null (the auction) multiplier, declarer, tricks and trick are empty"
            )
        if len(hand) != 5:
            raise ProtocolError("malformed", f"act.hand: the auction is played on 5 cards, not {len(hand)}")
        check_calling_seat(act.seat, act.dealer, calls, 4)
        contract = None
        bidder = None
        legal_calls = tuple(call(text, f"legal[{i}]") for i, text in enumerate(act.legal))
        legal_cards: tuple[Card, ...] = ()
    else:
        contract, bidder = _contract(act, calls)
        legal_calls = ()
        legal_cards = legal_play(act.seat, hand, tricks, (trick.leader, current), act.legal, 4)

    declarable = act.declarable or []
    check_declarable(declarable)
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
        announced=tuple(announcement(a, i) for i, a in enumerate(act.announced or ())),
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
