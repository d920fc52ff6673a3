"""The lease: of the processes that serve the same bots from one database, exactly one acts; the others wait.

A lease is named from what the process serves (a digest of the Telegram token, the Discord token and the Discord
shard range: two processes that serve the same bots share a name, the tokens themselves never leave the process).
Whoever holds it builds the host, resumes the tables and runs the adapters; a standby touches nothing and tries
again every ``POLL`` seconds. Both kinds of lease are released by the operating system or the database server the
moment the holder dies, so a killed process hands over within one poll:

- a SQLite file: an exclusive ``flock`` on a lock file beside the database (``<database>.<name>.lease``); it holds
  between processes of one machine, which is where a SQLite file lives;
- PostgreSQL: a session advisory lock on a connection of its own (``bot.ops.pglease``).

The active process checks its lease every ``CHECK`` seconds; once it is lost (the lock file was removed, the
connection to the database server broke) the process must stop acting at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from bot.config import Settings
from bot.storage.base import StorageError
from bot.storage.factory import is_postgres, shown_database

log = logging.getLogger(__name__)

POLL = 1.0  # seconds between a standby's attempts
CHECK = 2.0  # seconds between the active process's checks that it still holds the lease


class LeaseLost(RuntimeError):
    """The lease is no longer held; the message says how it was lost."""


class Lease(Protocol):
    """One named lease, held by at most one process at a time."""

    what: str  # for the log: what kind of lock, on what

    async def try_acquire(self) -> bool:
        """Take the lease if it is free (never waits); True when this process holds it now."""
        ...

    async def holder(self) -> str:
        """Who holds the lease, as the holder described itself ("" when unknown)."""
        ...

    async def check(self) -> None:
        """Raise ``LeaseLost`` unless this process still holds the lease."""
        ...

    async def release(self) -> None:
        """Give the lease up (nothing when not held)."""
        ...


def shard_range(settings: Settings) -> str:
    """The Discord shard range this process serves (BELOTE_DISCORD_SHARDS, normalised: "0-3/8"), "" for all."""
    return settings.discord_shards or ""


def lease_name(settings: Settings) -> str:
    """The lease's name: 16 hex digits of a SHA-256 over what this process serves."""
    digest = hashlib.sha256(b"belote-bot lease 1")
    for part in (settings.telegram_token or "", settings.discord_token or "", shard_range(settings)):
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()[:16]


def whoami() -> str:
    """How a holder describes itself to the standbys: process id, machine, since when."""
    return f"pid {os.getpid()} on {socket.gethostname()} since {time.strftime('%Y-%m-%d %H:%M:%S %Z')}"


class FileLease:
    """An exclusive ``flock`` on a file: the kernel releases it when the process ends, however it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.what = f"the lock file {path}"
        self._fd: int | None = None

    async def try_acquire(self) -> bool:
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        os.ftruncate(fd, 0)
        os.pwrite(fd, whoami().encode(), 0)
        return True

    async def holder(self) -> str:
        try:
            return self.path.read_text(errors="replace").strip()
        except OSError:
            return ""

    async def check(self) -> None:
        if self._fd is None:
            raise LeaseLost("the lease was never taken")
        held = os.fstat(self._fd)
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            raise LeaseLost(f"{self.what} was removed") from None
        if (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
            raise LeaseLost(f"{self.what} was replaced by another file")

    async def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def lease_for(settings: Settings) -> Lease:
    """The lease of this process: an advisory lock on a PostgreSQL database, a lock file beside a SQLite file."""
    name = lease_name(settings)
    if is_postgres(settings.database):
        from .pglease import PostgresLease

        return PostgresLease(settings.database.strip(), name, shown_database(settings.database))
    return FileLease(Path(f"{settings.database}.{name}.lease"))


async def acquire(
    lease: Lease, stop: asyncio.Event, poll: float = POLL, standby: Callable[[], None] | None = None
) -> bool:
    """Wait until this process holds the lease (True) or ``stop`` is set (False). A standby says so once, in the
    log, then to ``standby()``."""
    said = False
    trouble = ""
    while not stop.is_set():
        try:
            if await lease.try_acquire():
                if said or trouble:
                    log.info("the lease is free: this process takes over")
                return True
        except StorageError:
            raise  # the database was never reached: a setting to fix, said once by the command
        except Exception as exc:  # the database went away: a standby waits for it, as for the lease
            # One warning an outage: its first reason. A server going down says several things in turn (the
            # connection ended, then "not accepting connections"); the later ones go to the debug log.
            log.log(logging.DEBUG if trouble else logging.WARNING,
                    "%s cannot be taken now (%s: %s); trying again every %g s", lease.what, type(exc).__name__, exc,
                    poll)
            trouble = str(exc) or type(exc).__name__
        else:
            trouble = ""
        if not said and not trouble:
            holder = await lease.holder()
            log.info("standby: waiting for the active process (%s%s)", lease.what,
                     f", held by {holder}" if holder else "")
            said = True
            if standby is not None:
                standby()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), poll)
    return False


async def keep(lease: Lease, every: float = CHECK) -> str:
    """Check the lease every ``every`` seconds; return how it was lost, once it is."""
    while True:
        await asyncio.sleep(every)
        try:
            await lease.check()
        except LeaseLost as exc:
            return str(exc)
