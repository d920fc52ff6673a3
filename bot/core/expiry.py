"""Tables that nobody uses end by themselves: a lobby nobody started closes, a match in which no person acted for a
long time stops, each with a word to the group. Part of ``Host``.

The deadlines follow from the log: every event a person's press or command makes carries the time (``at``, the
host's clock), so after a restart the same deadline comes back, and one that passed while the bot was down ends the
table at once. The limits are the settings ``lobby_minutes`` and ``idle_minutes``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.i18n import Translator

from .clock import Clock
from .live import LiveTable, NotStored

log = logging.getLogger(__name__)


class Expiry:
    if TYPE_CHECKING:  # provided by Host
        settings: Settings
        clock: Clock
        _closing: bool

        async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None: ...

        def _group_tr(self, live: LiveTable) -> Translator: ...

    def _expires_at(self, live: LiveTable) -> float | None:
        """When the table ends for want of people: its lobby's or its idle match's deadline (None once ended)."""
        table = live.table
        if table.status == "lobby":
            return (table.opened_at or live.since) + self.settings.lobby_minutes * 60
        if table.status == "playing":
            return (table.person_at or live.since) + self.settings.idle_minutes * 60
        return None

    def _schedule_expiry(self, live: LiveTable) -> None:
        """(Re)start the table's expiry timer when its deadline moved (a person acted, the match began)."""
        at = None if self._closing else self._expires_at(live)
        running = live.expiry_task is not None and not live.expiry_task.done()
        if running and live.expires == at:
            return
        if running and live.expiry_task is not asyncio.current_task():
            assert live.expiry_task is not None
            live.expiry_task.cancel()
        live.expires = at
        live.expiry_task = None if at is None else asyncio.create_task(self._expire(live, at))

    async def _expire(self, live: LiveTable, at: float, wake: float | None = None) -> None:
        await self.clock.sleep_until(wake if wake is not None else at)
        async with live.lock:
            table = live.table
            if self._closing or not table.open or self._expires_at(live) != at:
                return  # ended, or someone acted meanwhile (that rescheduled the timer)
            gtr = self._group_tr(live)
            if table.status == "lobby":
                text = gtr.gettext("Table {table} closed: nobody started it within {minutes} minutes.",
                                   table=table.table_id, minutes=self.settings.lobby_minutes)
            else:
                text = gtr.gettext("Table {table} stopped: nobody played for {minutes} minutes.",
                                   table=table.table_id, minutes=self.settings.idle_minutes)
            live.expiry_task = None  # this task ends the table: nothing to cancel
            try:
                await self._commit(live, {"e": "stop", "by": "expired"}, text)
            except NotStored:
                log.error("table %s could not be stopped for want of players; trying again in a minute",
                          table.table_id)
                live.expiry_task = asyncio.create_task(self._expire(live, at, self.clock.now() + 60))
