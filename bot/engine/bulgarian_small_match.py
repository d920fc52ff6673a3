"""Bulgarian bridge-belote for 3 and 2 players with 24 cards (`bulgarian-3`, `bulgarian-2`, family §8–§9): HOUSE
RULES. The deal (3 then 2 cards each, the auction, 3 more; with two players 8 cards stay undealt), the play with the
Bulgarian duties and no partner, declarations and belotes contested per player, the scoring per player and the match.

The pieces are the Bulgarian game's: the legal-move function and its reasons (play.py), finding, resolving and
comparing declarations and the belote rule (declarations.py), the raw totals (scoring.py); the auction, rounding,
scoring and match end with n players are bulgarian_small.py. The tricks, announcements, views and records are the
family's (``TrumpDeal``, ``FamilyMatch``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from .bulgarian_small import (
    BulgarianThreeRules,
    BulgarianTwoRules,
    SmallScore,
    auction,
    legal_calls,
    score_three,
    score_two,
    small_verdict,
)
from .calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, RECONTRA, Call, call_name
from .cards import Card, CardMask, card_str
from .deal import AUCTION, DONE, PLAY
from .declarations import (
    BELOTE_POINTS,
    Combination,
    belote_allowed,
    best_declarations,
    compare_players,
    declarations_forfeited,
    resolve_declarations,
)
from .familymatch import FamilyMatch
from .play import illegal_reason, legal_cards
from .scoring import LAST_TEN, raw_totals
from .trumpdeal import FamilyResult, TrumpDeal

DEAL_ROUNDS: Final = (3, 2, 3)  # cards to each seat per round; the auction comes after the first two
CALL_CARDS: Final = 5
LOW_RANKS: Final = (0, 1)  # the 7s and 8s are not in the 24-card pack


def small_deck(deck: Sequence[Card]) -> list[Card]:
    """The 24 cards 9..A of a shuffled 32-card pack, in the pack's order (a uniform shuffle of the 24)."""
    return [c for c in deck if c & 7 not in LOW_RANKS]


def deal_small(deck: Sequence[Card], dealer: int, seats: int) -> tuple[list[list[Card]], list[list[Card]]]:
    """3 then 2 cards each from the dealer's right (held in the auction), and the 3 each dealt after it (family §8.3,
    §9.1); with two players the last 8 cards of the 24 stay undealt."""
    cards = small_deck(deck)
    first: list[list[Card]] = [[] for _ in range(seats)]
    rest: list[list[Card]] = [[] for _ in range(seats)]
    pos = 0
    for n, count in enumerate(DEAL_ROUNDS):
        for i in range(1, seats + 1):
            seat = (dealer + i) % seats
            (first if n < 2 else rest)[seat].extend(cards[pos : pos + count])
            pos += count
    return first, rest


