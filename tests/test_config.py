"""Settings from the environment and .env, and one clear line (exit 2) for a bad one."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from bot.cli import run as run_cli
from bot.config import OFFICIAL_TELEGRAM_API, SettingsProblem, load_settings


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for key in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "DATABASE", "LANGUAGE", "TURN_SECONDS", "AGENTS"):
        monkeypatch.delenv(f"BELOTE_{key}", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    s = load_settings()
    assert s.telegram_token is None and s.discord_token is None
    assert s.telegram_base_url == OFFICIAL_TELEGRAM_API
    # One database per user wherever the command runs: in the platform's data folder, not the working directory.
    assert s.database == str(tmp_path / "data" / "belote-bot" / "belote.sqlite3")
    assert s.language == "bg" and s.turn_seconds == 60
    assert s.away_policy == "bot_turn" and s.agents == {}


def test_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(
        'BELOTE_TELEGRAM_TOKEN=123:abc\nBELOTE_TURN_SECONDS=45\nBELOTE_AGENTS={"mine": "python mine.py"}\n'
    )
    monkeypatch.setenv("BELOTE_LANGUAGE", "en")
    monkeypatch.setenv("BELOTE_DISCORD_TOKEN", "  ")  # blank is unset
    s = load_settings()
    assert s.telegram_token == "123:abc" and s.turn_seconds == 45 and s.language == "en"
    assert s.discord_token is None
    assert s.agents == {"mine": "python mine.py"}


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("BELOTE_TURN_SECONDS", "soon", "BELOTE_TURN_SECONDS"),
        ("BELOTE_LANGUAGE", "de", "BELOTE_LANGUAGE"),  # a language the bot does not speak
        ("BELOTE_AWAY_POLICY", "nap", "BELOTE_AWAY_POLICY"),
        ("BELOTE_AGENTS", "[1, 2]", "BELOTE_AGENTS"),
        ("BELOTE_TELEGRAM_WEBHOOK_PORT", "70000", "BELOTE_TELEGRAM_WEBHOOK_PORT"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, key: str, value: str, named: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(key, value)
    with pytest.raises(SettingsProblem) as err:
        load_settings()
    text = str(err.value)
    assert named in text and "\n" not in text


def test_every_language_is_a_setting_and_a_wrong_one_names_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    for value, lang in (("hr", "hr"), (" FR ", "fr"), ("en", "en")):
        monkeypatch.setenv("BELOTE_LANGUAGE", value)
        assert load_settings().language == lang
    monkeypatch.setenv("BELOTE_LANGUAGE", "sr")  # a platform code read as Croatian, but not a language of its own
    with pytest.raises(SettingsProblem) as err:
        load_settings()
    assert "BELOTE_LANGUAGE" in str(err.value) and "bg, en, hr, fr" in str(err.value)


def test_run_exits_2_with_one_line_on_a_bad_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BELOTE_TURN_SECONDS", "-5")
    status = run_cli.main(argparse.Namespace(bot_pause=0.0))
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert err.count("\n") == 0 and "BELOTE_TURN_SECONDS" in err and "Traceback" not in err


def test_run_without_tokens_explains_and_plays_a_terminal_match(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BELOTE_TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("BELOTE_DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("BELOTE_DATABASE", str(tmp_path / "run.sqlite3"))
    monkeypatch.setenv("BELOTE_BOT_LEVEL", "random")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    status = run_cli.main(argparse.Namespace(bot_pause=0.0))
    captured = capsys.readouterr()
    assert status == 0
    assert "BELOTE_TELEGRAM_TOKEN" in captured.err
    assert "Край на играта" in captured.out  # four bots played one match, in the default language


def test_run_stops_cleanly_when_told(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With an adapter configured, serve_all runs it and a stop (what SIGTERM sets) ends everything with 0."""
    import sys
    import types

    served: list[str] = []

    async def serve(host: object, settings: object) -> None:
        served.append("up")
        await asyncio.Event().wait()

    fake = types.ModuleType("bot.adapters.telegram")
    fake.serve = serve  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.adapters.telegram", fake)
    settings = load_settings(None, telegram_token="1:x", database=str(tmp_path / "s.sqlite3"))

    async def scenario() -> int:
        stop = asyncio.Event()
        task = asyncio.create_task(run_cli.serve_all(settings, 0.0, stop))
        while not served:
            await asyncio.sleep(0.01)
        stop.set()
        return await task

    assert asyncio.run(scenario()) == 0
    assert served == ["up"]


def test_run_with_a_database_that_is_not_one_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BELOTE_TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("BELOTE_DISCORD_TOKEN", raising=False)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 200)
    monkeypatch.setenv("BELOTE_DATABASE", str(junk))
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    status = run_cli.main(argparse.Namespace(bot_pause=0.0))
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert "cannot open database" in err[-1] and "Traceback" not in "\n".join(err)
