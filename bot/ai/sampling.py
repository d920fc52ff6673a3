"""Complete deals consistent with everything one seat knows, for the search of the hard bot.

The other seats' unseen cards are dealt at random within the constraints of ``Knowledge``: hand sizes, cards a
seat cannot hold (voids and refused over-takes), cards a seat must hold (the partner card of an announced belote),
and the combinations each seat announced (its hand at the first card must supply them). The auction tilts the deal:
a seat that bid a suit more likely holds that suit's cards, an all-trumps bidder the jacks, a no-trumps bidder the
aces, and a seat that said contra the trumps of the contract. ``Sampler.weighted`` then keeps the deals in which the
cards the other seats played are the ones a rule-based player holding those hands would have played
(``play_likelihood``).
"""

from __future__ import annotations

import random
from typing import TypeVar

from bot.engine import ALL_TRUMPS, CONTRA, NO_TRUMPS, Deal, Observation, observe
from bot.engine.cards import ACE, JACK, NINE, CardMask, card_list
from bot.engine.declarations import CARRE, QUARTE, QUINT, TIERCE, resolve_declarations
from bot.engine.play import CARD_POINTS

from .knowledge import Knowledge

T = TypeVar("T")

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


def deal_unseen(
    k: Knowledge,
    weights: list[list[float]],
    rng: random.Random,
    use_cannot: bool,
    plan: dict[int, tuple[CardMask, CardMask]] | None = None,
) -> list[CardMask] | None:
    """The unseen cards dealt to the other seats at random, within ``k``'s hand sizes and the cards each seat must
    hold (and, with ``use_cannot``, may not), a card going to a seat in proportion to ``weights[seat][card]``;
    ``plan``: per seat, cards it must get and cards it must not. None when the constraints cannot be met this way."""
    others = [p for p in range(4) if p != k.seat]
    plan = plan or {}
    hands = [0, 0, 0, 0]
    hands[k.seat] = k.hand
    need = {p: k.hand_size[p] for p in others}
    free = card_list(k.unseen)
    for p in others:
        for c in card_list((k.must[p] | plan.get(p, (0, 0))[0]) & k.unseen):
            if c in free and need[p] > 0:
                hands[p] |= 1 << c
                need[p] -= 1
                free.remove(c)
    rng.shuffle(free)
    allowed = {p: (k.unseen & ~k.cannot[p]) if use_cannot else k.unseen for p in others}
    for p, (_, forbidden) in plan.items():
        allowed[p] &= ~forbidden
    # The most constrained cards first (fewest seats may hold them); a stable sort keeps the shuffle among equals.
    a, b, c3 = allowed[others[0]], allowed[others[1]], allowed[others[2]]
    free.sort(key=lambda c: (a >> c & 1) + (b >> c & 1) + (c3 >> c & 1))
    random_ = rng.random
    for c in free:
        # A weighted pick among the seats that may still take the card, written out: random.choices per card was
        # a sixth of a decision's time.
        total = 0.0
        last = -1
        for p in others:
            if need[p] > 0 and allowed[p] >> c & 1:
                total += need[p] * weights[p][c]
                last = p
        if last < 0:
            return None
        x = random_() * total
        p = last
        for q in others:
            if need[q] > 0 and allowed[q] >> c & 1:
                x -= need[q] * weights[q][c]
                if x < 0:
                    p = q
                    break
        hands[p] |= 1 << c
        need[p] -= 1
    return hands


class Sampler:
    def __init__(self, obs: Observation, k: Knowledge, seed: int | str) -> None:
        self.obs = obs
        self.k = k
        self.rng = random.Random(seed)
        self.others = [p for p in range(4) if p != k.seat]
        self.weights = auction_weights(obs)
        self.cards = card_list(k.unseen)
        self.contract = k.contract
        self.effective = 0.0  # effective number of deals in the last weighted pool

    def _one(self, use_cannot: bool, plan: dict[int, tuple[CardMask, CardMask]] | None = None) -> list[CardMask] | None:
        """``plan``: per seat, cards it must get and cards it must not (see ``_plan``)."""
        return deal_unseen(self.k, self.weights, self.rng, use_cannot, plan)

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

    def weighted(self, n: int, pool: int) -> list[tuple[list[CardMask], int]]:
        """``n`` deals picked from ``pool`` drawn ones in proportion to how well the other seats' play fits them
        (``play_likelihood``), as (deal, times picked) with each distinct deal once.

        Picking by systematic resampling spends the search on the deals the play makes likely instead of weighting
        the results of unlikely ones down after solving them."""
        drawn = [self.sample() for _ in range(max(n, pool))]
        if pool <= n:
            return [(hands, 1) for hands in drawn]
        seen: dict[tuple[CardMask, ...], float] = {}  # late in the play few distinct deals remain
        weights = []
        for hands in drawn:
            key = tuple(hands)
            if key not in seen:
                seen[key] = play_likelihood(self.obs, self.k, hands)
            weights.append(seen[key])
        total = sum(weights, 0.0)
        self.effective = total * total / sum((w * w for w in weights), 0.0)
        return resample(drawn, weights, n, self.rng)


