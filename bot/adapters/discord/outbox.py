"""Ordered, coalescing delivery: one worker per lane (a table's chat, or one person's hand at a table).

Messages of a lane go out in the order the core produced them, except that a message whose key is still waiting
replaces the waiting one in place: when bots play fast, only the latest state of the table is sent. A lane may be
held by a ``gate`` before its next message is taken: what is waiting keeps being replaced by newer states meanwhile,
and the newest goes out when the gate opens.

discord.py waits out a 429 and retries by itself; one that still fails (after five tries) is a warning, not an
error: the lane pauses and sends the message again, unless a newer state of it has come meanwhile.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Final

import discord

from bot.core.messages import OutMessage
from bot.ops import metrics

log = logging.getLogger(__name__)

RATE_LIMIT_PAUSE: Final = 1.0  # seconds a lane waits after Discord refused a message with 429
RATE_LIMIT_RETRIES: Final = 3  # times a message is sent again after that


class Outbox:
    def __init__(
        self,
        send: Callable[[OutMessage], Awaitable[None]],
        gate: Callable[[OutMessage], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._gate = gate  # awaited before the next message of a lane is taken
        self._pending: dict[str, dict[str, OutMessage]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self.ready = asyncio.Event()  # set once the client can make HTTP requests (after login)
        metrics.watch_outbox("discord", self.pending)

    def put(self, lane: str, msg: OutMessage) -> None:
        pending = self._pending.setdefault(lane, {})
        earlier = pending.get(msg.key)
        if earlier is not None and earlier.notify and not msg.notify:
            msg = dataclasses.replace(msg, notify=True)  # the alert still has to happen
        pending[msg.key] = msg
        if lane not in self._workers:
            self._workers[lane] = asyncio.create_task(self._work(lane), name=f"discord-outbox-{lane}")

    async def _work(self, lane: str) -> None:
        try:
            await self.ready.wait()
            pending = self._pending[lane]
            tries: dict[str, int] = {}  # key -> times Discord rate limited it after discord.py's own retries
            while pending:
                key = next(iter(pending))
                if self._gate is not None:
                    await self._gate(pending[key])
                msg = pending.pop(key)  # the newest state of this key: it may have changed while the gate was shut
                try:
                    await self._send(msg)
                except discord.HTTPException as exc:
                    if exc.status != 429:
                        log.warning("Discord refused message %s: %s", key, exc)
                        continue
                    # discord.py waited and retried already; the lane pauses, and the message goes first again
                    # unless a newer state of it is waiting by then.
                    tries[key] = tries.get(key, 0) + 1
                    metrics.flood_wait("discord", RATE_LIMIT_PAUSE)
                    if tries[key] > RATE_LIMIT_RETRIES:
                        log.warning("Discord kept rate limiting message %s; it waits for its next change", key)
                        continue
                    log.warning("Discord rate limited message %s; sending it again in %.1f s", key, RATE_LIMIT_PAUSE)
                    await asyncio.sleep(RATE_LIMIT_PAUSE)
                    if key not in pending:
                        rest = dict(pending)
                        pending.clear()
                        pending.update({key: msg, **rest})
                except discord.RateLimited as exc:
                    metrics.flood_wait("discord", exc.retry_after)
                    log.warning("Discord rate limited message %s for %.0f s; it waits for its next change", key,
                                exc.retry_after)
                except Exception:
                    log.exception("could not deliver message %s to Discord", key)
        finally:
            del self._workers[lane]
            if not self._pending.get(lane):
                self._pending.pop(lane, None)

    def pending(self) -> int:
        """Messages waiting, over every lane."""
        return sum(len(waiting) for waiting in self._pending.values())

    async def drain(self) -> None:
        """Wait until every queued message has been sent (or failed)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    def cancel(self) -> None:
        for task in self._workers.values():
            task.cancel()
