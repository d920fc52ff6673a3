"""Where bots think: off the event loop, fairly between tables.

Bots' decisions run on threads, and one busy chat must not slow every other table down. Two lanes, each with its
own few threads: a slow lane for the searching bots (``hard``, and external programs, which may take their whole
move time) and a quick lane for the rule-based levels, whose decisions take milliseconds and so never wait behind a
search. Inside a lane the tables take turns (round robin): a table with a decision waiting joins the back of the
queue, and a table never has more than one decision waiting, since it asks for the next move only after the last
was made. A few threads per lane also keep the searches from crowding the event loop and each other: a bot's time
budget starts when its thinking does, and with few searches at once that budget buys the thinking it is meant to.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.ops.metrics import timed_think

T = TypeVar("T")

# Levels whose decisions are quick (rules and counting, no search): they think in the quick lane.
QUICK_LEVELS = frozenset({"random", "easy", "medium"})


@dataclass(eq=False)
class _Job(Generic[T]):
    work: Callable[[], T]
    future: asyncio.Future[T]


class _Lane:
    def __init__(self, name: str, threads: int) -> None:
        self.name = name
        self.threads = threads
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"belote-{name}-bot")
        self.waiting: OrderedDict[str, deque[_Job[Any]]] = OrderedDict()  # table id -> its jobs, in turn order
        self.running = 0


class ThinkPool:
    """Runs bot decisions on a few threads, quick and slow levels apart, the tables of each lane in turn."""

    def __init__(self, slow_threads: int = 2, quick_threads: int = 4) -> None:
        self._slow = _Lane("slow", max(1, slow_threads))
        self._quick = _Lane("quick", max(1, quick_threads))

    def lane_of(self, level: str) -> str:
        return "quick" if level in QUICK_LEVELS else "slow"

    def waiting(self) -> int:
        """Decisions waiting for a thread (not those being thought)."""
        return sum(len(jobs) for lane in (self._slow, self._quick) for jobs in lane.waiting.values())

    async def think(self, table_id: str, level: str, work: Callable[[], T]) -> T:
        """``work()`` on a thread of the level's lane, when the table's turn in that lane comes. Cancelling the
        caller takes a waiting decision out of the queue (one already thinking finishes on its thread)."""
        lane = self._quick if level in QUICK_LEVELS else self._slow
        job: _Job[T] = _Job(work, asyncio.get_running_loop().create_future())
        lane.waiting.setdefault(table_id, deque()).append(job)
        self._pump(lane)
        try:
            return await job.future
        finally:
            jobs = lane.waiting.get(table_id)
            if jobs is not None and job in jobs:  # cancelled before its turn
                jobs.remove(job)
                if not jobs:
                    del lane.waiting[table_id]

    def _pump(self, lane: _Lane) -> None:
        while lane.running < lane.threads and lane.waiting:
            table_id, jobs = lane.waiting.popitem(last=False)
            job = jobs.popleft()
            if jobs:
                lane.waiting[table_id] = jobs  # the table's next decision waits for its next turn
            if job.future.done():
                continue
            lane.running += 1
            done = asyncio.wrap_future(lane.executor.submit(timed_think, lane.name, job.work))
            done.add_done_callback(functools.partial(self._finished, lane, job))

    def _finished(self, lane: _Lane, job: _Job[Any], finished: asyncio.Future[Any]) -> None:
        lane.running -= 1
        if not job.future.done():
            if finished.cancelled():
                job.future.cancel()
            elif (error := finished.exception()) is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(finished.result())
        self._pump(lane)

    def close(self) -> None:
        """Stop taking work; decisions being thought finish on their threads."""
        for lane in (self._slow, self._quick):
            for jobs in lane.waiting.values():
                for job in jobs:
                    job.future.cancel()
            lane.waiting.clear()
            lane.executor.shutdown(wait=False, cancel_futures=True)
