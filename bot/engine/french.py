"""French belote (`french`, family §7): 5 cards and the turned card, two bidding rounds, the rest dealt after the
bidding, no iber, the partner exemption and the pisser, one declarations contest, belote, capot, the match to 1000.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .calls import PASS, Call
from .cards import HIGHER_TRUMP, SUIT_MASK, Card, CardMask, card_str
from .combos import carre_rank
from .deal import DONE
from .declarations import Combination
from .familymatch import FamilyMatch
from .play import trick_winner
from .shuffle import shuffle_and_cut
from .trumpdeal import DealScore, Scoring, TrumpDeal, round_to

SUITS: Final = (0, 1, 2, 3)


class FrenchRules(BaseModel):
    """The table options of `french` (family §7.10, formats §7.2). Unknown keys and wrong kinds are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=1000, ge=1)
    direction: Literal["counter_clockwise", "clockwise"] = "counter_clockwise"
    must_undertrump: bool = True
    tie: Literal["share", "litige", "fail"] = "share"
    capot_bonus: Literal[90, 100, 88] = 90
    capot_keeps_declarations: bool = False
    no_declarations: bool = False
    belote_king_first: bool = False
    rounding: Literal[1, 5, 10] = 1
    both_reach: Literal["draw", "higher_wins"] = "draw"
    auto_declarations: bool = False

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True)


def deal_french(deck: Sequence[Card], dealer: int) -> tuple[list[list[Card]], Card, list[Card]]:
    """3 then 2 cards each from the dealer's right, the turned card, and the 11 cards dealt after the bidding."""
    hands: list[list[Card]] = [[], [], [], []]
    pos = 0
    for count in (3, 2):
        for i in range(1, 5):
            hands[(dealer + i) % 4].extend(deck[pos : pos + count])
            pos += count
    return hands, deck[20], list(deck[21:])


class FrenchDeal(TrumpDeal):
    variant = "french"
    CALL_CARDS = 5
    KING_FIRST_OPTION = "belote_king_first"
    RECORD_HANDS = (5, 8)
    NAME = "French"
    RECORD_HANDS_TEXT = "8 cards (5 for a passed-out deal)"
    START_FIELDS = ("turned",)

    def __init__(
        self,
        rules: FrenchRules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        turned: Card,
        stock: Sequence[Card] = (),
        hanging_in: int = 0,
    ) -> None:
        """``hands``: 5 cards each and the 11-card ``stock`` still to deal, or 8 each as a record lists them."""
        sizes = {len(h) for h in hands}
        if sizes not in ({5}, {8}):
            raise ValueError("a French deal lists 5 cards per seat (8 once the rest is dealt)")
        if sizes == {8} and stock:
            raise ValueError("a complete deal has no stock left")
        if sizes == {5} and stock and len(stock) != 11:
            raise ValueError("after the first five cards each and the turned card, 11 cards remain")
        every = [c for h in hands for c in h] + ([turned, *stock] if sizes == {5} else [])  # 8 each: turned is held
        if len(set(every)) != len(every):
            raise ValueError("the hands, the turned card and the stock must hold distinct cards")
        if sizes == {8}:
            holders = [s for s in range(4) if turned in hands[s]]
            if not holders or hands[holders[0]][5] != turned:
                raise ValueError("the turned card must be the taker's 6th card")
        super().__init__(rules, dealer, hands, hanging_in)
        self.opts: FrenchRules = rules
        self.turned = turned
        self.stock = tuple(stock)

    def record_fields(self) -> dict[str, Any]:
        return {"turned": card_str(self.turned)}

    def record_hands(self) -> tuple[tuple[Card, ...], ...]:
        # A deal that ended, or stopped, in the bidding lists the 5 cards each seat held (formats §7.3).
        return tuple(h[:5] for h in self.hands) if self.passed_out or len(self.hands[0]) == 5 else self.hands

    # --- the bidding (family §7.3) ---

    @property
    def round(self) -> int:
        return 1 if len(self.calls) < 4 else 2

    def legal_calls(self) -> list[Call]:
        if self.phase != "auction":
            return []
        t = self.turned >> 3
        return [t, PASS] if self.round == 1 else [*(s for s in SUITS if s != t), PASS]

    def _call_rule(self, call: Call) -> str:
        if self.round == 1:
            return "in the first round a player takes the turned card's suit or passes (family §7.3)"
        return "in the second round a player names one of the other three suits or passes (family §7.3)"

    def _take_call(self, call: Call) -> None:
        seat = self.to_act
        if call == PASS:
            self.to_act = (seat + 1) % 4
            if len(self.calls) == 8:
                self.phase = DONE  # passed out twice: the next player deals
            return
        if len(self.hands[0]) == 5:
            if not self.stock:
                self.calls.pop()  # a refused call leaves the deal as it was
                raise ValueError("someone took, but the deal lists only five cards per seat")
            self.hands = self._complete(seat)
        elif self.hands[seat][5] != self.turned:
            self.calls.pop()
            raise ValueError(f"seat {seat} took, but the hands give the turned card to another seat")
        self._start_play(call, seat)

    def _complete(self, taker: int) -> tuple[tuple[Card, ...], ...]:
        """The taker receives the turned card, then 3 cards to every other seat and 2 to him, in rotation."""
        hands = [list(h) for h in self.hands]
        hands[taker].append(self.turned)
        pos = 0
        for i in range(1, 5):
            seat = (self.dealer + i) % 4
            count = 2 if seat == taker else 3
            hands[seat].extend(self.stock[pos : pos + count])
            pos += count
        return tuple(tuple(h) for h in hands)

    # --- the play (family §7.4) ---

    def _duties(self, hand: CardMask, seat: int) -> CardMask:
        partner = len(self.trick) - self.trick_winner_pos == 2
        return french_duties(
            hand, self.trick[0] >> 3, self.trick_winner_card, partner, self.contract, self.opts.must_undertrump
        )

    def _rank(self, combo: Combination, pos: int) -> tuple[int, ...]:
        return french_key(combo, self.contract, pos)

    # --- scoring (family §7.7, §7.8) ---

    def _scoring(self) -> Scoring:
        return score_french


