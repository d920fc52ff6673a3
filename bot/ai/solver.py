"""A double-dummy solver: the best play of the remaining tricks when all four hands are known.

Values are team A's points minus team B's points from the trick in progress to the end of the deal: card points,
the last ten, and the valat bonus when one team takes every trick of the deal. The family games (Bela, French belote)
give the solver their own play duties and sweep bonus (štiglja, capot); the last trick is worth ten in every game.
Declarations are fixed by the time the play is under way and belotes are a constant per side, so neither changes the
best play; callers add them.

The search is alpha-beta over single cards with:

- a transposition table at trick boundaries (the four hands, the leader, which teams have taken a trick, and the
  depth left), holding lower and upper bounds;
- equivalent cards: two cards of one hand that are adjacent in the remaining order of their suit and are worth the
  same points give the same result, so only one of them is searched;
- move ordering: the remembered best lead first, then winners or point cards as the situation suggests;
- an optional depth limit in tricks, with an evaluation of the rest where an exact solve does not fit the time
  budget: each suit is played out in rounds that the best card takes (or an opponent's ruff), the others giving
  their lowest card, and the last ten is shared by card power. Against exact solves of random five- and six-trick
  positions, a two-trick search with this evaluation loses about a fifth less than with a plain power share.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
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


@functools.cache
def _tables(contract: int) -> tuple[list[bool], list[list[int]], list[list[float]], list[float]]:
    """Lookup tables of a contract: who beats whom, points and power per suit byte, the order of leads."""
    points, power = CARD_POINTS[contract], _power(contract)
    # beats_table[card * 32 + best]: does card take the trick from best?
    beats_table = [beats(c, b, contract) for c in range(32) for b in range(32)]
    byte_points = [[0] * 256 for _ in range(4)]
    byte_power = [[0.0] * 256 for _ in range(4)]
    for suit in range(4):
        for byte in range(256):
            cards = [suit * 8 + r for r in range(8) if byte >> r & 1]
            byte_points[suit][byte] = sum(points[c] for c in cards)
            byte_power[suit][byte] = sum(power[c] for c in cards)
    lead_key = [-power[c] - points[c] / 20 for c in range(32)]
    return beats_table, byte_points, byte_power, lead_key


# Representative cards by (suit, remaining cards of the suit, legal cards of the suit), per contract.
_REPRESENTATIVES: dict[int, dict[int, tuple[int, ...]]] = {}
# The evaluation's estimate of one suit by its four bytes and who may ruff, per contract.
_SUIT_ESTIMATES: dict[int, dict[int, int]] = {}
_CACHE_LIMIT: Final = 300_000
# How often (in nodes) a search with a ``stop`` asks it whether to give up: a call per node would cost a tenth of the
# search, and 1,024 nodes are a few milliseconds.
STOP_EVERY: Final = 1024


class SearchStopped(Exception):
    """The solver's ``stop`` said so: the search was given up, and no value is known."""


