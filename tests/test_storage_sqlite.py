"""The SQLite storage on real files: schema versions, logs, message ids, sheets, languages and statistics."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.base import TableRow
from bot.storage.sqlite import MIGRATIONS, SqliteStorage, StorageError


async def opened(path: Path) -> SqliteStorage:
    storage = SqliteStorage(path)
    await storage.open()
    return storage


async def test_a_new_file_gets_the_whole_schema_in_wal_mode(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
    await storage.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = await opened(tmp_path / "db.sqlite3")  # opening twice migrates nothing twice
    await again.close()


async def test_a_newer_schema_or_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StorageError, match="newer than this program"):
        await opened(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StorageError, match="cannot open database"):
        await opened(junk)


async def test_logs_keep_order_and_refuse_a_duplicate_number(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
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


async def test_message_ids_sheets_and_languages_survive_reopening(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
    await storage.set_message_ref("tg", "t1:d1", "-100:55")
    await storage.set_message_ref("tg", "t1:d1", "-100:56")
    await storage.set_message_ref("tg", "t1:lobby", "-100:50")
    await storage.set_message_ref("tg", "t1:lobby", None)
    await storage.set_sheet("tg", "-100", {"lines": [[90, 72]], "teams": ["Ние", "Вие"]})
    await storage.set_player_language("tg", "7", "bg")
    await storage.save_player("tg", "7", "Ана")
    await storage.set_chat_language("tg", "-100", "en")
    await storage.close()
    storage = await opened(tmp_path / "db.sqlite3")
    assert await storage.get_message_ref("tg", "t1:d1") == "-100:56"
    assert await storage.get_message_ref("tg", "t1:lobby") is None
    assert await storage.get_message_ref("dc", "t1:d1") is None
    assert await storage.get_sheet("tg", "-100") == {"lines": [[90, 72]], "teams": ["Ние", "Вие"]}
    assert await storage.get_player_language("tg", "7") == "bg"  # naming a player keeps their language
    assert await storage.get_chat_language("tg", "-100") == "en"
    await storage.set_sheet("tg", "-100", None)
    assert await storage.get_sheet("tg", "-100") is None
    await storage.close()


async def test_finished_matches_give_player_and_chat_statistics(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
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


async def test_a_write_has_committed_when_it_returns(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 1.0, 1.0))
    with sqlite3.connect(tmp_path / "db.sqlite3") as other:
        for seq in range(1, 21):
            await storage.append_event("t1", seq, {"e": "x"})
            # Another process (a restarted host) sees it at once: nothing waits in memory for a later commit.
            assert other.execute("SELECT MAX(seq) FROM events WHERE table_id = 't1'").fetchone()[0] == seq
        # A match and its players' results land together: a failing player row leaves no match behind.
        with pytest.raises(StorageError):
            players = [("7", "A", 0), ("8", None, 1)]  # a name is required
            await storage.save_match("m1", "tg", "-1", {}, players, (1, 0), 0, 1)  # type: ignore[arg-type]
        assert other.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 0
        assert other.execute("SELECT COUNT(*) FROM match_players").fetchone()[0] == 0
    await storage.close()


async def test_a_steady_stream_of_commits_cannot_grow_the_wal_forever(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    storage = await opened(path)
    storage.checkpoint_seconds = 3600.0  # the test runs the checkpoint itself
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 1.0, 1.0))
    written = 0

    async def tables_at_play() -> None:
        nonlocal written
        while True:
            written += 1
            await storage.append_event("t1", written, {"e": "play", "card": "JH"})
            await asyncio.sleep(0)

    writer = asyncio.create_task(tables_at_play())
    checkpointer = await aiosqlite.connect(path)
    await asyncio.sleep(0.05)
    # Every background pass finds frames committed while it ran, so it can never catch up by itself.
    await storage._checkpoint(checkpointer)
    assert len(storage.loop_checkpoints) == 1
    wal = Path(f"{path}-wal")
    size = wal.stat().st_size
    # The writer's next commit finds every frame copied and starts the WAL over: the file does not grow.
    await storage.append_event("t1", written + 1_000_000, {"e": "after"})
    assert wal.stat().st_size <= size
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer
    await checkpointer.close()
    assert written > 10
    await storage.close()


async def test_a_chat_that_got_a_new_id_keeps_its_tables_language_sheet_and_statistics(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
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
    storage = await opened(tmp_path / "db.sqlite3")
    assert (await storage.get_table("t1")).chat == "-1005"  # type: ignore[union-attr]
    await storage.close()


async def test_forms_survive_reopening_until_finished_or_too_old(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "db.sqlite3")
    await storage.set_form("tg", "f1", {"step": "contra", "contract": "hearts"})
    await storage.set_form("tg", "f1", {"step": "declarer", "contract": "hearts"})
    await storage.set_form("tg", "f2", {"step": "contract"})
    await storage.set_form("dc", "f1", {"step": "points"})
    await storage.close()
    storage = await opened(tmp_path / "db.sqlite3")
    assert await storage.get_form("tg", "f1") == {"step": "declarer", "contract": "hearts"}
    assert await storage.get_form("dc", "f1") == {"step": "points"}
    await storage.set_form("tg", "f2", None)
    assert await storage.get_form("tg", "f2") is None
    cutoff = time.time()
    await storage.set_form("tg", "f3", {"step": "valat"})
    with sqlite3.connect(tmp_path / "db.sqlite3") as other:  # f1 was last written a day ago
        other.execute("UPDATE forms SET updated = updated - 86400 WHERE form_id = 'f1'")
    assert await storage.forget_forms("tg", cutoff - 3600) == 1
    assert await storage.get_form("tg", "f1") is None
    assert await storage.get_form("tg", "f3") == {"step": "valat"}
    assert await storage.get_form("dc", "f1") == {"step": "points"}  # another platform's forms are its own
    await storage.close()
