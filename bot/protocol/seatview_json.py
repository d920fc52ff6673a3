"""Rebuilding a family seat's ``SeatView`` from an ``act`` message (formats §7.6.2): Bela for four, three and two,
open-card Bela, French belote and Bulgarian for three and two, with the 3-player discard, the 2-player seven exchange,
the open layouts and the Bulgarian auction (six contracts, contra and recontra, the multiplier, no ``shown``).

The reader is liberal as formats §6 asks: fields come in any order, a field with no value yet may be null or absent
(``caller`` and ``contract`` then follow from the public bids, ``phase`` from whether trump is named), and fields it
does not know are ignored. What it reads is checked for sense (whose turn it is, how many cards the seat holds now,
that the legal cards are in the hand) and a problem is a ``ProtocolError`` naming the field. Nothing hidden is
derived: the belote cards come from the seat's own hand and the trump.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import Field

from bot.engine import Announcement, Call, Card, Trick, mask_of
from bot.engine.bulgarian_small import auction
from bot.engine.bulgarian_small_match import SmallDeal
from bot.engine.calls import CALL_NAMES, PASS, RECONTRA
from bot.engine.deal import AUCTION, DISCARD, EXCHANGE, PLAY, Phase
from bot.engine.declarations import KINDS, belote_allowed
from bot.engine.familymatch import FamilyMatch
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.rules import RulesError
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import TrumpDeal

from . import act_json
from .act_json import (
    ActModel,
    card,
    cards,
    check_calling_seat,
    check_declarable,
    check_seen_once,
    legal_play,
    validate_act,
)
from .messages import ProtocolError

_PHASES: dict[str, Phase] = {"bid": AUCTION, "play": PLAY, "discard": DISCARD, "exchange": EXCHANGE}
SEVEN = 0  # the rank of a 7 (a card is suit * 8 + rank)


class _TrickModel(ActModel):
    leader: int = Field(ge=0)
    cards: list[str]
    winner: int = Field(ge=0)


class _TrickInProgress(ActModel):
    leader: int = Field(ge=0)
    cards: list[str]


class _AnnouncedModel(ActModel):
    seat: int = Field(ge=0)
    declare: list[str] | None = None
    belote: Literal["C", "D", "H", "S"] | None = None


class _ShownModel(ActModel):
    seat: int = Field(ge=0)
    kind: str
    cards: list[str] = Field(min_length=3, max_length=8)


class FamilyActMessage(ActModel):
    """The shape of a family ``act`` message; meaning is checked after it."""

    type: Literal["act"]
    variant: str
    rules: dict[str, Any] | None = None
    phase: str | None = None
    seat: int = Field(ge=0)
    dealer: int = Field(ge=0)
    hand: list[str] = Field(max_length=12)
    bids: list[str] | None = None
    caller: int | None = Field(default=None, ge=0)
    contract: str | None = None
    multiplier: int | None = Field(default=None, ge=1)
    declarer: str | None = None
    turned: str | None = None
    tricks: list[_TrickModel] | None = Field(default=None, max_length=15)
    trick: _TrickInProgress | None = None
    announced: list[_AnnouncedModel] | None = Field(default=None, max_length=16)
    shown: list[_ShownModel] | None = Field(default=None, max_length=16)
    score: dict[str, int] | None = None
    hanging: int | None = Field(default=None, ge=0)
    legal: list[str | bool] = Field(min_length=1, max_length=12)
    declarable: list[str] | None = Field(default=None, max_length=8)
    belote: bool | None = None
    discard: list[str] | None = Field(default=None, min_length=2, max_length=2)
    exchanged: bool | None = None
    stock: list[str] | None = Field(default=None, max_length=11)
    layout: list[list[list[str | None]]] | None = Field(default=None, min_length=2, max_length=2)


@cache
def _deal_type(variant: str) -> type[TrumpDeal]:
    """The variant's deal class, for what the protocol leaves to the game (cards held while trump is chosen, the
    option under which only the king announces the belote): found through the variants table, never by name."""
    match = VARIANTS[variant].new_match(VARIANTS[variant].rules(), seed=0)
    assert isinstance(match, FamilyMatch)
    return type(match.deal)


@cache
def family_variants() -> tuple[str, ...]:
    """The variants whose act messages this module reads: every family game of the table (Bela for four, three and
    two, open-card Bela, French belote, Bulgarian for three and two); the four-player Bulgarian game has its own
    reader (observation_json)."""
    found = []
    for name in VARIANTS:
        if name == "bulgarian":
            continue
        try:
            found.append((name, issubclass(_deal_type(name), TrumpDeal)))
        except Exception:  # a game whose match cannot be made here is not one this reader knows
            continue
    return tuple(name for name, ok in found if ok)


def seatview_from_json(message: dict[str, Any]) -> SeatView:
    """The view a family ``act`` message renders. Raises ProtocolError (``malformed``) naming the bad field."""
    act = validate_act(FamilyActMessage, message)
    if act.variant not in family_variants():
        raise ProtocolError(
            "malformed", f"act.variant: {act.variant!r} is not a game this agent reads; it reads bulgarian, "
            + ", ".join(family_variants())
        )
    game = VARIANTS[act.variant]
    deal_type = _deal_type(act.variant)
    n = game.seats
    try:
        opts = parse_variant_rules(act.variant, act.rules or {})
    except RulesError as exc:
        key, why = exc.problems[0]
        raise ProtocolError("malformed", f"act.rules.{key}: {why}" if key else f"act.rules: {why}") from None
    for field, seat in (("seat", act.seat), ("dealer", act.dealer), ("caller", act.caller)):
        if seat is not None and seat >= n:
            raise ProtocolError("malformed", f"act.{field}: {act.variant} has seats 0 to {n - 1}, not {seat}")

    hand = cards(act.hand, "hand")
    bidding = issubclass(deal_type, SmallDeal)  # contracts, contra and recontra rather than one trump suit
    calls = tuple(_call(text, f"bids[{i}]", bidding) for i, text in enumerate(act.bids or ()))
    turned = None if act.turned is None else card(act.turned, "turned")
    tricks = tuple(_trick(t, i, n) for i, t in enumerate(act.tricks or ()))
    trick = act.trick or _TrickInProgress(leader=tricks[-1].winner if tricks else (act.dealer + 1) % n, cards=[])
    if trick.leader >= n or len(trick.cards) >= n:
        raise ProtocolError("malformed", f"act.trick: a trick in progress has a leader below {n} and fewer than "
                            f"{n} cards")
    current = tuple(cards(trick.cards, "trick.cards"))
    check_seen_once(hand, tricks, current)

    phase = _phase(act)
    named = [i for i, call in enumerate(calls) if call != PASS]
    layout = _layout(act, hand, n) if "layout" in deal_type.VIEW_FIELDS else None
    legal_exchange: tuple[bool, ...] = ()
    legal_cards: tuple[Card, ...] = ()
    legal_calls: tuple[Call, ...] = ()
    multiplier = 1
    if bidding:
        state = auction(n, act.dealer, calls)
        multiplier = state.multiplier
        done = (state.over and not state.redeal) or bool(
            calls and calls[-1] == RECONTRA and getattr(opts, "recontra_ends_auction", False))
        if act.phase is None:  # absent: the bids say whether the auction is over
            phase = PLAY if done else AUCTION
        if state.redeal or (phase == AUCTION) == done:
            raise ProtocolError(
                "malformed", f"act.bids: after these bids the auction {'is over' if done else 'goes on'}"
                + (" with no contract: the deal is passed out" if state.redeal else "")
                + f", so the phase is {'play' if done else 'bid'}")
    if phase == AUCTION:
        if bidding and (tricks or current or act.contract is not None):
            raise ProtocolError("malformed", "act: while the auction goes on no contract is in force yet, and "
                                "tricks and trick are empty")
        if not bidding and (named or tricks or current or act.contract is not None):
            raise ProtocolError(
                "malformed", "act: while trump is chosen no suit is named yet, and tricks and trick are empty"
            )
        held = len(hand) if layout is not None else deal_type.CALL_CARDS  # the open game: the uncovered cards
        if len(hand) != held:
            raise ProtocolError(
                "malformed", f"act.hand: {act.variant} calls trump on {deal_type.CALL_CARDS} cards, not {len(hand)}"
            )
        check_calling_seat(act.seat, act.dealer, calls, n)
        contract, caller = None, None
        legal_calls = tuple(_call(_text(text, f"legal[{i}]"), f"legal[{i}]", bidding)
                            for i, text in enumerate(act.legal))
    else:
        contract, caller = _contract(act, calls, n) if bidding else _trump(act, calls, named, n)
        if act.multiplier is not None and act.multiplier != multiplier:
            raise ProtocolError("malformed", f"act.multiplier: the bids make it {multiplier}, not {act.multiplier}")
        if phase in (DISCARD, EXCHANGE) and (tricks or current):
            raise ProtocolError("malformed", f"act: the {act.phase} comes before the first trick; tricks and "
                                "trick are empty")
        if phase == DISCARD:
            legal_cards = _discard_phase(act, hand, caller)
        elif phase == EXCHANGE:
            legal_exchange = _exchange_phase(act, hand, turned)
        else:
            texts = [_text(text, f"legal[{i}]") for i, text in enumerate(act.legal)]
            deal_tricks = None if layout is not None else deal_type.TRICKS
            legal_cards = legal_play(act.seat, hand, tricks, (trick.leader, current), texts, n, deal_tricks)

    declarable = tuple(act.declarable or ())
    check_declarable(declarable)
    belote_cards: tuple[Card, ...] = ()
    if act.belote and contract is not None:
        king_only = bool(deal_type.KING_FIRST_OPTION and getattr(opts, deal_type.KING_FIRST_OPTION))
        held = mask_of(hand)
        led = current[0] >> 3 if current else None  # in all trumps a belote goes with a lead or following suit
        belote_cards = tuple(
            c for c in legal_cards if belote_allowed(c, held, contract, led) and not (king_only and c & 7 != 6)
        )
        if not belote_cards:
            raise ProtocolError("malformed", "act.belote: true, but no legal card can carry a belote")

    sides = game.sides
    score = act.score or {}
    return SeatView(
        variant=act.variant,
        rules=opts.model_dump(exclude_defaults=True),
        seat=act.seat,
        dealer=act.dealer,
        phase=phase,
        to_act=act.seat,
        hand=tuple(hand),
        calls=calls,
        turned=turned,
        contract=contract,
        caller=caller,
        tricks=tricks,
        trick_leader=trick.leader,
        trick=current,
        announced=tuple(_announcement(a, i, n) for i, a in enumerate(act.announced or ())),
        # A game where no single winner shows his declarations reads no "shown" (formats §7.6.2).
        shown=tuple(_shown(s, i, n) for i, s in enumerate(act.shown or ())) if deal_type.SHOWN else (),
        score=tuple(score.get(side, 0) for side in sides),
        hanging=act.hanging or 0,
        sides=sides,
        legal_calls=legal_calls,
        legal_cards=legal_cards,
        declarable=declarable,
        belote_cards=belote_cards,
        fields=deal_type.VIEW_FIELDS,
        announces=deal_type.ANNOUNCES,
        shows=deal_type.SHOWN,
        multiplier=multiplier,
        legal_exchange=legal_exchange,
        **_extra_fields(act, deal_type, layout),
    )


def _text(value: str | bool, where: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError("malformed", f"act.{where}: true or false is the seven exchange's answer, not a call or "
                            "a card")
    return value


def _discard_phase(act: FamilyActMessage, hand: list[Card], caller: int) -> tuple[Card, ...]:
    """The 3-player caller's discard (family §4.4): his 12 cards, any two of which he lays away."""
    if act.seat != caller:
        raise ProtocolError("malformed", f"act.seat: the caller, seat {caller}, discards, not seat {act.seat}")
    if len(hand) != 12:
        raise ProtocolError("malformed", f"act.hand: the caller discards from 12 cards, not {len(hand)}")
    legal = tuple(cards([_text(t, f"legal[{i}]") for i, t in enumerate(act.legal)], "legal"))
    if not set(legal) <= set(hand) or len(legal) < 2:
        raise ProtocolError("malformed", "act.legal: the discard is two or more cards of the hand to choose from")
    return legal


