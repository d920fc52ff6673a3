"""The lease on PostgreSQL (a real server, tests/pgserver.py): a session advisory lock that one connection holds at
a time, freed by the server when the holder's connection ends; an active ``belote-bot run`` whose connection the
server drops stops acting at once; a standby whose database refuses connections keeps waiting and says why."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time

import asyncpg
import pytest

from bot.cli.run import LEASE_LOST, serve_all
from bot.config import load_settings
from bot.ops.lease import CHECK, LeaseLost, acquire, lease_for
from bot.ops.pglease import PostgresLease, lock_key
from bot.storage.base import StorageError
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.ops_helpers import free_port, ready, wait_ready

NAME = "0123456789abcdef"


async def terminate_holders(url: str) -> int:
    """The server ends the connections that hold an advisory lock (as when the network or the server drops them)."""
    conn = await asyncpg.connect(url)
    try:
        ended = await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        )
        return int(ended)
    finally:
        await conn.close()


def test_the_lock_key_is_the_name_as_a_signed_bigint() -> None:
    assert lock_key("0000000000000001") == 1
    assert lock_key("ffffffffffffffff") == -1
    assert lock_key("8000000000000000") == -(2**63)


async def test_one_connection_holds_the_lock_and_the_server_frees_it_when_that_connection_ends(
    postgres_url: str,
) -> None:
    first, second = PostgresLease(postgres_url, NAME), PostgresLease(postgres_url, NAME)
    try:
        assert await first.try_acquire()
        assert not await second.try_acquire()
        assert f"pid {os.getpid()} on " in await second.holder()
        await first.check()
        assert await terminate_holders(postgres_url) == 1
        with pytest.raises(LeaseLost, match="broke"):
            await first.check()
        assert await second.try_acquire()
        await second.check()
    finally:
        await first.release()
        await second.release()


async def test_a_killed_holder_frees_the_lock_at_once(postgres_url: str) -> None:
    code = (
        "import asyncio, sys, time\n"
        "from bot.ops.pglease import PostgresLease\n"
        f"lease = PostgresLease(sys.argv[1], {NAME!r})\n"
        "async def hold():\n"
        "    assert await lease.try_acquire()\n"
        "    print('held', flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(hold())\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, postgres_url], stdout=subprocess.PIPE, text=True)
    mine = PostgresLease(postgres_url, NAME)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert not await mine.try_acquire()
        assert f"pid {holder.pid} on " in await mine.holder()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        killed = time.monotonic()
        while not await mine.try_acquire():
            assert time.monotonic() - killed < 5, "the server kept a dead holder's lock"
            await asyncio.sleep(0.05)
    finally:
        await mine.release()
        if holder.poll() is None:
            holder.kill()
            holder.wait()


async def test_an_active_process_whose_connection_is_dropped_stops_acting(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    group, alice = -100901, 9101
    async with FakeTelegram() as tg:
        tg.add_user(alice, "Alice", "en")
        tg.add_group(group, "Club")
        settings = load_settings(env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
                                 database=postgres_url, health_port=free_port())
        assert isinstance(lease_for(settings), PostgresLease)
        run = asyncio.create_task(serve_all(settings, 0.0, asyncio.Event()))
        try:
            await wait_ready(settings.health_port or 0)
            assert await terminate_holders(postgres_url) == 1
            dropped = time.monotonic()
            assert await asyncio.wait_for(run, CHECK + 10) == LEASE_LOST
            assert time.monotonic() - dropped < CHECK + 4
        finally:
            if not run.done():
                run.cancel()
        assert "the lease is lost (the connection holding the advisory lock" in caplog.text
        assert "postgresql://postgres@127.0.0.1" in caplog.text and "password" not in caplog.text
        calls = len(tg.calls)
        tg.send_text(alice, group, "/belot")
        await asyncio.sleep(1.5)
        assert len(tg.calls) == calls and tg.pending_updates() == 1


async def test_a_database_never_reached_stops_the_start_with_one_line() -> None:
    url = f"postgresql://bot:secret@127.0.0.1:{free_port()}/belote"  # nothing listens there
    lease = PostgresLease(url, NAME, "postgresql://bot@127.0.0.1/belote")
    with pytest.raises(StorageError) as problem:
        await acquire(lease, asyncio.Event(), poll=0.1)
    text = str(problem.value)
    assert text.startswith("cannot open database postgresql://bot@127.0.0.1/belote: the server did not answer")
    assert "is PostgreSQL running there?" in text and "secret" not in text


async def test_a_standby_waits_out_a_database_that_goes_away(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The standby was waiting when the server ended its connection and refused new ones (a restart, a failover
    of the database): it says so once, keeps trying, waits on as a standby once the database is back, and takes
    the lease when the holder lets it go."""
    caplog.set_level(logging.INFO)
    name = postgres_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres")
    holder, standby = PostgresLease(postgres_url, NAME), PostgresLease(postgres_url, NAME)
    stop = asyncio.Event()
    waiting: asyncio.Task[bool] | None = None
    try:
        assert await holder.try_acquire()
        waiting = asyncio.create_task(acquire(standby, stop, poll=0.1))
        await asyncio.sleep(0.5)
        assert "standby: waiting for the active process" in caplog.text
        await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
        ended = await admin.fetchval(
            "SELECT count(pg_terminate_backend(a.pid)) FROM pg_stat_activity a WHERE a.datname = $1 "
            "AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory')", name)
        assert ended == 1  # the standby's connection; the holder keeps its own
        await asyncio.sleep(1.0)
        assert not waiting.done()
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "cannot be taken now" in warnings[0], warnings  # once, not every poll
        await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
        await asyncio.sleep(0.5)
        assert not waiting.done()  # back, and still a standby: the holder holds
        await holder.release()
        assert await asyncio.wait_for(waiting, 5) is True
        await standby.check()
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
        await admin.close()
        stop.set()
        if waiting is not None and not waiting.done():
            waiting.cancel()
        await holder.release()
        await standby.release()


async def test_not_ready_while_the_database_refuses_the_storage(postgres_url: str) -> None:
    """The server refuses new connections to the bot's database and ends the storage's (not the lease's): /readyz
    answers 503 with the storage's error, and 200 again once the database takes connections."""
    name = postgres_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres")
    async with FakeTelegram() as tg:
        settings = load_settings(env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
                                 database=postgres_url, health_port=free_port())
        port = settings.health_port or 0
        stop = asyncio.Event()
        run = asyncio.create_task(serve_all(settings, 0.0, stop))
        try:
            await wait_ready(port)
            await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = $1 AND application_name = 'belote-bot'", name)
            assert ended >= 1
            status, body = await ready(port)
            assert status == 503 and body["role"] == "active", body
            assert body["reason"].startswith("storage does not answer: "), body
            await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
            await wait_ready(port)
        finally:
            await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
            await admin.close()
            stop.set()
            assert await asyncio.wait_for(run, 20) == 0
