"""A double-dummy solver: the best play of the remaining tricks when all four hands are known.

Values are team A's points minus team B's points from the trick in progress to the end of the deal: card points,
the last ten, and the valat bonus when one team takes every trick of the deal. Declarations are fixed by the time
the play is under way and belotes are a constant per side, so neither changes the best play; callers add them.

The search is alpha-beta over single cards with:

- a transposition table at trick boundaries (the four hands, the leader, which teams have taken a trick, and the
  depth left), holding lower and upper bounds;
- equivalent cards: two cards of one hand that are adjacent in the remaining order of their suit and are worth the
  same points give the same result, so only one of them is searched;
- move ordering: the remembered best lead first, then winners or point cards as the situation suggests;
- an optional depth limit in tricks, with an evaluation of the rest (a share of the remaining points by card
  power) where an exact solve does not fit the time budget.
"""

from __future__ import annotations

from typing import Final

from bot.engine.calls import ALL_TRUMPS, NO_TRUMPS
from bot.engine.cards import PLAIN_STRENGTH, SUIT_MASK, TRUMP_STRENGTH, CardMask
from bot.engine.play import CARD_POINTS, beats, legal_cards
from bot.engine.scoring import LAST_TEN, VALAT_BONUS

INF: Final = 10_000
EXACT, LOWER, UPPER = 0, 1, 2


def _suit_orders(contract: int) -> tuple[tuple[int, ...], ...]:
    """For each suit, its cards from the strongest to the weakest under the contract."""
    orders = []
    for suit in range(4):
        trump = contract == ALL_TRUMPS or suit == contract
        table = TRUMP_STRENGTH if trump else PLAIN_STRENGTH
        orders.append(tuple(sorted((suit * 8 + r for r in range(8)), key=lambda c: -table[c & 7])))
    return tuple(orders)


def _power(contract: int) -> tuple[float, ...]:
    """A card's weight in the evaluation of a cut-off search: high cards and trumps take tricks."""
    out = []
    for card in range(32):
        trump = contract == ALL_TRUMPS or card >> 3 == contract
        if trump:
            out.append(1.0 + TRUMP_STRENGTH[card & 7] / 2.5 + (1.5 if contract < NO_TRUMPS else 0.0))
        else:
            out.append(0.3 + PLAIN_STRENGTH[card & 7] / 3.0 + (0.8 if card & 7 == 7 else 0.0))
    return tuple(out)


