"""/help names what the bot can do now: the games of three and two and the photo of the won cards, in the
reader's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, limits_of, say

POLICY = FloodPolicy().scaled(0.005)
ANA = Person(3301, "Ana", "en")
IVAN = Person(3302, "Ivan", "bg")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in (ANA, IVAN):
            server.add_user(p.user_id, p.name, p.language)
        yield server


async def test_help_names_the_small_tables_and_the_photo_in_each_language(tg: FakeTelegram, tmp_path: Path) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        english = (await say(h, ANA, ANA.user_id, "/help")).text
        assert "/belot bela-3, bela-2 or bela-open" in english and "bulgarian-3" in english
        assert "a photo of the won cards" in english
        # what the scanner reads, and how to have a Bulgarian pack's letters read
        assert "(packs lettered J Q K A or B D K, or В Д П with вдп in the caption, which the chat keeps; not V D R)" \
            in english
        bulgarian = (await say(h, IVAN, IVAN.user_id, "/help")).text
        assert "снимка на взетите карти" in bulgarian and "домашни правила" in bulgarian
        # a Bulgarian pack's letters, how to ask for them, and that the chat keeps them
        assert "или В Д П с вдп в надписа, което чатът запомня" in bulgarian
    finally:
        await h.stop()
