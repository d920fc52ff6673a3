"""The server storage: PostgreSQL through asyncpg, for hosts whose disk does not last (see docs/hosting.md).

The same tables, the same schema versions and the same promise as the SQLite file: a write has committed on the
server when its coroutine returns (the server's ``synchronous_commit`` decides how far that commit reached its disk;
its default waits for the server's own log). Writes and reads share a small pool of connections, so the actions of
many tables commit side by side and the server groups their commits; two writes of one caller keep their order
because each is awaited before the next. The schema version is a one-row table, ``belote_schema``; a process that
opens the database while another migrates it waits for the other (an advisory lock) and then finds it up to date.

JSON values are kept as text, byte for byte as the SQLite storage keeps them (the storage never looks inside them),
so ``belote-bot migrate`` copies rows unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import asyncpg

from .base import JSON, PlayerStats, StorageError
from .factory import shown_database as shown
from .postgres_schema import DROPPED, FAILURES, migrate, reason
from .postgres_sheets import PgSheetTables
from .sql import numbered

POOL_SIZE = 16  # as many commits in flight at once; the server groups them into one flush of its log
CONNECT_SECONDS = 15.0
READ_TRIES = 3
Statements = list[tuple[str, tuple[Any, ...]]]
if TYPE_CHECKING:
    from .postgres_sheets import Connection


def changed(status: str) -> int:
    """How many rows a command's status ("DELETE 3", "INSERT 0 1", "UPDATE 2") says it touched."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresStorage(PgSheetTables):
    _BINARY = ' COLLATE "C"'  # SQLite's order of text: byte by byte, whatever the server's locale
    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None

    # --- lifecycle ---

    async def open(self) -> None:
        where = shown(self.url)
        try:
            pool = await asyncpg.create_pool(
                self.url, min_size=1, max_size=self.pool_size, timeout=CONNECT_SECONDS,
                server_settings={"application_name": "belote-bot"}, reset=_nothing_to_reset,
            )
        except (*FAILURES, ValueError) as exc:  # ValueError: asyncpg could not read the URL
            raise StorageError(f"cannot open database {where}: {reason(exc)}") from None
        try:
            await migrate(pool, where)
        except BaseException:
            pool.terminate()
            raise
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), timeout=10)
        except (TimeoutError, *FAILURES):
            pool.terminate()  # a connection stuck on a dead server: close the sockets

    async def flush(self) -> None:
        """Nothing to wait for: every write has committed by the time it returns."""
        self.pool  # noqa: B018 - fail when closed, as a write would

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("the storage is not open")
        return self._pool

    async def schema_version(self) -> int:
        version = await self._value("SELECT version FROM belote_schema")
        return int(version)

    # --- the statements: each write has committed when it returns ---

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool; one that turns out dropped is closed rather than handed out again."""
        async with self.pool.acquire() as conn:
            try:
                yield conn
            except DROPPED:
                with contextlib.suppress(asyncpg.InterfaceError):  # the driver may have let it go already
                    conn.terminate()
                raise

    def _sql(self, sql: str) -> str:
        return numbered(sql)

    async def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        try:
            async with self._connection() as conn:
                return changed(await conn.execute(sql, *params))
        except FAILURES as exc:
            raise StorageError(f"database write failed: {reason(exc)}") from None

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        """A connection inside a transaction, committed when the block ends (rolled back when it raises)."""
        try:
            async with self._connection() as conn, conn.transaction():
                yield conn
        except FAILURES as exc:
            raise StorageError(f"database write failed: {reason(exc)}") from None

    async def _run(self, statements: Statements) -> int:
        async with self._transaction() as conn:
            total = 0
            for sql, params in statements:
                total += changed(await conn.execute(sql, *params))
            return total

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Sequence[asyncpg.Record]:
        # A read changes nothing, so one that met a dropped connection is asked again: the host reads a table's log
        # right after a write failed on that same drop, and must not fail twice. A write is not repeated: whether
        # it committed is unknown, and the host rebuilds the table from what the log holds.
        for attempt in range(READ_TRIES):
            try:
                async with self._connection() as conn:
                    return await conn.fetch(sql, *params)
            except DROPPED as exc:
                if attempt + 1 == READ_TRIES:
                    raise StorageError(f"database read failed: {reason(exc)}") from None
                await asyncio.sleep(0.05 * (attempt + 1))
            except FAILURES as exc:
                raise StorageError(f"database read failed: {reason(exc)}") from None
        raise AssertionError("unreachable")

    async def _value(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0][0] if rows else None

    # players, chats, tables, logs, message ids and forms: bot.storage.sql.SharedStatements

    # --- a chat that got a new id ---

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        # As in SQLite: a chat key is the chat id or "<chat id>/<thread id>"; both forms move, the thread part kept,
        # and where the new chat already has a row of its own (a language chosen there since), that one stays.
        in_old = "platform = $1 AND (chat = $2 OR starts_with(chat, $3))"
        renamed = "$4::text || substr({0}chat, $5::int)"
        params = (platform, old_chat, old_chat + "/", new_chat, len(old_chat) + 1)
        async with self._transaction() as conn:
            # One move of a platform at a time: the sheets' history numbers are read, then written.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", "move_chat " + platform)
            await self._move_sheets(conn, platform, old_chat, new_chat, in_old, params[:3])
            for table in ("chats", "sheets"):
                await conn.execute(
                    f"UPDATE {table} AS o SET chat = {renamed.format('')} WHERE {in_old} AND NOT EXISTS "
                    f"(SELECT 1 FROM {table} n WHERE n.platform = o.platform AND n.chat = {renamed.format('o.')})",
                    *params,
                )
                await conn.execute(f"DELETE FROM {table} WHERE {in_old}", *params[:3])
            for table in ("tables", "matches", "match_players"):
                await conn.execute(f"UPDATE {table} SET chat = {renamed.format('')} WHERE {in_old}", *params)

    # --- finished matches ---

    async def save_match(
        self,
        table_id: str,
        platform: str,
        chat: str,
        record: JSON,
        players: list[tuple[str, str, int]],
        totals: tuple[int, ...],
        winner: int | None,
        deals: int,
        game: str = "bulgarian",
    ) -> None:
        # The match and its players' results land together or not at all (a stored match is replaced whole).
        await self._run([
            (
                "INSERT INTO matches (table_id, platform, chat, record, total_a, total_b, winner, deals, finished, "
                "game) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (table_id) DO UPDATE SET "
                "platform = excluded.platform, chat = excluded.chat, record = excluded.record, "
                "total_a = excluded.total_a, total_b = excluded.total_b, winner = excluded.winner, "
                "deals = excluded.deals, finished = excluded.finished, game = excluded.game",
                (table_id, platform, chat, json.dumps(record), totals[0], totals[1], winner, deals, time.time(),
                 game),
            ),
            *(
                (
                    "INSERT INTO match_players (table_id, platform, chat, user_id, name, team, won, points, deals, "
                    "game) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (table_id, user_id) DO "
                    "UPDATE SET platform = excluded.platform, chat = excluded.chat, name = excluded.name, "
                    "team = excluded.team, won = excluded.won, points = excluded.points, deals = excluded.deals, "
                    "game = excluded.game",
                    (table_id, platform, chat, user_id, name, team, int(winner == team), totals[team], deals, game),
                )
                for user_id, name, team in players
            ),
        ])

    async def match_record(self, table_id: str) -> JSON | None:
        value = await self._value("SELECT record FROM matches WHERE table_id = $1", (table_id,))
        return None if value is None else dict(json.loads(value))

    # MAX and ORDER BY in code-point order ("C"), as SQLite compares, whatever the database's own collation.
    _STATS = (
        'SELECT platform, user_id, MAX(name COLLATE "C"), COUNT(*)::int, SUM(won)::int, SUM(points)::int, '
        "SUM(deals)::int FROM match_players "
    )

    async def player_stats(
        self, platform: str, user_id: str, chat: str | None = None, game: str | None = None
    ) -> PlayerStats | None:
        sql = self._STATS + "WHERE platform = $1 AND user_id = $2"
        params: tuple[Any, ...] = (platform, user_id)
        for column, value in (("chat", chat), ("game", game)):
            if value is not None:
                params += (value,)
                sql += f" AND {column} = ${len(params)}"
        rows = await self._rows(sql + " GROUP BY platform, user_id", params)
        return PlayerStats(*rows[0]) if rows else None

    async def top_players(
        self, platform: str, chat: str, limit: int = 10, game: str | None = None
    ) -> list[PlayerStats]:
        where, params = "WHERE platform = $1 AND chat = $2", (platform, chat, *(() if game is None else (game,)))
        if game is not None:
            where += " AND game = $3"
        rows = await self._rows(
            self._STATS + where + " GROUP BY platform, user_id "
            f'ORDER BY SUM(won) DESC, SUM(won)::float8 / COUNT(*) DESC, MAX(name COLLATE "C") LIMIT ${len(params) + 1}',
            (*params, limit),
        )
        return [PlayerStats(*r) for r in rows]


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The pool resets a connection it takes back with a query of its own, a second round trip for every statement.
    The storage leaves nothing to reset: no session setting, listener, cursor or session lock (its locks end with
    their transactions), and the driver still rolls back a transaction left open."""