class Solver:
    """Double-dummy search for one contract. Reuse one instance for positions of the same deal (shared table)."""

    def __init__(self, contract: int, must_undertrump: bool = False, valat_bonus: int = VALAT_BONUS) -> None:
        self.contract = contract
        self.undertrump = must_undertrump
        self.points = CARD_POINTS[contract]
        self.orders = _suit_orders(contract)
        self.power = _power(contract)
        self.valat = valat_bonus
        self.tt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.best: dict[tuple[int, ...], int] = {}
        self.nodes = 0

    # --- public ---

    def moves(self, hands: list[CardMask], leader: int, trick: list[int]) -> list[int]:
        """The distinct legal cards (one of each group of equivalent cards) of the seat to play."""
        seat = (leader + len(trick)) & 3
        return self._moves(hands, seat, trick, self._legal(hands[seat], trick))

    def values(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[int],
        took: int = 0,
        depth: int = 8,
        candidates: list[int] | None = None,
    ) -> dict[int, int]:
        """The value (A minus B, from the trick in progress on) of each candidate card of the seat to play.

        ``took``: bit 0 set when team A has taken a trick in this deal, bit 1 for team B (for the valat bonus).
        ``depth``: tricks to search before evaluating (the trick in progress counts as one).
        """
        seat = (leader + len(trick)) & 3
        cards = candidates if candidates is not None else self.moves(hands, leader, trick)
        out = {}
        for card in cards:
            out[card] = self._after(hands, leader, trick, seat, card, took, depth, -INF, INF)
        return out

    def value(self, hands: list[CardMask], leader: int, trick: list[int], took: int = 0, depth: int = 8) -> int:
        """The value of the position with best play on both sides."""
        return self._node(hands, leader, list(trick), took, depth, -INF, INF)

    # --- search ---

    def _legal(self, hand: CardMask, trick: list[int]) -> CardMask:
        if not trick:
            return hand
        win_pos = 0
        win = trick[0]
        for pos in range(1, len(trick)):
            if beats(trick[pos], win, self.contract):
                win_pos, win = pos, trick[pos]
        partner_wins = len(trick) - win_pos == 2
        return legal_cards(hand, trick[0], win, partner_wins, self.contract, self.undertrump)

    def _moves(self, hands: list[CardMask], seat: int, trick: list[int], legal: CardMask) -> list[int]:
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        points = self.points
        moves: list[int] = []
        for suit in range(4):
            if not legal & SUIT_MASK[suit]:
                continue
            prev_mine = False
            prev_pts = -1
            for c in self.orders[suit]:
                if not remaining >> c & 1:
                    continue
                if legal >> c & 1:
                    if not (prev_mine and points[c] == prev_pts):
                        moves.append(c)
                    prev_mine, prev_pts = True, points[c]
                else:
                    prev_mine = False
        return self._order(hands, seat, trick, moves)

    def _order(self, hands: list[CardMask], seat: int, trick: list[int], moves: list[int]) -> list[int]:
        if len(moves) < 2:
            return moves
        points, contract = self.points, self.contract
        if not trick:
            # Lead strong cards first: masters and high trumps decide most deals.
            return sorted(moves, key=lambda c: -self.power[c] - points[c] / 20)
        win_pos, win = 0, trick[0]
        for pos in range(1, len(trick)):
            if beats(trick[pos], win, contract):
                win_pos, win = pos, trick[pos]
        partner_wins = len(trick) - win_pos == 2
        if partner_wins:
            return sorted(moves, key=lambda c: -points[c])

        def key(c: int) -> float:
            if beats(c, win, contract):
                return -100 + self.power[c]  # the cheapest winner first
            return points[c]

        return sorted(moves, key=key)

    def _after(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[int],
        seat: int,
        card: int,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value after ``seat`` plays ``card`` into ``trick``."""
        hands[seat] ^= 1 << card
        trick.append(card)
        try:
            if len(trick) < 4:
                return self._node(hands, leader, trick, took, depth, alpha, beta)
            return self._finish_trick(hands, leader, trick, took, depth, alpha, beta)
        finally:
            trick.pop()
            hands[seat] ^= 1 << card

    def _finish_trick(
        self, hands: list[CardMask], leader: int, trick: list[int], took: int, depth: int, alpha: int, beta: int
    ) -> int:
        contract, points = self.contract, self.points
        win_pos, win = 0, trick[0]
        for pos in (1, 2, 3):
            if beats(trick[pos], win, contract):
                win_pos, win = pos, trick[pos]
        winner = (leader + win_pos) & 3
        pts = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        took |= 1 << (winner & 1)
        last = not (hands[0] | hands[1] | hands[2] | hands[3])
        if last:
            pts += LAST_TEN
            if took != 3:
                pts += self.valat
        gain = pts if winner & 1 == 0 else -pts
        if last:
            return gain
        if depth <= 1:
            return gain + self._evaluate(hands, took)
        rest = self._node(hands, winner, [], took, depth - 1, alpha - gain, beta - gain)
        return gain + rest

    def _evaluate(self, hands: list[CardMask], took: int) -> int:
        """A sound estimate of the rest: the remaining points shared by the teams' card power."""
        points, power = self.points, self.power
        total = LAST_TEN
        strength = [0.0, 0.0]
        for seat in range(4):
            m = hands[seat]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                total += points[c]
                strength[seat & 1] += power[c]
                m ^= low
        share = strength[0] / (strength[0] + strength[1]) if strength[0] + strength[1] else 0.5
        return round((2 * share - 1) * total)

    def _node(
        self, hands: list[CardMask], leader: int, trick: list[int], took: int, depth: int, alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        seat = (leader + len(trick)) & 3
        key: tuple[int, ...] | None = None
        if not trick:
            tricks_left = bin(hands[seat]).count("1")
            d = min(depth, tricks_left)
            key = (hands[0], hands[1], hands[2], hands[3], leader, took, d)
            entry = self.tt.get(key)
            if entry is not None:
                kind, val, _ = entry
                if kind == EXACT:
                    return val
                if kind == LOWER and val >= beta:
                    return val
                if kind == UPPER and val <= alpha:
                    return val
        legal = self._legal(hands[seat], trick)
        moves = self._moves(hands, seat, trick, legal)
        if key is not None:
            remembered = self.best.get(key[:6])
            if remembered is not None and remembered in moves:
                moves.remove(remembered)
                moves.insert(0, remembered)
        maximize = seat & 1 == 0
        a0, b0 = alpha, beta
        best_card = moves[0]
        if maximize:
            best = -INF
            for card in moves:
                v = self._after(hands, leader, trick, seat, card, took, depth, alpha, beta)
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for card in moves:
                v = self._after(hands, leader, trick, seat, card, took, depth, alpha, beta)
                if v < best:
                    best, best_card = v, card
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if key is not None:
            if best <= a0:
                kind = UPPER
            elif best >= b0:
                kind = LOWER
            else:
                kind = EXACT
            self.tt[key] = (kind, best, best_card)
            self.best[key[:6]] = best_card
        return best
