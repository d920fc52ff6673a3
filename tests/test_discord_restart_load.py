"""A restart re-renders every table at once: the bot must not burst past Discord's rate limits, and a 429 that
discord.py could not wait out is a warning and a later retry, never an error with a traceback or a lost message."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.adapters.discord.adapter import CHANNEL_SENDS
from tests.discord_fakes import FakeDiscord, FakeUser
from tests.test_discord_adapter import start_bot


async def open_lobbies(fake: FakeDiscord, db: Path, count: int) -> list[dict[str, object]]:
    running = await start_bot(fake, db)
    for n in range(count):  # one person each: a person may have only a few tables open
        opener = FakeUser(fake.next_id(), f"Player {n}", "en-US")
        await fake.command(opener, fake.add_channel(), "belot", "new")
    await running.settle()
    await running.stop()
    return [m for m in fake.messages.values() if m["components"]]


async def test_a_restart_re_renders_many_channels_a_few_requests_at_a_time(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    lobbies = await open_lobbies(fake, db, 12)
    assert len(lobbies) == 12
    fake.slow["PATCH channels"] = 0.1  # each edit takes a while, so edits sent together overlap
    before = len(fake.requests)
    running = await start_bot(fake, db)
    edits = [r for r in fake.requests[before:] if r.method == "PATCH" and r.path.startswith("/channels/")]
    assert len(edits) >= 12, "every lobby was re-rendered"
    assert fake.most_in_flight["PATCH channels"] <= CHANNEL_SENDS
    assert not fake.errors
    await running.stop()


async def test_a_rate_limit_past_discord_py_retries_is_a_warning_and_the_message_goes_out_after(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "belote.sqlite3"
    [lobby] = await open_lobbies(fake, db, 1)
    edited = sum(1 for mid, _ in fake.history if mid == int(str(lobby["id"])))
    fake.rate_limited["PATCH channels"] = 5  # discord.py tries five times, then raises
    caplog.set_level(logging.WARNING)
    running = await start_bot(fake, db)
    await running.settle()
    assert sum(1 for mid, _ in fake.history if mid == int(str(lobby["id"]))) == edited + 1, "re-rendered after all"
    ours = [r for r in caplog.records if r.name.startswith("bot.")]
    assert any("rate limited" in r.getMessage() for r in ours)
    assert all(r.levelno < logging.ERROR and r.exc_info is None for r in ours), [r.getMessage() for r in ours]
    await running.stop()
