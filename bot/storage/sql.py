"""The statements both SQL backends share: players, chats, tables and their logs, message ids, forms, the sheet.

They are written once, with ``?`` placeholders; a backend whose driver numbers its parameters (asyncpg's ``$1``)
rewrites them in ``_sql``. Each backend supplies the three primitives (``_write``, ``_rows``, ``_sql``) and
``_BINARY``, the collation that orders text byte by byte as SQLite does, so both list chats and tables in one order.
What differs between the two (transactions of several statements, move_chat, the sheets' history, statistics) stays in
each backend.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .base import JSON, Event, TableRow

_PLACEHOLDER = re.compile(r"\?")
_TABLE = "SELECT table_id, platform, chat, creator, status, deadline, created, updated FROM tables "


@lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1``, ``$2``, ... (no statement here holds a literal ``?``)."""
    count = iter(range(1, sql.count("?") + 1))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _real(value: float | None) -> float | None:
    return None if value is None else float(value)


class SharedStatements:
    _BINARY = ""  # appended to ORDER BY on text: the backend's byte-order collation, if its default is not

    async def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one statement, committed before it returns; how many rows it changed."""
        raise NotImplementedError

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Sequence[Any]:
        raise NotImplementedError

    def _sql(self, sql: str) -> str:
        """The statement in the driver's placeholder style."""
        return sql

    async def _put(self, sql: str, *params: Any) -> int:
        return await self._write(self._sql(sql), params)

    async def _one(self, sql: str, *params: Any) -> Any:
        rows = await self._rows(self._sql(sql), params)
        return rows[0][0] if rows else None

    # --- players and chats ---

    async def save_player(self, platform: str, user_id: str, name: str) -> None:
        await self._put(
            "INSERT INTO players (platform, user_id, name) VALUES (?, ?, ?) "
            "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name",
            platform, user_id, name,
        )

    async def get_player_language(self, platform: str, user_id: str) -> str | None:
        return _text(await self._one("SELECT language FROM players WHERE platform = ? AND user_id = ?",
                                       platform, user_id))

    async def set_player_language(self, platform: str, user_id: str, language: str) -> None:
        await self._put(
            "INSERT INTO players (platform, user_id, language) VALUES (?, ?, ?) "
            "ON CONFLICT (platform, user_id) DO UPDATE SET language = excluded.language",
            platform, user_id, language,
        )

    async def get_chat_language(self, platform: str, chat: str) -> str | None:
        return _text(await self._one(
            "SELECT COALESCE(c.language, p.language) FROM chats c "
            "LEFT JOIN chats p ON p.platform = c.platform AND p.chat = c.parent WHERE c.platform = ? AND c.chat = ?",
            platform, chat,
        ))

    async def set_chat_language(self, platform: str, chat: str, language: str) -> None:
        await self._chat_column("language", platform, chat, language)

    async def set_chat_parent(self, platform: str, chat: str, parent: str) -> None:
        await self._chat_column("parent", platform, chat, parent)

    async def set_chat_game(self, platform: str, chat: str, game: str) -> None:
        await self._chat_column("game", platform, chat, game)

    async def set_chat_letters(self, platform: str, chat: str, letters: str) -> None:
        await self._chat_column("letters", platform, chat, letters)

    async def _chat_column(self, column: str, platform: str, chat: str, value: str) -> None:
        await self._put(
            f"INSERT INTO chats (platform, chat, {column}) VALUES (?, ?, ?) "
            f"ON CONFLICT (platform, chat) DO UPDATE SET {column} = excluded.{column}",
            platform, chat, value,
        )

    async def get_chat_parent(self, platform: str, chat: str) -> str | None:
        return _text(await self._one("SELECT parent FROM chats WHERE platform = ? AND chat = ?", platform, chat))

    async def get_chat_game(self, platform: str, chat: str) -> str | None:
        return _text(await self._one("SELECT game FROM chats WHERE platform = ? AND chat = ?", platform, chat))

    async def get_chat_letters(self, platform: str, chat: str) -> str | None:
        return _text(await self._one("SELECT letters FROM chats WHERE platform = ? AND chat = ?", platform, chat))

    async def chats_following(self, platform: str, parent: str) -> list[str]:
        rows = await self._rows(
            self._sql("SELECT chat FROM chats WHERE platform = ? AND parent = ? AND language IS NULL "
                      f"ORDER BY chat{self._BINARY}"),
            (platform, parent),
        )
        return [r[0] for r in rows]

    # --- tables and their logs ---

    async def create_table(self, row: TableRow) -> None:
        await self._put(
            "INSERT INTO tables (table_id, platform, chat, creator, status, deadline, created, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            row.table_id, row.platform, row.chat, row.creator, row.status, _real(row.deadline), float(row.created),
            float(row.updated),
        )

    async def set_table_status(self, table_id: str, status: str) -> None:
        await self._put("UPDATE tables SET status = ?, updated = ? WHERE table_id = ?", status, time.time(), table_id)

    async def set_deadline(self, table_id: str, deadline: float | None) -> None:
        await self._put("UPDATE tables SET deadline = ? WHERE table_id = ?", _real(deadline), table_id)

    async def get_table(self, table_id: str) -> TableRow | None:
        rows = await self._rows(self._sql(_TABLE + "WHERE table_id = ?"), (table_id,))
        return TableRow(*rows[0]) if rows else None

    async def unfinished_tables(self) -> list[TableRow]:
        rows = await self._rows(
            _TABLE + f"WHERE status IN ('lobby', 'playing') ORDER BY created, table_id{self._BINARY}"
        )
        return [TableRow(*r) for r in rows]

    async def append_event(self, table_id: str, seq: int, data: JSON) -> None:
        await self._put(
            "INSERT INTO events (table_id, seq, data, at) VALUES (?, ?, ?, ?)",
            table_id, seq, json.dumps(data, separators=(",", ":")), time.time(),
        )

    async def events(self, table_id: str) -> list[Event]:
        rows = await self._rows(self._sql("SELECT seq, data, at FROM events WHERE table_id = ? ORDER BY seq"),
                                (table_id,))
        return [Event(table_id, r[0], json.loads(r[1]), r[2]) for r in rows]

    # --- message ids ---

    async def get_message_ref(self, platform: str, key: str) -> str | None:
        return _text(await self._one("SELECT ref FROM message_refs WHERE platform = ? AND key = ?", platform, key))

    async def set_message_ref(self, platform: str, key: str, ref: str | None) -> None:
        if ref is None:
            await self._put("DELETE FROM message_refs WHERE platform = ? AND key = ?", platform, key)
        else:
            await self._put(
                "INSERT INTO message_refs (platform, key, ref) VALUES (?, ?, ?) "
                "ON CONFLICT (platform, key) DO UPDATE SET ref = excluded.ref",
                platform, key, ref,
            )

    # --- forms in progress ---

    async def get_form(self, platform: str, form_id: str) -> JSON | None:
        value = await self._one("SELECT data FROM forms WHERE platform = ? AND form_id = ?", platform, form_id)
        return None if value is None else dict(json.loads(value))

    async def set_form(self, platform: str, form_id: str, data: JSON | None) -> None:
        if data is None:
            await self._put("DELETE FROM forms WHERE platform = ? AND form_id = ?", platform, form_id)
        else:
            await self._put(
                "INSERT INTO forms (platform, form_id, data, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, form_id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
                platform, form_id, json.dumps(data, ensure_ascii=False, separators=(",", ":")), time.time(),
            )

    async def forget_forms(self, platform: str, before: float) -> int:
        return await self._put("DELETE FROM forms WHERE platform = ? AND updated < ?", platform, float(before))

    # --- the chat's current score sheet (its history and replacement are per backend: they lock differently) ---

    async def get_sheet(self, platform: str, chat: str) -> JSON | None:
        value = await self._one("SELECT data FROM sheets WHERE platform = ? AND chat = ?", platform, chat)
        return None if value is None else dict(json.loads(value))

    async def get_sheet_keeper(self, platform: str, chat: str) -> tuple[str, str] | None:
        rows = await self._rows(
            self._sql("SELECT keeper, keeper_name FROM sheets WHERE platform = ? AND chat = ? AND keeper IS NOT NULL"),
            (platform, chat),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def _sheet_writes(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None
    ) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements that write (or, with None, delete) the chat's sheet, for one transaction."""
        if sheet is None:
            return [(self._sql("DELETE FROM sheets WHERE platform = ? AND chat = ?"), (platform, chat))]
        data = json.dumps(sheet, ensure_ascii=False)
        if keeper is None:  # the keeper stays who it was (nobody, for a new row)
            return [(self._sql(
                "INSERT INTO sheets (platform, chat, data, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, chat) DO UPDATE SET data = excluded.data, updated = excluded.updated"
            ), (platform, chat, data, time.time()))]
        return [(self._sql(
            "INSERT INTO sheets (platform, chat, data, updated, keeper, keeper_name) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (platform, chat) DO UPDATE SET data = excluded.data, updated = excluded.updated, "
            "keeper = excluded.keeper, keeper_name = excluded.keeper_name"
        ), (platform, chat, data, time.time(), keeper[0], keeper[1]))]
