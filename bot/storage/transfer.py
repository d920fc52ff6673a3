"""Copy a SQLite database into a PostgreSQL one (``belote-bot migrate``): every kind of row, unchanged.

Both databases are first brought to the newest schema by their own storage (as ``belote-bot run`` would), so the
columns match. Each kind is streamed with COPY into a temporary table and inserted from there, keeping a row that the
target already has under the same key (its primary key) as it is: a second run moves nothing, and a run cut short
moves the rest the next time. The whole copy is one transaction: it lands whole or not at all.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .base import StorageError
from .postgres import PostgresStorage
from .postgres_schema import FAILURES, reason
from .sqlite import SqliteStorage

# (table, what the report calls its rows), in the order they are moved.
KINDS: Final[tuple[tuple[str, str], ...]] = (
    ("players", "players"),
    ("chats", "chat settings"),
    ("tables", "tables"),
    ("events", "log entries"),
    ("message_refs", "message references"),
    ("sheets", "score sheets"),
    ("old_sheets", "replaced score sheets"),
    ("forms", "forms in progress"),
    ("matches", "finished matches"),
    ("match_players", "statistics lines"),
)
BATCH = 5000


@dataclass(frozen=True, slots=True)
class Moved:
    """One kind of row: how many the SQLite file has, and how many of them were new to PostgreSQL."""

    table: str
    kind: str
    found: int
    moved: int


def _convert(pg_type: str) -> Callable[[Any], Any]:
    """SQLite keeps whatever a column was given; PostgreSQL wants its own types."""
    if pg_type in ("integer", "bigint", "smallint"):
        return lambda v: None if v is None else int(v)
    if pg_type in ("double precision", "real"):
        return lambda v: None if v is None else float(v)
    return lambda v: None if v is None else str(v)


async def copy_sqlite_to_postgres(path: str, url: str) -> list[Moved]:
    """Copy every row of the SQLite file at ``path`` that the PostgreSQL database at ``url`` lacks; what was moved."""
    if not Path(path).is_file():
        raise StorageError(f"there is no SQLite file at {path}")
    source = SqliteStorage(path)
    await source.open()  # the schema brought up to date, as the bot would
    await source.close()
    target = PostgresStorage(url, pool_size=1)
    await target.open()
    try:
        with contextlib.closing(sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)) as reader:
            return await _copy(reader, target)
    except (sqlite3.Error, StorageError, *FAILURES) as exc:
        text = reason(exc) if not isinstance(exc, StorageError) else str(exc)
        raise StorageError(f"the copy failed, so nothing was moved: {text}") from None
    finally:
        await target.close()


async def _copy(reader: sqlite3.Connection, target: PostgresStorage) -> list[Moved]:
    report: list[Moved] = []
    async with target._transaction() as conn:
        for table, kind in KINDS:
            types = {
                r["column_name"]: r["data_type"]
                for r in await conn.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_name = $1 AND table_schema = current_schema()",
                    table,
                )
            }
            columns = [row[1] for row in reader.execute(f"PRAGMA table_info({table})")]
            missing = [c for c in columns if c not in types]
            if missing:
                raise StorageError(f"the PostgreSQL table {table} has no column {', '.join(missing)}")
            found = int(reader.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            listed = ", ".join(columns)
            incoming = f"incoming_{table}"
            await conn.execute(f"CREATE TEMP TABLE {incoming} (LIKE {table}) ON COMMIT DROP")
            records = _rows(reader.execute(f"SELECT {listed} FROM {table}"), [_convert(types[c]) for c in columns])
            await conn.copy_records_to_table(incoming, records=records, columns=columns)
            status = await conn.execute(
                f"INSERT INTO {table} ({listed}) SELECT {listed} FROM {incoming} ON CONFLICT DO NOTHING"
            )
            report.append(Moved(table, kind, found, int(status.rsplit(" ", 1)[-1])))
    return report


def _rows(cursor: sqlite3.Cursor, converters: list[Callable[[Any], Any]]) -> Iterator[tuple[Any, ...]]:
    while batch := cursor.fetchmany(BATCH):
        for row in batch:
            yield tuple(f(v) for f, v in zip(converters, row, strict=True))
