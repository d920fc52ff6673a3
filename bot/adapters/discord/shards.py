"""Which stored tables a Discord process serves when the bot runs as several processes over one database.

Discord sends a server's interactions to the shard ``(server_id >> 22) % shard_count`` only, so a table can be played
only by the process that runs its server's shard: that process resumes it at start, and no other touches it. A table's
server is its channel's parent (``Storage.set_chat_parent``), which the adapter stores at the channel's first command,
before any table opens there.
"""

from __future__ import annotations

import logging

from bot.config import ShardRange
from bot.core.host import Owns
from bot.core.messages import DISCORD
from bot.storage.base import Storage, TableRow

log = logging.getLogger(__name__)

SERVER = "server:"  # a server's chat key: "server:<id>"


def server_key(guild_id: int) -> str:
    return f"{SERVER}{guild_id}"


def guild_of(parent: str | None) -> int | None:
    """The server id of a parent chat key, if it is one."""
    text = parent.removeprefix(SERVER) if parent is not None and parent.startswith(SERVER) else ""
    return int(text) if text.isascii() and text.isdigit() else None


def discord_owner(storage: Storage, shards: ShardRange | None) -> Owns:
    """Whether a Discord table is this process's: its server is in ``shards`` (None: every shard, every table)."""

    async def owns(row: TableRow) -> bool:
        if shards is None or (shards.first == 0 and shards.last == shards.count - 1):
            return True  # every shard: every server, without asking storage
        guild = guild_of(await storage.get_chat_parent(DISCORD, row.chat))
        if guild is None:
            # Its server was never stored (a table older than that record): exactly one process must take it, and
            # shard 0's is always run. Its buttons work once a command in the channel has stored the server.
            log.warning("table %s: its Discord server is unknown; the process of shard 0 serves it", row.table_id)
            return shards.first == 0
        return shards.has_guild(guild)

    return owns