def _exchange_phase(act: FamilyActMessage, hand: list[Card], turned: Card | None) -> tuple[bool, ...]:
    """The 2-player seven exchange (family §5.4): the holder of the 7 of the turned suit, on his first 6 cards."""
    if turned is None:
        raise ProtocolError("malformed", "act.turned: the seven exchange needs the turned card")
    if len(hand) != 6 or (turned & ~7) | SEVEN not in hand:
        raise ProtocolError("malformed", "act.hand: the exchange is asked of the player who holds the 7 of the "
                            "turned suit among his first 6 cards")
    if sorted(act.legal, key=str) != [False, True] or not all(isinstance(v, bool) for v in act.legal):
        raise ProtocolError("malformed", "act.legal: the seven exchange is answered true or false: [true, false]")
    return tuple(bool(v) for v in act.legal)


def _layout(act: FamilyActMessage, hand: list[Card], n: int) -> tuple[tuple[tuple[Card | None, ...], ...], ...]:
    """The open game's two layouts (formats §7.6.2): 8 piles per seat, bottom first, a face-down card null; the
    seat's hand is its uncovered face-up cards."""
    if act.layout is None or len(act.layout) != n or any(len(piles) != 8 for piles in act.layout):
        raise ProtocolError("malformed", f"act.layout: {act.variant} needs both layouts, 8 piles each")
    out = []
    for s, piles in enumerate(act.layout):
        seat_piles = []
        for k, pile in enumerate(piles):
            if len(pile) > 2:
                raise ProtocolError("malformed", f"act.layout[{s}][{k}]: a pile holds at most 2 cards")
            seat_piles.append(tuple(None if c is None else card(c, f"layout[{s}][{k}]") for c in pile))
        out.append(tuple(seat_piles))
    uncovered = sorted(p[-1] for p in out[act.seat] if p and p[-1] is not None)
    if sorted(hand) != uncovered:
        raise ProtocolError("malformed", "act.hand: in the open game the hand is the seat's uncovered face-up cards "
                            "of its layout")
    return tuple(out)


