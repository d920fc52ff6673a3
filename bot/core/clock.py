"""Time for turn timers, injectable so tests can move it by hand instead of sleeping."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (deadlines are stored in these units, so they survive restarts)."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once ``now() >= deadline``."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        while (left := deadline - time.time()) > 0:
            await asyncio.sleep(left)


class ManualClock:
    """A clock that only moves when told to (``advance``); sleepers wake when their deadline is reached."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Condition()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self._now >= deadline)

    async def advance(self, seconds: float) -> None:
        async with self._moved:
            self._now += seconds
            self._moved.notify_all()
        # Let the woken sleepers run.
        for _ in range(5):
            await asyncio.sleep(0)
