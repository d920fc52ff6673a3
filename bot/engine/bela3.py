"""Bela for three players (`bela-3`, family §4): 6 cards and a 4-card talon each, the first player forced to call
(or, by option, the dealer in the mus), the caller's two extra cards and two discards, ten tricks of three, one
player against two for the declarations contest, per-player scores with the fall rules, and the match to 701.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bela import SUITS, BelotMatch, TalonBelaDeal
from .calls import PASS, Call
from .cards import Card, card_str, card_symbol, mask_of
from .deal import AUCTION, DISCARD, DONE, IllegalAction
from .play import CARD_POINTS
from .trumpdeal import BELA_POINTS, DealScore, FamilyResult, TrumpDeal

SEATS: Final = 3
SIDES: Final = ("0", "1", "2")


class BelaThreeRules(BaseModel):
    """The table options of `bela-3` (family §4.9, formats §7.2). Unknown keys and wrong kinds are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=701, ge=1)
    direction: Literal["counter_clockwise", "clockwise"] = "counter_clockwise"
    forced_first_caller: bool = True
    fall_points: Literal["vanish", "higher_opponent", "both_opponents"] = "vanish"
    iber: bool = True
    must_undertrump: bool = True
    stiglja_value: Literal[90, 100] = 90
    bela_always_counts: bool = False
    sequence_tiebreak: Literal["length", "top_card"] = "length"
    equal_declaration_priority: Literal["seat", "trump_first"] = "seat"
    declaration_card_sharing: bool = True
    belot_suit: Literal["any", "trumps"] = "any"
    no_declarations: bool = False
    auto_declarations: bool = False

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True)


def deal_bela3(deck: Sequence[Card], dealer: int) -> tuple[list[list[Card]], list[Card]]:
    """3 then 3 cards each from the dealer's right, then each seat's 4-card talon, then the 2 cards set aside for
    the first player (family §4.2)."""
    hands: list[list[Card]] = [[], [], []]
    pos = 0
    for count in (3, 3, 4):
        for i in range(1, SEATS + 1):
            hands[(dealer + i) % SEATS].extend(deck[pos : pos + count])
            pos += count
    return hands, list(deck[pos : pos + 2])


def score_bela3(
    opts: BelaThreeRules,
    caller: int,
    dealer: int,
    card: Sequence[int],
    tricks: Sequence[int],
    declared: Sequence[int],
    contest: int | None,
    belas: Sequence[int],
) -> DealScore:
    """What each player writes (family §4.7). ``card``: card points with the last trick and, for the caller, his
    discards, before the štiglja; ``declared``: each player's announced declarations, in points; ``contest``: the
    contest side that won (0 the caller, 1 the two opponents); ``belas``: each player's announced belas, in points."""
    took = [t > 0 for t in tricks]
    points = list(card)
    for p in range(SEATS):
        if tricks[p] == sum(tricks):  # one player took all ten tricks
            points[p] += opts.stiglja_value
    won = [contest == (0 if p == caller else 1) for p in range(SEATS)]
    decl = [declared[p] if won[p] and took[p] else 0 for p in range(SEATS)]
    bela = [belas[p] if took[p] else 0 for p in range(SEATS)]
    total = [points[p] + decl[p] + bela[p] for p in range(SEATS)]
    y, z = (caller + 1) % SEATS, (caller + 2) % SEATS
    if (y - dealer - 1) % SEATS > (z - dealer - 1) % SEATS:
        y, z = z, y  # Y is the opponent earlier in the call order
    if total[caller] > total[y] + total[z]:
        return DealScore(tuple(total), tuple(total), 0, "passed", False)
    keep = bela[caller] if opts.bela_always_counts else 0
    written = list(total)
    written[caller] = keep
    gift = total[caller] - keep
    if opts.fall_points == "higher_opponent":
        written[y if total[y] >= total[z] else z] += gift
    elif opts.fall_points == "both_opponents":
        written[y] += gift
        written[z] += gift
    return DealScore(tuple(total), tuple(written), 0, "fell", True)