class SmallDeal(TrumpDeal):
    """One deal of a Bulgarian game for ``SEATS`` players: each his own side, the six contracts, contra."""

    CALL_CARDS = CALL_CARDS
    RECORD_HANDS = (5, 8)
    RECORD_HANDS_TEXT = "8 cards (5 for a passed-out deal)"
    PACK = sum(1 << c for c in range(32) if c & 7 not in LOW_RANKS)
    PACK_TEXT = "24 cards, 9 to A: no 7s or 8s"
    SHOWN = False  # declarations are contested per category, not shown by one winner (formats §7.6)
    FELL = False
    SCORE_SEATS: ClassVar[int]

    def __init__(
        self,
        rules: BulgarianTwoRules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        rest: Sequence[Sequence[Card]] | None = None,
        hanging_in: int = 0,
    ) -> None:
        """``hands``: 8 cards each as a record lists them, or the 5 held in the auction with ``rest``, the 3 each
        dealt after it (a record of a passed-out deal gives 5 and no rest)."""
        sizes = {len(h) for h in hands}
        if sizes not in ({5}, {8}) or (rest is not None and (sizes != {5} or any(len(r) != 3 for r in rest))):
            raise ValueError(f"a {self.NAME} deal needs {self.SEATS} hands of 8 cards (5 for a passed-out deal)")
        every = [c for h in hands for c in h] + [c for r in rest or () for c in r]
        low = [c for c in every if isinstance(c, int) and 0 <= c < 32 and c & 7 in LOW_RANKS]
        if low:
            raise ValueError(f"{card_str(low[0])} is not in the 24-card pack (9 to A): {self.variant} has no 7s or 8s")
        if len(set(every)) != len(every):
            raise ValueError("the hands must hold distinct cards")
        super().__init__(rules, dealer, hands, hanging_in)
        self.opts: BulgarianTwoRules = rules
        self.rules: BulgarianTwoRules = rules
        self._rest = tuple(tuple(r) for r in rest) if rest is not None else None
        self.valat: int | None = None

    # --- the auction (family §8.4, §9.2) ---

    def legal_calls(self) -> list[Call]:
        if self.phase != AUCTION:
            return []
        return legal_calls(self.SEATS, self.dealer, self.calls, self.rules)

    def _call_rule(self, call: Call) -> str:
        state = auction(self.SEATS, self.dealer, self.calls)
        if call <= ALL_TRUMPS:
            if self.rules.contra_blocks_bidding and state.multiplier >= 2:
                return "after a contra only recontra or pass may follow (table option contra_blocks_bidding) (§3.2)"
            return f"a contract must be higher than {call_name(state.contract)} (§3.1)"
        if call == CONTRA:
            if state.contract < 0:
                return "there is no contract to double (§3.1)"
            if state.bidder == self.to_act:
                return "contra is said only to another player's contract (§3.1)"
            return "the contract is already doubled (§3.1)"
        if call == RECONTRA and state.multiplier == 2:
            return "only the player who bid the contract may say recontra (§3.1)"
        if call == RECONTRA:
            return "recontra answers a contra, and there is none standing (§3.1)"
        return "the auction ended with the recontra (table option recontra_ends_auction)"

    def call(self, call: Call) -> None:
        if isinstance(call, int) and self.phase == AUCTION and call in self.legal_calls():
            after = auction(self.SEATS, self.dealer, [*self.calls, call])
            ends = (after.over and not after.redeal) or (call == RECONTRA and self.rules.recontra_ends_auction)
            if ends and len(self.hands[0]) == CALL_CARDS and self._rest is None:
                # Checked before anything changes: a refused call leaves the deal as it was.
                raise ValueError("the auction ends with a contract but the deal lists only five cards per seat")
        super().call(call)

    def _take_call(self, call: Call) -> None:
        state = auction(self.SEATS, self.dealer, self.calls)
        self.contract, self.bidder, self.multiplier = state.contract, state.bidder, state.multiplier
        self.to_act = state.to_act
        if state.redeal:
            self.phase = DONE  # passed out: the next dealer deals again (family §8.4)
        elif state.over or (call == RECONTRA and self.rules.recontra_ends_auction):
            if self._rest is not None:
                self.hands = tuple(h + r for h, r in zip(self.hands, self._rest, strict=True))
            self._start_play(state.contract, state.bidder)

    # --- the play (bulgarian-belote §4.3 with no partner) ---

    def _duties(self, hand: CardMask, seat: int) -> CardMask:
        return legal_cards(
            hand, self.trick[0], self.trick_winner_card, False, self.contract, self.rules.must_undertrump
        )

    def _illegal_reason(self, card: Card, hand: CardMask) -> str:
        led = self.trick[0] if self.trick else None
        winning = self.trick_winner_card if self.trick else None
        why = illegal_reason(card, hand, led, winning, False, self.contract, self.rules.must_undertrump)
        return why or "not a legal card"

    # --- declarations and belotes (bulgarian-belote §5, family §8.6) ---

    def combinations(self, seat: int) -> tuple[Combination, ...]:
        """The most valuable set the hand may declare now (none in no trumps unless `nt_aces_carre`)."""
        return best_declarations(self.held[seat], self.contract, self.rules)

    def declarable(self, seat: int | None = None) -> tuple[str, ...]:
        seat = self.to_act if seat is None else seat
        if self.phase != PLAY or self.played_first[seat]:
            return ()
        return tuple(c.kind for c in self.combinations(seat))

    def _resolve(self, seat: int, hand: CardMask, declare: Sequence[str]) -> tuple[Combination, ...] | str:
        if self.contract == NO_TRUMPS and not self.rules.nt_aces_carre:
            return "there are no declarations in no trumps (§5.2)"
        resolved = resolve_declarations(hand, declare, self.contract, self.rules)
        return "the hand does not hold those combinations, one card in one (§5.4)" if resolved is None else resolved

    def _may_belote(self, card: Card, hand: CardMask) -> bool:
        # In all trumps a belote goes with a lead or with following suit (§5.3).
        return belote_allowed(card, hand, self.contract, self.trick[0] >> 3 if self.trick else None)

    def _belote_rule(self, card: Card, hand: CardMask) -> str:
        if self.contract == NO_TRUMPS:
            return "there is no belote in no trumps (§5.2)"
        if card & 7 not in (5, 6):
            return "a belote is announced with the king or queen (§5.3)"
        if self.contract != ALL_TRUMPS and card >> 3 != self.contract:
            return "a belote is the king and queen of trumps (§5.3)"
        if not hand >> (card ^ 3) & 1:
            return "a belote needs the other card of the pair still in hand (§5.3)"
        return "in all trumps a belote is announced only when leading or following suit (§5.3)"

    def contest(self) -> int | None:
        """No single winner: each category is contested per player (``counted``)."""
        return None

    def counted(self) -> tuple[tuple[Combination, ...], ...]:
        """The combinations each player scores (family §8.6): a tied best cancels its category for everyone."""
        return compare_players([self.declared[p] if self._keeps(p) else () for p in range(self.n)], self.rules)

    def _keeps(self, seat: int) -> bool:
        """`valat_team_keeps_declarations` false: a player who took no trick in a valat deal loses his."""
        return not declarations_forfeited(seat, self.valat, self.rules)

    # --- scoring (family §8.7, §9.4) ---

    def raw(self) -> list[int]:
        """Each player's raw total: cards with the last ten, NT doubled, counted declarations and belotes, valat."""
        out = []
        counted = self.counted()
        for p in range(self.n):
            cards = self.card_points[p] + (LAST_TEN if self.last_trick_side == p else 0)
            declared = sum(c.value for c in counted[p])
            belotes = BELOTE_POINTS * self.belotes[p] if self._keeps(p) else 0
            valat = 0 if self.valat == p else None
            out.append(raw_totals(self.contract, (cards, 0), (declared, 0), (belotes, 0), valat, self.rules)[0])
        return out

    def _small_score(self, raw: Sequence[int]) -> SmallScore:
        raise NotImplementedError

    def _finish(self) -> None:
        self.phase = DONE
        self.valat = next((p for p in range(self.n) if self.tricks_won[p] == self.TRICKS), None)
        raw = self.raw()
        s = self._small_score(raw)
        self.result = FamilyResult(
            self.bidder,
            self.bidder,
            tuple(self.tricks_won),
            tuple(raw),
            s.score,
            self.hanging_in,
            s.pot,
            s.outcome,
            s.outcome == "inside",
        )


