"""The medium bot: a rule-based player with card counting, known voids and partner awareness.

Bidding comes from ``bidding.choose_call``, a model fitted on played-out deals. In the play it counts the cards (a
card is a *master* when no unseen card of its suit outranks it), knows who is void where (``knowledge``), lets a
partner's safe trick be fed points, wins an opponent's trick with the cheapest card that is sure to hold, draws
trumps when its team declared, and discards the least useful card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import ALL_TRUMPS, NO_TRUMPS, Action, Bid, Observation, Play
from bot.engine.cards import KING, PLAIN_STRENGTH, QUEEN, SUIT_MASK, TEN, TRUMP_STRENGTH
from bot.engine.play import CARD_POINTS, beats

from .base import View
from .bidding import BiddingStyle, choose_call
from .knowledge import Knowledge, higher_in_suit, is_trump, knowledge_of


def strength(card: int, contract: int) -> int:
    """Order of cards for choosing among them: trumps above every plain card."""
    if is_trump(card, contract):
        return 10 + TRUMP_STRENGTH[card & 7]
    return PLAIN_STRENGTH[card & 7]


def announce(obs: View, card: int) -> Play:
    """Play ``card`` with every declaration the seat may make and a belote whenever allowed."""
    if obs.auto_declarations:
        return Play(card)
    return Play(card, obs.declarable, card in obs.belote_cards)


TEAMS: tuple[int, ...] = (0, 1, 0, 1)  # the side of each seat at a table of four in two pairs


def trick_state(obs: View, sides: tuple[int, ...] = TEAMS) -> tuple[int, int, bool]:
    """(winning card, seat winning, a partner winning) of the trick in progress; (-1, -1, False) on a lead."""
    trick = obs.trick
    if not trick:
        return -1, -1, False
    contract = obs.contract if obs.contract is not None else NO_TRUMPS
    win_pos, win = 0, trick[0]
    for pos in range(1, len(trick)):
        if beats(trick[pos], win, contract):
            win_pos, win = pos, trick[pos]
    winner = (obs.trick_leader + win_pos) % len(sides)
    return win, winner, winner != obs.seat and sides[winner] == sides[obs.seat]


class TableReader:
    """Play-phase questions about one observation, answered from its knowledge. ``sides``: the side of each seat for
    this deal (four seats in two pairs by default; with three players the caller against the other two, with two
    each alone), so that partners and opponents are named once for every table."""

    def __init__(self, obs: View, k: Knowledge | None = None, sides: tuple[int, ...] = TEAMS) -> None:
        self.obs = obs
        self.sides = sides
        self.n = len(sides)
        if k is None:
            assert isinstance(obs, Observation), "a family view brings its own knowledge"
            k = knowledge_of(obs)
        self.k: Knowledge = k
        if isinstance(obs, Observation):
            self.declarers = obs.declarer == obs.seat & 1
        else:
            self.declarers = obs.caller is not None and sides[obs.caller] == sides[obs.seat]
        self.contract = obs.contract if obs.contract is not None else NO_TRUMPS
        self.points = CARD_POINTS[self.contract]
        self.trump = self.contract if self.contract < NO_TRUMPS else -1
        self.seat = obs.seat
        self.team = sides[obs.seat]
        self.opponents = [s for s in range(self.n) if sides[s] != self.team]
        self.partners = [s for s in range(self.n) if s != self.seat and sides[s] == self.team]

    def later_seats(self) -> list[int]:
        return [(self.obs.trick_leader + i) % self.n for i in range(len(self.obs.trick) + 1, self.n)]

    def opponents_after(self) -> list[int]:
        return [s for s in self.later_seats() if self.sides[s] != self.team]

    def trick_state(self) -> tuple[int, int, bool]:
        return trick_state(self.obs, self.sides)

    def last_to_play(self) -> bool:
        return len(self.obs.trick) == self.n - 1

    def may_beat(self, card: int, seat: int, led_suit: int) -> bool:
        """Might ``seat`` (playing later in this trick) beat ``card`` with a card it may hold?"""
        held = self.k.may_hold(seat)
        if not held:
            return False
        of_led = held & SUIT_MASK[led_suit]
        if card >> 3 == led_suit and of_led & higher_in_suit(card, self.contract):
            return True
        if self.trump >= 0 and led_suit != self.trump:
            # A seat can trump only when void in the led suit: known void, or every unseen card of it elsewhere.
            void = not of_led or self.k.unseen & SUIT_MASK[led_suit] == 0
            trumps = held & SUIT_MASK[self.trump]
            if void and trumps:
                if card >> 3 != self.trump:
                    return True
                return bool(trumps & higher_in_suit(card, self.contract))
        return False

    def safe(self, card: int, led_suit: int) -> bool:
        """Would ``card`` (winning now) still win after every later opponent has played?"""
        return not any(self.may_beat(card, s, led_suit) for s in self.opponents_after())

    def suit_len(self, suit: int) -> int:
        return bin(self.k.hand & SUIT_MASK[suit]).count("1")

    def trick_points(self) -> int:
        return sum(self.points[c] for c in self.obs.trick)

    def opponents_may_trump(self) -> bool:
        if self.trump < 0:
            return False
        return any(self.k.may_hold(s) & SUIT_MASK[self.trump] for s in self.opponents)


class MediumAgent:
    name = "medium"

    def __init__(self, seed: int | str = 0, style: BiddingStyle | None = None) -> None:
        self.style = style or BiddingStyle()

    def act(self, observation: View) -> Action:
        if not isinstance(observation, Observation):
            from .familycalls import medium_action  # the family module builds on this one

            return medium_action(observation)
        if observation.legal_calls:
            return Bid(choose_call(observation, self.style))
        return announce(observation, choose_card(observation))

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        return None

    def close(self) -> None:
        return None


def choose_card(obs: View, k: Knowledge | None = None, sides: tuple[int, ...] = TEAMS) -> int:
    """The rule-based card; a family view passes its ``Knowledge`` (``familyknowledge``) and its deal's ``sides``
    (``FamilyGame.sides``), a Bulgarian one may pass neither."""
    legal = list(obs.legal_cards)
    if len(legal) == 1:
        return legal[0]
    t = TableReader(obs, k, sides)
    if not obs.trick:
        return _lead(t, legal)
    return _follow(t, legal)


def _discard_key(t: TableReader, card: int) -> tuple[int, ...]:
    """Lower is a better card to give away."""
    suit = card >> 3
    master = t.k.is_master(card)
    trump = is_trump(card, t.contract)
    # Keep a ten that still has its ace guard outstanding only if it is guarded in hand.
    lone_ten = (card & 7) == TEN and t.suit_len(suit) >= 2 and not master
    belote_card = t.contract == ALL_TRUMPS and (card & 7) in (KING, QUEEN) and t.k.hand >> (card ^ 3) & 1
    return (
        int(trump and t.trump >= 0),
        int(master),
        int(bool(belote_card)),
        t.points[card] + (6 if lone_ten else 0),
        t.suit_len(suit),
        strength(card, t.contract),
    )


def _lead(t: TableReader, legal: list[int]) -> int:
    k, contract = t.k, t.contract
    declarers = t.declarers
    if len(legal) == 2 and t.trump >= 0:
        # The last ten: a master trump kept for the last trick takes it whatever is led, so lead the other card.
        masters = [c for c in legal if c >> 3 == t.trump and k.is_master(c)]
        others = [c for c in legal if c not in masters]
        if len(masters) == 1 and others and not k.is_master(others[0]):
            return others[0]
    # Draw trumps with a master trump while an opponent may still hold one.
    if t.trump >= 0:
        trumps = [c for c in legal if c >> 3 == t.trump]
        if trumps and t.opponents_may_trump():
            top = max(trumps, key=lambda c: strength(c, contract))
            if k.is_master(top) and (declarers or len(trumps) >= 2):
                return top
    if contract == ALL_TRUMPS:
        masters = [c for c in legal if k.is_master(c) and k.outstanding_higher(c) == 0]
        # Cash masters in suits the opponents still hold (so they must follow and give points).
        cashing = [c for c in masters if any(k.may_hold(s) & SUIT_MASK[c >> 3] for s in t.opponents)]
        if cashing:
            return max(cashing, key=lambda c: (t.points[c], -t.suit_len(c >> 3)))
    # Side masters: safe when no opponent can trump them.
    sides = [c for c in legal if not is_trump(c, contract) or contract == NO_TRUMPS]
    masters = [c for c in sides if k.is_master(c) and t.safe(c, c >> 3)]
    if masters:
        return max(masters, key=lambda c: (t.points[c], t.suit_len(c >> 3)))
    # Otherwise a low card, preferring a suit the partner may win and not leading away from a guarded ten.

    def lead_key(c: int) -> tuple[int, ...]:
        suit = c >> 3
        trump = int(is_trump(c, contract) and t.trump >= 0)
        guarded_ten = int(bool(k.hand >> (suit * 8 + TEN) & 1) and not k.is_master(suit * 8 + TEN))
        partner_void = int(
            t.trump >= 0 and suit != t.trump and any(not k.may_hold(p) & SUIT_MASK[suit] for p in t.partners)
        )
        return (trump if not declarers else 0, guarded_ten, -partner_void, t.points[c], strength(c, contract))

    return min(legal, key=lead_key)


def _follow(t: TableReader, legal: list[int]) -> int:
    obs, k, contract = t.obs, t.k, t.contract
    win, _, partner_wins = t.trick_state()
    led_suit = obs.trick[0] >> 3
    last = t.last_to_play()
    winners = [c for c in legal if beats(c, win, contract)]
    if partner_wins and (last or t.safe(win, led_suit)):
        # Feed the partner's trick: the most points, keeping masters and trumps when possible.
        def feed_key(c: int) -> tuple[int, ...]:
            keep = int(is_trump(c, contract) and t.trump >= 0) + int(k.is_master(c) and c >> 3 != led_suit)
            return (-keep, t.points[c])

        return max(legal, key=feed_key)
    safe_winners = [c for c in winners if last or t.safe(c, led_suit)]
    if safe_winners:
        # The cheapest sure winner; plain cards before trumps; points on the trick favour bigger cards.
        def win_key(c: int) -> tuple[int, ...]:
            return (int(is_trump(c, contract) and t.trump >= 0), strength(c, contract), -t.points[c])

        choice = min(safe_winners, key=win_key)
        # Over a partner who may be beaten, take the trick only when it is worth something.
        if not partner_wins or t.trick_points() + t.points[choice] >= 10:
            return choice
    if winners and not partner_wins and (t.trick_points() >= 10 or len(obs.trick) == 1):
        # Try to win with the highest card when the trick is worth it and a later opponent might still beat us.
        top = max(winners, key=lambda c: strength(c, contract))
        if t.points[top] < 10 or t.trick_points() >= 10:
            return top
    return min(legal, key=lambda c: _discard_key(t, c))
