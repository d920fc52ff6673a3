"""Bela for four players (`bela`, family §2–§3): 6 cards and a 2-card talon, one call round with the dealer in the
mus, iber, one declarations contest, bela, belot, štiglja, and the match to 1001.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .calls import PASS, Call
from .cards import HIGHER_PLAIN, HIGHER_TRUMP, SUIT_MASK, Card, CardMask
from .combos import carre_rank
from .deal import DONE
from .declarations import Combination
from .familymatch import FamilyMatch
from .play import trick_winner
from .trumpdeal import DealScore, Scoring, TrumpDeal

SUITS: Final = (0, 1, 2, 3)


class BelaRules(BaseModel):
    """The table options of `bela` (family §3.9, formats §7.2). Unknown keys and wrong kinds are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    target_score: int = Field(default=1001, ge=1)
    direction: Literal["counter_clockwise", "clockwise"] = "counter_clockwise"
    iber: bool = True
    partner_exemption: bool = False
    must_undertrump: bool = True
    tie: Literal["pad", "visi"] = "pad"
    stiglja_value: Literal[90, 100] = 90
    swept_declarations: Literal["void", "transfer"] = "void"
    bela_always_counts: bool = False
    sequence_tiebreak: Literal["length", "top_card"] = "length"
    equal_declaration_priority: Literal["seat", "trump_first"] = "seat"
    declaration_card_sharing: bool = True
    belot_suit: Literal["any", "trumps"] = "any"
    end_rule: Literal["na_prolaz", "na_dosta"] = "na_prolaz"
    no_declarations: bool = False
    auto_declarations: bool = False

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True)


def deal_bela(deck: Sequence[Card], dealer: int) -> list[list[Card]]:
    """3 then 3 cards each from the dealer's right, then each seat's 2-card talon (family §3.2)."""
    hands: list[list[Card]] = [[], [], [], []]
    pos = 0
    for count in (3, 3, 2):
        for i in range(1, 5):
            hands[(dealer + i) % 4].extend(deck[pos : pos + count])
            pos += count
    return hands


class BelaTrickDeal(TrumpDeal):
    """What every Bela deal plays by: the duties of family §2.1 and the contest keys of §2.3. Only with four
    players can the card now winning be the partner's."""

    def _duties(self, hand: CardMask, seat: int) -> CardMask:
        partner = self.SEATS == 4 and len(self.trick) - self.trick_winner_pos == 2
        return bela_duties(hand, self.trick[0] >> 3, self.trick_winner_card, partner, self.contract, self.opts)

    def _rank(self, combo: Combination, pos: int) -> tuple[int, ...]:
        return bela_key(combo, self.contract, pos, self.opts)

    def _scoring(self) -> Scoring:
        return score_bela  # family §3.7; the two-player games have no ``tie`` option, so a tie falls (§5.7, §6.6)


class BelotDeal(BelaTrickDeal):
    """A Bela deal played with announcements, where a belot ends the deal as soon as the play would begin (family
    §2.6)."""

    SHARING_OPTION = "declaration_card_sharing"
    BELOT = True

    def __init__(self, rules: BaseModel, dealer: int, hands: Sequence[Sequence[Card]], hanging_in: int = 0) -> None:
        super().__init__(rules, dealer, hands, hanging_in)
        self.belot_seat = -1  # the seat holding all eight cards of a suit (family §2.6)

    def _lead_off(self) -> None:
        super()._lead_off()  # then a belot ends the deal before the first lead
        self.belot_seat = find_belot(self.held, self.dealer, self.contract, self.opts.belot_suit)
        if self.belot_seat >= 0:
            self.phase = DONE


class TalonBelaDeal(BelotDeal):
    """bela-2 and bela-3: 6 cards for the call, then each seat's 4-card talon, and ten tricks (family §4.2, §5.2)."""

    CALL_CARDS = 6
    TRICKS = 10
    RECORD_HANDS = (10,)
    RECORD_HANDS_TEXT = "10 cards (6, then the 4-card talon)"

    @classmethod
    def _check_hands(cls, hands: Sequence[Sequence[Card]]) -> None:
        if len(hands) != cls.SEATS or any(len(h) != 10 for h in hands):
            raise ValueError(f"a {cls.NAME} deal gives every seat 10 cards: 6, then the 4-card talon")