def _extra_fields(act: FamilyActMessage, deal_type: type[TrumpDeal],
                  layout: tuple[tuple[tuple[Card | None, ...], ...], ...] | None) -> dict[str, Any]:
    """The variant's own fields of formats §7.6.2, as the engine's view holds them."""
    out: dict[str, Any] = {}
    if "discard" in deal_type.VIEW_FIELDS:
        out["discard"] = None if act.discard is None else tuple(cards(act.discard, "discard"))
    if "exchanged" in deal_type.VIEW_FIELDS:
        out["exchanged"] = act.exchanged
    if "stock" in deal_type.VIEW_FIELDS:
        out["stock"] = None if act.stock is None else tuple(cards(act.stock, "stock"))
    if "layout" in deal_type.VIEW_FIELDS:
        out["layout"] = layout
    return out


def _phase(act: FamilyActMessage) -> Phase:
    if act.phase is None:  # absent: trump chosen or not says which
        return AUCTION if act.contract is None and not act.tricks and not act.trick else PLAY
    phase = _PHASES.get(act.phase)
    if phase is None:
        raise ProtocolError(
            "malformed", f"act.phase: {act.phase!r} is not a phase of {act.variant}; it has bid, discard (bela-3), "
            "exchange (bela-2) and play"
        )
    if phase == DISCARD and act.variant != "bela-3":
        raise ProtocolError("malformed", f"act.phase: {act.variant} has no discard; only bela-3 does")
    if phase == EXCHANGE and act.variant != "bela-2":
        raise ProtocolError("malformed", f"act.phase: {act.variant} has no seven exchange; only bela-2 does")
    return phase


