"""The storage on both backends, a real SQLite file and a real PostgreSQL database (the ``database`` fixture): schema
versions, logs, message ids, sheets, languages, forms and statistics; then what is SQLite's or PostgreSQL's own."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import time
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import postgres_schema
from bot.storage.base import StorageError, TableRow
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import MIGRATIONS, SqliteStorage
from tests.pgserver import PgServer
from tests.storage_backends import opened, peek, poke


def test_both_backends_know_the_same_schema_versions() -> None:
    assert len(postgres_schema.MIGRATIONS) == len(MIGRATIONS)


async def sqlite_opened(path: Path) -> SqliteStorage:
    storage = SqliteStorage(path)
    await storage.open()
    return storage


async def test_a_new_file_gets_the_whole_schema_in_wal_mode(tmp_path: Path) -> None:
    storage = await sqlite_opened(tmp_path / "db.sqlite3")
    await storage.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = await sqlite_opened(tmp_path / "db.sqlite3")  # opening twice migrates nothing twice
    await again.close()


async def test_a_newer_schema_or_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StorageError, match="newer than this program"):
        await sqlite_opened(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StorageError, match="cannot open database"):
        await sqlite_opened(junk)


async def test_logs_keep_order_and_refuse_a_duplicate_number(database: str) -> None:
    storage = await opened(database)
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 1.0, 1.0))
    await asyncio.gather(*(storage.append_event("t1", i, {"e": "x", "i": i}) for i in range(1, 51)))
    events = await storage.events("t1")
    assert [e.seq for e in events] == list(range(1, 51))
    assert events[4].data == {"e": "x", "i": 5}
    with pytest.raises(StorageError):
        await storage.append_event("t1", 3, {"e": "again"})
    # A failed write does not poison the writes that follow.
    await storage.append_event("t1", 51, {"e": "after"})
    assert (await storage.events("t1"))[-1].data == {"e": "after"}
    await storage.set_deadline("t1", 123.5)
    await storage.set_table_status("t1", "playing")
    row = await storage.get_table("t1")
    assert row is not None and row.deadline == 123.5 and row.status == "playing"
    assert [r.table_id for r in await storage.unfinished_tables()] == ["t1"]
    await storage.set_table_status("t1", "finished")
    assert await storage.unfinished_tables() == []
    await storage.close()


async def test_message_ids_sheets_and_languages_survive_reopening(database: str) -> None:
    storage = await opened(database)
    await storage.set_message_ref("tg", "t1:d1", "-100:55")
    await storage.set_message_ref("tg", "t1:d1", "-100:56")
    await storage.set_message_ref("tg", "t1:lobby", "-100:50")
    await storage.set_message_ref("tg", "t1:lobby", None)
    await storage.set_sheet("tg", "-100", {"lines": [[90, 72]], "teams": ["Ние", "Вие"]})
    await storage.set_player_language("tg", "7", "bg")
    await storage.save_player("tg", "7", "Ана")
    await storage.set_chat_language("tg", "-100", "en")
    await storage.close()
    storage = await opened(database)
    assert await storage.get_message_ref("tg", "t1:d1") == "-100:56"
    assert await storage.get_message_ref("tg", "t1:lobby") is None
    assert await storage.get_message_ref("dc", "t1:d1") is None
    assert await storage.get_sheet("tg", "-100") == {"lines": [[90, 72]], "teams": ["Ние", "Вие"]}
    assert await storage.get_player_language("tg", "7") == "bg"  # naming a player keeps their language
    assert await storage.get_chat_language("tg", "-100") == "en"
    await storage.set_sheet("tg", "-100", None)
    assert await storage.get_sheet("tg", "-100") is None
    await storage.close()


async def test_finished_matches_give_player_and_chat_statistics(database: str) -> None:
    storage = await opened(database)
    record = {"format": "belote-record/1", "deals": []}
    await storage.save_match("m1", "tg", "-1", record, [("7", "Ana", 0), ("8", "Boris", 1)], (160, 90), 0, 12)
    await storage.save_match("m2", "tg", "-1", record, [("7", "Ana", 1)], (155, 120), 0, 10)
    await storage.save_match("m3", "tg", "-2", record, [("7", "Ana", 0)], (151, 10), 0, 5)
    ana = await storage.player_stats("tg", "7")
    assert ana is not None and (ana.matches, ana.wins, ana.points, ana.deals) == (3, 2, 160 + 120 + 151, 27)
    in_chat = await storage.player_stats("tg", "7", "-1")
    assert in_chat is not None and (in_chat.matches, in_chat.wins) == (2, 1)
    top = await storage.top_players("tg", "-1")
    assert [p.name for p in top] == ["Ana", "Boris"]
    assert await storage.match_record("m1") == record
    assert await storage.player_stats("tg", "nobody") is None
    await storage.close()


async def test_a_write_has_committed_when_it_returns(database: str) -> None:
    storage = await opened(database)
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 1.0, 1.0))
    for seq in range(1, 21):
        await storage.append_event("t1", seq, {"e": "x"})
        # Another process (a restarted host) sees it at once: nothing waits in memory for a later commit.
        assert await peek(database, "SELECT MAX(seq) FROM events WHERE table_id = 't1'") == seq
    # A match and its players' results land together: a failing player row leaves no match behind.
    with pytest.raises(StorageError):
        players = [("7", "A", 0), ("8", None, 1)]  # a name is required
        await storage.save_match("m1", "tg", "-1", {}, players, (1, 0), 0, 1)  # type: ignore[arg-type]
    assert await peek(database, "SELECT COUNT(*) FROM matches") == 0
    assert await peek(database, "SELECT COUNT(*) FROM match_players") == 0
    await storage.close()


async def test_a_steady_stream_of_commits_cannot_grow_the_wal_forever(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    storage = await sqlite_opened(path)
    storage.checkpoint_seconds = 3600.0  # the test runs the checkpoint itself
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 1.0, 1.0))
    # On a saturated host tables commit while every background pass runs, so no pass catches up. That is made to happen
    # every time here, not by chance: a table commits before each pass, and a reader's old snapshot keeps each pass
    # from copying the new frames (so the WAL cannot start over) until the last pass, when the reader is done.
    reader = await aiosqlite.connect(path)
    await reader.execute("BEGIN")
    await reader.execute_fetchall("SELECT COUNT(*) FROM sqlite_master")
    checkpointer = await aiosqlite.connect(path)
    passes: list[int] = []

    class Chased:
        async def execute_fetchall(self, sql: str) -> list[tuple[int, ...]]:
            await storage.append_event("t1", len(passes) + 1, {"e": "play", "card": "JH"})
            rows = [tuple(row) for row in await checkpointer.execute_fetchall(sql)]
            passes.append(int(rows[0][1]))
            if len(passes) == 4:
                await reader.rollback()
            return rows

    try:
        await storage._checkpoint(Chased())  # type: ignore[arg-type]
        assert len(passes) == 4 and passes == sorted(set(passes))  # every pass found more frames than the last
        # so the last frames were copied from the writer's own thread
        assert len(storage.loop_checkpoints) == 1
        wal = Path(f"{path}-wal")
        size = wal.stat().st_size
        # The writer's next commit finds every frame copied and starts the WAL over: the file does not grow.
        await storage.append_event("t1", 1_000_000, {"e": "after"})
        assert wal.stat().st_size <= size
    finally:  # a failed check must not leave connections' threads keeping the test run alive
        await reader.close()
        await checkpointer.close()
        await storage.close()


async def test_a_chat_that_got_a_new_id_keeps_its_tables_language_sheet_and_statistics(database: str) -> None:
    storage = await opened(database)
    await storage.create_table(TableRow("t1", "tg", "-5", "7", "playing", None, 1.0, 1.0))
    await storage.create_table(TableRow("t2", "tg", "-55", "7", "lobby", None, 2.0, 2.0))  # another chat, same digits
    await storage.create_table(TableRow("t3", "dc", "-5", "7", "lobby", None, 3.0, 3.0))  # another platform
    await storage.set_chat_language("tg", "-5", "en")
    await storage.set_sheet("tg", "-5", {"lines": [[90, 72]]})
    await storage.save_match("m1", "tg", "-5", {"deals": []}, [("7", "Ana", 0)], (160, 90), 0, 12)
    await storage.move_chat("tg", "-5", "-1005")
    await storage.move_chat("tg", "-5", "-1005")  # the second signal of the same move changes nothing
    rows = {r.table_id: r.chat for r in await storage.unfinished_tables()}
    assert rows == {"t1": "-1005", "t2": "-55", "t3": "-5"}
    assert await storage.get_chat_language("tg", "-1005") == "en"
    assert await storage.get_chat_language("tg", "-5") is None
    assert await storage.get_sheet("tg", "-1005") == {"lines": [[90, 72]]}
    assert await storage.get_sheet("tg", "-5") is None
    top = await storage.top_players("tg", "-1005")
    assert [(p.name, p.wins) for p in top] == [("Ana", 1)]
    assert await storage.top_players("tg", "-5") == []
    # A language chosen in the new chat before the move was seen stays; the old chat's topics move with it.
    await storage.set_chat_language("tg", "-6", "en")
    await storage.set_chat_language("tg", "-1006", "bg")
    await storage.set_sheet("tg", "-6/12", {"lines": []})
    await storage.move_chat("tg", "-6", "-1006")
    assert await storage.get_chat_language("tg", "-1006") == "bg"
    assert await storage.get_chat_language("tg", "-6") is None
    assert await storage.get_sheet("tg", "-1006/12") == {"lines": []}
    await storage.close()
    storage = await opened(database)
    assert (await storage.get_table("t1")).chat == "-1005"  # type: ignore[union-attr]
    await storage.close()


async def test_forms_survive_reopening_until_finished_or_too_old(database: str) -> None:
    storage = await opened(database)
    await storage.set_form("tg", "f1", {"step": "contra", "contract": "hearts"})
    await storage.set_form("tg", "f1", {"step": "declarer", "contract": "hearts"})
    await storage.set_form("tg", "f2", {"step": "contract"})
    await storage.set_form("dc", "f1", {"step": "points"})
    await storage.close()
    storage = await opened(database)
    assert await storage.get_form("tg", "f1") == {"step": "declarer", "contract": "hearts"}
    assert await storage.get_form("dc", "f1") == {"step": "points"}
    await storage.set_form("tg", "f2", None)
    assert await storage.get_form("tg", "f2") is None
    cutoff = time.time()
    await storage.set_form("tg", "f3", {"step": "valat"})
    await poke(database, "UPDATE forms SET updated = updated - 86400 WHERE form_id = 'f1'")  # a day ago
    assert await storage.forget_forms("tg", cutoff - 3600) == 1
    assert await storage.get_form("tg", "f1") is None
    assert await storage.get_form("tg", "f3") == {"step": "valat"}
    assert await storage.get_form("dc", "f1") == {"step": "points"}  # another platform's forms are its own
    await storage.close()


async def test_two_appends_of_the_same_number_at_the_same_instant_store_one(database: str) -> None:
    # Two presses that reach the log together: one wins the number, the other is refused; nothing is lost or doubled.
    storage = await opened(database)
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "playing", None, 1.0, 1.0))
    await storage.append_event("t1", 1, {"e": "start"})
    for seq in range(2, 12):
        results = await asyncio.gather(
            storage.append_event("t1", seq, {"e": "play", "by": "Ana"}),
            storage.append_event("t1", seq, {"e": "play", "by": "Boris"}),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["NoneType", "StorageError"]
    events = await storage.events("t1")
    assert [e.seq for e in events] == list(range(1, 12))
    assert await peek(database, "SELECT COUNT(*) FROM events") == 11
    await storage.close()


async def test_a_closed_storage_says_so(database: str) -> None:
    storage = await opened(database)
    await storage.close()
    await storage.close()  # closing twice is harmless
    with pytest.raises(StorageError, match="not open"):
        await storage.append_event("t1", 1, {"e": "x"})
    with pytest.raises(StorageError, match="not open"):
        await storage.flush()


async def test_many_tables_write_at_once_and_each_log_stays_whole(database: str) -> None:
    storage = await opened(database)

    async def table(n: int) -> None:
        await storage.create_table(TableRow(f"t{n}", "tg", f"-{n}", "7", "playing", None, float(n), float(n)))
        for seq in range(1, 21):
            await storage.append_event(f"t{n}", seq, {"e": "play", "table": n, "seq": seq})
            await storage.set_message_ref("tg", f"t{n}:hand", f"{n}:{seq}")

    await asyncio.gather(*(table(n) for n in range(30)))
    for n in range(30):
        assert [e.data["seq"] for e in await storage.events(f"t{n}")] == list(range(1, 21))
        assert await storage.get_message_ref("tg", f"t{n}:hand") == f"{n}:20"
    assert [r.table_id for r in await storage.unfinished_tables()] == [f"t{n}" for n in range(30)]
    await storage.close()


# --- PostgreSQL's own ---


async def test_a_new_postgresql_database_gets_the_whole_schema_once(postgres_url: str) -> None:
    first, second = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await asyncio.gather(first.open(), second.open())  # two processes starting together migrate once
    assert await first.schema_version() == len(MIGRATIONS)
    assert await peek(postgres_url, "SELECT COUNT(*) FROM belote_schema") == 1
    await first.close()
    await second.close()
    again = PostgresStorage(postgres_url)
    await again.open()
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_a_postgresql_database_of_an_older_version_is_migrated_and_keeps_its_rows(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:  # a database written by the release before forms, sheet keepers and games
        await conn.execute("CREATE TABLE belote_schema (version INTEGER); INSERT INTO belote_schema VALUES (1)")
        await conn.execute(postgres_schema.MIGRATIONS[0])
        await conn.execute("INSERT INTO sheets VALUES ('tg', '-5', '{\"lines\": []}', 0)")
        await conn.execute("INSERT INTO matches VALUES ('m1', 'tg', '-5', '{}', 160, 90, 0, 12, 0)")
        await conn.execute("INSERT INTO match_players VALUES ('m1', 'tg', '-5', '7', 'Ana', 0, 1, 160, 12)")
    finally:
        await conn.close()
    storage = await opened(postgres_url)
    assert await storage.get_sheet("tg", "-5") == {"lines": []}
    assert await storage.get_sheet_keeper("tg", "-5") is None
    stats = await storage.player_stats("tg", "7", game="bulgarian")
    assert stats is not None and (stats.matches, stats.wins, stats.points) == (1, 1, 160)
    await storage.set_form("tg", "f1", {"step": "points"})
    assert await storage.get_form("tg", "f1") == {"step": "points"}
    await storage.close()


async def test_a_newer_postgresql_schema_is_refused(postgres_url: str) -> None:
    await poke(postgres_url, f"CREATE TABLE belote_schema (version INTEGER); "
                             f"INSERT INTO belote_schema VALUES ({len(MIGRATIONS) + 1})")
    with pytest.raises(StorageError, match="newer than this program"):
        await opened(postgres_url)


async def test_a_server_that_is_not_there_or_refuses_us_gets_a_clear_error_without_the_password(
    postgres_url: str,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    nobody = f"postgresql://belote:hunter2-secret@127.0.0.1:{port}/belote"
    with pytest.raises(StorageError) as refused:
        await opened(nobody)
    assert "hunter2" not in str(refused.value)
    assert f"127.0.0.1:{port}/belote" in str(refused.value) and "is PostgreSQL running there?" in str(refused.value)
    missing = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(StorageError, match='database "no_such_database" does not exist'):
        await opened(missing)


async def test_a_server_that_goes_away_fails_the_write_and_the_storage_recovers(
    postgres_server: PgServer, postgres_url: str
) -> None:
    storage = await opened(postgres_url)
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "playing", None, 1.0, 1.0))
    await storage.append_event("t1", 1, {"e": "start"})
    name = postgres_url.rsplit("/", 1)[1]
    # An administrator ends every session of the bot (a failover of the server, a restart, a network cut).
    postgres_server.psql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        await storage.append_event("t1", 2, {"e": "play"})
    except StorageError:  # the write that meets the dead connection fails; the host answers so and it is retried
        await storage.append_event("t1", 2, {"e": "play"})
    for seq in (3, 4):  # the pool has opened new connections
        await storage.append_event("t1", seq, {"e": "play"})
    assert [e.seq for e in await storage.events("t1")] == [1, 2, 3, 4]
    await storage.close()
