"""`belote-bot migrate`: a SQLite file written by the real bot (a finished match, a table killed mid-deal, sheets
and their history, forms, languages, message references, statistics) moves into a real PostgreSQL database row for
row; a second run moves nothing and says so; the bot on PostgreSQL then finishes the killed table."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.storage.transfer import KINDS
from tests.storage_backends import fetch, opened, poke

ROOT = Path(__file__).resolve().parent.parent
ENV = {**{k: v for k, v in os.environ.items() if k not in ("BELOTE_DATABASE", "DATABASE_URL")},
       "PYTHONPATH": str(ROOT)}
KEYS = {  # each table's rows in one order on both databases
    "players": "platform, user_id", "chats": "platform, chat", "tables": "table_id", "events": "table_id, seq",
    "message_refs": "platform, key", "sheets": "platform, chat", "old_sheets": "platform, chat, number",
    "forms": "platform, form_id", "matches": "table_id", "match_players": "table_id, user_id",
}


def worker(database: str, pause: float) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.recovery_worker", database, str(pause)], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def migrate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate", *args], cwd=ROOT, env=env or ENV,
                          capture_output=True, text=True, timeout=120)


def rows(database: str, table: str) -> list[tuple[object, ...]]:
    return fetch(database, f"SELECT * FROM {table} ORDER BY {KEYS[table]}")


def a_bot_database(path: Path) -> str:
    """A SQLite file as the bot leaves it: one match played to the end, one table killed in its first deal."""
    db = str(path)
    finished = worker(db, 0.0)
    out, err = finished.communicate(timeout=120)
    assert finished.returncode == 0 and "finished" in out, err
    killed = worker(db, 0.02)
    assert killed.stdout is not None and killed.stdout.readline().startswith("opened ")
    deadline = time.monotonic() + 30
    plays = "SELECT COUNT(*) FROM events WHERE data LIKE '%\"play\"%'"
    while time.monotonic() < deadline and fetch(db, plays)[0][0] < 40:  # the first match's 32 cards, then some
        time.sleep(0.02)
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait(10)

    async def the_rest() -> None:
        storage = await opened(db)
        await storage.save_player("telegram", "7", "Ана")
        await storage.set_player_language("telegram", "7", "bg")
        await storage.set_chat_language("telegram", "-100", "en")
        await storage.set_chat_parent("discord", "c1", "g1")
        await storage.set_chat_game("telegram", "-100", "bela")
        await storage.set_message_ref("telegram", "t1:hand", "-100:55")
        await storage.set_sheet("telegram", "-100", {"lines": [[90, 72]], "teams": ["Ние", "Вие"]}, ("7", "Ана"))
        await storage.replace_sheet("telegram", "-100", {"lines": []}, None, "undo", "Ана")
        await storage.set_form("telegram", "f1", {"step": "contra", "contract": "купа"})
        await storage.save_match("m1", "telegram", "-100", {"deals": []}, [("7", "Ана", 0), ("8", "Боби", 1)],
                                 (160, 90), 0, 12)
        await storage.close()

    asyncio.run(the_rest())
    return db


def test_migrate_moves_every_row_once_and_the_bot_goes_on_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    db = a_bot_database(tmp_path / "belote.sqlite3")
    found = {table: rows(db, table) for table, _ in KINDS}
    assert all(found.values()), [t for t, r in found.items() if not r]  # every kind has rows to move

    done = migrate("--from", db, "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    for table, kind in KINDS:
        assert re.search(rf"^  {kind} +{len(found[table])} moved$", done.stdout, re.MULTILINE), (kind, done.stdout)
    total = sum(len(r) for r in found.values())
    assert f"moved {total} rows; 0 were already there" in done.stdout
    for table, _ in KINDS:
        assert rows(postgres_url, table) == found[table], table

    again = migrate("--from", db, "--to", postgres_url)
    assert again.returncode == 0, again.stderr
    assert f"nothing to move: all {total} rows of {db} are already there" in again.stdout
    assert sum(len(rows(postgres_url, table)) for table, _ in KINDS) == total

    # The table killed in the SQLite file goes on from its log, now on PostgreSQL.
    [(table_id,)] = fetch(postgres_url, "SELECT table_id FROM tables WHERE status = 'playing'")
    resumed = worker(postgres_url, 0.0)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"recovered {table_id}" in out and f"finished {table_id}" in out
    assert fetch(postgres_url, f"SELECT COUNT(*) FROM matches WHERE table_id = '{table_id}'") == [(1,)]


def test_rows_postgresql_already_has_are_kept_and_counted(tmp_path: Path, postgres_url: str) -> None:
    db = str(tmp_path / "belote.sqlite3")

    async def fill() -> None:
        source = await opened(db)
        for n in range(5):
            await source.set_message_ref("telegram", f"k{n}", f"sqlite-{n}")
        await source.close()
        target = await opened(postgres_url)  # the bot already ran on PostgreSQL and wrote one of the same keys
        await target.set_message_ref("telegram", "k2", "postgres-2")
        await target.close()

    asyncio.run(fill())
    done = migrate("--from", db, "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^  message references +4 moved \(1 already there\)$", done.stdout, re.MULTILINE), done.stdout
    assert fetch(postgres_url, "SELECT ref FROM message_refs WHERE key = 'k2'") == [("postgres-2",)]
    assert len(fetch(postgres_url, "SELECT * FROM message_refs")) == 5


def test_migrate_takes_its_target_from_the_settings_and_explains_bad_usage(
    tmp_path: Path, postgres_url: str
) -> None:
    db = str(tmp_path / "belote.sqlite3")
    asyncio.run(poke(db, "CREATE TABLE unrelated (x)"))  # a SQLite file of ours gets our schema on the way
    done = migrate("--from", db, env={**ENV, "DATABASE_URL": postgres_url})
    assert done.returncode == 0 and "nothing to move: all 0 rows" in done.stdout, done.stderr

    cases = [
        ((("--from", db, "--to", str(tmp_path / "other.sqlite3")), {}), "--to must be a PostgreSQL URL"),
        ((("--from", db), {"BELOTE_DATABASE": str(tmp_path / "x.sqlite3")}), "name the PostgreSQL database: --to"),
        ((("--from", str(tmp_path / "missing.sqlite3"), "--to", postgres_url), {}), "there is no SQLite file at"),
        ((("--from", postgres_url, "--to", postgres_url), {}), "--from must be a SQLite file"),
        ((("--from", db, "--to", "postgresql://u:hunter2-secret@127.0.0.1:1/x"), {}), "is PostgreSQL running there?"),
    ]
    for (args, extra), said in cases:
        bad = migrate(*args, env={**ENV, **extra})
        assert bad.returncode == 2 and said in bad.stderr, (args, bad.stderr)
        assert "Traceback" not in bad.stderr and "hunter2" not in bad.stderr + bad.stdout
    assert not (tmp_path / "missing.sqlite3").exists()  # a mistyped file is not created


@pytest.mark.parametrize("junk", [b"not a database at all" * 100])
def test_a_file_that_is_not_a_database_moves_nothing(tmp_path: Path, postgres_url: str, junk: bytes) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(junk)
    done = migrate("--from", str(path), "--to", postgres_url)
    assert done.returncode == 2 and "cannot open database" in done.stderr and "Traceback" not in done.stderr