def _trump(act: FamilyActMessage, calls: tuple[Call, ...], named: list[int], n: int) -> tuple[int, int]:
    """The trump suit and the seat that named it: the first suit in the bids ends the call (formats §7.3)."""
    if len(named) != 1 or named[0] != len(calls) - 1:
        raise ProtocolError("malformed", "act.bids: once trump is named the bids end with the one suit named")
    trump = calls[-1]
    caller = (act.dealer + 1 + named[0]) % n
    if act.contract is not None and _call(act.contract, "contract") != trump:
        raise ProtocolError("malformed", f"act.contract: the bids name {CALL_NAMES[trump]}, not {act.contract}")
    if act.caller is not None and act.caller != caller:
        raise ProtocolError("malformed", f"act.caller: the bids make seat {caller} the caller, not {act.caller}")
    sides = VARIANTS[act.variant].sides
    if act.declarer is not None and act.declarer != sides[caller % len(sides)]:
        raise ProtocolError(
            "malformed", f"act.declarer: the bids make {sides[caller % len(sides)]} the calling side"
        )
    return trump, caller


def _contract(act: FamilyActMessage, calls: tuple[Call, ...], n: int) -> tuple[int, int]:
    """The contract in force and the seat that bid it, from a finished Bulgarian auction (family §8.4, §9.2)."""
    state = auction(n, act.dealer, calls)
    if act.contract is not None and _call(act.contract, "contract", True) != state.contract:
        raise ProtocolError("malformed", f"act.contract: the bids make it {CALL_NAMES[state.contract]}, not "
                            f"{act.contract}")
    if act.caller is not None and act.caller != state.bidder:
        raise ProtocolError("malformed", f"act.caller: the bids make seat {state.bidder} the bidder, not "
                            f"{act.caller}")
    sides = VARIANTS[act.variant].sides
    if act.declarer is not None and act.declarer != sides[state.bidder]:
        raise ProtocolError("malformed", f"act.declarer: the bids make {sides[state.bidder]} the declarer")
    return state.contract, state.bidder


