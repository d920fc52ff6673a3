"""One deal: the auction (§3), then eight tricks (§4) with announcements (§5), then its result (§6–§8).

``Deal`` is a small mutable state machine in the manner of a chess board: ask it for the legal actions, push one.
Every push is checked; an illegal one raises ``IllegalAction`` naming the rule and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from .calls import ALL_TRUMPS, CALL_NAMES, CONTRA, NO_TRUMPS, PASS, RECONTRA, Call, Contract, call_name
from .cards import SUIT_CHARS, Card, CardMask, card_list, card_str, mask_of
from .declarations import (
    BELOTE_POINTS,
    KINDS,
    Combination,
    belote_allowed,
    best_declarations,
    compare_declarations,
    declarable_kinds,
    declarations_forfeited,
    resolve_declarations,
)
from .play import CARD_POINTS, beats, illegal_reason, legal_cards
from .rules import Rules
from .scoring import LAST_TEN, DealResult, score_deal

Phase = Literal["auction", "discard", "exchange", "play", "done"]
AUCTION: Final = "auction"
DISCARD: Final = "discard"  # the 3-player Bela caller lays two cards aside (family §4.4)
EXCHANGE: Final = "exchange"  # the 2-player Bela seven exchange (family §5.4)
PLAY: Final = "play"
DONE: Final = "done"


class Bid(NamedTuple):
    """A call in the auction."""

    call: Call

    def __str__(self) -> str:
        return call_name(self.call)


class Play(NamedTuple):
    """A card, with the kinds of combination announced with it (first card only) and a belote announcement."""

    card: Card
    declare: tuple[str, ...] = ()
    belote: bool = False

    def __str__(self) -> str:
        text = card_str(self.card)
        if self.declare:
            text += " declaring " + ", ".join(self.declare)
        if self.belote:
            text += " with belote"
        return text


class Discard(NamedTuple):
    """The 3-player Bela caller's two discards (family §4.4): they count as his card points."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(card_str(c) for c in self.cards)


class Exchange(NamedTuple):
    """The 2-player Bela answer to the seven exchange (family §5.4): take the turned card for the 7, or not."""

    take: bool

    def __str__(self) -> str:
        return "exchange the seven" if self.take else "keep the seven"


Action = Bid | Play | Discard | Exchange


class IllegalAction(ValueError):
    """An action the rules do not allow; ``rule`` says which rule it breaks."""

    def __init__(self, seat: int, action: str, rule: str) -> None:
        self.seat = seat
        self.action = action
        self.rule = rule
        super().__init__(f"seat {seat} may not {action}: {rule}")


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]
    winner: int  # the seat that took it


class Announcement(NamedTuple):
    """A public announcement: ``kinds`` of combination (declarations) or a belote ``suit`` (otherwise -1)."""

    seat: int
    kinds: tuple[str, ...] = ()
    belote_suit: int = -1

    def to_json(self) -> dict[str, object]:
        if self.belote_suit >= 0:
            return {"seat": self.seat, "belote": SUIT_CHARS[self.belote_suit]}
        return {"seat": self.seat, "declare": list(self.kinds)}