class BelaDeal(BelotDeal):
    variant = "bela"
    CALL_CARDS = 6
    RECORD_HANDS_TEXT = "8 cards (6, then the talon)"
    NAME = "Bela"

    def __init__(
        self,
        rules: BelaRules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        hanging_in: int = 0,
        match_score: Sequence[int] = (0, 0),
    ) -> None:
        if any(len(h) != 8 for h in hands):
            raise ValueError("a Bela deal gives every seat 8 cards: 6, then the 2-card talon")
        super().__init__(rules, dealer, hands, hanging_in)
        self.opts: BelaRules = rules
        self.match_score = tuple(match_score)
        self.dosta_side = -1  # the pair that reached the target during the deal under "na dosta" (family §3.8)

    # --- the call (family §3.3) ---

    def legal_calls(self) -> list[Call]:
        if self.phase != "auction":
            return []
        return [*SUITS] if self.to_act == self.dealer else [*SUITS, PASS]

    def _call_rule(self, call: Call) -> str:
        if call == PASS and self.to_act == self.dealer:
            return "the dealer is in the mus: he must name a suit (family §3.3)"
        return "name one of the four suits or pass (dalje) (family §3.3)"

    def _take_call(self, call: Call) -> None:
        if call == PASS:
            self.to_act = (self.to_act + 1) % 4
            return
        self._start_play(call, self.to_act)

    # --- "na dosta" and scoring (family §3.7, §3.8) ---

    def _proven(self, side: int) -> int:
        took = self.tricks_won[side]
        points = self.card_points[side] + (10 if self.last_trick_side == side else 0)
        if took == 8:
            points += self.opts.stiglja_value
        if self.everyone_played() and self.contest() == side:
            points += self.side_declarations(side)
        return self.match_score[side] + points + self.side_belas(side)

    def _after_trick(self, winner: int) -> None:
        if self.opts.end_rule == "na_dosta":
            side = winner & 1
            if self._proven(side) >= self.opts.target_score:
                self.dosta_side = side
                self.phase = DONE


def find_belot(held: Sequence[CardMask], dealer: int, trump: int, belot_suit: str) -> int:
    """The seat holding all eight cards of a suit (of trumps only, with belot_suit "trumps"), or -1 (family §2.6).
    If two do, the earlier in the call order wins."""
    n = len(held)
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        for suit in SUITS:
            if held[seat] & SUIT_MASK[suit] == SUIT_MASK[suit] and (belot_suit == "any" or suit == trump):
                return seat
    return -1


def bela_legal_cards(hand: CardMask, trick: list[Card] | tuple[Card, ...], trump: int, opts: BelaRules) -> CardMask:
    """The cards of ``hand`` that may follow ``trick`` (non-empty, in play order), family §2.1 line by line."""
    win_pos = trick_winner(trick, trump)
    return bela_duties(hand, trick[0] >> 3, trick[win_pos], len(trick) - win_pos == 2, trump, opts)


def bela_option(opts: Any, name: str) -> Any:
    """A table option of the game ``opts`` belongs to; one the game does not have takes its `bela` default (family
    §10), so the Bela games with fewer options share the rules below."""
    return getattr(opts, name, BelaRules.model_fields[name].default)


def bela_duties(hand: CardMask, led: int, winning: Card, partner_wins: bool, trump: int, opts: BaseModel) -> CardMask:
    """family §2.1, given the led suit, the card now winning and whether the partner plays it."""
    iber = bela_option(opts, "iber")
    partner_exemption = bela_option(opts, "partner_exemption")
    must_undertrump = bela_option(opts, "must_undertrump")
    of_led = hand & SUIT_MASK[led]
    if of_led:
        if led == trump:
            return of_led & HIGHER_TRUMP[winning] or of_led
        if winning >> 3 == trump:  # the trick has been cut: no iber
            return of_led
        if iber:
            return of_led & HIGHER_PLAIN[winning] or of_led  # iber, also over the partner
        return of_led
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if partner_exemption and partner_wins:
        return hand
    if winning >> 3 == trump:
        higher = trumps & HIGHER_TRUMP[winning]
        if higher:
            return higher
        return trumps if must_undertrump else hand
    return trumps


