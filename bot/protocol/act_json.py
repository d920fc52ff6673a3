"""What every game's ``act`` reader checks alike (formats §6, §7.6.2): the message's shape, cards and calls, the
cards seen once, the seat to play with its hand and legal cards, the kinds it may declare, an announcement.

``observation_json`` (Bulgarian) and ``seatview_json`` (Bela, French) read their own fields and the rules of their
game (how many seats, what a call is, who may carry a belote) and call these for the rest; every problem is a
``ProtocolError`` (``malformed``) naming the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.engine import Announcement, Call, CallParseError, Card, CardParseError, Trick, parse_call, parse_card
from bot.engine.declarations import KINDS

from .messages import ProtocolError

SUITS = "CDHS"
ActT = TypeVar("ActT", bound=BaseModel)


class ActModel(BaseModel):
    # Agents read liberally (formats §6): fields a later version may add are ignored, never an error.
    model_config = ConfigDict(extra="ignore", strict=True)


def validate_act(model: type[ActT], message: dict[str, Any]) -> ActT:
    """The message read into its game's shape; ProtocolError names the first three fields that are not valid."""
    try:
        return model.model_validate(message)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:3]:
            where = ".".join(str(p) for p in err["loc"]) or "message"
            problems.append(f"act.{where}: {err['msg']}")
        raise ProtocolError("malformed", "; ".join(problems)) from None


def card(text: str, where: str) -> Card:
    try:
        return parse_card(text)
    except CardParseError as exc:
        raise ProtocolError("malformed", f"act.{where}: {exc}") from None


def cards(texts: list[str], where: str) -> list[Card]:
    return [card(text, f"{where}[{i}]") for i, text in enumerate(texts)]


def call(text: str, where: str) -> Call:
    try:
        return parse_call(text)
    except CallParseError as exc:
        raise ProtocolError("malformed", f"act.{where}: {exc}") from None


def check_seen_once(hand: Sequence[Card], tricks: Sequence[Trick], current: Sequence[Card]) -> None:
    seen = list(hand) + [c for t in tricks for c in t.cards] + list(current)
    if len(set(seen)) != len(seen):
        raise ProtocolError("malformed", "act: a card appears twice among hand, tricks and trick")


def check_calling_seat(seat: int, dealer: int, calls: Sequence[Call], seats: int) -> None:
    """While trump (or the contract) is chosen, the seat after the dealer and the calls so far is to call."""
    if (dealer + 1 + len(calls)) % seats != seat:
        raise ProtocolError("malformed", f"act.seat: after {len(calls)} bids it is not seat {seat}'s call")


def legal_play(
    seat: int, hand: Sequence[Card], tricks: Sequence[Trick], trick: tuple[int, Sequence[Card]], legal: list[str],
    seats: int,
    deal_tricks: int | None = 8,
) -> tuple[Card, ...]:
    """In the play, the legal cards of the seat next to play to ``trick`` (its leader and cards), checked against
    the seat's turn, the cards it holds after the tricks so far (``deal_tricks``: the tricks of a deal; None when
    the hand is not the cards left, as in the open game) and its hand."""
    leader, current = trick
    if (leader + len(current)) % seats != seat:
        raise ProtocolError("malformed", f"act.seat: seat {seat} is not the next to play to the trick")
    if deal_tricks is not None and len(hand) != deal_tricks - len(tricks):
        raise ProtocolError(
            "malformed", f"act.hand: after {len(tricks)} tricks the seat holds {deal_tricks - len(tricks)} cards")
    legal_cards = tuple(cards(legal, "legal"))
    if not set(legal_cards) <= set(hand):
        raise ProtocolError("malformed", "act.legal: a legal card that is not in the hand")
    return legal_cards


def check_declarable(declarable: Sequence[str]) -> None:
    unknown = [k for k in declarable if k not in KINDS]
    if unknown:
        raise ProtocolError("malformed", f"act.declarable: unknown kind {unknown[0]!r}; kinds are {', '.join(KINDS)}")


class Announced(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def declare(self) -> list[str] | None: ...
    @property
    def belote(self) -> str | None: ...


def announcement(item: Announced, index: int) -> Announcement:
    """An announcement heard: a seat's declarations by kind, or its belote in a suit."""
    if (item.declare is None) == (item.belote is None):
        raise ProtocolError("malformed", f"act.announced[{index}]: give either declare or belote")
    if item.belote is not None:
        return Announcement(item.seat, (), SUITS.index(item.belote))
    assert item.declare is not None
    unknown = [k for k in item.declare if k not in KINDS]
    if unknown:
        raise ProtocolError("malformed", f"act.announced[{index}]: unknown kind {unknown[0]!r}")
    return Announcement(item.seat, tuple(item.declare))
