"""The simplest honest player: a random legal action (seeded), announcing whatever it may."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Action, Bid, Play

from .base import View


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: View) -> Action:
        if observation.legal_calls:
            return Bid(self._rng.choice(observation.legal_calls))
        card = self._rng.choice(observation.legal_cards)
        if observation.auto_declarations:
            return Play(card)
        return Play(card, observation.declarable, card in observation.belote_cards)

    def deal_end(self, report: dict[str, Any], hands: list[list[str]]) -> None:
        return None

    def close(self) -> None:
        return None
