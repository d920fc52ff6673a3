"""A host process for the recovery test: four bots play in one chat on the given database; a table left unfinished
by an earlier (killed) process is recovered instead of opening a new one. Exits when the chat's table is over.

Run: python -m tests.recovery_worker DATABASE [BOT_PAUSE]
"""

from __future__ import annotations

import asyncio
import sys

from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import ChatRef, OutMessage, UserRef
from bot.storage.factory import open_storage

CHAT = ChatRef("test", "-42")
OPENER = UserRef("test", "1", "Ana")


async def main(database: str, pause: float) -> int:
    storage = open_storage(database)  # a SQLite file or a PostgreSQL URL
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="random", bot_only_tables=True)  # type: ignore[call-arg]
    host = Host(storage, settings, bot_pause=pause)

    async def sink(msg: OutMessage) -> None:
        return None

    host.add_sink("test", sink)
    await host.start()
    table_id = host.table_for_chat(CHAT)
    if table_id is None:
        opened = await host.command(CHAT, OPENER, "new")
        table_id = opened.table_id
        await host.command(CHAT, OPENER, "leave")
        for _ in range(4):
            await host.command(CHAT, OPENER, "addbot")
        await host.command(CHAT, OPENER, "start")
        print(f"opened {table_id}", flush=True)
    else:
        print(f"recovered {table_id}", flush=True)
    while host.table_for_chat(CHAT) is not None:
        await asyncio.sleep(0.01)
    await host.idle()
    await host.close()
    await storage.close()
    print(f"finished {table_id}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)))
