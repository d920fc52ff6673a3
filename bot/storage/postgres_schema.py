"""The PostgreSQL storage's schema: the same versions as the SQLite file's, each written for PostgreSQL, and the
migration that brings a database up to date (one process at a time, under an advisory lock)."""

from __future__ import annotations

from typing import Final

import asyncpg

from .base import StorageError

# Each entry brings the schema from version i to i + 1, as the entry of the same number in sqlite.MIGRATIONS does.
# Never edit a released entry: append a new one (to both lists).
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
        status TEXT NOT NULL, deadline DOUBLE PRECISION, created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL);
    CREATE INDEX tables_by_status ON tables (status);
    CREATE TABLE events (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seq));
    CREATE TABLE message_refs (
        platform TEXT NOT NULL, key TEXT NOT NULL, ref TEXT NOT NULL,
        PRIMARY KEY (platform, key));
    CREATE TABLE sheets (
        platform TEXT NOT NULL, chat TEXT NOT NULL, data TEXT NOT NULL, updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, chat));
    CREATE TABLE matches (
        table_id TEXT PRIMARY KEY, platform TEXT NOT NULL, chat TEXT NOT NULL, record TEXT NOT NULL,
        total_a INTEGER NOT NULL, total_b INTEGER NOT NULL, winner INTEGER, deals INTEGER NOT NULL,
        finished DOUBLE PRECISION NOT NULL);
    CREATE TABLE match_players (
        table_id TEXT NOT NULL, platform TEXT NOT NULL, chat TEXT NOT NULL, user_id TEXT NOT NULL,
        name TEXT NOT NULL, team INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL,
        deals INTEGER NOT NULL, PRIMARY KEY (table_id, user_id));
    CREATE INDEX match_players_by_user ON match_players (platform, user_id);
    CREATE INDEX match_players_by_chat ON match_players (platform, chat);
    """,
    """
    CREATE TABLE forms (
        platform TEXT NOT NULL, form_id TEXT NOT NULL, data TEXT NOT NULL, updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, form_id));
    CREATE INDEX forms_by_age ON forms (platform, updated);
    """,
    """
    ALTER TABLE sheets ADD COLUMN keeper TEXT;
    ALTER TABLE sheets ADD COLUMN keeper_name TEXT NOT NULL DEFAULT '';
    CREATE TABLE old_sheets (
        platform TEXT NOT NULL, chat TEXT NOT NULL, number INTEGER NOT NULL, data TEXT NOT NULL, keeper TEXT,
        keeper_name TEXT NOT NULL, reason TEXT NOT NULL, by_name TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, chat, number));
    ALTER TABLE chats ADD COLUMN parent TEXT;
    """,
    """
    ALTER TABLE chats ADD COLUMN game TEXT;
    ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'bulgarian';
    ALTER TABLE match_players ADD COLUMN game TEXT NOT NULL DEFAULT 'bulgarian';
    """,
    """
    ALTER TABLE chats ADD COLUMN letters TEXT;
    """,
)

# Held while the schema is created or migrated, so two processes starting together migrate once.
SCHEMA_LOCK: Final = 0x62656C6F7465  # "belote"
# What a connection the server dropped raises (a restart, a failover, an administrator, a network cut). The driver
# may leave such a connection in a state it cannot use again (InternalClientError): it is closed, never pooled again,
# and a read that met it is asked again on a new one.
DROPPED: Final = (
    asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError, asyncpg.InterfaceError,
    asyncpg.InternalClientError, OSError,
)
# What a failed statement or a lost connection raises.
FAILURES: Final = (asyncpg.PostgresError, *DROPPED)


async def migrate(pool: asyncpg.Pool, where: str) -> None:
    """Create the schema, or bring it to the newest version; ``where`` names the database in messages."""
    try:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS belote_schema (version INTEGER NOT NULL)")
            version = await conn.fetchval("SELECT version FROM belote_schema")
            if version is None:
                await conn.execute("INSERT INTO belote_schema (version) VALUES (0)")
                version = 0
            if version > len(MIGRATIONS):
                raise StorageError(
                    f"database {where} has schema version {version}, newer than this program knows "
                    f"({len(MIGRATIONS)}); upgrade the program or use another database"
                )
            for target in range(version, len(MIGRATIONS)):
                await conn.execute(MIGRATIONS[target])
                await conn.execute("UPDATE belote_schema SET version = $1", target + 1)
    except FAILURES as exc:
        raise StorageError(f"cannot bring database {where} up to date: {reason(exc)}") from None


def reason(exc: BaseException) -> str:
    """What went wrong, in one line, for a StorageError."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, ConnectionRefusedError | TimeoutError) or "Connect call failed" in text:
        return f"the server did not answer ({text}); is PostgreSQL running there?"
    return text
