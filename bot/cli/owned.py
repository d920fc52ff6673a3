"""The stored tables a `belote-bot run` process serves: those of the platforms it runs and, of Discord, those of the
servers in its shards (BELOTE_DISCORD_SHARDS). Processes sharing one database so never play the same table."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from bot.core.messages import DISCORD

if TYPE_CHECKING:  # the command line loads the host only when it runs one
    from bot.config import Settings
    from bot.core.host import Owns
    from bot.storage.base import Storage, TableRow


def tables_owned(settings: Settings, storage: Storage, platforms: Collection[str]) -> Owns:
    """A table is served here when its platform runs here (a terminal table is the terminal's, never a bot's), and
    a Discord table when its server's shard is one of ours."""
    tests: dict[str, Owns] = {}
    if DISCORD in platforms:
        from bot.adapters.discord.shards import discord_owner

        tests[DISCORD] = discord_owner(storage, settings.discord_shard_range)

    async def owns(row: TableRow) -> bool:
        if row.platform not in platforms:
            return False
        test = tests.get(row.platform)
        return test is None or await test(row)

    return owns
