"""Helpers for the tests that run on both storage backends (the ``database`` fixture of conftest.py gives each)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from typing import Any

import asyncpg

from bot.storage.base import Storage
from bot.storage.factory import is_postgres, open_storage


async def opened(database: str) -> Storage:
    """The storage of ``database``, opened (the schema brought up to date)."""
    storage = open_storage(database)
    await storage.open()
    return storage


async def peek(database: str, sql: str) -> Any:
    """The first value of ``sql`` (plain SQL both databases read alike), seen from another connection: as another
    process would see it."""
    if is_postgres(database):
        server = await asyncpg.connect(database)
        try:
            return await server.fetchval(sql)
        finally:
            await server.close()
    with contextlib.closing(sqlite3.connect(database)) as conn:
        row = conn.execute(sql).fetchone()
        return row[0] if row else None


async def poke(database: str, sql: str) -> None:
    """Run ``sql`` from another connection and commit it (what a person with a database shell would do)."""
    if is_postgres(database):
        server = await asyncpg.connect(database)
        try:
            await server.execute(sql)
        finally:
            await server.close()
        return
    with contextlib.closing(sqlite3.connect(database)) as conn, conn:
        conn.execute(sql)


def fetch(database: str, sql: str) -> list[tuple[Any, ...]]:
    """Every row of ``sql``, read from outside the process under test (for tests that are not coroutines)."""
    if is_postgres(database):
        return asyncio.run(_fetch_postgres(database, sql))
    with contextlib.closing(sqlite3.connect(database)) as conn:
        return list(conn.execute(sql).fetchall())


async def _fetch_postgres(database: str, sql: str) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(database)
    try:
        return [tuple(row) for row in await conn.fetch(sql)]
    finally:
        await conn.close()
