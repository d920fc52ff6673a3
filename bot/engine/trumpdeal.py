"""What the one-trump family games share: tricks with announcements, the deal's tally, its result, one seat's view.

A game module (bela.py, french.py) subclasses ``TrumpDeal`` and supplies only what differs: how trump is chosen
(``legal_calls``, ``_take_call``), the play duties (``_duties``), the declaration rules (``SHARING``, ``_rank``) and
the scoring (``_scoring``, or all of ``_finish``). Cards, card points and the trick winner are those of cards.py and
play.py, written once for every game, the Bulgarian one included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from pydantic import BaseModel

from .calls import CALL_NAMES, Call
from .cards import SUIT_NAMES, Card, CardMask, card_list, card_symbol, mask_of
from .combos import best_disjoint, contest_winner, every_combination, resolve_kinds, unknown_kinds
from .deal import (
    AUCTION,
    DISCARD,
    DONE,
    EXCHANGE,
    PLAY,
    Action,
    Announcement,
    Bid,
    Discard,
    Exchange,
    IllegalAction,
    Phase,
    Play,
    Trick,
)
from .declarations import KINDS, Combination, belote_allowed
from .play import CARD_POINTS, beats

LAST_TRICK: Final = 10
BELA_POINTS: Final = 20
TEAM_SIDES: Final = ("A", "B")


class DealScore(NamedTuple):
    """What a game's scoring function returns: raw totals, what is written, held points, the verdict."""

    raw: tuple[int, ...]
    score: tuple[int, ...]
    hanging: int
    outcome: str
    fell: bool


@dataclass(frozen=True, slots=True)
class FamilyResult:
    """A deal's result in the Bela and French games (formats §7.4), per side."""

    caller: int  # the seat that named trump
    declarer: int  # the calling side
    tricks: tuple[int, ...]
    raw: tuple[int, ...]  # each side's total (cards, last trick, sweep bonus, counted declarations, bela)
    score: tuple[int, ...]  # what each side writes, held points collected included
    hanging_in: int
    hanging: int
    outcome: str  # passed / fell / visi (Bela); made / failed / litige (French)
    fell: bool


# A game's scoring: (options, calling side, points, valat, declared, contest, belas, held points in) -> DealScore.
Pair = tuple[int, int]
Scoring = Callable[[Any, int, Pair, int | None, Pair, int | None, Pair, int], DealScore]


