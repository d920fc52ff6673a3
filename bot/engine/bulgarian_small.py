"""The house rules of Bulgarian bridge-belote for 3 and 2 players with 24 cards (family §8–§9): the table options,
the auction with n players, the scoring of a deal per player and the end of the match. Pure functions of the facts,
for the games (bulgarian_small_match.py) and the calculator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, Call, Contract
from .rules import Rules


class BulgarianTwoRules(Rules):
    """The table options of `bulgarian-2` (family §9.5): every key of formats §2, same defaults and meanings."""

    @property
    def no_declarations(self) -> bool:
        """Not a key of these games: declarations are always played (the shared deal asks every game)."""
        return False


class BulgarianThreeRules(BulgarianTwoRules):
    """The table options of `bulgarian-3` (family §8.9): every key of formats §2, then `made_rule`."""

    made_rule: Literal["each", "both_together"] = "each"

SmallOutcome = Literal["made", "inside", "hanging"]


@dataclass(frozen=True, slots=True)
class Auction:
    """Where an auction of ``seats`` players stands after some calls (family §8.4, §9.2)."""

    contract: Contract  # -1 while nobody has bid
    bidder: int  # -1 while nobody has bid
    multiplier: int
    to_act: int
    over: bool
    redeal: bool  # everyone passed without a contract


def auction(seats: int, dealer: int, calls: Sequence[Call]) -> Auction:
    """The auction after ``calls`` (the first by seat ``dealer + 1``): after a bid, contra or recontra the next
    ``seats - 1`` passes end it; ``seats`` passes with no contract mean a redeal."""
    contract, bidder, mult, passes = -1, -1, 1, 0
    seat = (dealer + 1) % seats
    for call in calls:
        if call == PASS:
            passes += 1
        elif call == CONTRA:
            mult, passes = 2, 0
        elif call == RECONTRA:
            mult, passes = 4, 0
        else:
            contract, bidder, mult, passes = call, seat, 1, 0
        seat = (seat + 1) % seats
    redeal = contract < 0 and passes == seats
    over = redeal or (contract >= 0 and passes == seats - 1)
    return Auction(contract, bidder, mult, seat, over, redeal)


def legal_calls(seats: int, dealer: int, calls: Sequence[Call], rules: Rules) -> list[Call]:
    """Bulgarian §3.4 with each player his own side: a contra by any player but the bidder while the multiplier is
    1, a recontra by the bidder after a contra; `contra_blocks_bidding` and `recontra_ends_auction` as there."""
    state = auction(seats, dealer, calls)
    if state.over or (rules.recontra_ends_auction and state.multiplier == 4):
        return []
    legal: list[Call] = [PASS]
    if not (rules.contra_blocks_bidding and state.multiplier >= 2):
        legal.extend(range(state.contract + 1, NO_TRUMPS + 2))
    if state.contract >= 0:
        if state.multiplier == 1 and state.to_act != state.bidder:
            legal.append(CONTRA)
        if state.multiplier == 2 and state.to_act == state.bidder:
            legal.append(RECONTRA)
    return sorted(legal)


def round_ind(contract: Contract, raw: int) -> int:
    """One player's raw points in game points (family §8.7): remainder 0–5 down, 6–9 up in a suit contract; 0–4
    down, 5–9 up in all trumps and no trumps."""
    q, r = divmod(raw, 10)
    suit = contract not in (ALL_TRUMPS, NO_TRUMPS)
    return q + (1 if r > (5 if suit else 4) else 0)


@dataclass(frozen=True, slots=True)
class SmallScore:
    score: tuple[int, ...]  # what each player writes for the deal, the pot collected included
    pot: int  # game points hanging after the deal
    outcome: SmallOutcome


def score_three(
    rules: Rules,
    made_rule: Literal["each", "both_together"],
    contract: Contract,
    multiplier: int,
    declarer: int,
    raw: Sequence[int],
    pot_in: int = 0,
    declarer_belotes: int = 0,
    valat: int | None = None,
) -> SmallScore:
    """What each of three players writes (family §8.7). ``raw``: each player's raw total (cards with the last ten,
    NT doubled, counted declarations and belotes, valat); ``declarer_belotes``: the belotes the declarer announced,
    for `inside_keeps_belote`; ``valat``: the player who took every trick (under contra `valat_multiplied` false
    writes such a deal once, not multiplied, as the four-player game does)."""
    d = declarer
    o1, o2 = (d + 1) % 3, (d + 2) % 3
    higher = max(raw[o1], raw[o2])
    together = raw[o1] + raw[o2]
    against = higher if made_rule == "each" else together
    outcome: SmallOutcome = "made" if raw[d] > against else "hanging" if raw[d] == against else "inside"
    receivers = [o for o in (o1, o2) if raw[o] == higher]  # one player, or both when equal
    total = raw[d] + raw[o1] + raw[o2]
    w = [0, 0, 0]
    pot = 0
    if multiplier == 1:
        if outcome == "made":
            w = [round_ind(contract, raw[p]) for p in range(3)]
            w[d] += pot_in
        elif outcome == "hanging":
            w[o1], w[o2] = round_ind(contract, raw[o1]), round_ind(contract, raw[o2])
            pot = pot_in + round_ind(contract, raw[d])
        else:
            keep = declarer_belotes if rules.inside_keeps_belote else 0
            given = raw[d] - 20 * keep
            w[d] = 2 * keep
            for o in (o1, o2):
                if o in receivers:
                    w[o] = round_ind(contract, raw[o] + given // len(receivers)) + _share(pot_in, o, receivers, o1)
                else:
                    w[o] = round_ind(contract, raw[o])
        return SmallScore(tuple(w), pot, outcome)
    m = _times(rules, multiplier, valat)
    won = round_ind(contract, total) * m
    if outcome == "made":
        w[d] = won + pot_in
    elif outcome == "hanging":
        if rules.contra_tie == "split":
            w[o1], w[o2] = round_ind(contract, raw[o1]) * m, round_ind(contract, raw[o2]) * m
            pot = pot_in + round_ind(contract, raw[d]) * m
        else:
            pot = pot_in + won
    else:
        for o in receivers:
            w[o] = _share(won, o, receivers, o1) + _share(pot_in, o, receivers, o1)
    return SmallScore(tuple(w), pot, outcome)


def _times(rules: Rules, multiplier: int, valat: int | None) -> int:
    """The contra multiplier a deal is written with: 1 for a valat deal when `valat_multiplied` is false."""
    return multiplier if valat is None or rules.valat_multiplied else 1


def _share(amount: int, seat: int, receivers: list[int], first: int) -> int:
    """A seat's part of ``amount`` shared by ``receivers``: halves, the odd point to the one right after the
    declarer (``first``)."""
    if len(receivers) == 1:
        return amount
    return amount // 2 + (amount % 2 if seat == first else 0)


def score_two(
    rules: Rules,
    contract: Contract,
    multiplier: int,
    declarer: int,
    raw: Sequence[int],
    pot_in: int = 0,
    valat: int | None = None,
) -> SmallScore:
    """What each of two players writes (family §9.4); ``raw`` and ``valat`` as ``score_three``."""
    d, o = declarer, 1 - declarer
    total = raw[d] + raw[o]
    w = [0, 0]
    pot = 0
    if multiplier == 1:
        if raw[d] > raw[o]:
            w[d], w[o] = round_ind(contract, raw[d]) + pot_in, round_ind(contract, raw[o])
            return SmallScore(tuple(w), 0, "made")
        if raw[d] < raw[o]:
            w[o] = round_ind(contract, total) + pot_in
            return SmallScore(tuple(w), 0, "inside")
        w[o] = round_ind(contract, raw[o])
        return SmallScore(tuple(w), pot_in + round_ind(contract, raw[d]), "hanging")
    m = _times(rules, multiplier, valat)
    if raw[d] != raw[o]:
        winner = d if raw[d] > raw[o] else o
        w[winner] = round_ind(contract, total) * m + pot_in
        return SmallScore(tuple(w), 0, "made" if winner == d else "inside")
    if rules.contra_tie == "split":
        w[o] = round_ind(contract, raw[o]) * m
        pot = pot_in + round_ind(contract, raw[d]) * m
    else:
        pot = pot_in + round_ind(contract, total) * m
    return SmallScore(tuple(w), pot, "hanging")


def small_verdict(
    rules: Rules, totals: Sequence[int], score: Sequence[int], pot: int, valat: int | None
) -> int | None:
    """The winner after a played deal (family §8.8, bulgarian-belote §9 with players), or None: at least the target
    and more than each other player; a valat deal, a shared top, `winner_must_score_last_deal` and
    `no_finish_while_hanging` keep the match going."""
    if valat is not None and rules.capot_blocks_finish:
        return None
    top = max(totals)
    leaders = [p for p, t in enumerate(totals) if t == top]
    if len(leaders) > 1 or top < rules.target_score:
        return None
    leader = leaders[0]
    if rules.winner_must_score_last_deal and score[leader] <= 0:
        return None
    if rules.no_finish_while_hanging and pot > 0:
        return None
    return leader


__all__ = [
    "Auction",
    "BulgarianThreeRules",
    "BulgarianTwoRules",
    "SmallScore",
    "auction",
    "legal_calls",
    "round_ind",
    "score_three",
    "score_two",
    "small_verdict",
]
