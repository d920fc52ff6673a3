"""The simplest honest player: a random legal action (seeded), announcing whatever it may."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine import Action, Bid, Discard, Exchange, Play
from bot.engine.seatview import SeatView

from .base import View


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: View) -> Action:
        if observation.legal_calls:
            return Bid(self._rng.choice(observation.legal_calls))
        if isinstance(observation, SeatView):
            if observation.legal_exchange:  # the 2-player seven exchange: yes or no
                return Exchange(self._rng.choice(observation.legal_exchange))
            if observation.phase == "discard":  # the 3-player caller lays any two of his cards aside
                return Discard(tuple(self._rng.sample(observation.legal_cards, 2)))
        card = self._rng.choice(observation.legal_cards)
        if observation.auto_declarations:
            return Play(card)
        return Play(card, observation.declarable, card in observation.belote_cards)

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        return None

    def close(self) -> None:
        return None