class BelaThreeDeal(TalonBelaDeal):
    variant = "bela-3"
    SEATS = SEATS
    SIDES = SIDES
    VIEW_FIELDS = ("discard",)
    NAME = "3-player Bela"
    START_FIELDS = ("extra",)
    ACTION_FIELDS = ("discard",)

    def __init__(
        self,
        rules: BelaThreeRules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        extra: Sequence[Card],
        hanging_in: int = 0,
    ) -> None:
        self._check_hands(hands)
        if len(extra) != 2:
            raise ValueError("a 3-player Bela deal sets 2 cards aside for the caller")
        super().__init__(rules, dealer, hands, hanging_in)
        if set(extra) & {c for h in self.hands for c in h} or len(set(extra)) != 2:
            raise ValueError("the 2 extra cards must be distinct from every hand")
        self.opts: BelaThreeRules = rules
        self.extra: tuple[Card, ...] = tuple(extra)
        self.discarded: tuple[Card, ...] = ()
        self.discard_points = 0

    # --- the call (family §4.3) ---

    def legal_calls(self) -> list[Call]:
        if self.phase != AUCTION:
            return []
        if self.opts.forced_first_caller or self.to_act == self.dealer:
            return [*SUITS]
        return [*SUITS, PASS]

    def _call_rule(self, call: Call) -> str:
        if call == PASS and self.opts.forced_first_caller:
            return "the first player must name trump (forced_first_caller, family §4.3)"
        if call == PASS:
            return "the dealer is in the mus: he must name a suit (family §4.3)"
        return "name one of the four suits or pass (dalje) (family §4.3)"

    def _take_call(self, call: Call) -> None:
        if call == PASS:
            self.to_act = (self.to_act + 1) % SEATS
            return
        caller = self.to_act
        self.contract, self.bidder = call, caller
        self.contest_side = tuple(0 if s == caller else 1 for s in range(SEATS))
        # Everyone takes his talon; the caller also takes the two extra cards, then discards two (family §4.4).
        self.held = [mask_of(h) for h in self.hands]
        self.held[caller] |= mask_of(self.extra)
        self.phase = DISCARD

    def _discard(self, cards: tuple[Card, ...]) -> None:
        seat = self.to_act
        shown = "discard " + " ".join(card_symbol(c) if isinstance(c, int) and 0 <= c < 32 else repr(c) for c in cards)
        if len(cards) != 2 or len(set(cards)) != 2:
            raise IllegalAction(seat, shown, "the caller discards exactly two different cards (family §4.4)")
        mask = self.held[seat]
        for c in cards:
            if not (isinstance(c, int) and 0 <= c < 32 and mask >> c & 1):
                raise IllegalAction(seat, shown, f"{c!r} is not one of the caller's 12 cards")
        self.discarded = tuple(cards)
        self.discard_points = sum(CARD_POINTS[self.contract][c] for c in cards)
        self.held[seat] = mask & ~mask_of(cards)
        self._lead_off()  # the dealer's right leads (family §4.5)

    def record_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"extra": [card_str(c) for c in self.extra]}
        if self.discarded:
            out["discard"] = [card_str(c) for c in self.discarded]
        return out

    def view_fields(self, seat: int) -> dict[str, Any]:
        # The discard is the caller's secret: only he is told which cards they were (formats §7.6).
        return {"discard": self.discarded if seat == self.bidder and self.discarded else None}

    def talon_of(self, seat: int) -> tuple[Card, ...]:
        talon = super().talon_of(seat)
        return talon + self.extra if talon and seat == self.bidder else talon

    # --- scoring (family §4.7) ---

    def _finish(self) -> None:
        self.phase = DONE
        card = self.card_totals(0)
        card[self.bidder] += self.discard_points
        declared = [sum(c.value for c in self.declared[p]) for p in range(SEATS)]
        belas = [BELA_POINTS * self.belotes[p] for p in range(SEATS)]
        s = score_bela3(
            self.opts, self.bidder, self.dealer, card, self.tricks_won, declared, self.contest(), belas
        )
        self.result = FamilyResult(
            self.bidder, self.bidder, tuple(self.tricks_won), s.raw, s.score, 0, 0, s.outcome, s.fell
        )


class BelaThreeMatch(BelotMatch):
    variant = "bela-3"
    SEATS = SEATS
    DEAL = BelaThreeDeal

    def __init__(self, rules: BelaThreeRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BelaThreeRules(), **kwargs)
        self.rules: BelaThreeRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        hands, extra = deal_bela3(deck, dealer)
        return BelaThreeDeal(self.rules, dealer, hands, extra)

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        return BelaThreeDeal(self.rules, dealer, hands, self._named_field(extra, "extra", "2 extra cards"))


__all__ = ["BelaThreeDeal", "BelaThreeMatch", "BelaThreeRules", "deal_bela3", "score_bela3"]
