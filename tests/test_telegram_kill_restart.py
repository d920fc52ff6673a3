"""People at a table across a SIGKILL of the bot: a person the bot cannot reach is told about once and not written
to again until they open the chat, then the notice goes and the hand comes; private views keep the group's name;
"My hand" in the group brings the hand to the bottom of the private chat. Several press at the same instant;
Telegram's real flood limits are enforced by the fake server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import buttons_with, cards_in
from tests.telegram.process import BotProcess

GROUP = -100818
TITLE = "Belot"
ALICE, BOB, CAROL = 8801, 8802, 8803  # Carol has never written to the bot
DAN = 8804  # not a member of the group


def notices(tg: FakeTelegram) -> list[Sent]:
    return [m for m in tg.in_chat(GROUP, include_deleted=True) if m.urls()]


def refusals(tg: FakeTelegram, chat_id: int) -> int:
    return sum(1 for e in tg.log[chat_id] if not e.ok)


def hand(tg: FakeTelegram, chat_id: int) -> Sent | None:
    found = [m for m in tg.in_chat(chat_id) if cards_in(m.text)]
    return found[-1] if found else None


async def test_unreachable_player_titles_and_my_hand_across_a_kill(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_user(BOB, "Bob", "en")
        tg.add_user(CAROL, "Carol", "en", started=False)
        tg.add_user(DAN, "Dan", "en")
        tg.add_group(GROUP, TITLE, members={ALICE, BOB, CAROL})
        bot = BotProcess(tg, tmp_path)
        await bot.start()
        try:
            tg.start_private(ALICE)
            tg.start_private(BOB)
            tg.send_text(ALICE, GROUP, "/belot")
            await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=20)
            [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
            answers = []
            for person in (BOB, CAROL):
                join = next(d for _, d in buttons_with(lobby, "j") if d.endswith(":j"))
                answers.append(await tg.answer_of(tg.press(person, lobby, join)))
                # The lobby is edited with the new seat (its buttons carry the table's new version).
                await tg.wait_for(lambda j=join: j not in [d for _, d in lobby.buttons()], timeout=20)  # type: ignore[misc]
            assert answers[1].url is not None and "?start=" in answers[1].url, answers
            payload = answers[1].url.split("?start=")[1]
            await tg.wait_for(lambda: len(notices(tg)) == 1 and refusals(tg, CAROL) >= 1, timeout=20)
            lobby = tg.messages[(GROUP, lobby.message_id)]
            await tg.wait_for(lambda: bool(buttons_with(tg.messages[(GROUP, lobby.message_id)], "s")), timeout=20)
            tg.press(ALICE, tg.messages[(GROUP, lobby.message_id)], buttons_with(lobby, "s")[0][1])
            await tg.wait_for(lambda: hand(tg, ALICE) is not None and hand(tg, BOB) is not None, timeout=30)
            assert f"· {TITLE}" in hand(tg, ALICE).text  # type: ignore[union-attr]
            refused_before = refusals(tg, CAROL)
            await bot.kill()

            seen_alice = len(tg.texts_seen(ALICE))
            # Restarted at once: the new process spends only what the killed one left of each chat's budget.
            await bot.start()
            # The restart re-renders every hand: Alice's keeps the group's name; Carol is not written to again and
            # the group is not told again.
            await tg.wait_for(lambda: ("all_group_chats", "en") in tg.commands and tg.acknowledged_updates() > 0,
                              timeout=30)
            await asyncio.sleep(1.0)
            after = tg.texts_seen(ALICE)[seen_alice:]
            assert all(f"· {TITLE}" in text for text in after if cards_in(text)), after
            assert refusals(tg, CAROL) == refused_before, "the bot wrote again to someone who never opened the chat"
            assert len(notices(tg)) == 1

            # The same instant: Carol follows the link, and so does Dan, who is not in the group; Alice and Bob
            # press the group's "My hand".
            await tg.wait_for(lambda: any(buttons_with(m, "h") for m in tg.in_chat(GROUP)), timeout=30)
            [deal] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "h")][-1:]
            my_hand = buttons_with(deal, "h")[0][1]
            old_alice = hand(tg, ALICE)
            assert old_alice is not None
            tg.start_private(CAROL, payload)
            tg.start_private(DAN, payload)
            pressed = [tg.press(ALICE, deal, my_hand), tg.press(BOB, deal, my_hand)]
            said = await asyncio.gather(*(tg.answer_of(q) for q in pressed))
            assert [a.text for a in said] == ["Your cards are at the bottom of our private chat."] * 2
            await tg.wait_for(
                lambda: hand(tg, CAROL) is not None and all(m.deleted for m in notices(tg))
                and (hand(tg, ALICE) or old_alice).message_id > old_alice.message_id,
                timeout=20,
            )
            assert tg.messages[(ALICE, old_alice.message_id)].deleted
            newest = tg.in_chat(ALICE)[-1]
            assert newest.message_id > old_alice.message_id and cards_in(newest.text) and f"· {TITLE}" in newest.text
            assert f"· {TITLE}" in hand(tg, CAROL).text  # type: ignore[union-attr]
            await tg.wait_for(lambda: bool(tg.in_chat(DAN)), timeout=10)
            assert [m.text for m in tg.in_chat(DAN)] == [
                f"Only members of {TITLE} can sit at its table: join the group first, then try again."
            ]
        finally:
            status = await bot.stop()
        assert status == 0, bot.log[-3000:]
        tg.assert_within_limits()
