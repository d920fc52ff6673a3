"""Open-card Bela for two players (`bela-open`, family §6): 16 cards each in 8 piles of a face-down card under a
face-up one; only uncovered face-up cards are played, and a face-down card turns up once its cover is played;
16 tricks, 162 points, the match to 501. Declarations and bela only by option, and then automatic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bela import SUITS, BelaTrickDeal, bela_verdict
from .calls import PASS, Call
from .cards import Card, CardMask, card_symbol, mask_of
from .combos import every_combination
from .deal import AUCTION, DONE, Announcement
from .familymatch import FamilyMatch
from .trumpdeal import BELA_POINTS, TrumpDeal

SEATS: Final = 2
SIDES: Final = ("0", "1")
PILES: Final = 8


class BelaOpenRules(BaseModel):
    """The table options of `bela-open` (family §6.8, formats §7.2). Unknown keys and wrong kinds are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=501, ge=1)
    open_trump: Literal["croatian", "french"] = "croatian"
    reveal_on_lead: bool = False
    iber: bool = True
    open_declarations: bool = False
    open_bela: bool = False
    stiglja_value: Literal[90, 100] = 90

    # Everything in the open game is automatic: nobody announces anything with a card (family §6.5).
    @property
    def auto_declarations(self) -> bool:
        return True

    @property
    def no_declarations(self) -> bool:
        return True

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True)


def deal_open(deck: Sequence[Card], dealer: int) -> list[list[Card]]:
    """Family §6.2: for piles 0–3, then 4–7: 4 face-down cards to the non-dealer, 4 to the dealer, then a face-up
    card on each of the non-dealer's 4, then on each of the dealer's. Each hand lists its 8 face-down cards (piles
    0–7), then the 8 face-up cards that cover them (formats §7.3)."""
    down: list[list[Card]] = [[], []]
    up: list[list[Card]] = [[], []]
    order = [(dealer + 1) % SEATS, dealer]
    pos = 0
    for _half in (0, 1):
        for row in (down, up):
            for seat in order:
                row[seat].extend(deck[pos : pos + 4])
                pos += 4
    return [down[s] + up[s] for s in range(SEATS)]


