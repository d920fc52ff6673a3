"""The chat calculator gets the protection the command line has: hostile /score lines are explained, not crashes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord_fakes import EPHEMERAL, FakeDiscord, FakeUser
from tests.test_discord_adapter import start_bot


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("hearts " + "1" * 4301 + " 60", "4301 digits"),  # past the interpreter's integer-string limit
        ("hearts 102 " + "9" * 40, "40 digits"),
        ("hearts\ud800 102 60", "surrogate"),  # a JSON escape the gateway may carry
        ("hearts 102 contra_tie=" + "[" * 3000, "must be one of"),
    ],
)
async def test_a_hostile_score_line_on_discord_is_answered_privately(
    fake: FakeDiscord, tmp_path: Path, line: str, said: str
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    reply = fake.reply(await fake.command(boris, channel, "score", line=line))
    assert reply["flags"] & EPHEMERAL
    assert said in reply["content"], reply["content"]
    reply["content"].encode("utf-8")  # sendable text
    assert not fake.errors
    await running.stop()
