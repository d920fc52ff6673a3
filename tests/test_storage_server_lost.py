"""A table on PostgreSQL whose server drops the bot's connections again and again in the middle of a match: every
action is either stored or retried, the match finishes, and its log has no gap and replays to the stored record."""

from __future__ import annotations

import asyncio
import json

from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import ChatRef, OutMessage, UserRef
from bot.engine.record import match_to_record
from bot.storage.postgres import PostgresStorage
from tests.storage_backends import peek
from tests.test_recovery import _replay

CHAT = ChatRef("test", "-42")
ANA = UserRef("test", "1", "Ana")


async def test_a_match_goes_on_while_the_server_keeps_dropping_the_bot(postgres_url: str) -> None:
    storage = PostgresStorage(postgres_url, pool_size=2)
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="random", bot_only_tables=True)  # type: ignore[call-arg]
    host = Host(storage, settings, bot_pause=0.002)

    async def sink(msg: OutMessage) -> None:
        return None

    host.add_sink("test", sink)
    await host.start()
    opened = await host.command(CHAT, ANA, "new")
    table_id = opened.table_id
    await host.command(CHAT, ANA, "leave")
    for _ in range(4):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    name = postgres_url.rsplit("/", 1)[1]
    cut = (f"SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '{name}' "
           "AND application_name = 'belote-bot'")
    cuts = 0
    deadline = asyncio.get_running_loop().time() + 120
    while host.table_for_chat(CHAT) is not None and asyncio.get_running_loop().time() < deadline:
        table = host.table(table_id)
        if table is not None and cuts < 8 and table.version > 6 * (cuts + 1):
            cuts += await peek(postgres_url, cut) > 0  # an administrator, a failover, a network cut
        await asyncio.sleep(0.005)
    await host.idle()
    await host.close()
    events = await storage.events(table_id)
    record = await storage.match_record(table_id)
    row = await storage.get_table(table_id)
    await storage.close()
    assert cuts == 8
    assert row is not None and row.status == "finished"
    assert [e.seq for e in events] == list(range(1, len(events) + 1)), "the log has no gap"
    replayed = _replay([json.loads(json.dumps(e.data)) for e in events])
    assert replayed.over and record is not None
    assert record == match_to_record(replayed, record["seats"], reveal=True)