def bela_key(combo: Combination, trump: int, pos: int, opts: Any) -> tuple[int, ...]:
    """The rank of a declaration in the contest (family §2.3); ``pos`` is the declarer's place in the call order."""
    is_seq = combo.kind != "carre"
    return (
        combo.value,
        0 if is_seq else 1,
        carre_rank(combo),
        combo.length if is_seq and bela_option(opts, "sequence_tiebreak") == "length" else 0,
        combo.top,
        1 if is_seq and bela_option(opts, "equal_declaration_priority") == "trump_first" and combo.suit == trump else 0,
        -pos,
    )


def score_bela(
    opts: Any,
    caller_side: int,
    points: tuple[int, int],
    valat: int | None,
    declared: tuple[int, int],
    contest: int | None,
    belas: tuple[int, int],
    hanging_in: int = 0,
) -> DealScore:
    """What each pair writes (family §3.7). ``points``: card points with the last trick, before the štiglja;
    ``valat``: the pair that took every trick; ``declared``: each pair's announced declarations; ``contest``: the
    pair whose best declaration won; ``belas``: each pair's announced belas, in points."""
    took = [valat != 1, valat != 0]  # with four players only a štiglja leaves a pair without a trick
    card = [points[t] + (opts.stiglja_value if valat == t else 0) for t in (0, 1)]
    decl = [declared[t] if contest == t and took[t] else 0 for t in (0, 1)]
    bela = [belas[t] if took[t] else 0 for t in (0, 1)]
    total = [card[t] + decl[t] + bela[t] for t in (0, 1)]
    if valat is not None and bela_option(opts, "swept_declarations") == "transfer":
        other = 1 - valat
        total[valat] += (declared[other] if contest == other else 0) + belas[other]
    c, o = caller_side, 1 - caller_side
    held = hanging_in
    keep = bela[c] if bela_option(opts, "bela_always_counts") else 0
    written = [0, 0]
    if total[c] > total[o]:  # prošao
        outcome, fell = "passed", False
        written[c], written[o], held = total[c] + held, total[o], 0
    elif total[c] < total[o] or bela_option(opts, "tie") == "pad":  # pao: the opponents write everything
        outcome, fell = "fell", True
        written[c], written[o], held = keep, total[0] + total[1] - keep + held, 0
    else:  # an exact tie under "visi": the callers' half is held for the next decided deal
        outcome, fell = "visi", True
        written[c], written[o], held = keep, total[o], held + total[c] - keep
    return DealScore((total[0], total[1]), (written[0], written[1]), held, outcome, fell)


def bela_verdict(totals: Sequence[int], target: int) -> int | None:
    """Na prolaz (family §2.9): the side at or above the target with more than every other side; a tie plays on."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)


class BelotMatch(FamilyMatch):
    """A match of a Bela game with the belot: it wins the match at once (family §2.6), else na prolaz."""

    def _verdict(self, deal: TrumpDeal) -> None:
        assert isinstance(deal, BelotDeal)
        if deal.belot_seat >= 0:
            self.winner = deal.side_of[deal.belot_seat]
        else:
            self.winner = bela_verdict(self.totals, self.rules.target_score)

    def _named_field(self, extra: dict[str, Any], field: str, what: str) -> Any:
        """The one extra field a record's deal gives with its hands (``turned``, ``extra``), checked."""
        name = self.DEAL.NAME
        unknown = set(extra) - {field}
        if unknown:
            raise ValueError(f"a {name} deal has no {', '.join(sorted(unknown))}")
        if field not in extra:
            raise ValueError(f"a {name} deal names its {what}")
        return extra[field]


class BelaMatch(BelotMatch):
    variant = "bela"
    DEAL = BelaDeal

    def __init__(self, rules: BelaRules | None = None, **kwargs: Any) -> None:
        super().__init__(rules or BelaRules(), **kwargs)
        self.rules: BelaRules

    def _deal_from(self, deck: list[Card], dealer: int) -> TrumpDeal:
        return self._deal_with(dealer, deal_bela(deck, dealer), {})

    def _deal_with(self, dealer: int, hands: Sequence[Sequence[Card]], extra: dict[str, Any]) -> TrumpDeal:
        if extra:
            raise ValueError(f"a Bela deal has no {', '.join(extra)}")
        return BelaDeal(self.rules, dealer, hands, self.hanging, tuple(self.totals))

    def _verdict(self, deal: TrumpDeal) -> None:
        assert isinstance(deal, BelaDeal)
        if deal.belot_seat < 0 and deal.dosta_side >= 0:
            self.winner = deal.dosta_side
        else:
            super()._verdict(deal)
