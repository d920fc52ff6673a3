"""Discord sharding against the fake gateway: the real discord.py sharded client, the real host and storage.

Discord sends a server's interactions over the connection of its shard alone, ``(server_id >> 22) % shard_count``.
Two processes (here two clients, each with its own host and storage over one database: a SQLite file, then a
PostgreSQL server) each run a range of the shards; each must play the tables of its own servers, resume only those
after a restart, and never touch the other's messages.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.discord import BeloteClient
from bot.adapters.discord.alerts import alert_key
from bot.adapters.discord.shards import server_key
from bot.cli.owned import tables_owned
from bot.config import SettingsProblem, load_settings, parse_shards
from bot.core.clock import ManualClock
from bot.core.host import Host
from bot.core.messages import DISCORD, TELEGRAM, TERMINAL, ChatRef, UserRef
from bot.storage.factory import open_storage
from tests.discord_fakes import FakeDiscord, wait_until
from tests.test_discord_adapter import Running, Table, open_table, people, play_turn, to_act
from tests.test_discord_alerts import alerts

STARTED: list[Running] = []


@pytest.fixture
async def sharded(fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """The fake Discord; a failed test still closes its clients first, so the report comes instead of a client
    reconnecting forever."""
    yield fake
    while STARTED:
        running = STARTED.pop()
        if not running.client.is_closed():
            await running.client.close()
            await running.host.close()
            await running.storage.close()


async def start_shards(fake: FakeDiscord, db: Path | str, shards: str | None) -> Running:
    """A process as `belote-bot run` makes it with BELOTE_DISCORD_SHARDS=``shards`` (None: every shard), on the
    database ``db`` (a SQLite file or a PostgreSQL URL)."""
    storage = open_storage(str(db))
    await storage.open()
    settings = load_settings(None, language="bg", turn_seconds=0, bot_move_seconds=0.01, discord_shards=shards)
    host = Host(storage, settings, clock=ManualClock(), owns=tables_owned(settings, storage, [DISCORD]))
    client = BeloteClient(host, shards=settings.discord_shard_range)
    host.add_sink(DISCORD, client.adapter.deliver)
    identified = len(fake.identified)
    expected = 1 if shards is None else len(parse_shards(shards).ids)
    task = asyncio.create_task(client.start(fake.token))
    await wait_until(lambda: len(fake.identified) >= identified + expected, timeout=20,
                     what="every shard to connect to the gateway")
    await host.start()
    running = Running(fake, client, host, storage, task)
    STARTED.append(running)
    servers = [g for g in fake.guilds if shards is None or parse_shards(shards).has_guild(g)]
    await wait_until(lambda: {g.id for g in client.guilds} == set(servers), what="the shards' GUILD_CREATEs")
    await running.settle()
    return running


def requests_to(fake: FakeDiscord, since: int, channel: int) -> list[str]:
    """The bot's requests about a channel's messages since request number ``since``."""
    return [f"{r.method} {r.path}" for r in fake.requests[since:] if r.path.startswith(f"/channels/{channel}/")]


def test_the_shard_range_setting_is_read_and_bad_ones_say_what_is_right() -> None:
    assert load_settings(None, discord_shards="0-3/8").discord_shard_range == parse_shards("0-3/8")
    assert parse_shards("0-3/8").ids == [0, 1, 2, 3] and parse_shards("5/8").ids == [5]
    assert load_settings(None, discord_shards=" 2 - 3 / 4 ").discord_shards == "2-3/4"
    assert load_settings(None, discord_shards="").discord_shard_range is None
    assert load_settings(None).discord_shards is None
    for bad, says in [
        ("3-1/8", 'the first shard (3) comes after the last (1); write "1-3/8"'),
        ("0-8/8", "there is no shard 8 of 8: they are numbered 0 to 7"),
        ("0/0", "the shard count (after the /) must be 1 to"),
        ("0-3", 'must be "first-last/count" or "shard/count"'),
        ("all", 'e.g. "0-3/8" or "5/8"'),
        ("-1/4", 'must be "first-last/count"'),
    ]:
        with pytest.raises(SettingsProblem) as caught:
            load_settings(None, discord_shards=bad)
        line = str(caught.value)
        assert line.startswith("invalid setting BELOTE_DISCORD_SHARDS: ") and says in line, line
        assert "\n" not in line


async def test_unset_the_client_runs_as_many_shards_as_the_gateway_advises(
    sharded: FakeDiscord, tmp_path: Path
) -> None:
    fake = sharded
    fake.shard_count = 2
    servers = [fake.add_guild(shard=0), fake.add_guild(shard=1)]
    running = await start_shards(fake, tmp_path / "belote.sqlite3", None)
    assert sorted(tuple(i["shard"]) for i in fake.identified) == [(0, 2), (1, 2)]
    client = running.client
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    for server in servers:
        guild = client.get_guild(server)
        assert guild is not None and guild.shard_id == (server >> 22) % 2
    # A command in a server of either shard reaches the one client.
    users = people(fake)
    for server in servers:
        channel = fake.add_channel(guild=server)
        await fake.command(users[0], channel, "belot", "new")
        await running.settle()
        assert running.host.table_for_chat(ChatRef(DISCORD, str(channel))) is not None
    await running.stop()


async def test_two_processes_each_serve_and_resume_only_the_tables_of_their_shards(
    sharded: FakeDiscord, database: str
) -> None:
    fake = sharded
    fake.shard_count = 2
    db = database
    servers = [fake.add_guild(shard=0), fake.add_guild(shard=1)]
    first = await start_shards(fake, db, "0/2")
    second = await start_shards(fake, db, "1/2")
    assert [tuple(i["shard"]) for i in fake.identified] == [(0, 2), (1, 2)]
    seen = [{g.id for g in running.client.guilds} for running in (first, second)]
    assert servers[0] in seen[0] and servers[1] in seen[1] and not seen[0] & seen[1], "each its own servers"
    assert seen[0] | seen[1] == set(fake.guilds)

    # A match in each server: each is played by the process its server's shard belongs to, and by it alone.
    tables: list[Table] = []
    for running, server in zip((first, second), servers, strict=True):
        tables.append(await open_table(running, people(fake), channel=fake.add_channel(guild=server)))
    rng = random.Random(5)
    for table in tables:
        for _ in range(6):
            assert await play_turn(table, rng)
    ours, theirs = tables
    assert first.host.table(ours.table_id) is not None and first.host.table(theirs.table_id) is None
    assert second.host.table(theirs.table_id) is not None and second.host.table(ours.table_id) is None

    # The first process restarts: it resumes its own table and leaves the other's, and its messages, alone.
    await first.stop()
    theirs_before = {m["id"]: dict(m) for m in fake.public(theirs.channel)}
    since = len(fake.requests)
    first = await start_shards(fake, db, "0/2")
    assert first.host.table(ours.table_id) is not None, "the restarted process resumed its own table"
    assert first.host.table(theirs.table_id) is None, "it did not take the other process's table"
    assert requests_to(fake, since, ours.channel), "its own table was re-rendered in place"
    assert requests_to(fake, since, theirs.channel) == [], "the other process's messages were not touched"
    assert {m["id"]: dict(m) for m in fake.public(theirs.channel)} == theirs_before

    # Both matches go on, each in its own process (after a restart a hand follows the game from its next press).
    ours.running = first
    await ours.open_hands()
    for _ in range(6):
        for table in tables:
            assert await play_turn(table, rng)
    assert second.host.table(theirs.table_id) is not None and first.host.table(theirs.table_id) is None
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await first.stop()
    await second.stop()


async def test_a_process_sweeps_only_its_own_turn_alerts(sharded: FakeDiscord, database: str) -> None:
    """Each process keeps the list of its tables with an alert: one that could not delete an ended table's alert
    finds it at its next start, whatever the other process wrote meanwhile."""
    fake = sharded
    fake.shard_count = 2
    db = database
    servers = [fake.add_guild(shard=0), fake.add_guild(shard=1)]
    first = await start_shards(fake, db, "0/2")
    second = await start_shards(fake, db, "1/2")
    ours = await open_table(first, people(fake), channel=fake.add_channel(guild=servers[0]))
    theirs = await open_table(second, people(fake), channel=fake.add_channel(guild=servers[1]))
    rng = random.Random(2)
    for table in (ours, theirs):
        while to_act(table) is None or not alerts(fake, table.channel):
            assert await play_turn(table, rng)
    # The first process's table is stopped, and Discord refuses to delete its alert for now.
    fake.rate_limited["DELETE channels"] = 100  # more than discord.py's retries of any request
    await fake.command(ours.users[0], ours.channel, "belot", "stop")
    await first.settle()
    fake.rate_limited["DELETE channels"] = 0
    assert len(alerts(fake, ours.channel)) == 1, "the alert could not be deleted yet"
    await first.stop()
    theirs_alert = alerts(fake, theirs.channel)
    assert len(theirs_alert) == 1

    first = await start_shards(fake, db, "0/2")
    assert alerts(fake, ours.channel) == [], "the restarted process deleted its ended table's alert"
    assert await first.storage.get_message_ref(DISCORD, alert_key(ours.table_id)) is None
    assert alerts(fake, theirs.channel) == theirs_alert, "the other process's alert is its own"
    await first.stop()
    await second.stop()


async def test_run_resumes_the_tables_of_the_platforms_it_runs_and_of_discord_its_shards_servers(
    database: str,
) -> None:
    storage = open_storage(database)
    await storage.open()
    opener = Host(storage, load_settings(None, turn_seconds=0), clock=ManualClock())
    await opener.start()
    shard_of_server = {4 << 22: 0, 5 << 22: 1}  # (id >> 22) % 2
    chats = {
        "telegram": ChatRef(TELEGRAM, "-100123"),
        "terminal": ChatRef(TERMINAL, "local"),
        "shard 0": ChatRef(DISCORD, "700"),
        "shard 1 thread": ChatRef(DISCORD, "701", "702"),
        "no server": ChatRef(DISCORD, "703"),  # opened before servers were stored
    }
    await storage.set_chat_parent(DISCORD, "700", server_key(4 << 22))
    await storage.set_chat_parent(DISCORD, "701/702", server_key(5 << 22))
    assert await storage.get_chat_parent(DISCORD, "701/702") == "server:20971520"
    assert await storage.get_chat_parent(DISCORD, "703") is None
    assert sorted(shard_of_server.values()) == [0, 1]
    table_of: dict[str, str] = {}
    for name, chat in chats.items():
        answer = await opener.command(chat, UserRef(chat.platform, "1", "Ana"), "new", [])
        assert answer.ok and answer.table_id is not None, answer.text
        table_of[name] = answer.table_id
    await opener.close()

    async def resumed(platforms: list[str], shards: str | None = None) -> set[str]:
        settings = load_settings(None, turn_seconds=0, discord_shards=shards)
        host = Host(storage, settings, clock=ManualClock(), owns=tables_owned(settings, storage, platforms))
        await host.start()
        found = {name for name, table_id in table_of.items() if host.table(table_id) is not None}
        await host.close()
        return found

    assert await resumed([TELEGRAM]) == {"telegram"}
    assert await resumed([DISCORD]) == {"shard 0", "shard 1 thread", "no server"}
    assert await resumed([DISCORD], "0-1/2") == {"shard 0", "shard 1 thread", "no server"}
    assert await resumed([TELEGRAM, DISCORD], "1/2") == {"telegram", "shard 1 thread"}
    # A table whose server is unknown is the shard 0 process's: exactly one process serves it.
    assert await resumed([DISCORD], "0/2") == {"shard 0", "no server"}
    await storage.close()
