"""A finished deal reviewed for one seat: the calls and cards the hard bot would have chosen differently.

After a deal every hand is public, so the review may look at all four. It replays the deal from its hands and
actions and stops at each decision of the reviewed seat:

- a card: the position (every hand as it was then, the trick in progress) is solved double-dummy for every legal
  card; when the best one gives the seat's side at least ``CARD_MARGIN`` more card points than the card played, the
  review names both. Card points are the side's points of the deal's card count: the tricks' card values and the
  last ten (where a valat is at stake, half its bonus: the solver weighs the difference between the sides, and a
  point one side gains the other loses only while no bonus changes hands). The game points the deal would then have been
  written with (contract made, inside or hanging, declarations and belotes) are given beside them.
- a call: the hard bot chooses its call from the seat's observation at that moment (its own five cards and the
  calls heard, nothing else); a different call is named, without a double-dummy claim.

Double-dummy values assume that everyone then plays perfectly with every card in sight: they say what a card could
have changed, not what a person could have seen at the table. The work is bounded by processor time; decisions
beyond the budget are left out and the review says so (``Review.complete``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine.calls import NO_TRUMPS, Call
from bot.engine.cards import KING, QUEEN, Card, CardMask
from bot.engine.deal import AUCTION, PLAY, Deal
from bot.engine.observation import Observation, observe
from bot.engine.scoring import VALAT_BONUS

from .base import Budget
from .hard import DealScorer, HardAgent
from .knowledge import knowledge_of
from .solver import SearchStopped, Solver

# The least gain in the side's card points for a card to be named: a king's worth. Smaller differences (a seven for an
# eight, a jack of a plain suit) are not worth a player's attention.
CARD_MARGIN: Final = 4
# Processor seconds of one review, and of the hard bot's call at each auction decision (within the review's).
REVIEW_CPU: Final = 6.0
CALL_CPU: Final = 0.4


@dataclass(frozen=True, slots=True)
class CallNote:
    """At the seat's ``number``-th call of the deal (1-based) it said ``made``; the hard bot would say ``better``."""

    number: int
    made: Call
    better: Call


@dataclass(frozen=True, slots=True)
class CardNote:
    """In trick ``trick`` (1-based) the seat played ``played``; ``better`` gives its side ``gain`` more card
    points double-dummy, and ``game_gain`` more game points (its side's minus the other's) in the deal's result."""

    trick: int
    played: Card
    better: Card
    gain: int
    game_gain: int


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    calls: tuple[CallNote, ...]
    cards: tuple[CardNote, ...]
    checked: int  # the seat's decisions looked at (calls and cards with a choice)
    complete: bool  # False when the budget ran out before the last decision


def _plays(deal: Deal) -> list[tuple[Card, tuple[str, ...], bool]]:
    """The deal's cards in order, each with the announcements made with it (as ``Deal.play`` takes them)."""
    declared = {a.seat: a.kinds for a in deal.announcements if a.kinds}
    belote_suits = {(a.seat, a.belote_suit) for a in deal.announcements if not a.kinds and a.belote_suit >= 0}
    auto = deal.rules.auto_declarations
    out: list[tuple[Card, tuple[str, ...], bool]] = []
    seen: set[int] = set()
    pair_played: set[tuple[int, int]] = set()
    for trick in deal.tricks:
        for i, card in enumerate(trick.cards):
            seat = (trick.leader + i) & 3
            declare = () if auto or seat in seen else declared.get(seat, ())
            seen.add(seat)
            suit = card >> 3
            belote = False
            if (card & 7) in (KING, QUEEN) and (seat, suit) not in pair_played:
                pair_played.add((seat, suit))
                belote = not auto and (seat, suit) in belote_suits
            out.append((card, declare, belote))
    return out


def review_deal(
    deal: Deal,
    seat: int,
    score: tuple[int, int] = (0, 0),
    seed: int | str = 0,
    cpu: float = REVIEW_CPU,
    margin: int = CARD_MARGIN,
    call_cpu: float = CALL_CPU,
) -> Review:
    """Review ``seat``'s decisions in a finished Bulgarian deal (``score``: the match score before it)."""
    if deal.result is None and not deal.passed_out:
        raise ValueError("only a finished deal can be reviewed")
    budget = Budget(cpu)
    replay = Deal(deal.rules, deal.dealer, deal.hands, deal.hanging_in)
    calls: list[CallNote] = []
    cards: list[CardNote] = []
    checked = 0
    complete = True
    number = 0
    bot = HardAgent(seed=f"{seed}/review/{seat}", time_cap=call_cpu)
    for call in deal.calls:
        if replay.phase == AUCTION and replay.to_act == seat:
            number += 1
            if budget.spent():
                complete = False
            else:
                checked += 1
                chosen = bot.act(observe(replay, seat, score))
                better = getattr(chosen, "call", call)
                if better != call:
                    calls.append(CallNote(number, call, better))
        replay.call(call)
    if replay.phase != PLAY:
        return Review(seat, tuple(calls), (), checked, complete)
    contract = replay.contract
    valat = VALAT_BONUS if contract != NO_TRUMPS or deal.rules.nt_valat_doubled else VALAT_BONUS // 2
    solver = Solver(contract, deal.rules.must_undertrump, valat)
    solver.stop = budget.spent  # an exact search of a whole deal may take longer than a person waits
    sign = 1 if seat & 1 == 0 else -1
    positions: list[_Position] = []
    for card, declare, belote in _plays(deal):
        if replay.to_act == seat and len(replay.legal_cards()) > 1:
            took = 0
            for t in replay.tricks:
                took |= 1 << (t.winner & 1)
            obs = observe(replay, seat, score)
            positions.append(_Position(list(replay.held), replay.trick_leader, list(replay.trick), took, card, obs))
        replay.play(card, declare, belote)
    # The last decisions first: they are quick, and their solved positions are the ends of the earlier searches.
    for position in reversed(positions):
        if budget.spent():
            complete = False
            break
        try:
            note = _card_note(position, solver, sign)
        except SearchStopped:
            complete = False
            break
        checked += 1
        if note is not None and note.gain >= margin:
            cards.append(note)
    cards.sort(key=lambda n: n.trick)
    return Review(seat, tuple(calls), tuple(cards), checked, complete)


@dataclass(slots=True)
class _Position:
    """A card decision of the reviewed seat: every hand then, the trick in progress, and the card played."""

    hands: list[CardMask]
    leader: int
    trick: list[Card]
    took: int
    card: Card
    obs: Observation


def _card_note(position: _Position, solver: Solver, sign: int) -> CardNote | None:
    """The best card against the one played (exact: every remaining trick is searched)."""
    hands, card = position.hands, position.card
    moves = solver.moves(hands, position.leader, position.trick)
    candidates = list(dict.fromkeys([*moves, card]))
    values = solver.values(hands, position.leader, position.trick, position.took, 8, candidates)
    # Among equally good cards prefer the one played.
    best = max(candidates, key=lambda c: (sign * values[c], c == card))
    if best == card:
        return None
    obs = position.obs
    utility = DealScorer(obs, knowledge_of(obs)).for_sample(hands)
    game_gain = round(utility(values[best]) - utility(values[card]))  # the seat's side's minus the other's
    # values are A minus B: a swing of 2n is n points more for the side (the total of card points is fixed).
    gain = sign * (values[best] - values[card]) // 2
    return CardNote(len(obs.tricks) + 1, card, best, gain, game_gain)
