"""Telegram's flood limits as the outbox keeps them: the policy, one chat's sliding-window budget, and the bot's
overall gate that grants message slots by priority.

Telegram allows about one message a second in a chat (short bursts tolerated), twenty a minute in a group (edits
count) and about thirty a second over all chats; beyond that it answers 429 with ``retry_after``. A 429 is an
expected event (another process may have spent the budget, or the limits are stricter than published): it is
waited out and logged as a warning, never as an error with a traceback.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections import deque
from dataclasses import dataclass, field, replace
from datetime import timedelta

from telegram.error import RetryAfter


@dataclass(frozen=True)
class FloodPolicy:
    """How many messages a chat may receive in a window of seconds. Telegram asks for about one a second in a
    chat (short bursts are tolerated) and at most twenty a minute in a group; edits count."""

    chat_messages: int = 3
    chat_window: float = 3.0
    group_messages: int = 20
    group_window: float = 60.0
    # Over all chats together (python-telegram-bot's AIORateLimiter keeps to it).
    overall_messages: int = 30
    overall_window: float = 1.0
    # Two edits of a group's messages are at least this far apart: a busy table's view is merged into fewer
    # edits, at most ten a minute, which leaves ten for new messages (results) within the group's twenty.
    group_edit_gap: float = 6.0
    # The longest pause between two attempts at a message the server failed (5xx, timeouts). It is tried again
    # until it is delivered or a newer version of it replaces it.
    retry_pause: float = 5.0
    # Replies to commands waiting in one chat at most; beyond that the oldest is dropped (the table goes first).
    waiting_replies: int = 5

    def scaled(self, factor: float) -> FloodPolicy:
        """The same shape with every time multiplied by ``factor`` (tests run faster with a small one)."""
        return replace(
            self,
            chat_window=self.chat_window * factor,
            group_window=self.group_window * factor,
            overall_window=self.overall_window * factor,
            group_edit_gap=self.group_edit_gap * factor,
            retry_pause=self.retry_pause * factor,
        )


def retry_seconds(err: RetryAfter) -> float:
    # PTB 22 warns on the public ``retry_after`` while it moves from seconds to a timedelta; read the value under
    # it (as PTB's own rate limiter does), and the public one if that ever goes away.
    value = getattr(err, "_retry_after", None)
    if value is None:
        value = err.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class _NoRetryAfterTraceback(logging.Filter):
    """PTB's rate limiter logs each 429 it hands on as an error with a traceback. The outbox waits it out and
    logs it as a warning itself, so that record is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, RetryAfter)


_QUIET = _NoRetryAfterTraceback()


def quiet_rate_limiter_log() -> None:
    logger = logging.getLogger("telegram.ext.AIORateLimiter")
    if _QUIET not in logger.filters:
        logger.addFilter(_QUIET)


@dataclass
class Budget:
    """Times of the latest requests to one chat (a sliding window, monotonic seconds)."""

    stamps: deque[float] = field(default_factory=deque)

    def wait(self, now: float, count: int, window: float) -> float:
        while self.stamps and self.stamps[0] <= now - window:
            self.stamps.popleft()
        if len(self.stamps) < count:
            return 0.0
        return self.stamps[len(self.stamps) - count] + window - now

    def spend(self, at: float) -> None:
        self.stamps.append(at)

    def last(self) -> float:
        return self.stamps[-1] if self.stamps else float("-inf")


class Gate:
    """The bot's overall budget (messages in any window, over every chat), granted by priority, then in order;
    every ``fair_every``-th grant goes to the longest waiter whatever its priority, so no chat starves."""

    def __init__(self, count: int, window: float, fair_every: int = 4) -> None:
        self.count = count
        self.window = window
        self.fair_every = fair_every
        self._granted = 0
        self._stamps: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._granter: asyncio.Task[None] | None = None

    async def acquire(self, priority: int) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._granter is None or self._granter.done():
            self._granter = asyncio.create_task(self._grant(), name="outbox gate")
        await future

    async def _grant(self) -> None:
        while self._waiting:
            now = time.monotonic()
            while self._stamps and self._stamps[0] <= now - self.window:
                self._stamps.popleft()
            if len(self._stamps) >= self.count:
                await asyncio.sleep(self._stamps[0] + self.window - now)
                continue
            self._granted += 1
            if self._granted % self.fair_every == 0:
                oldest = min(range(len(self._waiting)), key=lambda i: self._waiting[i][1])
                _, _, future = self._waiting.pop(oldest)
                heapq.heapify(self._waiting)
            else:
                _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its worker was cancelled
                continue
            self._stamps.append(now)
            future.set_result(None)
            await asyncio.sleep(0)

    def close(self) -> None:
        if self._granter is not None:
            self._granter.cancel()
