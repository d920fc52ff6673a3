"""How far behind the event loop runs, measured cheaply: a task asks to wake every ``interval`` seconds and notes
how late it woke.

When the loop is behind (a bot thinking on it, a burst of work), every step of answering an interaction takes
longer than it should, and a budget measured with the loop's own timers runs out late. The adapter asks ``behind``
before it gives the core its budget, and defers at once when the loop is lagging.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, Final

BUDGET_STEP: Final = 0.1  # while the core works, how often to look at the loop's lag again
INTERVAL: Final = 0.05  # seconds between wake-ups: 20 cheap timer callbacks a second
FORGET_AFTER: Final = 1.0  # a lateness older than this no longer says anything about now


class LoopLag:
    def __init__(self, interval: float = INTERVAL, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.monotonic = monotonic
        self._late = 0.0  # how late the latest wake-up was (seconds)
        self._woke = 0.0  # when it happened
        self._due: float | None = None  # when the next wake-up is due (None: not running)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="discord-loop-lag")

    async def stop(self) -> None:
        task, self._task, self._due = self._task, None, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            self._due = self.monotonic() + self.interval
            await asyncio.sleep(self.interval)
            now = self.monotonic()
            self._late, self._woke = max(0.0, now - self._due), now

    def behind(self) -> float:
        """Seconds the loop is behind: the latest wake-up's lateness, or how overdue the next one already is
        (code running now while the monitor's timer waits its turn means the loop is behind)."""
        if self._due is None:
            return 0.0
        now = self.monotonic()
        recent = self._late if now - self._woke <= FORGET_AFTER else 0.0
        return max(recent, now - self._due)


async def answered_within(task: asyncio.Future[Any], budget: float, lagging: Callable[[], bool]) -> bool:
    """Whether ``task`` finished within ``budget`` seconds on a loop that keeps up. A budget of zero, or a loop
    already behind, answers False at once, however quick the task would be; a loop that falls behind while the task
    runs ends the wait at once (its timers would fire late, and so would a deferral)."""
    started = time.monotonic()  # Discord's window runs on the real clock
    while budget > 0 and not lagging():
        left = budget - (time.monotonic() - started)
        if left <= 0:
            return False
        done, _ = await asyncio.wait({task}, timeout=min(BUDGET_STEP, left))
        if done:
            return True
    return False