def french_legal_cards(
    hand: CardMask, trick: list[Card] | tuple[Card, ...], trump: int, must_undertrump: bool
) -> CardMask:
    """The cards of ``hand`` that may follow ``trick`` (non-empty, in play order), family §7.4 line by line."""
    win_pos = trick_winner(trick, trump)
    return french_duties(hand, trick[0] >> 3, trick[win_pos], len(trick) - win_pos == 2, trump, must_undertrump)


def french_duties(
    hand: CardMask, led: int, winning: Card, partner_wins: bool, trump: int, must_undertrump: bool
) -> CardMask:
    """family §7.4, given the led suit, the card now winning and whether the partner plays it."""
    of_led = hand & SUIT_MASK[led]
    if of_led:
        if led == trump:
            return of_led & HIGHER_TRUMP[winning] or of_led
        return of_led
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    trumped = winning >> 3 == trump  # then the winning card is the highest trump in the trick
    higher = trumps & HIGHER_TRUMP[winning] if trumped else trumps
    if partner_wins:  # free, but a trump must beat his trump if it can
        if trumped and higher:
            return (hand & ~trumps) | higher
        return hand
    if not trumped:
        return trumps  # must trump
    if higher:
        return higher  # must over-trump
    return trumps if must_undertrump else hand  # pisser


def french_key(combo: Combination, trump: int, pos: int) -> tuple[int, ...]:
    """The rank of a declaration in the contest (family §7.5); ``pos`` is the declarer's place in the call order."""
    is_seq = combo.kind != "carre"
    return (
        combo.value,
        0 if is_seq else 1,
        carre_rank(combo),
        combo.top,
        1 if is_seq and combo.suit == trump else 0,
        -pos,
    )


def score_french(
    opts: FrenchRules,
    taker_side: int,
    points: tuple[int, int],
    valat: int | None,
    declared: tuple[int, int],
    contest: int | None,
    belotes: tuple[int, int],
    hanging_in: int = 0,
) -> DealScore:
    """What each team writes (family §7.7, §7.8); the arguments as ``bela.score_bela``."""
    d, o = taker_side, 1 - taker_side
    card = [points[t] + (opts.capot_bonus if valat == t else 0) for t in (0, 1)]
    decl = [declared[t] if contest == t else 0 for t in (0, 1)]
    bel = list(belotes)
    if valat == d and not opts.capot_keeps_declarations:
        decl[o] = 0  # defenders taken capot lose their declarations, not their belote
    total = [card[t] + decl[t] + bel[t] for t in (0, 1)]
    held = hanging_in
    written = [0, 0]
    if valat == o or total[d] < total[o] or (total[d] == total[o] and opts.tie == "fail"):  # dedans
        outcome, fell = "failed", True
        written[o] = card[d] + card[o] + decl[d] + decl[o] + bel[o] + held
        written[d], held = bel[d], 0
    elif total[d] == total[o] and opts.tie == "litige":
        outcome, fell = "litige", True
        written[o], written[d], held = total[o], bel[d], held + total[d] - bel[d]
    else:
        outcome, fell = "made", False
        written[d], written[o], held = total[d] + held, total[o], 0
    step = opts.rounding
    return DealScore(
        (total[0], total[1]), (round_to(written[0], step), round_to(written[1], step)), held, outcome, fell
    )


class FrenchMatch(FamilyMatch):
    variant = "french"
    DEAL = FrenchDeal

    def __init__(self, rules: FrenchRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or FrenchRules(), **kwargs)
        self.rules: FrenchRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        hands, turned, stock = deal_french(deck, dealer)
        return FrenchDeal(self.rules, dealer, hands, turned, stock, self.hanging)

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        unknown = set(extra) - {"turned"}
        if unknown or "turned" not in extra:
            raise ValueError("a French deal needs its turned card and has no other extra field")
        turned = extra["turned"]
        stock: list[Card] = []
        if all(len(h) == 5 for h in hands):
            # A deal saved during its bidding: the rest comes from the seed, if the seed dealt these very cards.
            dealt, dealt_turned, rest = deal_french(shuffle_and_cut(self.seed, len(self.deals), self.scheme), dealer)
            if dealt == [list(h) for h in hands] and dealt_turned == turned:
                stock = rest
        return FrenchDeal(self.rules, dealer, hands, turned, stock, self.hanging)

    def _verdict(self, deal: TrumpDeal) -> None:
        if deal.result is not None:
            self.winner, self.drawn = french_verdict(self.totals, self.rules)


def french_verdict(totals: Sequence[int], opts: FrenchRules) -> tuple[int | None, bool]:
    """(winner, drawn) after a scored deal (family §7.9): the first team to the target; both at once is a draw, or
    with ``both_reach`` "higher_wins" the higher total, equal totals playing on."""
    reached = [t for t in (0, 1) if totals[t] >= opts.target_score]
    if len(reached) == 1:
        return reached[0], False
    if len(reached) == 2:
        if opts.both_reach == "draw":
            return None, True
        if totals[0] != totals[1]:
            return (0 if totals[0] > totals[1] else 1), False
    return None, False
