"""The score sheets' tables of the PostgreSQL storage, as ``sqlite_sheets`` keeps them in SQLite: each chat's sheet with
its keeper, and the history of the sheets replaced (``Storage`` documents each method).

A mixin of ``PostgresStorage``. A replacement reads the current sheet and writes the history in one transaction that
holds the sheet's row, so two replacements of one chat at the same instant number their history one after the other.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import asyncpg

from .base import JSON, OldSheet
from .sql import SharedStatements

Statements = list[tuple[str, tuple[Any, ...]]]
if TYPE_CHECKING:
    Connection = asyncpg.pool.PoolConnectionProxy[asyncpg.Record]  # a pooled connection, as the pool lends it


class PgSheetTables(SharedStatements):
    # Provided by PostgresStorage.
    def _transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _run(self, statements: Statements) -> int:
        raise NotImplementedError

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Sequence[asyncpg.Record]:
        raise NotImplementedError

    async def set_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None = None
    ) -> None:
        await self._run(self._sheet_writes(platform, chat, sheet, keeper))

    async def replace_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None, reason: str, by: str
    ) -> int | None:
        # The old sheet goes into the history and the new one takes its place in one transaction: a crash in
        # between cannot lose the old one. FOR UPDATE holds the sheet's row until then.
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "SELECT data, keeper, keeper_name FROM sheets WHERE platform = $1 AND chat = $2 FOR UPDATE",
                platform, chat,
            )
            number: int | None = None
            if row is not None:
                number = int(await conn.fetchval(
                    "SELECT COALESCE(MAX(number), 0) + 1 FROM old_sheets WHERE platform = $1 AND chat = $2",
                    platform, chat,
                ))
                await conn.execute(
                    "INSERT INTO old_sheets (platform, chat, number, data, keeper, keeper_name, reason, by_name, at) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    platform, chat, number, row[0], row[1], row[2], reason, by, time.time(),
                )
            for sql, params in self._sheet_writes(platform, chat, sheet, keeper):
                await conn.execute(sql, *params)
            return number

    _OLD = "SELECT number, data, keeper, keeper_name, reason, by_name, at FROM old_sheets "

    @staticmethod
    def _old(row: asyncpg.Record) -> OldSheet:
        try:
            data = json.loads(row[1])
        except ValueError:
            data = None
        keeper = None if row[2] is None else (row[2], row[3])
        return OldSheet(row[0], data, keeper, row[4], row[5], row[6])

    async def old_sheets(self, platform: str, chat: str, limit: int = 10) -> list[OldSheet]:
        rows = await self._rows(
            self._OLD + "WHERE platform = $1 AND chat = $2 ORDER BY number DESC LIMIT $3", (platform, chat, limit)
        )
        return [self._old(r) for r in rows]

    async def old_sheet(self, platform: str, chat: str, number: int) -> OldSheet | None:
        rows = await self._rows(
            self._OLD + "WHERE platform = $1 AND chat = $2 AND number = $3", (platform, chat, number)
        )
        return self._old(rows[0]) if rows else None

    @staticmethod
    async def _move_sheets(
        conn: Connection, platform: str, old_chat: str, new_chat: str, in_old: str, where: tuple[Any, ...]
    ) -> None:
        """Within ``move_chat``'s transaction: move the old chat's replaced sheets after the new chat's own (numbers
        follow on), and put a sheet whose new place already has one into that place's history instead of dropping
        it."""
        top: dict[str, int] = {}  # new key -> the highest number in its history so far

        async def next_number(target: str) -> int:
            if target not in top:
                top[target] = int(await conn.fetchval(
                    "SELECT COALESCE(MAX(number), 0) FROM old_sheets WHERE platform = $1 AND chat = $2",
                    platform, target,
                ))
            top[target] += 1
            return top[target]

        old_rows = await conn.fetch(
            f'SELECT chat, number FROM old_sheets WHERE {in_old} ORDER BY chat COLLATE "C", number', *where
        )
        for key, number in old_rows:
            target = new_chat + key[len(old_chat):]
            await conn.execute(
                "UPDATE old_sheets SET chat = $1, number = $2 WHERE platform = $3 AND chat = $4 AND number = $5",
                target, await next_number(target), platform, key, number,
            )
        sheets = await conn.fetch(f"SELECT chat, data, keeper, keeper_name FROM sheets WHERE {in_old}", *where)
        for key, data, keeper, keeper_name in sheets:
            target = new_chat + key[len(old_chat):]
            if await conn.fetchval("SELECT 1 FROM sheets WHERE platform = $1 AND chat = $2", platform, target):
                await conn.execute(
                    "INSERT INTO old_sheets (platform, chat, number, data, keeper, keeper_name, reason, by_name, at) "
                    "VALUES ($1, $2, $3, $4, $5, $6, 'moved', '', $7)",
                    platform, target, await next_number(target), data, keeper, keeper_name, time.time(),
                )
