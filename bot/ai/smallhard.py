"""The hard bot's play in the Bela games of three and two players: deals sampled from what the seat knows, each
searched double-dummy (``smallsolver``) under the game's duties, the card with the best average written result.

What the seat knows (``familyknowledge``): its hand, the play, the cards out of play it has seen (the 3-player
caller's own discard, the 2-player turned card or the seven it was exchanged for, the stock when it lies face up),
the cards the table showed in a hand, voids and the duties' refusals, the announced declarations (a sampled hand must
supply them) and the calls, heard as weights. The cards nobody among the players holds (the other players' discard,
the 2-player stock) are dealt to a place that never plays. In the open game everything is public but the face-down
cards, unknown to their owners as well: only those are dealt, each under the card that covers it; with few left,
every arrangement is searched (``ENUMERATE``).

Each searched deal's value (the caller's points minus his opponents') is written by the engine's own scoring of the
game (the 3-player fall rules, the 2-player comparison), with the declarations contest and bela, and the seat takes
its own written score less the mean of the others'.

The call, the 3-player discard and the 2-player seven exchange are the medium bot's (``smallgames``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Final

from bot.engine.cards import Card, CardMask, card_list
from bot.engine.declarations import Combination
from bot.engine.play import CARD_POINTS
from bot.engine.seatview import SeatView

from .base import Budget
from .familyknowledge import family_knowledge
from .games import FamilyGame, Tally
from .knowledge import Knowledge
from .medium import choose_card
from .sampling import deal_unseen
from .smallsolver import LAST_TEN, SmallSolver

ENUMERATE: Final = 24  # the open game's face-down cards are all arranged when there are at most this many ways


def schedule_for(game: FamilyGame, given: dict[int, tuple[int, int]] | None) -> dict[int, tuple[int, int]]:
    """The agent's schedule if it covers every trick of this game (a test's quick one), else the game's own
    (``search`` of its piece in ``smallgames``). The four-player Bulgarian default covers eight tricks, as many as
    the Bulgarian games of three and two have, but is not theirs."""
    from .hard import SCHEDULE  # the hard agent's module builds on this one's neighbours

    if given is not None and given is not SCHEDULE and all(n in given for n in range(1, game.cards + 1)):
        return given
    return game.search


class SmallSampler:
    """Complete deals of the unseen cards consistent with one seat's knowledge: per seat its cards, and in the open
    game each face-down card's place."""

    def __init__(self, view: SeatView, k: Knowledge, game: FamilyGame, seed: str) -> None:
        self.view, self.k, self.game = view, k, game
        self.rng = random.Random(seed)
        self.weights = game.call_weights(view)
        self.n = game.seats
        # The open game: per seat, its face-down places with the card covering each (None once it has gone).
        self.slots: list[tuple[int, Card | None]] = []
        if view.layout is not None:
            for seat, piles in enumerate(view.layout):
                for pile in piles:
                    if pile and pile[0] is None:
                        self.slots.append((seat, pile[1] if len(pile) == 2 else None))

    def covers(self, downs: list[Card]) -> list[list[tuple[Card, Card | None]]]:
        out: list[list[tuple[Card, Card | None]]] = [[] for _ in range(self.n)]
        for (seat, up), down in zip(self.slots, downs, strict=True):
            out[seat].append((down, up))
        return out

    def _consistent(self, hands: list[CardMask]) -> bool:
        k, view = self.k, self.view
        for p, kinds in k.declared.items():
            if p == k.seat or p >= self.n:
                continue
            pos = (p - view.dealer - 1) % self.n
            if self.game.resolve(hands[p] | k.played_by[p], kinds, k.contract, pos) is None:
                return False
        return True

    def deals(self, count: int) -> list[tuple[list[CardMask], list[list[tuple[Card, Card | None]]] | None]]:
        """``count`` deals (fewer when the open game's arrangements are fewer): the seats' hands, and the covers."""
        if self.slots:
            return self._open_deals(count)
        out: list[tuple[list[CardMask], list[list[tuple[Card, Card | None]]] | None]] = []
        for _ in range(count):
            out.append((self._one(), None))
        return out

    def _one(self, tries: int = 40) -> list[CardMask]:
        fallback: list[CardMask] | None = None
        for use_cannot in (True, False):
            for _ in range(tries):
                hands = deal_unseen(self.k, self.weights, self.rng, use_cannot)
                if hands is None:
                    continue
                if self._consistent(hands):
                    return hands
                fallback = fallback or hands
            if fallback is not None:
                return fallback
        raise RuntimeError("no deal of the unseen cards fits the hand sizes")

    def _open_deals(self, count: int) -> list[tuple[list[CardMask], list[list[tuple[Card, Card | None]]] | None]]:
        known = [self.game.visible(self.view, s) or 0 for s in range(self.n)]
        unknown = card_list(self.k.unseen & ~(known[0] | known[1]))
        assert len(unknown) == len(self.slots), "every face-down place holds one unknown card"
        ways = 1
        for i in range(2, len(unknown) + 1):
            ways *= i
        if ways <= max(count, ENUMERATE):
            arrangements = [list(p) for p in itertools.permutations(unknown)]
        else:
            arrangements = []
            for _ in range(count):
                downs = unknown[:]
                self.rng.shuffle(downs)
                arrangements.append(downs)
        out: list[tuple[list[CardMask], list[list[tuple[Card, Card | None]]] | None]] = []
        for downs in arrangements:
            hands = list(known)
            for (seat, _), card in zip(self.slots, downs, strict=True):
                hands[seat] |= 1 << card
            out.append((hands, self.covers(downs)))
        return out


