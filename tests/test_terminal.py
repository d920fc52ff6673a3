"""The terminal table through the real host and a SQLite file: watching four bots, playing by typed numbers,
quitting and resuming the same match."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.adapters.terminal import TerminalTable, render_markup
from bot.cli.play import play_terminal
from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import TERMINAL, UserRef
from bot.storage.sqlite import SqliteStorage


async def test_watch_four_bots_to_the_end(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "t.sqlite3")
    await storage.open()
    host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en"))  # type: ignore[call-arg]
    out = io.StringIO()
    terminal = TerminalTable(host, out, ansi=False, language="en")
    await host.start()
    assert await terminal.watch() == 0
    text = out.getvalue()
    assert "Match over" in text and "Deal 1" in text and "**" not in text
    assert await storage.match_record(terminal.table_id) is not None
    await host.close()
    await storage.close()


async def test_play_by_typing_numbers_then_quit_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    prompts: list[str] = []
    typed = iter(["x", "9", "1", "1", "q"])

    async def first_session(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(typed)

    storage = SqliteStorage(db)
    await storage.open()
    host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en"))  # type: ignore[call-arg]
    me = UserRef(TERMINAL, "player", "Ana", "en")
    out = io.StringIO()
    terminal = TerminalTable(host, out, user=me, read_line=first_session, ansi=False, language="en")
    await host.start()
    assert await terminal.play() == 0
    assert "Type a number from 1 to" in out.getvalue()  # "x" and "9" were refused
    assert "The table is saved" in out.getvalue()
    table_id = terminal.table_id
    table = host.table(table_id)
    assert table is not None and table.status == "playing"
    played = table.version
    await host.close()
    await storage.close()

    # A second session resumes the same table and plays it to the end by always taking the first button.
    async def always_first(prompt: str) -> str | None:
        return "1"

    storage = SqliteStorage(db)
    await storage.open()
    host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en"))  # type: ignore[call-arg]
    out = io.StringIO()
    terminal = TerminalTable(host, out, user=me, read_line=always_first, ansi=False, language="en")
    await host.start()
    resumed = host.table(table_id)
    assert resumed is not None and resumed.version == played
    assert await terminal.play() == 0
    assert f"Resuming table {table_id}" in out.getvalue()
    assert "Match over" in out.getvalue()
    await host.close()
    await storage.close()


async def test_play_command_watch_in_bulgarian(tmp_path: Path) -> None:
    status = await play_terminal(str(tmp_path / "p.sqlite3"), watch=True, delay=0.0, language="bg", level="random")
    assert status == 0


def test_markup_is_bold_on_a_terminal_and_plain_elsewhere() -> None:
    assert render_markup("**Deal 1** · x", ansi=False) == "Deal 1 · x"
    assert render_markup("**Deal 1**", ansi=True) == "\033[1mDeal 1\033[0m"


async def test_play_bela_in_the_terminal_by_typing_numbers(tmp_path: Path) -> None:
    """``belote-bot play --game bela``: the person calls and plays by numbers; the deal's calls and trump, the
    talon and the raw-point results are printed, and the match is stored as a Bela record."""
    import random

    rng = random.Random(3)
    prompts: list[str] = []

    async def some_number(prompt: str) -> str | None:
        prompts.append(prompt)
        return "1" if "Enter" in prompt else str(rng.randint(1, 2))

    storage = SqliteStorage(tmp_path / "t.sqlite3")
    await storage.open()
    host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en"))  # type: ignore[call-arg]
    out = io.StringIO()
    me = UserRef(TERMINAL, "player", "Ana", "en")
    terminal = TerminalTable(host, out, user=me, read_line=some_number, ansi=False, language="en", game="bela")
    await host.start()
    assert await terminal.play() == 0
    text = out.getvalue()
    assert "Bela (Croatian)" in text and "Trump: " in text and "Your talon" in text
    assert "Match over" in text and "Written: A " in text
    record = await storage.match_record(terminal.table_id)
    assert record is not None and record["variant"] == "bela"
    assert len(prompts) > 20
    await host.close()
    await storage.close()


async def test_play_command_watches_french_belote(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    status = await play_terminal(str(db), watch=True, delay=0.0, language="fr", level="random", game="french")
    assert status == 0
    storage = SqliteStorage(db)
    await storage.open()
    try:
        assert await storage.player_stats("terminal", "watcher") is None  # nobody played: four bots
        assert await storage.get_chat_game("terminal", "watch") == "french"
    finally:
        await storage.close()
    import json
    import sqlite3

    with sqlite3.connect(db) as conn:
        [(game, record)] = conn.execute("SELECT game, record FROM matches").fetchall()
    assert game == "french" and json.loads(record)["variant"] == "french"


@pytest.mark.parametrize("game", ["bela-3", "bela-2", "bela-open"])
async def test_play_a_game_for_three_or_two_in_the_terminal(tmp_path: Path, game: str) -> None:
    """``belote-bot play --game bela-3`` (and for two): the person calls, discards (two picks, then Confirm) or
    answers the seven exchange, and plays by numbers against bots in the other seats to the end of the match; the
    scores are per player, by name."""
    import random
    import re

    rng = random.Random(game)
    out = io.StringIO()
    chose: list[str] = []

    async def a_number(prompt: str) -> str | None:
        offered = [ln for ln in out.getvalue().splitlines() if ln.startswith("[1]")][-1]
        labels = dict(re.findall(r"\[(\d+)\] ([^\[]+)", offered))
        confirm = [n for n, label in labels.items() if "Confirm the discard" in label]
        chose.append(labels[confirm[0]] if confirm else "")
        return confirm[0] if confirm else rng.choice(sorted(labels))

    storage = SqliteStorage(tmp_path / "t.sqlite3")
    await storage.open()
    host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en"))  # type: ignore[call-arg]
    me = UserRef(TERMINAL, "player", "Ana", "en")
    terminal = TerminalTable(host, out, user=me, read_line=a_number, ansi=False, language="en", game=game)
    await host.start()
    assert await terminal.play() == 0
    text = out.getvalue()
    assert "Match over: " in text and "Final score: Ana " in text and "(A)" not in text
    record = await storage.match_record(terminal.table_id)
    assert record is not None and record["variant"] == game and len(record["seats"]) == (3 if game == "bela-3" else 2)
    if game == "bela-3":
        assert "Choose two cards to discard" in text and any(chose), "Ana discarded with the Confirm prompt"
    await host.close()
    await storage.close()
