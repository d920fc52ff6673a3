"""The easy bot: legal, simple, human-looking choices.

It bids a suit when it holds that suit's jack with another card of it, never doubles, leads its highest card,
beats an opponent's card when it can (with its highest) and otherwise plays its lowest card. In 3-player Bela its
discard banks its best plain cards that are not aces; in 2-player Bela it always takes the turned card for the seven.
Now and then it plays a card at random, as a beginner would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import PASS, Action, Bid, Discard, Exchange
from bot.engine.cards import ACE, JACK, SUIT_MASK, Card, mask_of
from bot.engine.deal import DISCARD
from bot.engine.play import CARD_POINTS, beats
from bot.engine.seatview import SeatView

from .base import View
from .games import game_of
from .medium import TEAMS, announce, strength, trick_state

_WHIM = 0.15  # how often it plays a random legal card


class EasyAgent:
    name = "easy"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: View) -> Action:
        if observation.legal_calls:
            return Bid(self._call(observation))
        if isinstance(observation, SeatView):
            if observation.legal_exchange:  # the 2-player seven exchange: the turned card beats the seven
                return Exchange(True)
            if observation.phase == DISCARD:
                return Discard(easy_discard(observation))
        return announce(observation, self._card(observation))

    def _call(self, obs: View) -> int:
        hand = mask_of(obs.hand)
        by_length = sorted(range(4), key=lambda s: -bin(hand & SUIT_MASK[s]).count("1"))
        for suit in by_length:
            length = bin(hand & SUIT_MASK[suit]).count("1")
            if suit in obs.legal_calls and hand >> (suit * 8 + JACK) & 1 and length >= 2:
                return suit
        if PASS in obs.legal_calls:
            return PASS
        return next(s for s in by_length if s in obs.legal_calls)  # the Bela dealer must name a suit: his longest

    def _card(self, obs: View) -> int:
        legal = list(obs.legal_cards)
        contract = obs.contract if obs.contract is not None else 4
        if self._rng.random() < _WHIM:
            return self._rng.choice(legal)
        if not obs.trick:
            return max(legal, key=lambda c: strength(c, contract))
        sides = game_of(obs).sides(obs) if isinstance(obs, SeatView) else TEAMS
        win, _, partner_wins = trick_state(obs, sides)
        winners = [c for c in legal if beats(c, win, contract)]
        if winners and not partner_wins:
            return max(winners, key=lambda c: strength(c, contract))
        return min(legal, key=lambda c: (CARD_POINTS[contract][c], strength(c, contract)))

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        return None

    def close(self) -> None:
        return None


def easy_discard(view: SeatView) -> tuple[Card, Card]:
    """The 3-player caller's discard as a beginner makes it: the discard counts for him, so he lays aside the two
    plain cards worth most that are not aces (tens, kings), keeping his trumps and aces; failing those, his cheapest
    cards."""
    trump = view.contract if view.contract is not None else 0
    points = CARD_POINTS[trump]
    plain = [c for c in view.legal_cards if c >> 3 != trump and c & 7 != ACE]
    first = sorted(plain, key=lambda c: (-points[c], c))
    rest = sorted((c for c in view.legal_cards if c not in first[:2]), key=lambda c: (strength(c, trump), c))
    chosen = (first[:2] + rest)[:2]
    return chosen[0], chosen[1]
