"""The lease on PostgreSQL: a session advisory lock held on a connection of its own.

Why a lock and not a lease row renewed every few seconds: the server releases a session lock the moment the
holding connection ends, so a killed process hands over at the standby's next poll (a second) instead of when a
row's expiry passes, there are no clocks of two machines to compare, and holding it writes nothing.

The connection asks the server to notice a silent holder (a machine that lost its network, not its process) within
about ten seconds (``tcp_user_timeout`` and TCP keepalives), while the holder checks its lock every ``CHECK``
seconds with a ``QUERY_TIMEOUT`` and stops acting when a check fails: it has stopped before the server frees the
lock for a standby. The lock needs a session of its own on the server: a pooler in transaction mode (PgBouncer's
``pool_mode=transaction``) would hand it to other clients, so point the bot at the server or a session pool.
"""

from __future__ import annotations

import contextlib
import logging

import asyncpg

from bot.storage.base import StorageError
from bot.storage.postgres_schema import reason

from .lease import LeaseLost, whoami

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0
QUERY_TIMEOUT = 3.0
# The server drops a holder it has not heard from within about 10 s (keepalive 5 s + 2 probes 2 s apart,
# or unacknowledged data for 10 s).
SERVER_SETTINGS = {
    "tcp_keepalives_idle": "5",
    "tcp_keepalives_interval": "2",
    "tcp_keepalives_count": "2",
    "tcp_user_timeout": "10000",
}
HELD = """
SELECT EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()
      AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 1
)"""
HOLDER = """
SELECT a.application_name, host(a.client_addr) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1 AND l.objid::bigint = $2 AND l.objsubid = 1
"""


def lock_key(name: str) -> int:
    """The advisory lock's 64-bit key: the lease name's first 16 hex digits, as PostgreSQL's signed bigint."""
    return int.from_bytes(bytes.fromhex(name[:16]), "big", signed=True)


class PostgresLease:
    """``pg_try_advisory_lock`` on a dedicated connection; released by the server when that connection ends."""

    def __init__(self, url: str, name: str, shown: str = "the PostgreSQL database") -> None:
        self.url = url
        self.key = lock_key(name)
        unsigned = self.key & 0xFFFF_FFFF_FFFF_FFFF
        # How pg_locks shows a bigint key: its high and low 32 bits.
        self._halves = (unsigned >> 32, unsigned & 0xFFFF_FFFF)
        self.what = f"the advisory lock {self.key} on {shown}"
        self.shown = shown
        self._conn: asyncpg.Connection | None = None
        self._held = False
        self._reached = False  # the server answered once: later failures are waited out, not fatal

    async def _connection(self) -> asyncpg.Connection:
        """The lease's connection, opened when needed. A database never reached since the start is a setting to
        fix (``StorageError``, the command stops with exit status 2); one that answered before is waited for."""
        if self._conn is None or self._conn.is_closed():
            try:
                self._conn = await asyncpg.connect(
                    self.url,
                    timeout=CONNECT_TIMEOUT,
                    server_settings={**SERVER_SETTINGS, "application_name": f"belote-bot {whoami()}"[:63]},
                )
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
                if not self._reached:
                    raise StorageError(f"cannot open database {self.shown}: {reason(exc)}") from None
                raise
            self._reached = True
        return self._conn

    async def try_acquire(self) -> bool:
        if self._held:
            return True
        conn = await self._connection()
        try:
            got = bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key, timeout=QUERY_TIMEOUT))
        except BaseException:
            await self._drop()
            raise
        self._held = got
        return got

    async def holder(self) -> str:
        try:
            conn = await self._connection()
            row = await conn.fetchrow(HOLDER, *self._halves, timeout=QUERY_TIMEOUT)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return ""
        if row is None:
            return ""
        name, address = row[0] or "", row[1]
        return name.removeprefix("belote-bot ") + (f" (connected from {address})" if address else "")

    async def check(self) -> None:
        if not self._held or self._conn is None:
            raise LeaseLost("the lease was never taken")
        try:
            held = await self._conn.fetchval(HELD, *self._halves, timeout=QUERY_TIMEOUT)
        except Exception as exc:  # whatever failed, this process can no longer show that it holds the lock
            self._held = False
            await self._drop()
            raise LeaseLost(f"the connection holding {self.what} broke ({type(exc).__name__}: {exc})") from None
        if not held:
            self._held = False
            raise LeaseLost(f"{self.what} is no longer held by this process's connection")

    async def release(self) -> None:
        if self._held and self._conn is not None and not self._conn.is_closed():
            # Closing the connection below releases it as well, should the unlock fail.
            with contextlib.suppress(OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await self._conn.fetchval("SELECT pg_advisory_unlock($1)", self.key, timeout=QUERY_TIMEOUT)
        self._held = False
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await conn.close(timeout=QUERY_TIMEOUT)
            except Exception:
                conn.terminate()