class Solver:
    """Double-dummy search for one contract. Reuse one instance for positions of the same deal (shared table)."""

    def __init__(
        self,
        contract: int,
        must_undertrump: bool = False,
        valat_bonus: int = VALAT_BONUS,
        duties: Callable[[CardMask, int, int, bool], CardMask] | None = None,
    ) -> None:
        """``duties``: a family game's play duties (hand, led card, winning card, partner wins -> legal cards, see
        ``games.FamilyGame.solver_duties``); without it the Bulgarian ones of ``contract``."""
        self.contract = contract
        self.undertrump = must_undertrump
        self.duties = duties
        self.points = CARD_POINTS[contract]
        self.orders = _suit_orders(contract)
        self.order_pos = [0] * 32  # a card's place in its suit's order, strongest 0
        for order in self.orders:
            for i, c in enumerate(order):
                self.order_pos[c] = i
        self.power = _power(contract)
        self.valat = valat_bonus
        self.tt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.best: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        # Asked every STOP_EVERY nodes whether to give the search up (SearchStopped): a caller's time budget. A hook
        # rather than an overridden method, because the compiled solver (`make fast`) takes no Python subclass.
        self.stop: Callable[[], bool] | None = None
        tables = _tables(contract)
        self.beats_table, self.byte_points, self.byte_power, self.lead_key = tables
        self._reps = _REPRESENTATIVES.setdefault(contract, {})
        self._suit_cache = _SUIT_ESTIMATES.setdefault(contract, {})

    # --- public ---

    def moves(self, hands: list[CardMask], leader: int, trick: list[int]) -> list[int]:
        """The distinct legal cards (one of each group of equivalent cards) of the seat to play."""
        seat = (leader + len(trick)) & 3
        win_pos, win = self._winning(trick)
        return self._moves(hands, seat, trick, win_pos, win)

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
        win_pos, win = self._winning(trick)
        cards = candidates if candidates is not None else self._moves(hands, seat, trick, win_pos, win)
        # The search plays the cards in its own copies: a stopped one (SearchStopped) leaves the caller's as they were.
        hands, trick = list(hands), list(trick)
        return {
            card: self._play(hands, leader, trick, seat, card, win_pos, win, took, depth, -INF, INF) for card in cards
        }

    def value(self, hands: list[CardMask], leader: int, trick: list[int], took: int = 0, depth: int = 8) -> int:
        """The value of the position with best play on both sides."""
        win_pos, win = self._winning(trick)
        return self._node(list(hands), leader, list(trick), win_pos, win, took, depth, -INF, INF)

    # --- search ---

    def _winning(self, trick: list[int]) -> tuple[int, int]:
        if not trick:
            return 0, 0
        win_pos, win = 0, trick[0]
        for pos in range(1, len(trick)):
            if self.beats_table[trick[pos] * 32 + win]:
                win_pos, win = pos, trick[pos]
        return win_pos, win

    def _representatives(self, suit: int, remaining_byte: int, legal_byte: int) -> tuple[int, ...]:
        """The legal cards of one suit, one per group of equivalent cards, strongest first."""
        key = suit << 16 | remaining_byte << 8 | legal_byte
        found = self._reps.get(key)
        if found is not None:
            return found
        points = self.points
        reps: list[int] = []
        prev_mine = False
        prev_pts = -1
        for c in self.orders[suit]:
            r = c & 7
            if not remaining_byte >> r & 1:
                continue
            if legal_byte >> r & 1:
                if not (prev_mine and points[c] == prev_pts):
                    reps.append(c)
                prev_mine, prev_pts = True, points[c]
            else:
                prev_mine = False
        out = tuple(reps)
        self._reps[key] = out
        return out

    def _moves(self, hands: list[CardMask], seat: int, trick: list[int], win_pos: int, win: int) -> list[int]:
        hand = hands[seat]
        if trick:
            duties = self.duties
            if duties is None:
                legal = legal_cards(hand, trick[0], win, len(trick) - win_pos == 2, self.contract, self.undertrump)
            else:
                legal = duties(hand, trick[0], win, len(trick) - win_pos == 2)
        else:
            legal = hand
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        moves: list[int] = []
        for suit in range(4):
            lb = legal >> (8 * suit) & 0xFF
            if lb:
                moves.extend(self._representatives(suit, remaining >> (8 * suit) & 0xFF, lb))
        if len(moves) < 2:
            return moves
        if not trick:
            # Lead strong cards first: masters and high trumps decide most deals.
            lead_key = self.lead_key
            moves.sort(key=lead_key.__getitem__)
            return moves
        points = self.points
        if len(trick) - win_pos == 2:
            moves.sort(key=lambda c: -points[c])  # the partner wins: give points
            return moves
        bt, power = self.beats_table, self.power
        moves.sort(key=lambda c: -100 + power[c] if bt[c * 32 + win] else points[c])  # cheapest winner first
        return moves

    def _play(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[int],
        seat: int,
        card: int,
        win_pos: int,
        win: int,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value after ``seat`` plays ``card`` into ``trick``."""
        n = len(trick)
        bit = 1 << card
        hands[seat] ^= bit
        if n == 3:
            v = self._complete(hands, leader, trick, card, win_pos, win, took, depth, alpha, beta)
        else:
            if n == 0 or self.beats_table[card * 32 + win]:
                win_pos, win = n, card
            trick.append(card)
            v = self._node(hands, leader, trick, win_pos, win, took, depth, alpha, beta)
            trick.pop()
        hands[seat] ^= bit
        return v

    def _complete(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[int],
        card: int,
        win_pos: int,
        win: int,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The fourth card closes the trick: score it and go on with the next."""
        points = self.points
        if self.beats_table[card * 32 + win]:
            win_pos = 3
        winner = (leader + win_pos) & 3
        pts = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[card]
        took |= 1 << (winner & 1)
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            pts += LAST_TEN
            if took != 3:
                pts += self.valat
            return pts if winner & 1 == 0 else -pts
        gain = pts if winner & 1 == 0 else -pts
        if depth <= 1:
            return gain + self._evaluate(hands)
        return gain + self._node(hands, winner, [], 0, 0, took, depth - 1, alpha - gain, beta - gain)

    def _evaluate(self, hands: list[CardMask]) -> int:
        """An estimate of the rest, suit by suit (``_suit_estimate``), plus the last ten shared by the teams'
        card power."""
        trump = self.contract if self.contract < NO_TRUMPS else -1
        ruffers = 0
        if trump >= 0:
            tm = SUIT_MASK[trump]
            ruffers = (
                (hands[0] & tm != 0) | (hands[1] & tm != 0) << 1 | (hands[2] & tm != 0) << 2 | (hands[3] & tm != 0) << 3
            )
        cache = self._suit_cache
        bw = self.byte_power
        diff = 0
        strength0 = strength1 = 0.0
        for suit in range(4):
            shift = 8 * suit
            b0, b1, b2, b3 = (
                hands[0] >> shift & 0xFF,
                hands[1] >> shift & 0xFF,
                hands[2] >> shift & 0xFF,
                hands[3] >> shift & 0xFF,
            )
            if not (b0 | b1 | b2 | b3):
                continue
            pw = bw[suit]
            strength0 += pw[b0] + pw[b2]
            strength1 += pw[b1] + pw[b3]
            r = ruffers if suit != trump else 0
            key = suit | b0 << 2 | b1 << 10 | b2 << 18 | b3 << 26 | r << 34
            got = cache.get(key)
            if got is None:
                got = self._suit_estimate(suit, (b0, b1, b2, b3), r)
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()  # a long-lived host must not grow without bound
                cache[key] = got
            diff += got
        both = strength0 + strength1
        share = strength0 / both if both else 0.5
        return diff + round((2 * share - 1) * LAST_TEN)

    def _suit_estimate(self, suit: int, bytes_: tuple[int, int, int, int], ruffers: int) -> int:
        """A minus B points of one suit: in each round the holder of the best card wins it while the others give
        their lowest card of the suit, unless an opponent void in the suit holds a trump to ruff with."""
        points, order, order_pos = self.points, self.orders[suit], self.order_pos
        per = [[c for c in order if b >> (c & 7) & 1] for b in bytes_]
        diff = 0
        while per[0] or per[1] or per[2] or per[3]:
            best, best_pos = -1, 99
            for seat in range(4):
                if per[seat]:
                    pos = order_pos[per[seat][0]]
                    if pos < best_pos:
                        best, best_pos = seat, pos
            team = best & 1
            for seat in range(4):
                if not per[seat] and ruffers >> seat & 1 and seat & 1 != team:
                    team = seat & 1
                    break
            got = points[per[best].pop(0)]
            for seat in range(4):
                if seat != best and per[seat]:
                    got += points[per[seat].pop()]
            diff += got if team == 0 else -got
        return diff

    def _node(
        self,
        hands: list[CardMask],
        leader: int,
        trick: list[int],
        win_pos: int,
        win: int,
        took: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        if self.nodes % STOP_EVERY == 0 and self.stop is not None and self.stop():
            raise SearchStopped
        seat = (leader + len(trick)) & 3
        key: tuple[int, ...] | None = None
        if not trick:
            d = min(depth, bin(hands[seat]).count("1"))
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
            moves = self._moves(hands, seat, trick, win_pos, win)
            remembered = self.best.get(key[:6])
            if remembered is not None and remembered != moves[0] and remembered in moves:
                moves.remove(remembered)
                moves.insert(0, remembered)
        else:
            moves = self._moves(hands, seat, trick, win_pos, win)
        maximize = seat & 1 == 0
        a0, b0 = alpha, beta
        best_card = moves[0]
        play = self._play
        if maximize:
            best = -INF
            for card in moves:
                v = play(hands, leader, trick, seat, card, win_pos, win, took, depth, alpha, beta)
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for card in moves:
                v = play(hands, leader, trick, seat, card, win_pos, win, took, depth, alpha, beta)
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