class SmallScorer:
    """Turns a searched value of a sampled deal into the seat's written result: its own score less the mean of the
    others', by the game's scoring."""

    def __init__(self, view: SeatView, k: Knowledge, game: FamilyGame) -> None:
        assert view.caller is not None
        self.view, self.k, self.game = view, k, game
        self.n = game.seats
        self.caller = view.caller
        self.trump = k.contract
        points = CARD_POINTS[self.trump]
        self.points = points
        self.sofar = [0] * self.n
        self.tricks = [0] * self.n
        for t in view.tricks:
            self.sofar[t.winner] += sum(points[c] for c in t.cards)
            self.tricks[t.winner] += 1
        self.on_table = sum(points[c] for c in view.trick)
        belas = [0] * self.n
        for seat, suits in k.belote_seats.items():
            belas[seat] += 20 * len(suits)
        self.belas = belas
        # The contest's sides: the caller against the two with three players (0 the caller), each alone with two.
        self.contest_side = (0, 1) if self.n == 2 else tuple(0 if s == self.caller else 1 for s in range(self.n))

    def _declared(self, hands: list[CardMask]) -> list[tuple[Combination, ...]]:
        k, game, view = self.k, self.game, self.view
        out: list[tuple[Combination, ...]] = []
        for p in range(self.n):
            initial = hands[p] | k.played_by[p]
            pos = (p - view.dealer - 1) % self.n
            if p in k.declared:
                combos = game.resolve(initial, k.declared[p], self.trump, pos) or ()
            elif view.announces and not k.played_by[p]:
                combos = game.combinations(initial, self.trump)  # still to announce
            else:
                combos = ()
            out.append(combos)
        return out

    def _belas(self, hands: list[CardMask]) -> list[int]:
        out = list(self.belas)
        open_bela = bool(self.view.rules.get("open_bela", False))
        for pair in self.game.belote_pairs(self.trump):
            for p in range(self.n):
                if self.view.announces and hands[p] & pair == pair:
                    out[p] += 20  # it will announce its bela
                elif open_bela and (hands[p] | self.k.played_by[p]) & pair == pair:
                    out[p] += 20  # the open game counts a player's K and Q of trumps at the end
        return out

    def for_sample(self, hands: list[CardMask]) -> Callable[[int], float]:
        n, caller, view = self.n, self.caller, self.view
        declared = self._declared(hands)
        decl, contest = self.game.counted(declared, self.contest_side, view.dealer, self.trump)
        belas = self._belas(hands)
        remaining = self.on_table + LAST_TEN + sum(self.points[c] for p in range(n) for c in card_list(hands[p]))
        sofar = list(self.sofar)
        if n == 3:
            discard = view.discard if view.discard is not None else card_list(hands[3]) if len(hands) > 3 else []
            sofar[caller] += sum(self.points[c] for c in discard)  # the discard is the caller's (family §4.4)
        me = view.seat
        cache: dict[int, float] = {}

        def utility(v: int) -> float:
            got = cache.get(v)
            if got is None:
                got = self._written(v, remaining, sofar, decl, contest, belas, me)
                cache[v] = got
            return got

        return utility

    def _written(
        self,
        v: int,
        remaining: int,
        sofar: list[int],
        decl: list[int],
        contest: int | None,
        belas: list[int],
        me: int,
    ) -> float:
        n, caller = self.n, self.caller
        card = list(sofar)
        tricks = list(self.tricks)
        opponents = [p for p in range(n) if p != caller]
        if v > remaining:  # the caller took every trick left
            card[caller] += remaining
            tricks[caller] += 1
        elif v < -remaining:  # one opponent took every trick left
            sweeper = next((p for p in opponents if tricks[p]), opponents[0])
            card[sweeper] += remaining
            tricks[sweeper] += 1
        else:
            mine = (remaining + v) // 2
            card[caller] += mine
            tricks[caller] += 1 if mine > 0 else 0
            rest = remaining - mine
            for i, p in enumerate(opponents):
                share = rest // len(opponents) + (rest % len(opponents) if i == 0 else 0)
                card[p] += share
                tricks[p] += 1 if share > 0 else 0
        written = self.game.written(self.view, Tally(caller, card, tricks, decl, contest, belas))
        others = [written[p] for p in range(n) if p != me]
        return written[me] - sum(others) / len(others) + card[me] / 1000.0