def _call(text: str, where: str, bidding: bool = False) -> Call:
    call = act_json.call(text, where)
    if bidding:
        return call  # every contract, contra, recontra and pass
    if call > 3 and call != PASS:
        raise ProtocolError("malformed", f"act.{where}: {text!r} is not a call of this game; it names a suit or pass")
    return call


def _trick(t: _TrickModel, i: int, n: int) -> Trick:
    if t.leader >= n or t.winner >= n or len(t.cards) != n:
        raise ProtocolError("malformed", f"act.tricks[{i}]: a trick has {n} cards and a leader and winner below {n}")
    return Trick(t.leader, tuple(cards(t.cards, f"tricks[{i}].cards")), t.winner)


def _announcement(item: _AnnouncedModel, index: int, n: int) -> Announcement:
    if item.seat >= n or (item.declare is None) == (item.belote is None):
        raise ProtocolError("malformed", f"act.announced[{index}]: a seat below {n} and either declare or belote")
    return act_json.announcement(item, index)


def _shown(item: _ShownModel, index: int, n: int) -> tuple[int, str, tuple[Card, ...]]:
    if item.seat >= n or item.kind not in KINDS:
        raise ProtocolError(
            "malformed", f"act.shown[{index}]: a seat below {n} and a kind of {', '.join(KINDS)}"
        )
    return item.seat, item.kind, tuple(cards(item.cards, f"shown[{index}].cards"))
