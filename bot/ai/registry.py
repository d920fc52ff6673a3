"""Agents by name: ``make_agent(spec, seed, move_time)``.

A spec that is a level name (``LEVELS``) gives one of our bots; anything else is taken as the command line of an
external program speaking the agent protocol (formats.md §6).
"""

from __future__ import annotations

from typing import Final

from .base import Agent

LEVELS: Final = ("random", "easy", "medium", "hard")


def make_agent(spec: str, seed: int | str = 0, move_time: float | None = None) -> Agent:
    """An agent for ``spec``; ``move_time`` (seconds) caps how long it may think per decision."""
    name = spec.strip().lower()
    if name == "random":
        from .simple import RandomAgent

        return RandomAgent(seed)
    if name == "easy":
        from .easy import EasyAgent

        return EasyAgent(seed)
    if name == "medium":
        from .medium import MediumAgent

        return MediumAgent(seed)
    if name == "hard":
        from .hard import HardAgent

        return HardAgent(seed, move_time=move_time)
    if not spec.strip():
        raise ValueError(f"an agent spec is a level ({', '.join(LEVELS)}) or a program's command line, not empty")
    from bot.protocol.referee import ProcessAgent  # built lazily: only external programs need it

    agent: Agent = ProcessAgent(spec, move_time=move_time if move_time is not None else 1.0)
    return agent
