"""The /score button form for a game of three, half filled in when ``belote-bot run`` is killed with SIGKILL
(nothing flushed or closed): the next process on the same database takes the next press where the form stood and
ends in the answer of the same deal typed as a line. The real process against the fake Bot API."""

from __future__ import annotations

import html
from pathlib import Path

from bot.calculator import score_text
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.process import BotProcess

JANE = 8851


async def press(tg: FakeTelegram, form: Sent, label: str) -> None:
    """Press ``label`` under the form and wait until the form shows the press (its text or buttons change)."""
    current = tg.messages[(JANE, form.message_id)]
    found = [d for lab, d in current.buttons() if lab == label]
    assert len(found) == 1, (label, current.buttons())
    before = (current.text, current.buttons())
    answer = await tg.answer_of(tg.press(JANE, current, found[0]), timeout=20)
    assert not answer.text, (label, answer.text)  # a refusal would be a private answer
    await tg.wait_for(
        lambda: (tg.messages[(JANE, form.message_id)].text, tg.messages[(JANE, form.message_id)].buttons()) != before,
        timeout=20,
    )


async def test_a_form_for_three_goes_on_after_the_bot_is_killed_in_the_middle(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        tg.add_user(JANE, "Jane", "en")
        bot = BotProcess(tg, tmp_path, telegram_user_commands="100", telegram_chat_commands="100")
        await bot.start()
        try:
            tg.start_private(JANE)
            tg.send_text(JANE, JANE, "/score")
            await tg.wait_for(lambda: any(lab == "Three or two players…" for m in tg.in_chat(JANE)
                                          for lab, _ in m.buttons()), timeout=30)  # fmt: skip
            [form] = [m for m in tg.in_chat(JANE) if m.buttons()]
            for label in ("Three or two players…", "Bela for three", "Player 1", "No valat", "6", "0", "OK", "8"):
                await press(tg, form, label)
            half = tg.messages[(JANE, form.message_id)]
            shown, buttons = half.text, half.buttons()

            await bot.kill()
            await bot.start()
            now = tg.messages[(JANE, form.message_id)]
            assert (now.text, now.buttons()) == (shown, buttons)
            # The new process reads the form back: the keypad goes on from the 8 typed before the kill, then the
            # caller's declarations are asked first (Player 1 is marked).
            for label in ("2", "OK", "+ Tierce", "+ Belote", "Next"):
                await press(tg, form, label)
        finally:
            status = await bot.stop()
        assert status == 0, bot.log[-3000:]
        line = "bela three you called 82 tierce belote me 60"
        expected = score_text(line)
        answer = tg.messages[(JANE, form.message_id)].text
        assert html.unescape(answer).splitlines() == expected.render("en").splitlines()
        assert expected.result.score == (60, 122, 20)
