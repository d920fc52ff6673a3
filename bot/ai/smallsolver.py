"""A double-dummy search for the Bela games of three and two players: tricks of as many cards as seats.

Values are the caller's points minus his opponents' (both of them together with three players: the caller passes only
with more than the two) from the trick in progress to the end of the deal: card points, the last ten, and the
štiglja when one player takes every trick of the deal (two allied opponents sharing the tricks earn none, family
§4.7). The players of a side play as one: the opponents of a 3-player caller are allies for the deal.

The game's duties come from its piece (``FamilyGame.duties``, the engine's own function). In the open game a seat may
play only its uncovered cards (family §6.4): ``covers`` lists, per seat, each face-down card with the card covering
it, and a card is blocked while its cover is in the hand.

The search is alpha-beta over single cards with a transposition table at trick boundaries, equivalent cards searched
once (adjacent in their suit's remaining order and worth the same, where no cover makes them differ), and an optional
depth limit in tricks with the rest shared by the sides' card power.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.engine.cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, Card, CardMask, card_list
from bot.engine.play import CARD_POINTS, beats

from .knowledge import is_trump

INF: Final = 10_000
EXACT, LOWER, UPPER = 0, 1, 2
LAST_TEN: Final = 10

# hand, led suit, the card now winning -> the legal cards
Legal = Callable[[CardMask, int, Card], CardMask]


class SmallSolver:
    """Double-dummy search of one deal of two or three players; reuse one instance for positions of the same deal."""

    def __init__(
        self,
        trump: int,
        legal: Legal,
        sides: Sequence[int],
        sweep_bonus: int,
        covers: Sequence[Sequence[tuple[Card, Card | None]]] | None = None,
    ) -> None:
        """``sides``: 0 for the caller's side, 1 for his opponents, per seat; ``covers``: per seat, (face-down card,
        the card covering it or None once it has gone) for the open game."""
        self.trump = trump
        self.legal = legal
        self.sides = tuple(sides)
        self.n = len(self.sides)
        self.bonus = sweep_bonus
        self.covers = [list(c) for c in covers] if covers is not None else None
        self.points = CARD_POINTS[trump]
        # Any contract of the engine (a suit, all trumps, no trumps), for the games of three and two still to come.
        trumps = [is_trump(c, trump) for c in range(32)]
        self.strength = [10 + TRUMP_STRENGTH[c & 7] if trumps[c] else PLAIN_STRENGTH[c & 7] for c in range(32)]
        # A card's weight in the evaluation of a cut-off search: trumps and high cards take tricks (the scale of the
        # four-player solver's evaluation).
        self.power = [
            1.0 + TRUMP_STRENGTH[c & 7] / 2.5 + 1.5
            if trumps[c]
            else 0.3 + PLAIN_STRENGTH[c & 7] / 3.0 + (0.8 if c & 7 == 7 else 0.0)
            for c in range(32)
        ]
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    # --- public ---

    def values(
        self, hands: list[CardMask], leader: int, trick: list[Card], took: int, depth: int, cards: list[Card]
    ) -> dict[Card, int]:
        """The value of each of ``cards`` (legal for the seat to play) searched ``depth`` tricks deep (the trick in
        progress counting as one); ``took``: bit p set when seat p has taken a trick of this deal."""
        seat = (leader + len(trick)) % self.n
        win_pos, win = self._winning(trick)
        out: dict[Card, int] = {}
        for card in cards:
            hands[seat] ^= 1 << card
            out[card] = self._after(hands, leader, trick, card, win_pos, win, took, depth, -INF, INF)
            hands[seat] ^= 1 << card
        return out

    def playable(self, hands: list[CardMask], seat: int) -> CardMask:
        hand = hands[seat]
        if self.covers is None:
            return hand
        for down, up in self.covers[seat]:
            if up is not None and hand >> up & 1:
                hand &= ~(1 << down)
        return hand

    # --- search ---

    def _winning(self, trick: list[Card]) -> tuple[int, Card]:
        if not trick:
            return 0, -1
        win_pos, win = 0, trick[0]
        for pos in range(1, len(trick)):
            if beats(trick[pos], win, self.trump):
                win_pos, win = pos, trick[pos]
        return win_pos, win

    def _moves(self, hands: list[CardMask], seat: int, trick: list[Card], win: Card) -> list[Card]:
        hand = self.playable(hands, seat)
        legal = self.legal(hand, trick[0] >> 3, win) if trick else hand
        cards = card_list(legal)
        if self.covers is None and len(cards) > 1:
            cards = self._distinct(hands, trick, cards)
        cards.sort(key=lambda c: -(self.power[c] + self.points[c] / 10.0))
        return cards

    def _distinct(self, hands: list[CardMask], trick: list[Card], cards: list[Card]) -> list[Card]:
        """One card of each run of equivalent cards: adjacent among the suit's remaining cards (those of the trick
        in progress included: they separate), equal in points."""
        remaining = 0
        for h in hands:
            remaining |= h
        for c in trick:
            remaining |= 1 << c
        out: list[Card] = []
        for suit in range(4):
            mine = [c for c in cards if c >> 3 == suit]
            if len(mine) < 2:
                out.extend(mine)
                continue
            order = sorted(card_list(remaining & SUIT_MASK[suit]), key=lambda c: -self.strength[c])
            previous = -1
            for c in order:
                if c in mine:
                    if previous >= 0 and self.points[previous] == self.points[c]:
                        continue  # the same as the card just above it
                    out.append(c)
                    previous = c
                else:
                    previous = -1
        return out

    def _after(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[Card],
        card: Card,
        win_pos: int,
        win: Card,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value once ``card`` has been added to ``trick`` (and taken from its hand)."""
        pos = len(trick)
        if pos == 0 or beats(card, win, self.trump):
            win_pos, win = pos, card
        trick.append(card)
        try:
            if len(trick) < self.n:
                return self._node(hands, leader, trick, win_pos, win, took, depth, alpha, beta)
            winner = (leader + win_pos) % self.n
            points = sum(self.points[c] for c in trick)
            took |= 1 << winner
            last = not any(hands)
            if last:
                points += LAST_TEN
            sign = 1 if self.sides[winner] == 0 else -1
            if last:
                swept = took & (took - 1) == 0  # one player took every trick of the deal
                return sign * (points + (self.bonus if swept else 0))
            rest = self._node(hands, winner, [], 0, -1, took, depth - 1, alpha - sign * points, beta - sign * points)
            return sign * points + rest
        finally:
            trick.pop()

    def _node(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[Card],
        win_pos: int,
        win: Card,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        key: tuple[int, ...] | None = None
        if not trick:
            if depth <= 0:
                return self._evaluate(hands)
            sweep = took if took & (took - 1) == 0 else -1
            key = (*hands, leader, sweep, depth)
            found = self.tt.get(key)
            if found is not None:
                value, kind = found
                if kind == EXACT:
                    return value
                if kind == LOWER and value >= beta:
                    return value
                if kind == UPPER and value <= alpha:
                    return value
        seat = (leader + len(trick)) % self.n
        maximizing = self.sides[seat] == 0
        a0, b0 = alpha, beta
        best = -INF if maximizing else INF
        for card in self._moves(hands, seat, trick, win):
            hands[seat] ^= 1 << card
            v = self._after(hands, leader, trick, card, win_pos, win, took, depth, alpha, beta)
            hands[seat] ^= 1 << card
            if maximizing:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            kind = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
            if len(self.tt) > 400_000:
                self.tt.clear()
            self.tt[key] = (best, kind)
        return best

    def _evaluate(self, hands: list[CardMask]) -> int:
        """The rest of the deal shared by the sides' card power (a depth-limited search's leaf)."""
        power = [0.0, 0.0]
        points = LAST_TEN
        for seat, hand in enumerate(hands):
            for c in card_list(hand):
                power[self.sides[seat]] += self.power[c]
                points += self.points[c]
        total = power[0] + power[1]
        if total <= 0:
            return 0
        return round(points * (power[0] - power[1]) / total)
