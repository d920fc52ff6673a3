"""The hard bot in the family games: sampled deals, solved double-dummy under the game's own duties and scoring.

In the play it deals the unseen cards consistently with what the seat saw (``familyknowledge``: voids, the duties'
refusals such as Bela's must-over-trump, the cards announcements and the French turned card put in a hand; the calls
and passes heard as weights; the announced declarations resolvable from the hand), solves each deal with the
double-dummy solver given the game's duties and sweep bonus, and plays the card whose written result for its side
(the game's scoring with the declarations contest and bela/belote) is best on average.

In the call it plays its candidates out on sampled deals: the seat's unknown cards (the Bela talon, the French cards
still to come) and the other hands dealt at random, tilted by the passes heard; after a pass the other seats call as
the medium bot would with the cards they would hold; the deal is then solved to a fixed depth with an evaluation. A
call other than the medium bot's is made only when it is clearly better on the same deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bot.engine.calls import PASS, Call
from bot.engine.cards import KING, QUEEN, CardMask, mask_of
from bot.engine.deal import DONE
from bot.engine.declarations import Combination
from bot.engine.play import CARD_POINTS
from bot.engine.seatview import SeatView
from bot.engine.seatview import view as seat_view
from bot.engine.trumpdeal import BELA_POINTS

from .base import Budget
from .familycalls import best_call, hand_value, pick_call
from .familyknowledge import family_knowledge
from .games import DECK_POINTS, FamilyGame
from .knowledge import Knowledge
from .medium import choose_card
from .sampling import OFF_POLICY, _same_choice, deal_unseen, resample
from .solver import Solver

CALL_DEPTH = 2  # tricks searched before the evaluation when a call is played out
CALL_MARGIN = 2.0  # game points per deal another call must gain over the medium call, besides 1.5 standard errors


def written_diff(
    game: FamilyGame,
    team: int,
    caller_side: int,
    d: int,
    declared: tuple[int, int],
    contest: int | None,
    belas: tuple[int, int],
    hanging: int,
) -> float:
    """The seat's team's written score minus the other team's, for a deal that ends with A−B = ``d`` card points
    (last trick and sweep bonus included, as the solver counts them); a small tiebreak prefers more card points."""
    valat = 0 if d > DECK_POINTS else 1 if d < -DECK_POINTS else None
    d = max(-DECK_POINTS, min(DECK_POINTS, d))
    a = (DECK_POINTS + d) // 2
    s = game.score(caller_side, (a, DECK_POINTS - a), valat, declared, contest, belas, hanging)
    sign = 1 if team == 0 else -1
    return float(s.score[team] - s.score[1 - team]) + sign * (2 * a - DECK_POINTS) / 1000.0


def future_belas(hands: list[CardMask], trump: int, announced: tuple[int, int]) -> tuple[int, int]:
    """Belas announced so far plus one for every seat still holding the trump king and queen (it will announce)."""
    out = list(announced)
    pair = (1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN))
    for p in range(4):
        if hands[p] & pair == pair:
            out[p & 1] += BELA_POINTS
    return out[0], out[1]


def _side_sums(
    game: FamilyGame, declared: list[tuple[Combination, ...]], dealer: int, trump: int
) -> tuple[tuple[int, int], int | None]:
    sums = [0, 0]
    for p in range(4):
        sums[p & 1] += sum(c.value for c in declared[p])
    return (sums[0], sums[1]), game.contest(declared, dealer, trump)


class FamilyScorer:
    """Turns a double-dummy value of a sampled deal into the seat's team's written result."""

    def __init__(self, view: SeatView, k: Knowledge, game: FamilyGame) -> None:
        self.view, self.k, self.game = view, k, game
        self.trump = k.contract
        self.team = view.seat & 1
        self.caller_side = (view.caller or 0) & 1
        points = CARD_POINTS[self.trump]
        self.sofar = 0
        for t in view.tricks:
            pts = sum(points[c] for c in t.cards)
            self.sofar += pts if t.winner & 1 == 0 else -pts
        belas = [0, 0]
        for seat, suits in k.belote_seats.items():
            belas[seat & 1] += BELA_POINTS * len(suits)
        self.belas = (belas[0], belas[1])
        self.played_first = [bool(k.played_by[p]) for p in range(4)]

    def for_sample(self, hands: list[CardMask]) -> Callable[[int], float]:
        k, game, view, trump = self.k, self.game, self.view, self.trump
        declared: list[tuple[Combination, ...]] = []
        for p in range(4):
            initial = hands[p] | k.played_by[p]
            pos = (p - view.dealer - 1) % 4
            if p in k.declared:
                combos = game.resolve(initial, k.declared[p], trump, pos) or ()
            elif not self.played_first[p]:
                combos = game.combinations(initial, trump)  # still to announce
            else:
                combos = ()
            declared.append(combos)
        sums, contest = _side_sums(game, declared, view.dealer, trump)
        belas = future_belas(hands, trump, self.belas)
        cache: dict[int, float] = {}

        def utility(v: int) -> float:
            got = cache.get(v)
            if got is None:
                got = written_diff(
                    game, self.team, self.caller_side, self.sofar + v, sums, contest, belas, view.hanging
                )
                cache[v] = got
            return got

        return utility


class FamilySampler:
    """Complete deals of the unseen cards consistent with one seat's knowledge of a family deal in play."""

    def __init__(self, view: SeatView, k: Knowledge, game: FamilyGame, seed: int | str) -> None:
        self.view, self.k, self.game = view, k, game
        self.rng = random.Random(seed)
        self.weights = game.call_weights(view)

    def _consistent(self, hands: list[CardMask]) -> bool:
        """Could each seat that announced combinations have held them at its first card?"""
        k, view = self.k, self.view
        for p, kinds in k.declared.items():
            if p == k.seat:
                continue
            pos = (p - view.dealer - 1) % 4
            if self.game.resolve(hands[p] | k.played_by[p], kinds, k.contract, pos) is None:
                return False
        return True

    def sample(self, tries: int = 40) -> list[CardMask]:
        """One deal; the announced combinations, then the inferred refusals, are relaxed only when nothing fits."""
        fallback: list[CardMask] | None = None
        for _ in range(tries):
            hands = deal_unseen(self.k, self.weights, self.rng, True)
            if hands is None:
                continue
            if self._consistent(hands):
                return hands
            fallback = fallback or hands
        if fallback is not None:
            return fallback
        for _ in range(tries):
            hands = deal_unseen(self.k, self.weights, self.rng, False)
            if hands is not None:
                return hands
        raise RuntimeError("no deal of the unseen cards fits the hand sizes")

    def weighted(self, n: int, pool: int) -> list[tuple[list[CardMask], int]]:
        """``n`` deals picked from ``pool`` drawn ones in proportion to how well the other seats' play fits them
        (``play_likelihood``), as (deal, times picked), each distinct deal once (as ``Sampler.weighted``)."""
        drawn = [self.sample() for _ in range(max(n, pool))]
        if pool <= n:
            return [(hands, 1) for hands in drawn]
        seen: dict[tuple[CardMask, ...], float] = {}
        weights = []
        for hands in drawn:
            key = tuple(hands)
            if key not in seen:
                seen[key] = play_likelihood(self.view, self.k, self.game, hands)
            weights.append(seen[key])
        return resample(drawn, weights, n, self.rng)