class BelaOpenDeal(BelaTrickDeal):
    variant = "bela-open"
    SEATS = SEATS
    SIDES = SIDES
    CALL_CARDS = 16  # the whole layout is dealt before the call; the seat may play only its uncovered face-up cards
    TRICKS = 16
    VIEW_FIELDS = ("layout",)
    ANNOUNCES = False
    RECORD_HANDS = (16,)
    RECORD_HANDS_TEXT = "16 cards (the 8 face-down cards of piles 0-7, then the 8 face-up cards covering them)"
    NAME = "open-card Bela"

    def __init__(self, rules: BelaOpenRules, dealer: int, hands: Sequence[Sequence[Card]], hanging_in: int = 0) -> None:
        if len(hands) != SEATS or any(len(h) != 2 * PILES for h in hands):
            raise ValueError("an open-card Bela deal gives every seat 16 cards: 8 face-down, then the 8 covering them")
        super().__init__(rules, dealer, hands, hanging_in)
        self.opts: BelaOpenRules = rules
        # piles[s][k]: the cards of pile k still on the table, bottom first; up[s][k]: is its top card face up.
        self.piles: list[list[list[Card]]] = [[[h[k], h[PILES + k]] for k in range(PILES)] for h in self.hands]
        self.face_up: list[list[bool]] = [[False] * PILES for _ in range(SEATS)]  # is the pile's bottom card turned
        self.held = [mask_of(h[PILES:]) for h in self.hands]
        self.proposing = self.hands[dealer][2 * PILES - 1]  # the face-up card of the dealer's pile 7 (family §6.3)
        self.played_kq = [0, 0]  # K and Q of trumps played by each seat (open_bela)

    @property
    def turned(self) -> Card | None:
        """The proposing card under the French trump choice; none under the Croatian one."""
        return self.proposing if self.opts.open_trump == "french" else None

    # --- the call (family §6.3) ---

    def legal_calls(self) -> list[Call]:
        if self.phase != AUCTION:
            return []
        if self.opts.open_trump == "croatian":
            return [*SUITS, PASS] if not self.calls else [*SUITS]  # the dealer is in the mus
        t = self.proposing >> 3
        return [t, PASS] if len(self.calls) < 2 else [*(s for s in SUITS if s != t), PASS]

    def _call_rule(self, call: Call) -> str:
        if self.opts.open_trump == "croatian":
            if call == PASS:
                return "the dealer is in the mus: he must name a suit (family §6.3)"
            return "name one of the four suits or pass (family §6.3)"
        if len(self.calls) < 2:
            return "round 1: take the proposing card's suit or pass (family §6.3)"
        return "round 2: name one of the three suits other than the proposing card's, or pass (family §6.3)"

    def _take_call(self, call: Call) -> None:
        if call == PASS:
            self.to_act = (self.to_act + 1) % SEATS
            if len(self.calls) == 4:
                self.phase = DONE  # French choice: four passes, the next player deals
            return
        self.contract, self.bidder = call, self.to_act
        self._lead_off()  # the non-dealer leads (family §6.4); the layout stays as dealt
        if self.opts.open_declarations:  # the combinations of each player's 8 face-up cards, public (family §6.5)
            for i in range(1, SEATS + 1):
                seat = (self.dealer + i) % SEATS
                found = every_combination(mask_of(self.hands[seat][PILES:]), call)
                if found:
                    pos = i - 1
                    combos = tuple(sorted(found, key=lambda c: self._rank(c, pos), reverse=True))
                    self.declared[seat] = combos
                    self.announcements.append(Announcement(seat, tuple(c.kind for c in combos)))

    # --- the layout (family §6.4) ---

    def _pile_of(self, seat: int, card: Card) -> int:
        return next(k for k in range(PILES) if card in self.piles[seat][k])

    def _uncover(self, seat: int, pile: int) -> None:
        """Turn the pile's face-down card up once its cover has gone: it becomes playable."""
        cards = self.piles[seat][pile]
        if len(cards) == 1 and not self.face_up[seat][pile]:
            self.face_up[seat][pile] = True
            self.held[seat] |= 1 << cards[0]

    def _after_card(self, seat: int, card: Card) -> None:
        pile = self._pile_of(seat, card)
        self.piles[seat][pile].remove(card)
        if card >> 3 == self.contract and card & 7 in (5, 6):
            self.played_kq[seat] += 1
        if self.opts.reveal_on_lead and len(self.trick) == 1:
            self._uncover(seat, pile)  # the leader turns his card up at once; he cannot play it to this trick

    def _after_trick(self, winner: int) -> None:
        for seat in range(SEATS):  # every face-down card whose cover went to this trick turns up now
            for k in range(PILES):
                self._uncover(seat, k)

    def layout(self) -> list[list[list[Card | None]]]:
        """Both layouts as everyone sees them: per seat, 8 piles bottom first, a face-down card as None."""
        return [
            [
                [c if (j == len(cards) - 1 and (len(cards) == 2 or self.face_up[s][k])) else None
                 for j, c in enumerate(cards)]
                for k, cards in enumerate(self.piles[s])
            ]
            for s in range(SEATS)
        ]  # fmt: skip

    def view_fields(self, seat: int) -> dict[str, Any]:
        return {"layout": tuple(tuple(tuple(p) for p in piles) for piles in self.layout())}

    def talon_of(self, seat: int) -> tuple[Card, ...]:
        return ()

    def record_fields(self) -> dict[str, Any]:
        return {}

    # --- the play (family §2.1, §6.4: the uncovered face-up cards are the hand) ---

    def _illegal_reason(self, card: Card, hand: CardMask) -> str:
        if not hand >> card & 1:
            return f"{card_symbol(card)} is not an uncovered face-up card of the player's layout"
        return super()._illegal_reason(card, hand)

    def _may_belote(self, card: Card, hand: CardMask) -> bool:
        return False  # open_bela is counted at the end of the deal, never announced

    # --- scoring (family §6.6: §5.7 with 16 tricks, a tie falls) ---

    def side_belas(self, side: int) -> int:
        return BELA_POINTS if self.opts.open_bela and self.played_kq[side] == 2 else 0


class BelaOpenMatch(FamilyMatch):
    variant = "bela-open"
    SEATS = SEATS
    DEAL = BelaOpenDeal

    def __init__(self, rules: BelaOpenRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BelaOpenRules(), **kwargs)
        self.rules: BelaOpenRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        return BelaOpenDeal(self.rules, dealer, deal_open(deck, dealer))

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        if extra:
            raise ValueError(f"an open-card Bela deal has no {', '.join(sorted(extra))}")
        return BelaOpenDeal(self.rules, dealer, hands)

    def _verdict(self, deal: TrumpDeal) -> None:
        if deal.result is not None:
            self.winner = bela_verdict(self.totals, self.rules.target_score)


__all__ = ["BelaOpenDeal", "BelaOpenMatch", "BelaOpenRules", "deal_open"]
