"""Complete deals consistent with everything one seat knows, for the search of the hard bot.

The other seats' unseen cards are dealt at random within the constraints of ``Knowledge``: hand sizes, cards a
seat cannot hold (voids and refused over-takes), cards a seat must hold (the partner card of an announced belote),
and the combinations each seat announced (its hand at the first card must supply them). The auction tilts the deal:
a seat that bid a suit more likely holds that suit's cards, an all-trumps bidder the jacks, a no-trumps bidder the
aces, and a seat that said contra the trumps of the contract.
"""

from __future__ import annotations

import random

from bot.engine import ALL_TRUMPS, CONTRA, NO_TRUMPS, Observation
from bot.engine.cards import ACE, JACK, NINE, CardMask, card_list
from bot.engine.declarations import resolve_declarations

from .knowledge import Knowledge


def auction_weights(obs: Observation) -> list[list[float]]:
    """weights[seat][card]: how much more likely than evenly ``seat`` holds ``card``, judged from its calls."""
    w = [[1.0] * 32 for _ in range(4)]
    first = (obs.dealer + 1) & 3
    contract, bidder = -1, -1
    for i, call in enumerate(obs.calls):
        who = (first + i) & 3
        if call < NO_TRUMPS:
            for c in range(call * 8, call * 8 + 8):
                w[who][c] *= 1.8
            w[who][call * 8 + JACK] *= 2.0
            w[who][call * 8 + NINE] *= 1.5
        elif call == NO_TRUMPS:
            for s in range(4):
                w[who][s * 8 + ACE] *= 2.5
        elif call == ALL_TRUMPS:
            for s in range(4):
                w[who][s * 8 + JACK] *= 2.5
                w[who][s * 8 + NINE] *= 1.5
        elif call == CONTRA and 0 <= contract < NO_TRUMPS:
            for c in range(contract * 8, contract * 8 + 8):
                w[who][c] *= 1.5
        if call < 6:
            contract, bidder = call, who
    del bidder
    return w


class Sampler:
    def __init__(self, obs: Observation, k: Knowledge, seed: int | str) -> None:
        self.obs = obs
        self.k = k
        self.rng = random.Random(seed)
        self.others = [p for p in range(4) if p != k.seat]
        self.weights = auction_weights(obs)
        self.cards = card_list(k.unseen)
        self.contract = k.contract

    def _one(self, use_cannot: bool) -> list[CardMask] | None:
        k, rng = self.k, self.rng
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        need = {p: k.hand_size[p] for p in self.others}
        free = list(self.cards)
        for p in self.others:
            for c in card_list(k.must[p] & k.unseen):
                if c in free and need[p] > 0:
                    hands[p] |= 1 << c
                    need[p] -= 1
                    free.remove(c)
        rng.shuffle(free)
        allowed = {p: (k.unseen & ~k.cannot[p]) if use_cannot else k.unseen for p in self.others}
        free.sort(key=lambda c: sum(1 for p in self.others if allowed[p] >> c & 1))
        for c in free:
            seats = [p for p in self.others if need[p] > 0 and allowed[p] >> c & 1]
            if not seats:
                return None
            if len(seats) == 1:
                p = seats[0]
            else:
                weights = [need[p] * self.weights[p][c] for p in seats]
                p = rng.choices(seats, weights)[0]
            hands[p] |= 1 << c
            need[p] -= 1
        return hands

    def _consistent(self, hands: list[CardMask]) -> bool:
        """Could each seat that announced combinations have held them at its first card?"""
        k = self.k
        for p, kinds in k.declared.items():
            if p == k.seat:
                continue
            if resolve_declarations(hands[p] | k.played_by[p], kinds, self.contract, self.obs.rules) is None:
                return False
        return True

    def sample(self, tries: int = 60) -> list[CardMask]:
        """One deal of the remaining cards; constraints are relaxed only if none can be met in ``tries`` attempts."""
        fallback: list[CardMask] | None = None
        for _ in range(tries):
            hands = self._one(True)
            if hands is None:
                continue
            if self._consistent(hands):
                return hands
            fallback = fallback or hands
        if fallback is not None:
            return fallback
        for _ in range(tries):
            hands = self._one(False)
            if hands is not None:
                return hands
        raise RuntimeError("no deal of the unseen cards fits the hand sizes")