def play_likelihood(view: SeatView, k: Knowledge, game: FamilyGame, hands: list[CardMask]) -> float:
    """How well the cards the other seats played fit ``hands``: the product, over their decisions with a choice, of 1
    when the medium player holding the sampled cards would have made the same choice and ``OFF_POLICY`` when not
    (``sampling.play_likelihood`` for the family: the deal is replayed on the engine from the sampled hands)."""
    if view.caller is None or k.contract < 0:
        return 1.0
    initial = [hands[p] | k.played_by[p] for p in range(4)]
    if any(bin(h).count("1") != 8 for h in initial):
        return 1.0
    weight = 1.0
    try:
        deal = game.deal_for(view.dealer, initial, view.caller, view.turned)
        for call in view.calls:
            deal.call(call)
        declared = {a.seat: a.kinds for a in view.announced if a.kinds}
        belas = {a.seat for a in view.announced if a.belote_suit >= 0}
        auto = view.auto_declarations
        for card in [c for t in view.tricks for c in t.cards] + list(view.trick):
            seat = deal.to_act
            if seat != view.seat and bin(deal.legal_mask()).count("1") > 1:
                seen = seat_view(deal, seat)
                if not _same_choice(choose_card(seen, family_knowledge(seen, game)), card, k.contract):
                    weight *= OFF_POLICY
            if auto:
                deal.play(card)
            else:
                first = not deal.played_first[seat]
                bela = seat in belas and card in deal.belote_cards()
                deal.play(card, declared.get(seat, ()) if first else (), bela)
    except ValueError:  # the sampled hands cannot replay the history (an announcement they cannot supply)
        return weight * OFF_POLICY
    return weight


def hard_card(
    view: SeatView, game: FamilyGame, seed: str, schedule: dict[int, tuple[int, int]], budget: Budget, pool: int = 1
) -> int:
    """The card with the best average written result over sampled deals (``pool`` drawn per deal searched, the
    searched ones picked by ``play_likelihood``). The games of three and two players have their own search
    (``smallhard``)."""
    if game.seats != 4:
        from .smallhard import small_hard_card

        return small_hard_card(view, game, seed, schedule, budget)
    legal = list(view.legal_cards)
    k = family_knowledge(view, game)
    fallback = choose_card(view, k)
    if len(legal) == 1:
        return legal[0]
    samples, depth = schedule[8 - len(view.tricks)]
    trump = k.contract
    solver = Solver(trump, valat_bonus=game.sweep_bonus, duties=game.solver_duties(trump))
    scorer = FamilyScorer(view, k, game)
    sampler = FamilySampler(view, k, game, seed)
    took = 0
    for t in view.tricks:
        took |= 1 << (t.winner & 1)
    totals = dict.fromkeys(legal, 0.0)
    done = 0
    try:
        deals = sampler.weighted(samples, pool * samples)
    except RuntimeError:
        deals = []  # nothing fits what the seat inferred (an inconsistent history): play by the rules instead
    for hands, times in deals:
        values = solver.values(hands, view.trick_leader, list(view.trick), took, depth, legal)
        utility = scorer.for_sample(hands)
        for card, v in values.items():
            totals[card] += times * utility(v)
        done += times
        if budget.spent():
            break
    if done == 0:
        return fallback
    return max(legal, key=lambda c: (round(totals[c] / done, 6), c == fallback, -c))


