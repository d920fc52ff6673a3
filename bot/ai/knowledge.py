"""What one seat can infer from its observation: cards seen, cards left, and what each other seat cannot or must hold.

Everything here is derived from the public history (calls, tricks, announcements) and the seat's own hand, so an
agent that reasons from ``Knowledge`` still sees nothing it should not. Inference rules (rules §4.1, §5.3):

- a seat that did not follow the led suit is void in it;
- a seat that was obliged to trump (an opponent winning with a plain card) and did not, holds no trump;
- a seat that did not over-trump an opponent's trump (or did not beat the led suit where overtaking is obliged)
  holds no card of that suit above the card then winning;
- a seat that announced a belote holds the other card of the pair until it plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine import ALL_TRUMPS, NO_TRUMPS, Observation
from bot.engine.cards import FULL_DECK, HIGHER_PLAIN, HIGHER_TRUMP, SUIT_MASK, CardMask, mask_of
from bot.engine.play import beats
from bot.engine.seatview import SeatView


def higher_in_suit(card: int, contract: int) -> CardMask:
    """Cards of ``card``'s suit that outrank it under the contract."""
    if contract == ALL_TRUMPS or card >> 3 == contract:
        return HIGHER_TRUMP[card]
    return HIGHER_PLAIN[card]


def is_trump(card: int, contract: int) -> bool:
    return contract == ALL_TRUMPS or card >> 3 == contract


@dataclass(slots=True)
class Knowledge:
    seat: int
    contract: int  # -1 during the auction
    hand: CardMask
    played: CardMask  # every card already played, the current trick included
    unseen: CardMask  # cards in the other three hands
    hand_size: list[int]
    cannot: list[CardMask]  # cards each seat is known not to hold
    must: list[CardMask]  # cards each seat is known to hold (announced belote partners)
    played_by: list[CardMask]
    declared: dict[int, tuple[str, ...]] = field(default_factory=dict)
    belote_seats: dict[int, list[int]] = field(default_factory=dict)  # seat -> suits of its belotes

    def voids(self, seat: int) -> int:
        """Bit s set when ``seat`` is known to hold no card of suit s."""
        held = self.may_hold(seat)
        return sum(1 << s for s in range(4) if not held & SUIT_MASK[s])

    def may_hold(self, seat: int) -> CardMask:
        """Unseen cards that ``seat`` may still hold."""
        if seat == self.seat:
            return self.hand
        return self.unseen & ~self.cannot[seat]

    def outstanding_higher(self, card: int) -> CardMask:
        """Unseen cards of the same suit that beat ``card``."""
        return higher_in_suit(card, self.contract) & self.unseen

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit outranks it."""
        return not self.outstanding_higher(card)


def knowledge_of(obs: Observation) -> Knowledge:
    seat = obs.seat
    contract = obs.contract if obs.contract is not None else -1
    hand = mask_of(obs.hand)
    played_by = [0, 0, 0, 0]
    cannot = [0, 0, 0, 0]
    must = [0, 0, 0, 0]
    undertrump = obs.rules.must_undertrump

    def follow(leader: int, cards: tuple[int, ...]) -> None:
        led = cards[0]
        led_suit = led >> 3
        played_by[leader] |= 1 << led
        win_pos, win = 0, led
        for pos in range(1, len(cards)):
            card = cards[pos]
            p = (leader + pos) & 3
            played_by[p] |= 1 << card
            partner_wins = (pos - win_pos) == 2
            if contract >= 0:
                if card >> 3 != led_suit:
                    cannot[p] |= SUIT_MASK[led_suit]
                    if contract < NO_TRUMPS and not partner_wins:
                        trumps = SUIT_MASK[contract]
                        if win >> 3 == contract:
                            if card >> 3 != contract:
                                # Did not over-trump: holds nothing above the winning trump (nothing at all if
                                # under-trumping is obliged).
                                cannot[p] |= trumps if undertrump else HIGHER_TRUMP[win]
                            elif not beats(card, win, contract):
                                cannot[p] |= HIGHER_TRUMP[win]
                        elif card >> 3 != contract:
                            cannot[p] |= trumps
                elif (contract == ALL_TRUMPS or led_suit == contract) and not beats(card, win, contract):
                    # Overtaking in the led suit is obliged: the seat has nothing above the winning card.
                    cannot[p] |= HIGHER_TRUMP[win]
            if beats(card, win, contract if contract >= 0 else NO_TRUMPS):
                win_pos, win = pos, card

    for t in obs.tricks:
        follow(t.leader, t.cards)
    if obs.trick:
        follow(obs.trick_leader, obs.trick)

    played = 0
    for m in played_by:
        played |= m
    unseen = FULL_DECK & ~played & ~hand
    declared: dict[int, tuple[str, ...]] = {}
    belote_seats: dict[int, list[int]] = {}
    for a in obs.announced:
        if a.belote_suit >= 0:
            belote_seats.setdefault(a.seat, []).append(a.belote_suit)
            king, queen = a.belote_suit * 8 + 6, a.belote_suit * 8 + 5
            for c in (king, queen):
                if unseen >> c & 1:
                    must[a.seat] |= 1 << c
        elif a.kinds:
            declared[a.seat] = a.kinds
    in_play = obs.phase != "auction"
    sizes = [0, 0, 0, 0]
    for p in range(4):
        n_played = bin(played_by[p]).count("1")
        sizes[p] = (8 if in_play else 5) - n_played
    sizes[seat] = len(obs.hand)
    for p in range(4):
        cannot[p] &= ~must[p]
        if p != seat:
            cannot[p] |= hand | played
            for q in range(4):
                if q != p:
                    cannot[p] |= must[q]
    # During the auction only five cards each are dealt; the unseen set still counts the whole deck.
    return Knowledge(seat, contract, hand, played, unseen, sizes, cannot, must, played_by, declared, belote_seats)


def trick_state(obs: Observation | SeatView) -> tuple[int, int, bool]:
    """(winning card, seat winning, partner winning) of the trick in progress; (-1, -1, False) on a lead."""
    if not obs.trick:
        return -1, -1, False
    contract = obs.contract if obs.contract is not None else NO_TRUMPS
    win_pos, win = 0, obs.trick[0]
    for pos in range(1, len(obs.trick)):
        if beats(obs.trick[pos], win, contract):
            win_pos, win = pos, obs.trick[pos]
    winner = (obs.trick_leader + win_pos) & 3
    return win, winner, (winner ^ obs.seat) & 1 == 0 and winner != obs.seat