# How likely a seat is to have played a card that the rule-based player would not have chosen in its place, judged
# from its hand in a sampled deal. Below 1 so that a deal in which every seat played as that player would is
# preferred, above 0 so that a player who thinks differently (a person, another program) is not ruled out.
OFF_POLICY = 0.3


def _same_choice(a: int, b: int, contract: int) -> bool:
    """Two cards the inference treats as one choice: the same suit and the same card points (7, 8 and a plain 9)."""
    if a == b:
        return True
    points = CARD_POINTS[contract]
    return a >> 3 == b >> 3 and points[a] == points[b] and points[a] == 0


# A discard worth at most a king's points: which suit such a card comes from is a matter of style (the rule-based player
# throws from its shortest suit), so it tells little of what the seat kept.
IDLE_POINTS = 4


def _idle_discards(a: int, b: int, contract: int, led_suit: int) -> bool:
    """Two cards neither of which follows the led suit nor trumps, each worth at most ``IDLE_POINTS``: as a discard,
    one of them says no more about the seat's hand than the other."""
    points = CARD_POINTS[contract]
    for card in (a, b):
        suit = card >> 3
        if suit in (led_suit, contract) or points[card] > IDLE_POINTS:
            return False
    return True


def play_likelihood(obs: Observation, k: Knowledge, hands: list[CardMask]) -> float:
    """How well the cards the other seats played fit ``hands``: the product, over their decisions with a choice, of 1
    when the rule-based player holding the sampled cards would have made the same choice (or, not following, thrown
    another worthless card: ``_idle_discards``) and ``OFF_POLICY`` when not.

    The deal is replayed from the sampled starting hands (each seat's cards now plus those it played), so every
    decision is judged with what that seat could see then: its discards, its refusals to win a trick, its leads and
    the tricks its side took all count. The seat's own cards and choices carry no information and are skipped."""
    from .medium import choose_card  # the medium module imports this one

    if k.contract < 0:
        return 1.0
    initial = [card_list(hands[p] | k.played_by[p]) for p in range(4)]
    if any(len(h) != 8 for h in initial):
        return 1.0
    deal = Deal(obs.rules, obs.dealer, initial, obs.hanging)
    declared = {a.seat: a.kinds for a in obs.announced if a.kinds}
    belote_suits = {(a.seat, a.belote_suit) for a in obs.announced if a.belote_suit >= 0}
    auto = obs.rules.auto_declarations
    weight = 1.0
    try:
        for call in obs.calls:
            deal.call(call)
        cards = [card for t in obs.tricks for card in t.cards] + list(obs.trick)
        for card in cards:
            seat = deal.to_act
            if seat != obs.seat:
                legal = deal.legal_cards()
                if len(legal) > 1:
                    chosen = choose_card(observe(deal, seat))
                    led = deal.trick[0] >> 3 if deal.trick else -1
                    if not _same_choice(chosen, card, k.contract) and not (
                        led >= 0 and _idle_discards(chosen, card, k.contract, led)
                    ):
                        weight *= OFF_POLICY
            if auto:  # the engine announces for every seat
                deal.play(card)
                continue
            first = deal.is_first_card(seat)
            belote = (seat, card >> 3) in belote_suits and card in deal.belote_cards()
            deal.play(card, declared.get(seat, ()) if first else (), belote)
    except ValueError:  # the sampled hands cannot replay the history (an announcement they cannot supply)
        return weight * OFF_POLICY
    return weight


def resample(items: list[T], weights: list[float], n: int, rng: random.Random) -> list[tuple[T, int]]:
    """``n`` picks from ``items`` in proportion to ``weights`` (systematic resampling: one random offset, then even
    steps), as (item, times picked) for each item picked at least once, in their order. The weights' sum must be
    positive."""
    step = sum(weights, 0.0) / n
    target, acc, left = rng.random() * step, 0.0, n
    picked: list[tuple[T, int]] = []
    for item, w in zip(items, weights, strict=True):
        acc += w
        times = 0
        while target < acc and times < left:
            times += 1
            target += step
        if times:
            picked.append((item, times))
            left -= times
    return picked
