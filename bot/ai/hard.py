"""The hard bot: sampled deals solved double-dummy, choosing the card with the best average result.

For each decision in the play it deals the unseen cards many times consistently with what the seat knows
(``sampling``), keeps the deals that the other seats' cards so far make likely (``Sampler.weighted``), solves each
deal with the double-dummy solver (exactly when few tricks remain, to a fixed depth with an evaluation earlier) and
scores every legal card by the deal's written result for the seat's team: the game points of its side minus the
other side's, with the contract made, hanging or inside, the declarations the deal's hands resolve to and the
belotes. In the auction it plays its candidate calls out on deals weighed by the calls heard (``auction_sim``). The
number of samples and the depth depend only on the position, so the bot is deterministic for a seed; a cap on
processor time (and a looser one on wall-clock time) only guards against a slow or busy machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine import ALL_TRUMPS, NO_TRUMPS, Action, Bid, Observation
from bot.engine.cards import KING, QUEEN, CardMask
from bot.engine.declarations import (
    BELOTE_POINTS,
    Combination,
    best_declarations,
    compare_declarations,
    resolve_declarations,
)
from bot.engine.play import CARD_POINTS
from bot.engine.scoring import LAST_TEN, VALAT_BONUS, card_total, score_deal
from bot.engine.seatview import SeatView

from .auction_sim import simulated_call
from .base import Budget, View
from .bidding import BiddingStyle, choose_call
from .games import game_of
from .knowledge import Knowledge, knowledge_of
from .medium import announce, choose_card
from .sampling import Sampler
from .solver import Solver

# (samples, depth in tricks) by the number of tricks left, the trick in progress included: exact from five tricks
# left, two tricks deep with an evaluation before that. SCHEDULE is the family games' (Bela, French belote);
# the Bulgarian game searches more deals early and at five tricks left, in the time its decisions left unused.
SCHEDULE = {1: (1, 1), 2: (32, 2), 3: (48, 3), 4: (40, 4), 5: (16, 5), 6: (28, 2), 7: (28, 2), 8: (28, 2)}
BULGARIAN_SCHEDULE = {1: (1, 1), 2: (32, 2), 3: (48, 3), 4: (40, 4), 5: (24, 5), 6: (40, 2), 7: (40, 2), 8: (40, 2)}
# Deals drawn per deal searched in the play: the search takes the ones the other seats' play makes likely (the
# Bulgarian game draws more, so that the deals the play makes likely are found among more).
POOL = 3
BULGARIAN_POOL = 5
# Auction: deals simulated per decision, and how much better (in game points per deal) another call must look than
# the rule-based choice to be preferred, besides beating the simulation's noise (``auction_sim.NOISE_Z``).
AUCTION_SAMPLES = 72
AUCTION_MARGIN = 1.0
FAMILY_CALL_SAMPLES = 24
# A decision stops searching after ``time_cap`` seconds of processor time or this many times that on the wall clock.
WALL_FACTOR = 3.0


class HardAgent:
    name = "hard"

    def __init__(
        self,
        seed: int | str = 0,
        move_time: float | None = None,
        time_cap: float = 0.8,
        schedule: dict[int, tuple[int, int]] | None = None,
        auction_samples: int = AUCTION_SAMPLES,
        pool: int | None = None,
    ) -> None:
        # A schedule or pool given (a test's quick one) serves every game; by default each game has its own.
        self.pool = POOL if pool is None else pool
        self.bulgarian_pool = BULGARIAN_POOL if pool is None else pool
        self.seed = seed
        self.schedule = schedule or SCHEDULE
        self.bulgarian_schedule = schedule or BULGARIAN_SCHEDULE
        self.auction_samples = auction_samples
        self.style = BiddingStyle()
        self.time_cap = time_cap  # processor seconds per decision
        # Wall-clock bound: 80% of a table's move time, or a few times the processor budget on a busy machine.
        self.wall_cap = WALL_FACTOR * time_cap if move_time is None else min(WALL_FACTOR * time_cap, 0.8 * move_time)
        self.decisions = 0
        # Deals played out per family call decision (each candidate call on each deal), at most the Bulgarian count.
        self.family_call_samples = min(auction_samples, FAMILY_CALL_SAMPLES)

    def act(self, observation: View) -> Action:
        self.decisions += 1
        if not isinstance(observation, Observation):
            return self._family(observation)
        if observation.legal_calls:
            prior = choose_call(observation, self.style)
            if self.auction_samples <= 0:
                return Bid(prior)
            seed = f"{self.seed}/{self.decisions}/auction"
            budget = Budget(self.time_cap, self.wall_cap)
            return Bid(simulated_call(observation, self.auction_samples, seed, prior, AUCTION_MARGIN, budget))
        return announce(observation, self.choose_card(observation))

    def _family(self, view: SeatView) -> Action:
        """A Bela or French belote decision (``familyhard``), with the same budget and schedule."""
        from .familyhard import CallSimulator, hard_card  # the family modules build on this one's neighbours

        game = game_of(view)
        budget = Budget(self.time_cap, self.wall_cap)
        seed = f"{self.seed}/{self.decisions}/{len(view.calls)}/{len(view.tricks)}/{len(view.trick)}"
        if view.legal_exchange or view.phase == "discard":  # 2-player seven exchange, 3-player discard: as medium
            from .familycalls import medium_action

            return medium_action(view)
        if view.legal_calls:
            if self.auction_samples <= 0 or not game.simulated_call:
                return Bid(game.medium_call(view))
            return Bid(CallSimulator(view, game, seed).choose(self.family_call_samples, budget))
        return announce(view, hard_card(view, game, seed, self.schedule, budget, self.pool))

    def choose_card(self, obs: Observation) -> int:
        legal = list(obs.legal_cards)
        if len(legal) == 1:
            return legal[0]
        k = knowledge_of(obs)
        tricks_left = 8 - len(obs.tricks)
        samples, depth = self.bulgarian_schedule[tricks_left]
        budget = Budget(self.time_cap, self.wall_cap)
        contract = k.contract
        sampler = Sampler(obs, k, f"{self.seed}/{self.decisions}/{len(obs.tricks)}/{len(obs.trick)}")
        valat = VALAT_BONUS if contract != NO_TRUMPS or obs.rules.nt_valat_doubled else VALAT_BONUS // 2
        solver = Solver(contract, obs.rules.must_undertrump, valat)
        scorer = DealScorer(obs, k)
        totals = dict.fromkeys(legal, 0.0)
        took = 0
        for t in obs.tricks:
            took |= 1 << (t.winner & 1)
        done = 0
        try:
            deals = sampler.weighted(samples, self.bulgarian_pool * samples)
        except RuntimeError:
            deals = []  # no deal fits what the seat inferred (an inconsistent history): play by the rules instead
        for hands, times in deals:
            values = solver.values(hands, obs.trick_leader, list(obs.trick), took, depth, legal)
            utility = scorer.for_sample(hands)
            for card, v in values.items():
                totals[card] += times * utility(v)
            done += times
            if budget.spent():
                break
        if done == 0:
            return choose_card(obs)
        # Ties go to the card the medium player would choose, then to the lowest card.
        fallback = choose_card(obs)
        return max(legal, key=lambda c: (round(totals[c] / done, 6), c == fallback, -c))

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        return None

    def close(self) -> None:
        return None


class DealScorer:
    """Turns a double-dummy value into the seat's team's written result of the deal, for one sampled deal."""

    def __init__(self, obs: Observation, k: Knowledge) -> None:
        self.obs = obs
        self.k = k
        self.contract = k.contract
        self.team = obs.seat & 1
        points = CARD_POINTS[self.contract]
        self.sofar = 0  # A minus B card points of the finished tricks
        for t in obs.tricks:
            pts = sum(points[c] for c in t.cards)
            self.sofar += pts if t.winner & 1 == 0 else -pts
        self.total = card_total(self.contract) + LAST_TEN
        self.multiplier = obs.multiplier or 1
        self.declarer = obs.declarer if obs.declarer is not None else 0
        self.belotes = [0, 0]
        for seats_suits in k.belote_seats.items():
            seat, suits = seats_suits
            self.belotes[seat & 1] += BELOTE_POINTS * len(suits)
        self.played_first = [False] * 4
        for t in obs.tricks:
            for i in range(4):
                self.played_first[(t.leader + i) & 3] = True
        for i in range(len(obs.trick)):
            self.played_first[(obs.trick_leader + i) & 3] = True

    def _declarations(self, hands: list[CardMask]) -> tuple[int, int]:
        obs, k = self.obs, self.k
        if self.contract == NO_TRUMPS and not obs.rules.nt_aces_carre:
            return 0, 0
        declared: list[list[Combination]] = [[], []]
        for p in range(4):
            initial = hands[p] | k.played_by[p]
            if p in k.declared:
                combos = resolve_declarations(initial, k.declared[p], self.contract, obs.rules) or ()
            elif not self.played_first[p]:
                combos = best_declarations(initial, self.contract, obs.rules)  # still to announce
            else:
                combos = ()
            declared[p & 1].extend(combos)
        counted = compare_declarations((declared[0], declared[1]), obs.rules)
        return sum(c.value for c in counted[0]), sum(c.value for c in counted[1])

    def _future_belotes(self, hands: list[CardMask]) -> list[int]:
        out = list(self.belotes)
        if self.contract == NO_TRUMPS:
            return out
        suits = range(4) if self.contract == ALL_TRUMPS else (self.contract,)
        for p in range(4):
            for s in suits:
                pair = (1 << (s * 8 + KING)) | (1 << (s * 8 + QUEEN))
                if hands[p] & pair == pair:
                    out[p & 1] += BELOTE_POINTS
        return out

    def for_sample(self, hands: list[CardMask]) -> Callable[[int], float]:
        decl = self._declarations(hands)
        bel = self._future_belotes(hands)
        rules = self.obs.rules
        cache: dict[int, float] = {}

        def utility(v: int) -> float:
            got = cache.get(v)
            if got is not None:
                return got
            d = self.sofar + v
            valat = 0 if d > self.total else 1 if d < -self.total else None
            d = max(-self.total, min(self.total, d))
            a = (self.total + d) // 2
            result = score_deal(
                self.contract,
                self.multiplier,
                self.declarer,
                (a, self.total - a),
                decl,
                (bel[0], bel[1]),
                valat,
                0,
                rules,
            )
            u = float(result.score[self.team] - result.score[1 - self.team])
            u += (a - (self.total - a)) * (1 if self.team == 0 else -1) / 1000.0  # prefer more card points
            cache[v] = u
            return u

        return utility