class BulgarianThreeDeal(SmallDeal):
    variant = "bulgarian-3"
    SEATS = 3
    SIDES = ("0", "1", "2")
    NAME = "3-player Bulgarian"

    def _small_score(self, raw: Sequence[int]) -> SmallScore:
        rules = self.rules
        assert isinstance(rules, BulgarianThreeRules)
        return score_three(
            rules,
            rules.made_rule,
            self.contract,
            self.multiplier,
            self.bidder,
            raw,
            self.hanging_in,
            self.belotes[self.bidder] if self._keeps(self.bidder) else 0,
            self.valat,
        )


class BulgarianTwoDeal(SmallDeal):
    variant = "bulgarian-2"
    SEATS = 2
    SIDES = ("0", "1")
    NAME = "2-player Bulgarian"

    def _small_score(self, raw: Sequence[int]) -> SmallScore:
        return score_two(self.rules, self.contract, self.multiplier, self.bidder, raw, self.hanging_in, self.valat)


class SmallMatch(FamilyMatch):
    """Deals until a player has the target and more than each other (family §8.8)."""

    DEAL: ClassVar[type[SmallDeal]]

    def __init__(self, rules: BulgarianTwoRules, **kwargs: Any) -> None:
        super().__init__(rules, **kwargs)
        self.rules: BulgarianTwoRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        first, rest = deal_small(deck, dealer, self.SEATS)
        return self.DEAL(self.rules, dealer, first, rest, self.hanging)

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        return self.DEAL(self.rules, dealer, hands, None, self.hanging)

    def _verdict(self, deal: TrumpDeal) -> None:
        if deal.result is None or not isinstance(deal, SmallDeal):
            return  # a passed-out deal is never checked
        self.winner = small_verdict(self.rules, self.totals, deal.result.score, self.hanging, deal.valat)


class BulgarianThreeMatch(SmallMatch):
    variant = "bulgarian-3"
    SEATS = 3
    DEAL = BulgarianThreeDeal

    def __init__(self, rules: BulgarianThreeRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BulgarianThreeRules(), **kwargs)


class BulgarianTwoMatch(SmallMatch):
    variant = "bulgarian-2"
    SEATS = 2
    DEAL = BulgarianTwoDeal

    def __init__(self, rules: BulgarianTwoRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BulgarianTwoRules(), **kwargs)


__all__ = [
    "BulgarianThreeDeal",
    "BulgarianThreeMatch",
    "BulgarianTwoDeal",
    "BulgarianTwoMatch",
    "SmallDeal",
    "deal_small",
    "small_deck",
]