# --- the call ---


def _policy(game: FamilyGame, cards: CardMask, legal: list[Call]) -> Call:
    return pick_call(cards, legal, game.take)


class CallSimulator:
    """Plays the seat's candidate calls out on deals of the cards it cannot see."""

    def __init__(self, view: SeatView, game: FamilyGame, seed: str) -> None:
        self.view, self.game = view, game
        self.rng = random.Random(seed)
        self.seat = view.seat
        self.team = view.seat & 1
        self.solvers: dict[int, Solver] = {}

    def _deal(self) -> tuple[list[list[int]], list[int], float]:
        """The other seats' cards of the call and the rest shuffled, with the deal's weight under the calls heard: a
        seat that passed with a hand the medium bot would have called with is unlikely."""
        view, rng, game = self.view, self.rng, self.game
        mine = mask_of(view.hand)
        turned = view.turned if view.turned is not None else -1
        rest = [c for c in range(32) if not mine >> c & 1 and c != turned]
        rng.shuffle(rest)
        size = len(view.hand)
        hands: list[list[int]] = []
        for p in range(4):
            if p == self.seat:
                hands.append(list(view.hand))
            else:
                hands.append(rest[:size])
                rest = rest[size:]
        weight = 1.0
        deal = game.call_deal(view.dealer, hands, rest, view.turned)
        for call in view.calls:
            who = deal.to_act
            if call == PASS and _policy(game, deal.held[who] | game.turned_mask(view), deal.legal_calls()) != PASS:
                weight *= 0.25
            deal.call(call)
        return hands, rest, weight

    def _value(self, hands: list[list[int]], rest: list[int], call: Call) -> float | None:
        """The seat's team's written result after ``call`` and the rest of the call by the medium policy."""
        game, view = self.game, self.view
        deal = game.call_deal(view.dealer, hands, rest, view.turned)
        for c in view.calls:
            deal.call(c)
        deal.call(call)
        turned = game.turned_mask(view)
        while deal.phase == "auction":
            deal.call(_policy(game, deal.held[deal.to_act] | turned, deal.legal_calls()))
        if deal.phase == DONE or deal.contract < 0:
            return 0.0 if deal.contract < 0 else None  # passed out: redealt; a belot is too rare to value
        trump, caller = deal.contract, deal.bidder
        full_hands = [mask_of(h) for h in deal.hands]
        solver = self.solvers.get(trump)
        if solver is None:
            solver = Solver(trump, valat_bonus=game.sweep_bonus, duties=game.solver_duties(trump))
            self.solvers[trump] = solver
        d = solver.value(list(full_hands), (view.dealer + 1) % 4, [], 0, CALL_DEPTH)
        declared = [game.combinations(h, trump) for h in full_hands]
        sums, contest = _side_sums(game, declared, view.dealer, trump)
        belas = future_belas(full_hands, trump, (0, 0))
        return written_diff(game, self.team, caller & 1, d, sums, contest, belas, view.hanging)

    def choose(self, samples: int, budget: Budget) -> Call:
        view, game = self.view, self.game
        prior = best_call(view, game)
        if game.seats != 4:
            return prior  # the games of three and two players call as the medium bot does (not simulated yet)
        cards = game.call_cards(view)
        suits = sorted((c for c in view.legal_calls if c != PASS), key=lambda s: -hand_value(cards, s))
        candidates = list(dict.fromkeys([prior, *suits[:2], *([PASS] if PASS in view.legal_calls else [])]))
        if len(candidates) < 2:
            return prior
        diffs: dict[Call, list[float]] = {c: [] for c in candidates if c != prior}
        weights: list[float] = []
        for _ in range(samples):
            hands, rest, weight = self._deal()
            base = self._value(hands, rest, prior)
            if base is None:
                continue
            for c in diffs:
                v = self._value(hands, rest, c)
                diffs[c].append(0.0 if v is None else v - base)
            weights.append(weight)
            if budget.spent():
                break
        if len(weights) < 8:
            return prior
        best, best_gain = prior, 0.0
        total = sum(weights, 0.0)
        for c, ds in diffs.items():
            mean = sum((w * d for w, d in zip(weights, ds, strict=True)), 0.0) / total
            var = sum((w * (d - mean) ** 2 for w, d in zip(weights, ds, strict=True)), 0.0) / total
            n_eff = total * total / sum((w * w for w in weights), 0.0)
            if mean > best_gain and mean >= CALL_MARGIN and mean > 1.5 * math.sqrt(var / max(n_eff, 1.0)):
                best, best_gain = c, mean
        return best
