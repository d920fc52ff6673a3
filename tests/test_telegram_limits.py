"""Command limits: a person, or a whole chat, sending commands faster than the limits get one short answer, then
silence until the window has room again, so the group's message budget stays for the table."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.adapters.telegram.outbox import FloodPolicy
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import REAL_COMMAND_LIMITS, Harness, Person, limits_of

GROUP = -100707
POLICY = FloodPolicy().scaled(0.005)
PEOPLE = [Person(7700 + i, f"P{i}", "en") for i in range(6)]
SLOW_DOWN = "Too many commands: I will answer again in a minute."


def replies(tg: FakeTelegram) -> list[str]:
    return [m.text for m in tg.in_chat(GROUP)]


async def test_sixty_rules_from_one_member_get_five_answers_and_one_warning(tmp_path: Path) -> None:
    async with FakeTelegram(limits_of(POLICY)) as tg:
        for p in PEOPLE:
            tg.add_user(p.user_id, p.name, p.language)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en", **REAL_COMMAND_LIMITS)  # 5 a person
        await h.start()
        try:
            tg.send_text(PEOPLE[0].user_id, GROUP, "/belot")
            await h.settle()
            shown = len(replies(tg))
            # One at a time, each answered before the next: identical replies waiting together would be merged into
            # one by the outbox, which would hide how many the limits let through.
            for _ in range(60):
                tg.send_text(PEOPLE[1].user_id, GROUP, "/rules")
                await h.settle()
            said = replies(tg)[shown:]
            assert said.count(SLOW_DOWN) == 1 and len(said) == 5 + 1
            # The others still get answers, up to the chat's limit (15 a minute), then one warning for the chat.
            for p in PEOPLE[2:]:
                for _ in range(4):
                    tg.send_text(p.user_id, GROUP, "/rules")
                    await h.settle()
            said = replies(tg)[shown + 6 :]
            assert said.count(SLOW_DOWN) == 1 and len(said) == (15 - 1 - 5) + 1
            # Other bots' commands and plain words are not counted, nor answered.
            tg.send_text(PEOPLE[1].user_id, GROUP, "/rules@another_bot")
            await h.settle()
            assert len(replies(tg)) == shown + 6 + 10
            tg.assert_within_limits()
        finally:
            await h.stop()


async def test_after_the_window_a_person_is_answered_again_and_warned_once_per_burst(tmp_path: Path) -> None:
    async with FakeTelegram(limits_of(POLICY)) as tg:
        alice = PEOPLE[0]
        tg.add_user(alice.user_id, alice.name, alice.language)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en", telegram_user_commands=2,
                    telegram_command_window=2.0)
        await h.start()
        try:
            for _ in range(2):
                for _ in range(10):
                    tg.send_text(alice.user_id, GROUP, "/help")
                    await h.settle()
                await asyncio.sleep(2.05)
            said = replies(tg)
            assert said.count(SLOW_DOWN) == 2 and len(said) == 2 * (2 + 1)
        finally:
            await h.stop()
