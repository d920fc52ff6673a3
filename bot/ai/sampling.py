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
from bot.engine.declarations import CARRE, QUARTE, QUINT, TIERCE, resolve_declarations

from .knowledge import Knowledge

_RUN_LENGTH = {TIERCE: 3, QUARTE: 4, QUINT: 5}


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

    def _one(self, use_cannot: bool, plan: dict[int, tuple[CardMask, CardMask]] | None = None) -> list[CardMask] | None:
        """``plan``: per seat, cards it must get and cards it must not (see ``_plan``)."""
        k, rng = self.k, self.rng
        plan = plan or {}
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        need = {p: k.hand_size[p] for p in self.others}
        free = list(self.cards)
        for p in self.others:
            for c in card_list((k.must[p] | plan.get(p, (0, 0))[0]) & k.unseen):
                if c in free and need[p] > 0:
                    hands[p] |= 1 << c
                    need[p] -= 1
                    free.remove(c)
        rng.shuffle(free)
        allowed = {p: (k.unseen & ~k.cannot[p]) if use_cannot else k.unseen for p in self.others}
        for p, (_, forbidden) in plan.items():
            allowed[p] &= ~forbidden
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

    def _plan(self) -> dict[int, tuple[CardMask, CardMask]] | None:
        """For each other seat that announced, a random way its first-card hand held those combinations: the unseen
        cards it must get, and the unseen neighbours of its runs it must not (or the run would be longer)."""
        k, rng = self.k, self.rng
        plan: dict[int, tuple[CardMask, CardMask]] = {}
        taken = 0  # unseen cards already promised to a seat
        for p, kinds in k.declared.items():
            if p == k.seat:
                continue
            own = k.played_by[p]
            available = own | (k.unseen & ~k.cannot[p] & ~taken)
            used = forbidden = 0
            for kind in kinds:
                options: list[tuple[CardMask, CardMask]] = []
                if kind == CARRE:
                    options = [(0x01010101 << rank, 0) for rank in range(8)]
                else:
                    length = _RUN_LENGTH[kind]
                    for suit in range(4):
                        for low in range(9 - length):
                            run = ((1 << length) - 1) << (8 * suit + low)
                            ends = (1 << (8 * suit + low - 1) if low > 0 else 0) | (
                                1 << (8 * suit + low + length) if low + length < 8 else 0
                            )
                            options.append((run, ends))
                options = [(m, e) for m, e in options if m & available == m and not m & used and not e & own]
                if not options:
                    return None
                mask, ends = rng.choice(options)
                used |= mask
                forbidden |= ends
            need = used & k.unseen
            if bin(need).count("1") > k.hand_size[p] or need & forbidden:
                return None
            taken |= need
            plan[p] = (need, forbidden & k.unseen)
        return plan

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
        # Announced combinations that chance rarely deals: give each announcing seat one way of holding them first.
        for _ in range(tries if self.k.declared else 0):
            plan = self._plan()
            hands = None if plan is None else self._one(True, plan)
            if hands is not None and self._consistent(hands):
                return hands
        if fallback is not None:
            return fallback
        for _ in range(tries):
            hands = self._one(False)
            if hands is not None:
                return hands
        raise RuntimeError("no deal of the unseen cards fits the hand sizes")
