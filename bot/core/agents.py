"""Making the agent that plays a bot seat: our levels through ``bot.ai.registry`` (a seeded random player until
that exists), and named external programs through the agent protocol's ``ProcessAgent``."""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from bot.ai.base import Agent
from bot.ai.simple import RandomAgent

LEVELS = ("random", "easy", "medium", "hard")


def _optional(module: str, name: str) -> Callable[..., Any] | None:
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return found if callable(found) else None


def make_agent_factory(
    agents: Mapping[str, str] | None = None, move_time: float = 1.0
) -> Callable[[str, int], Agent]:
    """``factory(level_or_name, seed) -> Agent``. ``agents`` maps a name to the command line of an external agent."""
    external = dict(agents or {})
    registry = _optional("bot.ai.registry", "make_agent")
    process_agent = _optional("bot.protocol.referee", "ProcessAgent")

    def factory(level: str, seed: int) -> Agent:
        if level in external and process_agent is not None:
            agent: Agent = process_agent(shlex.split(external[level]), move_time=move_time)
            return agent
        if registry is not None and level in LEVELS and level != "random":
            try:
                made: Agent = registry(level, seed, move_time)
                return made
            except (ImportError, ValueError, KeyError):
                pass  # a level not written yet plays as the random bot
        return RandomAgent(seed)

    return factory
