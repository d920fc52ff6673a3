"""The database file is private to its owner, and a database path that cannot be a file is one clear line."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage.base import TableRow
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def usual_umask() -> Iterator[None]:
    old = os.umask(0o022)  # what most shells and service managers give: files readable by everyone
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("usual_umask")
async def test_the_database_and_its_wal_and_shm_files_are_created_for_the_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "data" / "belote.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    await storage.create_table(TableRow("t1", "tg", "-1", "7", "lobby", None, 0.0, 0.0))
    await storage.append_event("t1", 1, {"e": "open"})
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    assert wal.exists() and shm.exists()
    assert {p.name: _mode(p) for p in (db, wal, shm)} == {p.name: 0o600 for p in (db, wal, shm)}
    await storage.close()


@pytest.mark.usefixtures("usual_umask")
async def test_an_existing_database_readable_by_others_is_named_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "old.sqlite3"
    sqlite3.connect(db).close()
    db.chmod(0o644)
    storage = SqliteStorage(db)
    await storage.open()
    await storage.close()
    assert f"database {db} is readable by others (mode 644); chmod 600 it" in caplog.text


def _belote(tmp_path: Path, *args: str, database: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
    env["PYTHONPATH"] = str(ROOT)
    if database is not None:
        env["BELOTE_DATABASE"] = database
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [("run",), ("play", "--watch")])
def test_a_database_path_under_a_file_is_one_line_and_exit_2(tmp_path: Path, command: tuple[str, ...]) -> None:
    (tmp_path / "notes.txt").write_text("not a folder\n", encoding="utf-8")
    done = _belote(tmp_path, *command, database=str(tmp_path / "notes.txt" / "belote.sqlite3"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"belote-bot: cannot open database {tmp_path / 'notes.txt' / 'belote.sqlite3'}: ")
    assert last.endswith(f"{tmp_path / 'notes.txt'} is a file, not a folder" + (" (BELOTE_DATABASE)" if
                                                                              command == ("run",) else ""))
