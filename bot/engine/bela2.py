"""Bela for two players, closed (`bela-2`, family §5): 6 cards, the turned card, a 4-card talon each and 11 cards out
of play; two call rounds with the dealer in the mus; the seven exchange; ten tricks of two; the match to 501.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bela import SUITS, BelotMatch, TalonBelaDeal
from .calls import PASS, Call
from .cards import Card, card_str, mask_of
from .deal import AUCTION, EXCHANGE
from .trumpdeal import TrumpDeal

SEATS: Final = 2
SIDES: Final = ("0", "1")


class BelaTwoRules(BaseModel):
    """The table options of `bela-2` (family §5.9, formats §7.2). Unknown keys and wrong kinds are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=501, ge=1)
    seven_exchange: Literal["trump", "always", "off"] = "trump"
    stock_visible: bool = False
    iber: bool = True
    stiglja_value: Literal[90, 100] = 90
    swept_declarations: Literal["void", "transfer"] = "void"
    bela_always_counts: bool = False
    sequence_tiebreak: Literal["length", "top_card"] = "length"
    equal_declaration_priority: Literal["seat", "trump_first"] = "seat"
    declaration_card_sharing: bool = True
    belot_suit: Literal["any", "trumps"] = "any"
    no_declarations: bool = False
    auto_declarations: bool = False

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True)


def deal_bela2(deck: Sequence[Card], dealer: int) -> tuple[list[list[Card]], Card, list[Card]]:
    """3 then 3 cards each from the non-dealer, the turned card, each seat's 4-card talon, and the 11-card stock
    (family §5.2)."""
    hands: list[list[Card]] = [[], []]
    order = [(dealer + i) % SEATS for i in range(1, SEATS + 1)]
    pos = 0
    for count in (3, 3):
        for seat in order:
            hands[seat].extend(deck[pos : pos + count])
            pos += count
    turned = deck[pos]  # the dealer turns the next card face up
    pos += 1
    for seat in order:
        hands[seat].extend(deck[pos : pos + 4])
        pos += 4
    return hands, turned, list(deck[pos:])


class BelaTwoDeal(TalonBelaDeal):
    variant = "bela-2"
    SEATS = SEATS
    SIDES = SIDES
    VIEW_FIELDS = ("exchanged", "stock")
    NAME = "2-player Bela"
    START_FIELDS = ("turned",)
    ACTION_FIELDS = ("exchange",)

    def __init__(
        self,
        rules: BelaTwoRules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        turned: Card,
        hanging_in: int = 0,
    ) -> None:
        self._check_hands(hands)
        super().__init__(rules, dealer, hands, hanging_in)
        if not (isinstance(turned, int) and 0 <= turned < 32) or any(turned in h for h in self.hands):
            raise ValueError("the turned card must be a card that is in no hand")
        self.opts: BelaTwoRules = rules
        self.turned = turned
        dealt = {c for h in self.hands for c in h} | {turned}
        self.stock: tuple[Card, ...] = tuple(c for c in range(32) if c not in dealt)  # out of play (family §5.2)
        self.seven = (turned >> 3) * 8  # the 7 of the turned suit (rank index 0)
        self.exchanger = -1  # the seat asked about the seven exchange
        self.exchanged: bool | None = None

    # --- the call (family §5.3) ---

    def legal_calls(self) -> list[Call]:
        if self.phase != AUCTION:
            return []
        t = self.turned >> 3
        if len(self.calls) < 2:  # round 1: the turned suit or pass
            return [t, PASS]
        others = [s for s in SUITS if s != t]
        return others if len(self.calls) == 3 else [*others, PASS]  # the dealer's round-2 call is the mus

    def _call_rule(self, call: Call) -> str:
        if len(self.calls) < 2:
            return "round 1: take the turned card's suit or pass (family §5.3)"
        if call == PASS:
            return "the dealer is in the mus: he must name one of the other three suits (family §5.3)"
        return "round 2: name one of the three suits other than the turned card's, or pass (family §5.3)"

    def _take_call(self, call: Call) -> None:
        if call == PASS:
            self.to_act = (self.to_act + 1) % SEATS
            return
        self.contract, self.bidder = call, self.to_act
        allowed = self.opts.seven_exchange == "always" or (
            self.opts.seven_exchange == "trump" and call == self.turned >> 3
        )
        holder = next((s for s in range(SEATS) if self.seven in self.hands[s][: self.CALL_CARDS]), -1)
        if allowed and holder >= 0:
            self.exchanger = holder
            self.phase = EXCHANGE  # right after the call, before the talons (family §5.4)
            self.to_act = holder
            return
        self._take_talons()

    def _exchange(self, take: bool) -> None:
        self.exchanged = take
        self._take_talons()

    def _take_talons(self) -> None:
        self.held = [mask_of(h) for h in self.hands]
        if self.exchanged:
            self.held[self.exchanger] = self.held[self.exchanger] & ~(1 << self.seven) | 1 << self.turned
        self._lead_off()  # the non-dealer leads (family §5.5)

    def in_play(self) -> tuple[Card, ...]:
        """The 20 cards of the deal's play: the hands, with the turned card for the 7 after an exchange."""
        cards = [c for h in self.hands for c in h]
        if self.exchanged:
            cards[cards.index(self.seven)] = self.turned
        return tuple(cards)

    def record_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turned": card_str(self.turned)}
        if self.exchanged is not None:
            out["exchange"] = self.exchanged
        return out

    def view_fields(self, seat: int) -> dict[str, Any]:
        return {"exchanged": self.exchanged, "stock": self.stock if self.opts.stock_visible else None}

    def talon_of(self, seat: int) -> tuple[Card, ...]:
        if self.phase == EXCHANGE:
            return ()  # the talons are taken after the exchange
        talon = super().talon_of(seat)
        return (*talon, self.turned) if self.exchanged and seat == self.exchanger else talon


class BelaTwoMatch(BelotMatch):
    variant = "bela-2"
    SEATS = SEATS
    DEAL = BelaTwoDeal

    def __init__(self, rules: BelaTwoRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BelaTwoRules(), **kwargs)
        self.rules: BelaTwoRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        hands, turned, _stock = deal_bela2(deck, dealer)
        return BelaTwoDeal(self.rules, dealer, hands, turned)

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        return BelaTwoDeal(self.rules, dealer, hands, self._named_field(extra, "turned", "turned card"))


__all__ = ["BelaTwoDeal", "BelaTwoMatch", "BelaTwoRules", "deal_bela2"]
