"""A table opened by a chat's first commands while the host is still loading the stored tables (the adapters start
first, and a server's reads take their time) is the same live table afterwards, not a second copy that replays and
writes the same log numbers; on both storage backends."""

from __future__ import annotations

import logging

import pytest

from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import ChatRef, OutMessage, UserRef
from tests.storage_backends import opened

CHAT = ChatRef("test", "-5")
ANA = UserRef("test", "1", "Ana")


async def test_a_table_opened_before_the_host_finished_starting_is_played_once(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    storage = await opened(database)
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="random", bot_only_tables=True)  # type: ignore[call-arg]
    host = Host(storage, settings, bot_pause=0.001)

    async def sink(msg: OutMessage) -> None:
        return None

    host.add_sink("test", sink)
    table_id = (await host.command(CHAT, ANA, "new")).table_id
    await host.command(CHAT, ANA, "leave")
    for _ in range(4):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    live = host.table(table_id)
    with caplog.at_level(logging.ERROR):
        await host.start()  # reads the stored tables, this one among them
        assert host.table(table_id) is live
        await host.idle()
    await host.close()
    events = await storage.events(table_id)
    row = await storage.get_table(table_id)
    await storage.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert row is not None and row.status == "finished"
