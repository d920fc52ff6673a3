"""Turn alerts: one short public line per table that mentions whose turn it is.

An edit notifies nobody, so each alert is a new message that replaces the table's previous one (key
``<table>:ping``). When the table ends (finished or stopped) its last alert is deleted, so no "your turn" line
outlives the match. The alert's message ref is stored like every public message's; besides it, storage keeps the
list of tables that may have an alert in a channel (key ``alerts``, which no table's key can be: those start with the
table's id). At every start the bot deletes the alerts of tables that ended while it was down or before it could.
A process that runs a range of Discord shards keeps an index of its own (``alerts/0-3/8``): processes sharing the
database never write one another's index, nor delete one another's alerts.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.core.messages import DISCORD, OutMessage, UserRef

if TYPE_CHECKING:
    from bot.config import ShardRange

    from .adapter import DiscordAdapter

log = logging.getLogger(__name__)

INDEX_KEY = "alerts"
ENDED = ("finished", "stopped")


def alert_key(table_id: str) -> str:
    return f"{table_id}:ping"


def index_key(shards: ShardRange | None) -> str:
    """Where the index of tables with an alert is kept: one per shard range, so each process writes only its own."""
    return INDEX_KEY if shards is None else f"{INDEX_KEY}/{shards}"  # a table's keys have a ":"


class TurnAlerts:
    def __init__(self, adapter: DiscordAdapter, shards: ShardRange | None = None) -> None:
        self.adapter = adapter
        self.index_key = index_key(shards)
        self._tables: set[str] | None = None  # the stored index, once read
        self._index_lock = asyncio.Lock()

    def table_over(self, table_id: str) -> bool:
        """The host no longer plays this table: it ended, or it is not loaded (it ended before a restart)."""
        table = self.adapter.host.table(table_id)
        return table is None or table.status in ENDED

    async def post(self, msg: OutMessage) -> None:
        """Post the alert of a ``ping`` message, replacing the table's previous alert."""
        table_id = msg.table_id
        chat = self.adapter.host.table_chat(table_id) if table_id else None
        if chat is None or self.table_over(table_id):
            return  # a turn that ended with the table: nobody is to act any more
        await self._change_index(add=table_id)  # before posting: a restart must know where to look
        mention = msg.mention or (msg.audience if isinstance(msg.audience, UserRef) else None)
        await self.adapter.publish(
            OutMessage(
                key=alert_key(table_id),
                audience=chat,
                text=msg.text,
                kind="ping",
                table_id=table_id,
                mention=mention,
                notify=True,
            ),
            chat,
        )

    async def remove(self, table_id: str) -> None:
        """Delete the table's alert, if it has one. Runs in the table's lane, after every alert it posted."""
        key = alert_key(table_id)
        ref = await self.adapter.message_ref(key)
        if ref is not None:
            channel_id, _, message_id = ref.partition("/")
            message = self.adapter.client.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
            try:
                await message.delete()
            except (discord.NotFound, discord.Forbidden):
                pass  # already gone (someone deleted it, or the channel): nothing is left to remove
            except discord.HTTPException as exc:
                log.warning("could not remove the turn alert of table %s (%s); trying again at the next start",
                            table_id, exc)
                return
            await self.adapter.forget_ref(key)
        await self._change_index(discard=table_id)

    async def sweep(self) -> None:
        """At start: delete the alerts of tables that ended (in storage) while no one could remove them."""
        storage = self.adapter.host.storage
        async with self._index_lock:
            tables = sorted(await self._index())
        for table_id in tables:
            row = await storage.get_table(table_id)
            if row is None or row.status in ENDED:
                await self.remove(table_id)

    async def _index(self) -> set[str]:
        if self._tables is None:
            stored = await self.adapter.host.storage.get_message_ref(DISCORD, self.index_key)
            self._tables = set(stored.split()) if stored else set()
        return self._tables

    async def _change_index(self, *, add: str | None = None, discard: str | None = None) -> None:
        async with self._index_lock:
            tables = await self._index()
            before = len(tables)
            if add is not None:
                tables.add(add)
            if discard is not None:
                tables.discard(discard)
            if len(tables) != before:
                text = " ".join(sorted(tables)) or None
                await self.adapter.host.storage.set_message_ref(DISCORD, self.index_key, text)