def small_hard_card(
    view: SeatView, game: FamilyGame, seed: str, schedule: dict[int, tuple[int, int]] | None, budget: Budget
) -> int:
    """The card with the best average written result over sampled deals."""
    legal = list(view.legal_cards)
    if len(legal) == 1:
        return legal[0]
    k = family_knowledge(view, game)
    sides = game.sides(view)
    fallback = choose_card(view, k, sides)
    assert view.caller is not None
    plan = schedule_for(game, schedule)
    samples, depth = plan[game.cards - len(view.tricks)]
    trump = k.contract
    solver_sides = tuple(0 if s == view.caller else 1 for s in range(game.seats))
    duties = game.duties

    def legal_of(hand: CardMask, led: int, win: Card) -> CardMask:
        return duties(hand, led, win, False, trump)  # no partner at these tables

    took = 0
    for t in view.tricks:
        took |= 1 << t.winner
    scorer = SmallScorer(view, k, game)
    try:
        deals = SmallSampler(view, k, game, seed).deals(samples)
    except RuntimeError:
        deals = []  # nothing fits what the seat inferred: play by the rules instead
    shared = SmallSolver(trump, legal_of, solver_sides, game.sweep_bonus)
    totals = dict.fromkeys(legal, 0.0)
    done = 0
    for hands, covers in deals:
        solver = shared if covers is None else SmallSolver(trump, legal_of, solver_sides, game.sweep_bonus, covers)
        seats = hands[: game.seats]
        values = solver.values(list(seats), view.trick_leader, list(view.trick), took, depth, legal)
        utility = scorer.for_sample(hands)
        for card, v in values.items():
            totals[card] += utility(v)
        done += 1
        if budget.spent():
            break
    if done == 0:
        return fallback
    return max(legal, key=lambda c: (round(totals[c] / done, 6), c == fallback, -c))


__all__ = ["SmallSampler", "SmallScorer", "small_hard_card"]