class Deal:
    """The state of one deal. Seats 0..3 in playing order; team = seat % 2."""

    __slots__ = (
        "_belote_pending",
        "announcements",
        "belotes",
        "bidder",
        "calls",
        "card_points",
        "contract",
        "dealer",
        "declared",
        "hands",
        "hanging_in",
        "held",
        "last_trick_team",
        "multiplier",
        "passes",
        "phase",
        "played_first",
        "result",
        "rules",
        "to_act",
        "trick",
        "trick_leader",
        "trick_winner_card",
        "trick_winner_pos",
        "tricks",
        "tricks_won",
    )

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Sequence[Card]], hanging_in: int = 0) -> None:
        """``hands``: each seat's cards in the order received; the first five are held during the auction."""
        if not 0 <= dealer <= 3:
            raise ValueError("dealer must be a seat 0..3")
        if len(hands) != 4 or any(len(h) not in (5, 8) for h in hands) or len({len(h) for h in hands}) != 1:
            raise ValueError("a deal needs four hands of 5 or 8 cards each")
        every = [c for h in hands for c in h]
        if len(set(every)) != len(every) or any(not 0 <= c < 32 for c in every):
            raise ValueError("the hands must hold distinct cards")
        self.rules = rules
        self.dealer = dealer
        self.hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.hanging_in = hanging_in
        self.held: list[CardMask] = [mask_of(h[:5]) for h in self.hands]
        self.phase: Phase = AUCTION
        self.to_act = (dealer + 1) % 4
        self.calls: list[Call] = []
        self.contract: Contract = -1
        self.bidder = -1
        self.multiplier = 1
        self.passes = 0
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.trick_leader = self.to_act
        self.trick_winner_pos = 0
        self.trick_winner_card = -1
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.last_trick_team = -1
        self.played_first = [False, False, False, False]
        self.declared: list[tuple[Combination, ...]] = [(), (), (), ()]
        self.belotes: list[list[int]] = [[], [], [], []]  # suits of the belotes each seat announced
        self._belote_pending = False
        self.announcements: list[Announcement] = []
        self.result: DealResult | None = None

    # --- queries ---

    @property
    def passed_out(self) -> bool:
        return self.phase == DONE and self.contract < 0

    @property
    def declarer(self) -> int:
        """The declaring team, or -1 before a contract stands."""
        return self.bidder & 1 if self.bidder >= 0 else -1

    def legal_calls(self) -> list[Call]:
        if self.phase != AUCTION:
            return []
        seat, contract, mult = self.to_act, self.contract, self.multiplier
        legal = [PASS]
        if not (self.rules.contra_blocks_bidding and mult >= 2):
            legal.extend(range(contract + 1, NO_TRUMPS + 2))
        if contract >= 0:
            own = (seat ^ self.bidder) & 1 == 0
            if mult == 1 and not own:
                legal.append(CONTRA)
            elif mult == 2 and own:
                legal.append(RECONTRA)
        return legal

    def legal_mask(self) -> CardMask:
        """The cards the seat to act may play, as a mask (empty outside the play)."""
        if self.phase != PLAY:
            return 0
        hand = self.held[self.to_act]
        if not self.trick:
            return hand
        return legal_cards(
            hand,
            self.trick[0],
            self.trick_winner_card,
            self._partner_wins(),
            self.contract,
            self.rules.must_undertrump,
        )

    def _partner_wins(self) -> bool:
        # The player to act sits len(trick) places after the leader; the winner sits trick_winner_pos places after.
        return bool(self.trick) and (len(self.trick) - self.trick_winner_pos) == 2

    def legal_cards(self) -> list[Card]:
        return card_list(self.legal_mask())

    def is_first_card(self, seat: int) -> bool:
        return self.phase == PLAY and not self.played_first[seat]

    def declarable(self, seat: int | None = None) -> tuple[str, ...]:
        """Kinds the seat may announce with its next card: only with its first card, never in no trumps."""
        seat = self.to_act if seat is None else seat
        if not self.is_first_card(seat):
            return ()
        return declarable_kinds(self.held[seat], self.contract, self.rules)

    def belote_cards(self) -> list[Card]:
        """The legal cards with which the seat to act may announce a belote."""
        if self.phase != PLAY or self.contract == NO_TRUMPS:
            return []
        hand = self.held[self.to_act]
        led = self.trick[0] >> 3 if self.trick else None
        return [c for c in card_list(self.legal_mask()) if belote_allowed(c, hand, self.contract, led)]

    def legal_actions(self) -> list[Action]:
        """Every legal action; plays list each card once, without announcements (see declarable, belote_cards)."""
        if self.phase == AUCTION:
            return [Bid(c) for c in self.legal_calls()]
        if self.phase == PLAY:
            return [Play(c) for c in self.legal_cards()]
        return []

    # --- actions ---

    def apply(self, action: Action) -> None:
        if isinstance(action, Bid):
            self.call(action.call)
        elif isinstance(action, Play):
            self.play(action.card, action.declare, action.belote)
        else:
            raise IllegalAction(self.to_act, repr(action), "not an action: Bid(call) or Play(card, declare, belote)")

    def call(self, call: Call) -> None:
        seat = self.to_act
        if not (isinstance(call, int) and 0 <= call <= RECONTRA):
            raise IllegalAction(seat, f"call {call!r}", f"not a call: calls are 0..8 ({', '.join(CALL_NAMES)})")
        if self.phase != AUCTION:
            raise IllegalAction(seat, f"call {call_name(call)}", "the auction is over")
        if call not in self.legal_calls():
            raise IllegalAction(seat, f"call {call_name(call)}", self._call_rule(call))
        ends_with_contract = (call == PASS and self.passes == 2 and self.contract >= 0) or (
            call == RECONTRA and self.rules.recontra_ends_auction
        )
        if ends_with_contract and len(self.hands[0]) != 8:
            # Checked before anything changes: a refused call leaves the deal as it was.
            raise ValueError("the auction ends with a contract but the deal lists only five cards per seat")
        self.calls.append(call)
        if call == PASS:
            self.passes += 1
        elif call == CONTRA:
            self.multiplier, self.passes = 2, 0
        elif call == RECONTRA:
            self.multiplier, self.passes = 4, 0
        else:
            self.contract, self.bidder, self.multiplier, self.passes = call, seat, 1, 0
        self.to_act = (seat + 1) % 4
        if self.contract < 0:
            if self.passes == 4:
                self.phase = DONE
        elif self.passes == 3 or (call == RECONTRA and self.rules.recontra_ends_auction):
            self._start_play()

    def _call_rule(self, call: Call) -> str:
        contract, mult, seat = self.contract, self.multiplier, self.to_act
        if call < NO_TRUMPS + 2:
            if self.rules.contra_blocks_bidding and mult >= 2:
                return "after a contra only recontra or pass may follow (table option contra_blocks_bidding) (§3.2)"
            return f"a contract must be higher than {call_name(contract)} (§3.1)"
        if call == CONTRA:
            if contract < 0:
                return "there is no contract to double (§3.1)"
            if (seat ^ self.bidder) & 1 == 0:
                return "contra is said only to an opponent's contract (§3.1)"
            return "the contract is already doubled (§3.1)"
        if call == RECONTRA:
            if mult != 2:
                return "recontra answers an opponent's contra, and there is none standing (§3.1)"
            return "only the declaring team may say recontra (§3.1)"
        return "not a call"

    def _start_play(self) -> None:
        self.held = [mask_of(h) for h in self.hands]
        self.phase = PLAY
        self.to_act = self.trick_leader = (self.dealer + 1) % 4

    def play(self, card: Card, declare: Sequence[str] = (), belote: bool = False) -> None:
        seat = self.to_act

        def shown() -> str:  # built only for an error message
            return f"play {Play(card, tuple(map(str, declare)), belote)}"

        if not (isinstance(card, int) and 0 <= card < 32):
            raise IllegalAction(seat, f"play {card!r}", "not a card: cards are numbered 0..31")
        if self.phase != PLAY:
            rule = "the deal is over" if self.phase == DONE else "cards are played only after the auction"
            raise IllegalAction(seat, shown(), rule)
        hand = self.held[seat]
        led = self.trick[0] if self.trick else None
        if not self.legal_mask() >> card & 1:
            winning = self.trick_winner_card if self.trick else None
            why = illegal_reason(
                card, hand, led, winning, self._partner_wins(), self.contract, self.rules.must_undertrump
            )
            raise IllegalAction(seat, shown(), why or "not a legal card")
        rules = self.rules
        first = not self.played_first[seat]
        led_suit = led >> 3 if led is not None else None
        may_belote = belote_allowed(card, hand, self.contract, led_suit)
        if rules.auto_declarations:
            if declare or belote:
                raise IllegalAction(
                    seat, shown(), "announcements are automatic under auto_declarations (formats §3)"
                )
            combos = best_declarations(hand, self.contract, rules) if first else ()
            belote = may_belote
        else:
            combos = ()
            if declare:
                unknown = [k for k in declare if not isinstance(k, str) or k not in KINDS]
                if unknown:
                    raise IllegalAction(
                        seat, shown(), f"unknown declaration {unknown[0]!r}; kinds are {', '.join(KINDS)}"
                    )
                if not first:
                    raise IllegalAction(
                        seat, shown(), "declarations are announced with the player's first card (§5.2)"
                    )
                if self.contract == NO_TRUMPS and not rules.nt_aces_carre:
                    raise IllegalAction(seat, shown(), "there are no declarations in no trumps (§5.2)")
                resolved = resolve_declarations(hand, declare, self.contract, rules)
                if resolved is None:
                    raise IllegalAction(
                        seat, shown(), "the hand does not hold those combinations, one card in one (§5.4)"
                    )
                combos = resolved
            if belote and not may_belote:
                raise IllegalAction(seat, shown(), self._belote_rule(card, hand))
        # The action is legal: apply it.
        if first:
            self.played_first[seat] = True
            if combos:
                self.declared[seat] = combos
                self.announcements.append(Announcement(seat, tuple(c.kind for c in combos)))
        if belote:
            self.belotes[seat].append(card >> 3)
            self.announcements.append(Announcement(seat, (), card >> 3))
        self.held[seat] = hand & ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) == 1 or beats(card, self.trick_winner_card, self.contract):
            self.trick_winner_pos = len(trick) - 1
            self.trick_winner_card = card
        if len(trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = (self.trick_leader + self.trick_winner_pos) % 4
        points = CARD_POINTS[self.contract]
        self.card_points[winner & 1] += points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        self.tricks_won[winner & 1] += 1
        self.tricks.append(Trick(self.trick_leader, tuple(trick), winner))
        self.trick = []
        self.to_act = self.trick_leader = winner
        if len(self.tricks) == 8:
            self.last_trick_team = winner & 1
            self._finish()

    def _belote_rule(self, card: Card, hand: CardMask) -> str:
        rank = card & 7
        if self.contract == NO_TRUMPS:
            return "there is no belote in no trumps (§5.2)"
        if rank not in (5, 6):
            return "a belote is announced with the king or queen (§5.3)"
        if self.contract != ALL_TRUMPS and card >> 3 != self.contract:
            return "a belote is the king and queen of trumps (§5.3)"
        if not hand >> (card ^ 3) & 1:
            return "a belote needs the other card of the pair still in hand (§5.3)"
        return "in all trumps a belote is announced only when leading or following suit (§5.3)"

    def _finish(self) -> None:
        self.phase = DONE
        rules = self.rules
        valat = 0 if self.tricks_won[1] == 0 else 1 if self.tricks_won[0] == 0 else None
        declared: list[list[Combination]] = [[], []]
        belote_counts = [0, 0]
        for seat in range(4):
            team = seat & 1
            if declarations_forfeited(team, valat, rules):
                continue
            declared[team].extend(self.declared[seat])
            belote_counts[team] += len(self.belotes[seat])
        counted = compare_declarations((declared[0], declared[1]), rules)
        points = (self.card_points[0], self.card_points[1])
        points = (
            points[0] + (LAST_TEN if self.last_trick_team == 0 else 0),
            points[1] + (LAST_TEN if self.last_trick_team == 1 else 0),
        )
        self.result = score_deal(
            self.contract,
            self.multiplier,
            self.declarer,
            points,
            (sum(c.value for c in counted[0]), sum(c.value for c in counted[1])),
            (belote_counts[0] * BELOTE_POINTS, belote_counts[1] * BELOTE_POINTS),
            valat,
            self.hanging_in,
            rules,
        )

    # --- views ---

    def hand_of(self, seat: int) -> list[Card]:
        return card_list(self.held[seat])

    def counted_declarations(self) -> tuple[tuple[Combination, ...], tuple[Combination, ...]]:
        """After the deal: the combinations each team scored (for reports and explanations)."""
        valat = self.result.valat if self.result is not None else None
        declared: list[list[Combination]] = [[], []]
        for seat in range(4):
            if not declarations_forfeited(seat & 1, valat, self.rules):
                declared[seat & 1].extend(self.declared[seat])
        return compare_declarations((declared[0], declared[1]), self.rules)

