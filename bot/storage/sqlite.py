"""The embedded default storage: one SQLite file in WAL mode, schema migrated by version.

Every write commits on the event loop's own thread, through a plain ``sqlite3`` connection, before the coroutine
returns: an action is durable when ``append_event`` returns, and storing it never waits for a thread or for the
loop's other work. That costs little because commits never wait for the disk: ``synchronous=NORMAL`` skips the
fsync (WAL keeps a killed process safe), and a second connection checkpoints the WAL in the background, so a commit
is one small ``write()`` (15 us p50, 50 us p99 measured). Reads, which can be large (a table's whole log, the
statistics), go through aiosqlite on its thread. Only this one writer connection ever writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Final

import aiosqlite

from .base import JSON, PlayerStats, StorageError
from .sqlite_sheets import SheetTables

log = logging.getLogger(__name__)

__all__ = ["MIGRATIONS", "SqliteStorage", "StorageError"]

# Each entry brings the schema from version i to i + 1. Never edit a released entry: append a new one.
MIGRATIONS: Final[tuple[str, ...]] = (
    """
    CREATE TABLE players (
        platform TEXT NOT NULL, user_id TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', language TEXT,
        PRIMARY KEY (platform, user_id));
    CREATE TABLE chats (
        platform TEXT NOT NULL, chat TEXT NOT NULL, language TEXT,
        PRIMARY KEY (platform, chat));
    CREATE TABLE tables (
        table_id TEXT PRIMARY KEY, platform TEXT NOT NULL, chat TEXT NOT NULL, creator TEXT NOT NULL,
        status TEXT NOT NULL, deadline REAL, created REAL NOT NULL, updated REAL NOT NULL);
    CREATE INDEX tables_by_status ON tables (status);
    CREATE TABLE events (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
    CREATE TABLE message_refs (
        platform TEXT NOT NULL, key TEXT NOT NULL, ref TEXT NOT NULL,
        PRIMARY KEY (platform, key)) WITHOUT ROWID;
    CREATE TABLE sheets (
        platform TEXT NOT NULL, chat TEXT NOT NULL, data TEXT NOT NULL, updated REAL NOT NULL,
        PRIMARY KEY (platform, chat));
    CREATE TABLE matches (
        table_id TEXT PRIMARY KEY, platform TEXT NOT NULL, chat TEXT NOT NULL, record TEXT NOT NULL,
        total_a INTEGER NOT NULL, total_b INTEGER NOT NULL, winner INTEGER, deals INTEGER NOT NULL,
        finished REAL NOT NULL);
    CREATE TABLE match_players (
        table_id TEXT NOT NULL, platform TEXT NOT NULL, chat TEXT NOT NULL, user_id TEXT NOT NULL,
        name TEXT NOT NULL, team INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL,
        deals INTEGER NOT NULL, PRIMARY KEY (table_id, user_id));
    CREATE INDEX match_players_by_user ON match_players (platform, user_id);
    CREATE INDEX match_players_by_chat ON match_players (platform, chat);
    """,
    """
    CREATE TABLE forms (
        platform TEXT NOT NULL, form_id TEXT NOT NULL, data TEXT NOT NULL, updated REAL NOT NULL,
        PRIMARY KEY (platform, form_id)) WITHOUT ROWID;
    CREATE INDEX forms_by_age ON forms (platform, updated);
    """,
    # A sheet's keeper (who started it), the sheets replaced or changed by an undo or a correction (so they can be
    # brought back), and the place a chat belongs to (a Discord channel's server), whose language it follows.
    """
    ALTER TABLE sheets ADD COLUMN keeper TEXT;
    ALTER TABLE sheets ADD COLUMN keeper_name TEXT NOT NULL DEFAULT '';
    CREATE TABLE old_sheets (
        platform TEXT NOT NULL, chat TEXT NOT NULL, number INTEGER NOT NULL, data TEXT NOT NULL, keeper TEXT,
        keeper_name TEXT NOT NULL, reason TEXT NOT NULL, by_name TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (platform, chat, number)) WITHOUT ROWID;
    ALTER TABLE chats ADD COLUMN parent TEXT;
    """,
    # The game a chat chose last (offered by its next /belot), and the game of each finished match (statistics are
    # kept per game; every match stored before this was Bulgarian).
    """
    ALTER TABLE chats ADD COLUMN game TEXT;
    ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'bulgarian';
    ALTER TABLE match_players ADD COLUMN game TEXT NOT NULL DEFAULT 'bulgarian';
    """,
    # The letters on the jacks, queens and kings of the pack a chat's photos show (bot.core.scanflow.LETTERS), as
    # its people last said: a group that plays with a pack lettered В Д П says so once.
    """
    ALTER TABLE chats ADD COLUMN letters TEXT;
    """,
)


class SqliteStorage(SheetTables):
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._writer: sqlite3.Connection | None = None
        self._reader: aiosqlite.Connection | None = None  # None for ":memory:": reads use the writer
        self._checkpointer: asyncio.Task[None] | None = None
        self.checkpoint_seconds = 2.0
        # How long each checkpoint run on the event loop's thread took (seconds), the latest 100: see _checkpoint.
        self.loop_checkpoints: list[float] = []

    # --- lifecycle ---

    async def open(self) -> None:
        memory = self.path == ":memory:"
        if not memory:
            self._create_private()
        try:
            writer = sqlite3.connect(self.path, isolation_level=None)  # transactions are explicit
        except Exception as exc:  # a directory, no permission, ...
            raise StorageError(f"cannot open database {self.path}: {exc}") from None
        try:
            writer.execute("PRAGMA journal_mode=WAL")
            writer.execute("PRAGMA synchronous=NORMAL")
            writer.execute("PRAGMA busy_timeout=5000")
            writer.execute("PRAGMA journal_size_limit=33554432")  # a burst's WAL shrinks back to 32 MiB
            version = int(writer.execute("PRAGMA user_version").fetchone()[0])
        except Exception as exc:  # sqlite3.DatabaseError: not a database, unreadable, ...
            writer.close()
            raise StorageError(f"cannot open database {self.path}: {exc}") from None
        if version > len(MIGRATIONS):
            writer.close()
            raise StorageError(
                f"database {self.path} has schema version {version}, newer than this program knows "
                f"({len(MIGRATIONS)}); upgrade the program or use another file"
            )
        try:
            for target in range(version, len(MIGRATIONS)):
                writer.executescript(f"BEGIN;\n{MIGRATIONS[target]}\nPRAGMA user_version={target + 1};\nCOMMIT;")
        except Exception as exc:
            writer.close()
            raise StorageError(f"cannot bring database {self.path} up to date: {exc}") from None
        self._writer = writer
        if memory:
            return
        try:
            reader = await aiosqlite.connect(self.path)
            await reader.execute("PRAGMA query_only=1")  # one writer, always: no lock waits between our own
            await reader.execute("PRAGMA busy_timeout=5000")
        except Exception as exc:
            writer.close()
            self._writer = None
            raise StorageError(f"cannot open database {self.path}: {exc}") from None
        self._reader = reader
        # Checkpoint the WAL from a third connection in the background (PASSIVE never blocks the writer), so no
        # player's action waits for a checkpoint inside its commit.
        writer.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer = asyncio.create_task(self._checkpoint_loop())

    def _create_private(self) -> None:
        """Make the database's folder, and the file itself readable and writable by its owner only (0600): it holds
        every hand, every match's seed and the players' ids. SQLite gives the -wal and -shm files the database
        file's mode."""
        path = Path(self.path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            blocker = next((p for p in reversed(path.parents) if p.exists() and not p.is_dir()), path.parent)
            raise StorageError(f"cannot open database {self.path}: {blocker} is a file, not a folder") from None
        except OSError as exc:
            raise StorageError(f"cannot open database {self.path}: cannot make its folder: {exc.strerror}") from None
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            mode = path.stat().st_mode & 0o777 if path.is_file() else 0
            if mode & 0o077:
                log.warning("database %s is readable by others (mode %o); chmod 600 it", self.path, mode)
        except OSError:
            pass  # sqlite3.connect below says what is wrong (a folder, no permission, ...)

    async def _checkpoint_loop(self) -> None:
        checkpointer = await aiosqlite.connect(self.path)
        try:
            await checkpointer.execute("PRAGMA busy_timeout=5000")
            while True:
                await asyncio.sleep(self.checkpoint_seconds)
                with contextlib.suppress(Exception):  # a busy database just waits for the next round
                    await self._checkpoint(checkpointer)
        finally:
            with contextlib.suppress(Exception):
                await checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            await checkpointer.close()

    async def _checkpoint(self, checkpointer: aiosqlite.Connection) -> None:
        # The writer starts the WAL over only at a commit that finds every frame copied into the database. Passes
        # from this connection copy what was there when they began; while tables keep committing they chase the
        # writer, so pass again until a pass finds nothing new.
        before = -1
        for _ in range(4):
            rows = list(await checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))
            logged = int(rows[0][1])
            if logged <= before:
                return  # nothing new since the last pass (or the WAL started over): caught up
            before = logged
        # Still chased by a stream of commits (a saturated host): copy the few frames left from the writer's own
        # thread, between two commits, so the next commit starts the WAL over and it cannot grow without bound.
        started = time.perf_counter()
        self.writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.loop_checkpoints.append(time.perf_counter() - started)
        del self.loop_checkpoints[:-100]  # the latest ones are enough to see what they cost

    async def close(self) -> None:
        if self._writer is None:
            return
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        self._writer.close()  # the last connection out checkpoints the WAL into the file
        self._writer = None

    async def flush(self) -> None:
        """Nothing to wait for: every write has committed by the time it returns."""
        self.writer  # noqa: B018 - fail when closed, as a write would

    @property
    def writer(self) -> sqlite3.Connection:
        if self._writer is None:
            raise StorageError("the storage is not open")
        return self._writer

    # --- writes: committed before they return ---

    async def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        return self._transaction([(sql, params)])

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> int:
        """Run the statements as one transaction, committed before this returns; how many rows they changed."""
        conn = self.writer
        changed = 0
        try:
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                changed += max(conn.execute(sql, params).rowcount, 0)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StorageError(f"database write failed: {exc}") from None
        return changed

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._reader is None:
            return self.writer.execute(sql, params).fetchall()  # ":memory:" is one connection's own database
        return list(await self._reader.execute_fetchall(sql, params))

    # players, chats, tables, logs, message ids and forms: bot.storage.sql.SharedStatements

    # --- a chat that got a new id ---

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        # A chat key is the chat id, or "<chat id>/<thread id>": both forms move, the thread part kept. Where the new
        # chat already has a row of its own (a language chosen there since), that one stays and the old one goes.
        in_old = "platform = ? AND (chat = ? OR substr(chat, 1, length(?) + 1) = ? || '/')"
        where = (platform, old_chat, old_chat, old_chat)
        renamed = "chat = ? || substr(chat, length(?) + 1)"
        statements: list[tuple[str, tuple[Any, ...]]] = self._move_sheets(platform, old_chat, new_chat, in_old, where)
        for table in ("chats", "sheets"):
            statements.append((f"UPDATE OR IGNORE {table} SET {renamed} WHERE {in_old}", (new_chat, old_chat, *where)))
            statements.append((f"DELETE FROM {table} WHERE {in_old}", where))
        for table in ("tables", "matches", "match_players"):
            statements.append((f"UPDATE {table} SET {renamed} WHERE {in_old}", (new_chat, old_chat, *where)))
        self._transaction(statements)

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
        # The match and its players' results land together or not at all.
        self._transaction([
            (
                "INSERT OR REPLACE INTO matches (table_id, platform, chat, record, total_a, total_b, winner, deals, "
                "finished, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, platform, chat, json.dumps(record), totals[0], totals[1], winner, deals, time.time(), game),
            ),
            *(
                (
                    "INSERT OR REPLACE INTO match_players (table_id, platform, chat, user_id, name, team, won, points, "
                    "deals, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, platform, chat, user_id, name, team, int(winner == team), totals[team], deals, game),
                )
                for user_id, name, team in players
            ),
        ])

    async def match_record(self, table_id: str) -> JSON | None:
        rows = await self._rows("SELECT record FROM matches WHERE table_id = ?", (table_id,))
        return json.loads(rows[0][0]) if rows else None

    _STATS = (
        "SELECT platform, user_id, MAX(name), COUNT(*), SUM(won), SUM(points), SUM(deals) FROM match_players "
    )

    async def player_stats(
        self, platform: str, user_id: str, chat: str | None = None, game: str | None = None
    ) -> PlayerStats | None:
        sql = self._STATS + "WHERE platform = ? AND user_id = ?"
        params: tuple[Any, ...] = (platform, user_id)
        if chat is not None:
            sql += " AND chat = ?"
            params += (chat,)
        if game is not None:
            sql += " AND game = ?"
            params += (game,)
        rows = await self._rows(sql + " GROUP BY platform, user_id", params)
        if not rows:
            return None
        r = rows[0]
        return PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5], r[6])

    async def top_players(
        self, platform: str, chat: str, limit: int = 10, game: str | None = None
    ) -> list[PlayerStats]:
        where, params = "WHERE platform = ? AND chat = ?", [platform, chat]
        if game is not None:
            where, params = where + " AND game = ?", [*params, game]
        rows = await self._rows(
            self._STATS + where + " GROUP BY platform, user_id "
            "ORDER BY SUM(won) DESC, CAST(SUM(won) AS REAL) / COUNT(*) DESC, MAX(name) LIMIT ?",
            (*params, limit),
        )
        return [PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
