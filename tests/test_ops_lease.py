"""The lease on a SQLite database: an exclusive lock on a file beside it, held by one process at a time and freed by
the kernel when that process is killed; a second ``belote-bot run`` for the same bot waits as a standby (no
Telegram request, no table touched, /readyz 503) and takes over when the active one stops; an active process whose
lock file is taken away stops acting at once."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli.run import LEASE_LOST, serve_all
from bot.config import Settings, load_settings
from bot.ops.lease import CHECK, FileLease, lease_for, lease_name
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.ops_helpers import connects, free_port, open_and_start, play_moves, wait_ready, wait_standby

GROUP = -100779
ALICE = 7901


def settings_for(tg: FakeTelegram, database: Path, **more: object) -> Settings:
    return load_settings(env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url, database=str(database),
                         turn_seconds=0, bot_level="random", language="en", **more)


def test_the_lease_name_says_what_is_served_and_keeps_the_tokens_secret(tmp_path: Path) -> None:
    base = load_settings(env_file=None, telegram_token="123:abc", database=str(tmp_path / "b.sqlite3"))
    same = load_settings(env_file=None, telegram_token="123:abc", database=str(tmp_path / "b.sqlite3"))
    other_bot = load_settings(env_file=None, telegram_token="124:abd", database=str(tmp_path / "b.sqlite3"))
    both = load_settings(env_file=None, telegram_token="123:abc", discord_token="d.t.k",
                         database=str(tmp_path / "b.sqlite3"))
    assert lease_name(base) == lease_name(same)
    assert len({lease_name(base), lease_name(other_bot), lease_name(both)}) == 3
    lease = lease_for(base)
    assert isinstance(lease, FileLease)
    assert lease.path.parent == tmp_path and lease.path.name.startswith("b.sqlite3.")
    assert "abc" not in lease.path.name and "123" not in lease.path.name.removeprefix("b.sqlite3.")



def test_processes_of_different_discord_shard_ranges_hold_different_leases(tmp_path: Path) -> None:
    """Shard processes run side by side on one database: each range is its own role, the same range written
    another way is the same role (only one of two such processes may act)."""
    db = str(tmp_path / "b.sqlite3")
    first = load_settings(env_file=None, discord_token="d.t.k", discord_shards="0-1/4", database=db)
    second = load_settings(env_file=None, discord_token="d.t.k", discord_shards="2-3/4", database=db)
    first_again = load_settings(env_file=None, discord_token="d.t.k", discord_shards=" 0 - 1 / 4 ", database=db)
    every = load_settings(env_file=None, discord_token="d.t.k", database=db)
    assert lease_name(first) == lease_name(first_again)
    assert len({lease_name(first), lease_name(second), lease_name(every)}) == 3

async def test_a_lock_file_is_held_by_one_process_and_freed_when_it_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "belote.sqlite3.lease"
    code = (
        "import asyncio, sys, time; from pathlib import Path; from bot.ops.lease import FileLease\n"
        "lease = FileLease(Path(sys.argv[1]))\n"
        "assert asyncio.run(lease.try_acquire())\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        mine = FileLease(path)
        assert not await mine.try_acquire()
        assert f"pid {holder.pid} on " in await mine.holder()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        assert await mine.try_acquire()  # the kernel freed it with the process, whatever the process left
        assert f"pid {os.getpid()} on " in await mine.holder()
        await mine.check()
        assert oct(path.stat().st_mode & 0o777) == oct(0o600)
        await mine.release()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


async def test_the_standby_touches_nothing_and_takes_over_when_the_active_process_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    database = tmp_path / "belote.sqlite3"
    port_a, port_b = free_port(), free_port()
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club")
        tg.start_private(ALICE)
        stop_a, stop_b = asyncio.Event(), asyncio.Event()
        a = asyncio.create_task(serve_all(settings_for(tg, database, health_port=port_a), 0.0, stop_a))
        b: asyncio.Task[int] | None = None
        try:
            await wait_ready(port_a)
            await open_and_start(tg, ALICE, GROUP)
            await play_moves(tg, ALICE, 2)
            b = asyncio.create_task(serve_all(settings_for(tg, database, health_port=port_b), 0.0, stop_b))
            body = await wait_standby(port_b)
            assert body["reason"] == "standby: another process holds the lease", body
            assert "standby: waiting for the active process" in caplog.text
            assert f"held by pid {os.getpid()} on " in caplog.text
            await asyncio.sleep(1.5)  # a few polls: the standby still makes no request of its own
            assert connects(tg) == 1

            stop_a.set()
            assert await asyncio.wait_for(a, 20) == 0
            stopped = time.monotonic()
            await wait_ready(port_b, timeout=15)
            assert time.monotonic() - stopped < 15
            assert connects(tg) == 2
            assert "the lease is free: this process takes over" in caplog.text
            # The table goes on in the new process, from the buttons the old one sent.
            await play_moves(tg, ALICE, 2)
        finally:
            stop_a.set()
            stop_b.set()
            await asyncio.wait_for(a, 20)
            if b is not None:
                assert await asyncio.wait_for(b, 20) == 0


async def test_a_process_whose_lock_file_is_taken_away_stops_acting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "belote.sqlite3"
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club")
        settings = settings_for(tg, database, health_port=free_port())
        run = asyncio.create_task(serve_all(settings, 0.0, asyncio.Event()))
        try:
            await wait_ready(settings.health_port or 0)
            lease = lease_for(settings)
            assert isinstance(lease, FileLease)
            lease.path.unlink()  # an operator's clean-up, or a second machine: another process could take it now
            removed = time.monotonic()
            assert await asyncio.wait_for(run, CHECK + 10) == LEASE_LOST
            assert time.monotonic() - removed < CHECK + 3
        finally:
            if not run.done():
                run.cancel()
        assert "the lease is lost (the lock file" in caplog.text
        # Nothing of that process answers any more: a command in the group gets no reply.
        calls = len(tg.calls)
        tg.send_text(ALICE, GROUP, "/belot")
        await asyncio.sleep(1.5)
        assert len(tg.calls) == calls and tg.pending_updates() == 1


async def test_belote_bot_run_exits_with_status_3_when_its_lease_is_lost(tmp_path: Path) -> None:
    """The real command: a supervisor sees a non-zero status (and a line saying why) and starts it again."""
    from tests.telegram.process import BotProcess

    async with FakeTelegram() as tg:
        port = free_port()
        bot = BotProcess(tg, tmp_path, health_port=str(port))
        await bot.start()
        try:
            await wait_ready(port, timeout=30)
            [lock] = tmp_path.glob("belote.sqlite3.*.lease")
            lock.unlink()
            assert bot.proc is not None
            assert await asyncio.wait_for(bot.proc.wait(), CHECK + 15) == LEASE_LOST
        finally:
            if bot.proc is not None and bot.proc.returncode is None:
                bot.proc.kill()
                await bot.proc.wait()
        assert "the lease is lost (the lock file" in bot.log
        assert "belote-bot: the lease was lost, so this process stopped acting" in bot.log
        assert "Traceback" not in bot.log
