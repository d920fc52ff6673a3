"""Replies too long for one Telegram message keep what they are for: the heading, what was wrong and why."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import MAX_TEXT, shorten, to_html
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, limits_of

GROUP = -100321
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(3201, "Alice", "en")


async def test_a_long_calculator_error_keeps_the_problem_and_its_reason(tmp_path: Path) -> None:
    async with FakeTelegram(limits_of(POLICY)) as tg:
        tg.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en")
        await h.start()
        try:
            # Telegram lets a person send up to 4096 characters: an error quoting them is longer than that.
            tg.send_text(ALICE.user_id, GROUP, "/score hearts " + "x" * 4060)
            await h.settle()
            [reply] = tg.in_chat(GROUP)
            assert len(reply.text) <= MAX_TEXT
            lines = reply.text.split("\n")
            assert lines[0] == "I could not score that:"
            assert lines[1].startswith("• text: 'xxxx") and " … " in lines[1]
            assert lines[1].endswith("is not understood; a score line has a contract, points, contra, teams (we, "
                                     "you), declarations, capot and hanging (see the grammar)")
            assert lines[2].startswith("Example: /score")
        finally:
            await h.stop()


def test_many_lines_keep_whole_lines_and_say_that_more_was_cut() -> None:
    text = "\n".join(f"line {i}: " + "y & z " * 12 for i in range(200))
    cut = shorten(text, MAX_TEXT)
    assert len(to_html(text)) <= MAX_TEXT and cut.endswith("\n…")
    assert all(line in text.split("\n") for line in cut.split("\n")[:-1]) and len(cut.split("\n")) == 32
