"""The agent interface: a seat's player that sees only its observation.

Every player that is not a person (our bots, external programs) implements ``Agent``. The host and the arena call
``act`` with the seat's observation when the seat must act, and ``deal_end`` when a deal is over.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from bot.engine import Action, Observation
from bot.engine.seatview import SeatView

# What an agent is shown: the Bulgarian game's Observation, or a family game's SeatView (docs/architecture.md). Both
# carry ``phase``, ``seat``, ``hand``, ``calls``, ``tricks``, ``trick``, ``legal_calls``, ``legal_cards``,
# ``declarable``, ``belote_cards`` and ``auto_declarations``; a family view also names its ``variant``.
View = Observation | SeatView


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: View) -> Action:
        """One legal action for the observed seat."""
        ...

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        """The deal is over: its report (formats §4, one deal), every hand, now public, and a family deal's other
        record fields (``extra``: the turned card, the talon set aside, the discard, the exchange; formats §7.6)."""
        ...

    def close(self) -> None:
        """Release whatever the agent holds (processes, threads)."""
        ...


class Budget:
    """The thinking time of one decision: processor time of the deciding thread, so that a machine busy with other
    work changes how long a decision takes rather than what is decided, and wall-clock time as well when a table's
    move timer runs (``wall``)."""

    def __init__(self, cpu: float, wall: float | None = None) -> None:
        self.cpu = cpu
        self.wall = wall
        self.cpu_start = time.thread_time()
        self.wall_start = time.perf_counter()

    def spent(self) -> bool:
        if time.thread_time() - self.cpu_start > self.cpu:
            return True
        return self.wall is not None and time.perf_counter() - self.wall_start > self.wall
