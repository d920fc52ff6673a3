"""What one seat may know of a family deal (formats §7.6 ``act``), and nothing else.

Bots, views and the agent protocol are built only from this: the seat's own cards as it holds them now (6 in Bela
before the call, 5 in French belote before the bidding), the public history, the turned card, the contest winner's
shown declarations, and the seat's legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .calls import CALL_NAMES, Call
from .cards import Card, card_list, card_str
from .deal import AUCTION, DISCARD, DONE, EXCHANGE, PLAY, Announcement, Phase, Trick
from .trumpdeal import TrumpDeal


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know of a family deal (formats §7.6 ``act``): never another seat's unplayed card."""

    variant: str
    rules: dict[str, Any]
    seat: int
    dealer: int
    phase: Phase
    to_act: int
    hand: tuple[Card, ...]
    calls: tuple[Call, ...]
    turned: Card | None
    contract: int | None
    caller: int | None
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    announced: tuple[Announcement, ...]
    shown: tuple[tuple[int, str, tuple[Card, ...]], ...]
    score: tuple[int, ...]
    hanging: int
    sides: tuple[str, ...]
    legal_calls: tuple[Call, ...]
    legal_cards: tuple[Card, ...]
    declarable: tuple[str, ...]
    belote_cards: tuple[Card, ...]
    # The seat's own cards it received once trump was chosen (its Bela talon; in French belote the cards dealt after
    # the bidding, the turned card for the taker): a view may mark them as new. The agent protocol does not carry it
    # (the seat's hand already holds these cards), so two views equal in everything the protocol says are equal.
    talon: tuple[Card, ...] = field(default=(), compare=False)
    # The optional fields of formats §7.6 that this variant's views carry (``fields`` names them): the 3-player
    # caller's own discard, the 2-player seven exchange's answer and the stock when it lies face up.
    fields: tuple[str, ...] = ()
    discard: tuple[Card, ...] | None = None
    exchanged: bool | None = None
    stock: tuple[Card, ...] | None = None
    # The open game's two layouts, public: per seat 8 piles, bottom first, a face-down card as None.
    layout: tuple[tuple[tuple[Card | None, ...], ...], ...] | None = None
    announces: bool = True  # False in the open game: no shown, declarable or belote fields (formats §7.6)
    shows: bool = True  # False where no single contest winner shows his declarations (the Bulgarian games for 3, 2)
    multiplier: int = 1  # the contract's contra multiplier (1 in the one-trump games)
    legal_exchange: tuple[bool, ...] = ()

    @property
    def auto_declarations(self) -> bool:
        return bool(self.rules.get("auto_declarations", False))

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def to_json(self) -> dict[str, Any]:
        in_call = self.phase == AUCTION
        if in_call:
            legal: list[Any] = [CALL_NAMES[c] for c in self.legal_calls]
        elif self.phase == EXCHANGE:
            legal = list(self.legal_exchange)
        else:
            legal = [card_str(c) for c in self.legal_cards]
        out: dict[str, Any] = {
            "type": "act",
            "variant": self.variant,
            "rules": self.rules,
            "phase": "bid" if in_call else self.phase if self.phase in (DISCARD, EXCHANGE) else "play",
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": [card_str(c) for c in self.hand],
            "bids": [CALL_NAMES[c] for c in self.calls],
            "caller": self.caller,
            "contract": None if self.contract is None else CALL_NAMES[self.contract],
            "multiplier": None if self.contract is None else self.multiplier,
            "declarer": None if self.caller is None else self.sides[self.caller % len(self.sides)],
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner} for t in self.tricks
            ],
            "trick": None if self.phase not in (PLAY, DONE) else {
                "leader": self.trick_leader,
                "cards": [card_str(c) for c in self.trick],
            },
            "announced": [a.to_json() for a in self.announced],
            "shown": [{"seat": s, "kind": k, "cards": [card_str(c) for c in cs]} for s, k, cs in self.shown],
            "score": dict(zip(self.sides, self.score, strict=True)),
            "hanging": self.hanging,
            "legal": legal,
            "declarable": list(self.declarable),
            "belote": bool(self.belote_cards),
        }
        if self.turned is not None:
            out["turned"] = card_str(self.turned)
        if "discard" in self.fields:
            out["discard"] = None if self.discard is None else [card_str(c) for c in self.discard]
        if "exchanged" in self.fields:
            out["exchanged"] = self.exchanged
        if "stock" in self.fields and self.stock is not None:
            out["stock"] = [card_str(c) for c in self.stock]
        if "layout" in self.fields and self.layout is not None:
            out["layout"] = [
                [[None if c is None else card_str(c) for c in pile] for pile in piles] for piles in self.layout
            ]
        if not self.announces:
            for key in ("shown", "declarable", "belote"):
                del out[key]
        elif not self.shows:
            del out["shown"]
        return out


def view(
    deal: TrumpDeal,
    seat: int,
    score: Sequence[int] | None = None,
    hanging: int | None = None,
    turned: Card | None = None,
) -> SeatView:
    """The view of ``seat``: its own cards as it holds them now, the public history, and its legal actions."""
    mine = deal.to_act == seat and deal.phase != DONE
    known = deal.phase != AUCTION and deal.contract >= 0
    shown: list[tuple[int, str, tuple[Card, ...]]] = []
    if known and deal.SHOWN and deal.everyone_played():
        # The winning side's declarations are shown with their cards once every player has played a card.
        winner = deal.contest()
        for s in range(deal.n):
            if winner is not None and deal.contest_side[s] == winner:
                shown.extend((s, c.kind, tuple(card_list(c.mask))) for c in deal.declared[s])
    return SeatView(
        variant=deal.variant,
        rules=deal.rules.model_dump(exclude_defaults=True),
        seat=seat,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=tuple(deal.hand_of(seat)),
        calls=tuple(deal.calls),
        turned=turned,
        contract=deal.contract if known else None,
        caller=deal.bidder if known else None,
        tricks=tuple(deal.tricks),
        trick_leader=deal.trick_leader,
        trick=tuple(deal.trick),
        announced=tuple(deal.announcements),
        shown=tuple(shown),
        score=tuple(score) if score is not None else (0,) * len(deal.SIDES),
        hanging=deal.hanging_in if hanging is None else hanging,
        sides=deal.SIDES,
        legal_calls=tuple(deal.legal_calls()) if mine and deal.phase == AUCTION else (),
        legal_cards=tuple(deal.legal_cards()) if mine else (),
        declarable=deal.declarable(seat) if mine else (),
        belote_cards=tuple(deal.belote_cards()) if mine else (),
        talon=deal.talon_of(seat),
        fields=deal.VIEW_FIELDS,
        announces=deal.ANNOUNCES,
        shows=deal.SHOWN,
        multiplier=deal.multiplier,
        legal_exchange=(True, False) if mine and deal.phase == EXCHANGE else (),
        **deal.view_fields(seat),
    )
