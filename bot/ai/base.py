"""The agent interface: a seat's player that sees only its observation.

Every player that is not a person (our bots, external programs) implements ``Agent``. The host and the arena call
``act`` with the seat's observation when the seat must act, and ``deal_end`` when a deal is over.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bot.engine import Action, Observation


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: Observation) -> Action:
        """One legal action for the observed seat."""
        ...

    def deal_end(self, report: dict[str, Any], hands: list[list[str]]) -> None:
        """The deal is over: its report (formats.md §4, one deal) and all four hands, now public."""
        ...

    def close(self) -> None:
        """Release whatever the agent holds (processes, threads)."""
        ...
