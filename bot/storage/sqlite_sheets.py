"""The score sheets' tables of the SQLite storage: each chat's sheet with its keeper, and the history of the sheets
that a new sheet, an undo, a correction, a restore or a chat's move replaced (``Storage`` documents each method).

A mixin of ``SqliteStorage``: it writes through the storage's one writer connection, committed before returning.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from .base import JSON, OldSheet
from .sql import SharedStatements


class SheetTables(SharedStatements):
    # Provided by SqliteStorage.
    @property
    def writer(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> int:
        raise NotImplementedError

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError


    async def set_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None = None
    ) -> None:
        self._transaction(self._sheet_writes(platform, chat, sheet, keeper))

    async def replace_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None, reason: str, by: str
    ) -> int | None:
        # The old sheet goes into the history and the new one takes its place in one transaction: a crash in
        # between cannot lose the old one.
        conn = self.writer
        rows = conn.execute(
            "SELECT data, keeper, keeper_name, "
            "(SELECT COALESCE(MAX(number), 0) + 1 FROM old_sheets WHERE platform = ? AND chat = ?) "
            "FROM sheets WHERE platform = ? AND chat = ?",
            (platform, chat, platform, chat),
        ).fetchall()
        statements: list[tuple[str, tuple[Any, ...]]] = []
        number = None
        if rows:
            data, old_keeper, old_name, number = rows[0]
            statements.append((
                "INSERT INTO old_sheets (platform, chat, number, data, keeper, keeper_name, reason, by_name, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (platform, chat, number, data, old_keeper, old_name, reason, by, time.time()),
            ))
        statements += self._sheet_writes(platform, chat, sheet, keeper)
        self._transaction(statements)
        return number

    _OLD = "SELECT number, data, keeper, keeper_name, reason, by_name, at FROM old_sheets "

    @staticmethod
    def _old(row: Any) -> OldSheet:
        try:
            data = json.loads(row[1])
        except ValueError:
            data = None
        keeper = None if row[2] is None else (row[2], row[3])
        return OldSheet(row[0], data, keeper, row[4], row[5], row[6])

    async def old_sheets(self, platform: str, chat: str, limit: int = 10) -> list[OldSheet]:
        rows = await self._rows(
            self._OLD + "WHERE platform = ? AND chat = ? ORDER BY number DESC LIMIT ?", (platform, chat, limit)
        )
        return [self._old(r) for r in rows]

    async def old_sheet(self, platform: str, chat: str, number: int) -> OldSheet | None:
        rows = await self._rows(self._OLD + "WHERE platform = ? AND chat = ? AND number = ?", (platform, chat, number))
        return self._old(rows[0]) if rows else None

    def _move_sheets(
        self, platform: str, old_chat: str, new_chat: str, in_old: str, where: tuple[Any, ...]
    ) -> list[tuple[str, tuple[Any, ...]]]:
        """Statements that move the old chat's replaced sheets after the new chat's own (numbers follow on), and
        put a sheet whose new place already has one into that place's history instead of dropping it."""
        conn = self.writer
        top: dict[str, int] = {}  # new key -> the highest number in its history so far

        def next_number(target: str) -> int:
            if target not in top:
                top[target] = conn.execute(
                    "SELECT COALESCE(MAX(number), 0) FROM old_sheets WHERE platform = ? AND chat = ?",
                    (platform, target),
                ).fetchone()[0]
            top[target] += 1
            return top[target]

        statements: list[tuple[str, tuple[Any, ...]]] = []
        old_rows = conn.execute(f"SELECT chat, number FROM old_sheets WHERE {in_old} ORDER BY chat, number", where)
        for key, number in old_rows.fetchall():
            statements.append((
                "UPDATE old_sheets SET chat = ?, number = ? WHERE platform = ? AND chat = ? AND number = ?",
                (new_chat + key[len(old_chat):], next_number(new_chat + key[len(old_chat):]), platform, key, number),
            ))
        sheets = conn.execute(f"SELECT chat, data, keeper, keeper_name FROM sheets WHERE {in_old}", where).fetchall()
        for key, data, keeper, keeper_name in sheets:
            target = new_chat + key[len(old_chat):]
            if conn.execute("SELECT 1 FROM sheets WHERE platform = ? AND chat = ?", (platform, target)).fetchone():
                statements.append((
                    "INSERT INTO old_sheets (platform, chat, number, data, keeper, keeper_name, reason, by_name, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'moved', '', ?)",
                    (platform, target, next_number(target), data, keeper, keeper_name, time.time()),
                ))
        return statements
