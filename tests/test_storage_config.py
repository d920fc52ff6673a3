"""Which database a setting names: a SQLite file or a PostgreSQL URL (BELOTE_DATABASE, else DATABASE_URL), a clear
line for one that is neither, and a URL's password kept out of every message and log line."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import run as run_cli
from bot.config import SettingsProblem, load_settings
from bot.logsafe import redact
from bot.storage.factory import database_password, is_postgres, open_storage
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env
    for name in ("BELOTE_DATABASE", "DATABASE_URL", "BELOTE_TELEGRAM_TOKEN", "BELOTE_DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    "value",
    [
        "postgresql://belote:pw@db.example:5432/belote",
        "postgres://belote@db.example/belote",  # the short scheme some platforms give
        "POSTGRESQL://belote@db.example/belote?sslmode=require",
        "postgresql:///belote?host=/var/run/postgresql",  # a Unix socket named in the query
    ],
)
def test_a_postgresql_url_names_the_server_storage(clean: pytest.MonkeyPatch, value: str) -> None:
    clean.setenv("BELOTE_DATABASE", value)
    database = load_settings().database
    assert database == value and is_postgres(database)
    assert isinstance(open_storage(database), PostgresStorage)


def test_a_file_stays_a_sqlite_file(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean.setenv("BELOTE_DATABASE", str(tmp_path / "postgres.sqlite3"))  # a file may be named anything
    database = load_settings().database
    assert not is_postgres(database) and isinstance(open_storage(database), SqliteStorage)


def test_database_url_is_read_when_belote_database_is_unset(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("DATABASE_URL", "postgres://u:p@db.example:5432/app")
    assert load_settings().database == "postgres://u:p@db.example:5432/app"
    clean.setenv("BELOTE_DATABASE", "postgresql://bot@other.example/belote")  # ours wins
    assert load_settings().database == "postgresql://bot@other.example/belote"
    assert load_settings(None, database="x.sqlite3").database == "x.sqlite3"  # and a command's own choice wins both


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("BELOTE_DATABASE", "mysql://belote:hunter2-secret@db.example/belote", "mysql:// is not a database"),
        ("BELOTE_DATABASE", "postgresql://belote:hunter2-secret@db.example:54x2/belote", "port"),
        ("BELOTE_DATABASE", "postgresql://belote:hunter2-secret@:5432/belote", "names no server"),
        ("DATABASE_URL", "mysql://belote:hunter2-secret@db.example/belote", "DATABASE_URL"),
    ],
)
def test_a_bad_url_gets_one_line_saying_what_is_right_without_the_password(
    clean: pytest.MonkeyPatch, variable: str, value: str, said: str
) -> None:
    clean.setenv(variable, value)
    with pytest.raises(SettingsProblem) as problem:
        load_settings()
    text = str(problem.value)
    assert said in text and "postgresql://user:password@host:5432/database" in text
    assert "hunter2" not in text and "\n" not in text


def test_the_password_is_masked_in_the_log(clean: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://belote:hunter2-secret@127.0.0.1:{closed_port()}/belote"
    assert database_password(url) == "hunter2-secret"
    assert database_password("postgresql://belote@db.example/belote?password=in-the-query") == "in-the-query"
    clean.setenv("BELOTE_DATABASE", url)
    clean.setenv("BELOTE_TELEGRAM_TOKEN", "123456:not-a-real-token")
    assert run_cli.main(argparse.Namespace(bot_pause=0.0)) == 2
    err = capsys.readouterr().err
    assert "hunter2" not in err and "Traceback" not in err
    assert redact(f"connecting to {url}") == f"connecting to {url.replace('hunter2-secret', '[secret]')}"


def test_run_against_a_server_that_is_not_there_says_so_in_one_line(tmp_path: Path) -> None:
    url = f"postgresql://belote:hunter2-secret@127.0.0.1:{closed_port()}/belote"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_") and k != "DATABASE_URL"}
    env |= {"DATABASE_URL": url, "BELOTE_TELEGRAM_TOKEN": "123456:not-a-real-token", "BELOTE_LOG_LEVEL": "DEBUG"}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("belote-bot: cannot open database postgresql://belote@127.0.0.1:")
    assert "is PostgreSQL running there?" in lines[-1] and "(BELOTE_DATABASE)" in lines[-1]
    assert "hunter2" not in done.stderr + done.stdout and "Traceback" not in done.stderr