class TrumpDeal:
    """One deal of a one-trump game: the call, then the tricks, then ``result``. Illegal actions raise."""

    variant: ClassVar[str]
    SEATS: ClassVar[int] = 4
    SIDES: ClassVar[tuple[str, ...]] = TEAM_SIDES
    CALL_CARDS: ClassVar[int]  # cards a seat holds while trump is chosen
    TRICKS: ClassVar[int] = 8  # tricks in a deal: the last one takes the +10
    SHARING_OPTION: ClassVar[str | None] = None  # the rules key that lets one card serve two declarations
    KING_FIRST_OPTION: ClassVar[str | None] = None  # the rules key under which only the king announces the belote
    # The optional fields of formats §7.6 ``act`` this game's views carry (``discard``, ``exchanged``, ``stock``...).
    VIEW_FIELDS: ClassVar[tuple[str, ...]] = ()
    # What a record of this game holds (formats §7.3): the hand sizes, the fields given with the hands (``turned``,
    # ``extra``) and those that stand for an action after the bids (``discard``, ``exchange``).
    RECORD_HANDS: ClassVar[tuple[int, ...]] = (8,)
    RECORD_HANDS_TEXT: ClassVar[str] = "8 cards"
    START_FIELDS: ClassVar[tuple[str, ...]] = ()
    ACTION_FIELDS: ClassVar[tuple[str, ...]] = ()
    ANNOUNCES: ClassVar[bool] = True  # do players announce declarations and bela with a card (not in the open game)
    NAME: ClassVar[str] = ""  # the game in a sentence: "a Bela deal", "a 3-player Bela deal"
    BELOT: ClassVar[bool] = False  # the replay report's ``belot`` field (the Bela games, formats §7.4)
    PACK: ClassVar[CardMask] = (1 << 32) - 1  # the cards of the game's pack (the Bulgarian games for 3 and 2: 24)
    PACK_TEXT: ClassVar[str] = "32 cards"
    SHOWN: ClassVar[bool] = True  # does the ``act`` message carry ``shown`` (the one-winner contest, formats §7.6)
    FELL: ClassVar[bool] = True  # does the replay report carry ``fell`` (the Bela and French games, formats §7.4)

    def __init__(self, rules: BaseModel, dealer: int, hands: Sequence[Sequence[Card]], hanging_in: int = 0) -> None:
        n = self.SEATS
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        if len(hands) != n:
            raise ValueError(f"a deal needs {n} hands")
        every = [c for h in hands for c in h]
        if len(set(every)) != len(every) or any(not (isinstance(c, int) and 0 <= c < 32) for c in every):
            raise ValueError("the hands must hold distinct cards")
        self.rules = rules
        self.opts: Any = rules  # the variant's own options model (typed by each subclass)
        self.dealer = dealer
        self.hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.hanging_in = hanging_in
        self.held: list[CardMask] = [mask_of(h[: self.CALL_CARDS]) for h in self.hands]
        self.side_of: tuple[int, ...] = tuple(s % 2 for s in range(n)) if n == 4 else tuple(range(n))
        # The sides of the declarations contest: the scoring sides, except with 3 players (caller against the two).
        self.contest_side: tuple[int, ...] = self.side_of
        self.phase: Phase = AUCTION
        self.to_act = (dealer + 1) % n
        self.calls: list[Call] = []
        self.contract = -1  # the trump suit once named
        self.bidder = -1  # the seat that named it
        self.multiplier = 1
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.trick_leader = self.to_act
        self.trick_winner_pos = 0
        self.trick_winner_card = -1
        sides = len(self.SIDES)
        self.card_points = [0] * sides
        self.tricks_won = [0] * sides
        self.last_trick_side = -1
        self.played_first = [False] * n
        self.declared: list[tuple[Combination, ...]] = [()] * n
        self.belotes = [0] * n  # belas announced per seat (one trump suit: at most one each)
        self.announcements: list[Announcement] = []
        self.result: FamilyResult | None = None

    # --- what each game supplies ---

    def legal_calls(self) -> list[Call]:
        raise NotImplementedError

    def _take_call(self, call: Call) -> None:
        """Record a legal call and move on (to the next caller, the play, or the end of a passed-out deal)."""
        raise NotImplementedError

    def _duties(self, hand: CardMask, seat: int) -> CardMask:
        """The legal cards of ``hand`` while a trick is under way."""
        raise NotImplementedError

    def _rank(self, combo: Combination, pos: int) -> tuple[int, ...]:
        """The contest key of a declaration by the player ``pos`` places into the call order; bigger is better."""
        raise NotImplementedError

    def _score(
        self,
        points: tuple[int, int],
        valat: int | None,
        declared: tuple[int, int],
        contest: int | None,
        belas: tuple[int, int],
    ) -> DealScore:
        """What each side writes, by the game's scoring (the arguments of ``bela.score_bela``)."""
        return self._scoring()(self.opts, self.declarer, points, valat, declared, contest, belas, self.hanging_in)

    def _scoring(self) -> Scoring:
        """The game's scoring function, called as ``bela.score_bela`` is (``french.score_french`` alike)."""
        raise NotImplementedError

    def _finish(self) -> None:
        self.phase = DONE
        took = self.tricks_won
        valat = 0 if took[1] == 0 else 1 if took[0] == 0 else None
        points = self.card_totals(0)
        s = self._score(
            (points[0], points[1]),
            valat,
            (self.side_declarations(0), self.side_declarations(1)),
            self.contest(),
            (self.side_belas(0), self.side_belas(1)),
        )
        self.result = FamilyResult(
            self.bidder,
            self.declarer,
            (took[0], took[1]),
            s.raw,
            s.score,
            self.hanging_in,
            s.hanging,
            s.outcome,
            s.fell,
        )

    def _discard(self, cards: tuple[Card, ...]) -> None:
        """The caller's discard (``bela-3``); games without one never enter the discard phase."""
        raise IllegalAction(self.to_act, str(Discard(cards)), f"{self.variant} has no discard")

    def _exchange(self, take: bool) -> None:
        """The answer to the seven exchange (``bela-2``); games without one never enter the exchange phase."""
        raise IllegalAction(self.to_act, str(Exchange(take)), f"{self.variant} has no seven exchange")

    def record_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as a record lists them (formats §7.3)."""
        return self.hands

    def record_fields(self) -> dict[str, Any]:
        """The record's values of ``START_FIELDS`` and ``ACTION_FIELDS`` so far (formats §7.3), as JSON."""
        return {}

    def view_fields(self, seat: int) -> dict[str, Any]:
        """The values of ``VIEW_FIELDS`` that ``seat`` may see now (a view's extra public or own fields)."""
        return {}

    def talon_of(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards received once trump was chosen, when it holds them."""
        if self.phase == AUCTION or self.contract < 0:
            return ()
        return self.hands[seat][self.CALL_CARDS :]

    def _after_card(self, seat: int, card: Card) -> None:
        """Called after each card reaches the trick (the open game's leader may turn his uncovered card up)."""

    def _after_trick(self, winner: int) -> None:
        """Called after each trick (Bela's "na dosta" claim); the eighth trick then finishes the deal."""

    # --- queries ---

    @property
    def n(self) -> int:
        return self.SEATS

    @property
    def passed_out(self) -> bool:
        return self.phase == DONE and self.contract < 0

    @property
    def declarer(self) -> int:
        """The calling side, or -1 before trump is named."""
        return self.side_of[self.bidder] if self.bidder >= 0 else -1

    def legal_mask(self) -> CardMask:
        if self.phase == DISCARD:  # any two of the caller's cards (family §4.4)
            return self.held[self.to_act]
        if self.phase != PLAY:
            return 0
        hand = self.held[self.to_act]
        return self._duties(hand, self.to_act) if self.trick else hand

    def legal_cards(self) -> list[Card]:
        return card_list(self.legal_mask())

    def legal_actions(self) -> list[Action]:
        if self.phase == AUCTION:
            return [Bid(c) for c in self.legal_calls()]
        if self.phase == PLAY:
            return [Play(c) for c in self.legal_cards()]
        if self.phase == DISCARD:
            cards = self.legal_cards()
            return [Discard((a, b)) for i, a in enumerate(cards) for b in cards[i + 1 :]]
        if self.phase == EXCHANGE:
            return [Exchange(True), Exchange(False)]
        return []

    def winning_seat(self) -> int:
        return (self.trick_leader + self.trick_winner_pos) % self.n

    def partner_wins(self, seat: int) -> bool:
        w = self.winning_seat()
        return bool(self.trick) and w != seat and self.side_of[w] == self.side_of[seat]

    @property
    def sharing(self) -> bool:
        return bool(getattr(self.opts, self.SHARING_OPTION)) if self.SHARING_OPTION else False

    def combinations(self, seat: int) -> tuple[Combination, ...]:
        """What the seat's hand lets it declare now, best first."""
        hand = self.held[seat]
        found = every_combination(hand, self.contract) if self.sharing else best_disjoint(hand, self.contract)
        pos = (seat - self.dealer - 1) % self.n
        return tuple(sorted(found, key=lambda c: self._rank(c, pos), reverse=True))

    def declarable(self, seat: int | None = None) -> tuple[str, ...]:
        seat = self.to_act if seat is None else seat
        if self.phase != PLAY or self.played_first[seat] or self.opts.no_declarations:
            return ()
        return tuple(c.kind for c in self.combinations(seat))

    def _resolve(self, seat: int, hand: CardMask, declare: Sequence[str]) -> tuple[Combination, ...] | str:
        """The combinations the kinds ``declare`` stand for in ``hand``, or the rule the announcement breaks."""
        pos = (seat - self.dealer - 1) % self.n
        resolved = resolve_kinds(hand, declare, self.contract, self.sharing, lambda c: self._rank(c, pos))
        return "the hand does not hold those combinations" if resolved is None else resolved

    def _may_belote(self, card: Card, hand: CardMask) -> bool:
        if self.KING_FIRST_OPTION and getattr(self.opts, self.KING_FIRST_OPTION) and card & 7 != 6:
            return False
        return belote_allowed(card, hand, self.contract, None)

    def belote_cards(self) -> list[Card]:
        if self.phase != PLAY:
            return []
        hand = self.held[self.to_act]
        return [c for c in self.legal_cards() if self._may_belote(c, hand)]

    def contest(self) -> int | None:
        """The side that won the declarations contest (family §2.3, §7.5), None when nobody declared."""
        return contest_winner(self.declared, self.contest_side, self.dealer, self._key, self.contract)

    def _key(self, combo: Combination, trump: int, pos: int) -> tuple[int, ...]:
        return self._rank(combo, pos)

    def everyone_played(self) -> bool:
        return all(self.played_first)

    def hand_of(self, seat: int) -> list[Card]:
        return card_list(self.held[seat])

    # --- actions ---

    def apply(self, action: Action) -> None:
        if isinstance(action, Bid):
            self.call(action.call)
        elif isinstance(action, Play):
            self.play(action.card, action.declare, action.belote)
        elif isinstance(action, Discard):
            if not isinstance(action.cards, (tuple, list)):
                raise IllegalAction(self.to_act, repr(action), "a discard names two cards")
            if self.phase != DISCARD:
                raise IllegalAction(self.to_act, str(action), "no discard is due now")
            self._discard(tuple(action.cards))
        elif isinstance(action, Exchange):
            if self.phase != EXCHANGE:
                raise IllegalAction(self.to_act, str(action), "no seven exchange is due now")
            if not isinstance(action.take, bool):
                raise IllegalAction(self.to_act, repr(action), "the answer to the exchange is true or false")
            self._exchange(action.take)
        else:
            raise IllegalAction(
                self.to_act, repr(action), "not an action: Bid(call), Play(card, declare, belote), Discard or Exchange"
            )

    def call(self, call: Call) -> None:
        seat = self.to_act
        if not (isinstance(call, int) and 0 <= call < len(CALL_NAMES)):
            raise IllegalAction(seat, f"call {call!r}", "not a call: name a suit or pass")
        if self.phase != AUCTION:
            raise IllegalAction(seat, f"call {CALL_NAMES[call]}", "trump is already chosen")
        if call not in self.legal_calls():
            raise IllegalAction(seat, f"call {CALL_NAMES[call]}", self._call_rule(call))
        self.calls.append(call)
        self._take_call(call)

    def _call_rule(self, call: Call) -> str:
        legal = ", ".join(CALL_NAMES[c] for c in self.legal_calls())
        return f"the legal calls now are {legal}"

    def _start_play(self, trump: int, caller: int) -> None:
        self.contract, self.bidder = trump, caller
        self.held = [mask_of(h) for h in self.hands]
        self._lead_off()

    def _lead_off(self) -> None:
        """The play begins: the dealer's right (with two players, the non-dealer) leads, whoever called."""
        self.phase = PLAY
        self.to_act = self.trick_leader = (self.dealer + 1) % self.n

    def play(self, card: Card, declare: Sequence[str] = (), belote: bool = False) -> None:
        seat = self.to_act

        def shown() -> str:
            return f"play {Play(card, tuple(map(str, declare)), belote)}"

        if not (isinstance(card, int) and 0 <= card < 32):
            raise IllegalAction(seat, f"play {card!r}", "not a card: cards are numbered 0..31")
        if self.phase != PLAY:
            rule = {
                DONE: "the deal is over",
                DISCARD: "the caller discards two cards before the first lead",
                EXCHANGE: "the seven exchange is answered before the first lead",
            }.get(self.phase, "cards are played only once trump is chosen")
            raise IllegalAction(seat, shown(), rule)
        hand = self.held[seat]
        if not self.legal_mask() >> card & 1:
            raise IllegalAction(seat, shown(), self._illegal_reason(card, hand))
        opts = self.opts
        first = not self.played_first[seat]
        may_belote = self._may_belote(card, hand)
        combos: tuple[Combination, ...] = ()
        if opts.auto_declarations:
            if declare or belote:
                raise IllegalAction(seat, shown(), "announcements are automatic under auto_declarations")
            if first and not opts.no_declarations:
                combos = self.combinations(seat)
            belote = may_belote
        else:
            if declare:
                bad = unknown_kinds(declare)
                if bad:
                    raise IllegalAction(seat, shown(), f"unknown declaration {bad[0]!r}; kinds are {', '.join(KINDS)}")
                if opts.no_declarations:
                    raise IllegalAction(seat, shown(), "this table plays without declarations (no_declarations)")
                if not first:
                    raise IllegalAction(seat, shown(), "declarations are announced with the player's first card")
                resolved = self._resolve(seat, hand, declare)
                if isinstance(resolved, str):
                    raise IllegalAction(seat, shown(), resolved)
                combos = resolved
            if belote and not may_belote:
                raise IllegalAction(seat, shown(), self._belote_rule(card, hand))
        if first:
            self.played_first[seat] = True
            if combos:
                self.declared[seat] = combos
                self.announcements.append(Announcement(seat, tuple(c.kind for c in combos)))
        if belote:
            self.belotes[seat] += 1
            self.announcements.append(Announcement(seat, (), card >> 3))
        self.held[seat] = hand & ~(1 << card)
        trick = self.trick
        trick.append(card)
        self._after_card(seat, card)
        if len(trick) == 1 or beats(card, self.trick_winner_card, self.contract):
            self.trick_winner_pos = len(trick) - 1
            self.trick_winner_card = card
        n = self.n
        if len(trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = self.winning_seat()
        side = self.side_of[winner]
        points = CARD_POINTS[self.contract]
        for c in trick:
            self.card_points[side] += points[c]
        self.tricks_won[side] += 1
        self.tricks.append(Trick(self.trick_leader, tuple(trick), winner))
        self.trick = []
        self.to_act = self.trick_leader = winner
        last = len(self.tricks) == self.TRICKS
        if last:
            self.last_trick_side = side
        self._after_trick(winner)
        if last and self.phase == PLAY:
            self._finish()

    def _illegal_reason(self, card: Card, hand: CardMask) -> str:
        if not hand >> card & 1:
            return f"{card_symbol(card)} is not in the player's hand"
        legal = ", ".join(card_symbol(c) for c in self.legal_cards())
        led = self.trick[0] >> 3
        trump = self.contract
        if hand & (0xFF << 8 * led) and card >> 3 != led:
            return f"must follow suit ({SUIT_NAMES[led]}); legal: {legal}"
        if card >> 3 != trump and hand & (0xFF << 8 * trump) and not hand & (0xFF << 8 * led):
            return f"must trump ({SUIT_NAMES[trump]}); legal: {legal}"
        return f"must beat {card_symbol(self.trick_winner_card)} when able; legal: {legal}"

    def _belote_rule(self, card: Card, hand: CardMask) -> str:
        if card >> 3 != self.contract or card & 7 not in (5, 6):
            return "a bela/belote is announced with the king or queen of trumps"
        if self.KING_FIRST_OPTION and getattr(self.opts, self.KING_FIRST_OPTION) and card & 7 != 6:
            return "the king must come first (belote_king_first)"
        return "a bela/belote needs the other card of the pair still in hand"

    # --- tallies for scoring ---

    def card_totals(self, sweep_bonus: int) -> list[int]:
        """Each side's card points with the last trick and, for a side that took every trick, the sweep bonus."""
        total = [p + (LAST_TRICK if s == self.last_trick_side else 0) for s, p in enumerate(self.card_points)]
        for s, won in enumerate(self.tricks_won):
            if won == len(self.tricks):
                total[s] += sweep_bonus
        return total

    def side_declarations(self, side: int) -> int:
        return sum(c.value for seat in range(self.n) if self.side_of[seat] == side for c in self.declared[seat])

    def side_belas(self, side: int) -> int:
        return BELA_POINTS * sum(self.belotes[seat] for seat in range(self.n) if self.side_of[seat] == side)


def round_to(value: int, step: int) -> int:
    """The nearest multiple of ``step``, a half rounding up (French ``rounding``, family §7.8)."""
    return (2 * value + step) // (2 * step) * step


__all__ = ["BELA_POINTS", "LAST_TRICK", "DealScore", "FamilyResult", "Scoring", "TrumpDeal", "round_to"]
