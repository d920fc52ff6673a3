"""The group is told that the bot cannot reach a player only while that is true: a notice still waiting for the
group's budget when the player opens the chat is corrected before anyone reads it, and a refusal of a message sent
before the player opened the chat changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import deep_link_payload
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, buttons_with, cards_in, limits_of

GROUP = -100919
ALICE = Person(9901, "Alice", "en")
CAROL = Person(9903, "Carol", "en")  # has never written to the bot
STALE = "I cannot send you your cards"


async def open_table(h: Harness, tg: FakeTelegram) -> str:
    tg.start_private(ALICE.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=10)
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    return lobby.buttons()[0][1].split(":")[1]


async def test_a_notice_still_waiting_is_corrected_when_the_player_opens_the_chat(tmp_path: Path) -> None:
    # Three group messages in two seconds: the notice about Carol has to wait for the group's budget.
    policy = FloodPolicy(chat_messages=3, chat_window=0.015, group_messages=3, group_window=2.0,
                         overall_window=0.005)
    async with FakeTelegram(limits_of(policy)) as tg:
        tg.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        tg.add_user(CAROL.user_id, CAROL.name, CAROL.language, started=False)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", policy, language="en")
        await h.start()
        try:
            table_id = await open_table(h, tg)
            tg.send_text(CAROL.user_id, GROUP, "/join")
            await tg.wait_for(lambda: any(m == "sendMessage" and p.get("chat_id") == CAROL.user_id
                                          for m, p in tg.calls), timeout=10)
            await tg.wait_for(lambda: h.adapter.outbox.pending() > 0, timeout=10)
            tg.start_private(CAROL.user_id, deep_link_payload(table_id))
            await h.settle()
            assert not any(STALE in text for text in tg.texts_seen(GROUP)), "the group read a stale notice"
            assert any("Carol has opened the chat with me" in m.text for m in tg.in_chat(GROUP))
            mine = [m for m in tg.in_chat(CAROL.user_id) if m.text.startswith("<b>Table")]
            assert len(mine) == 1 and "1. Alice" not in mine[0].text
            tg.assert_within_limits()
        finally:
            await h.stop()


async def test_a_refusal_older_than_the_open_chat_changes_nothing(tmp_path: Path) -> None:
    policy = FloodPolicy().scaled(0.005)
    async with FakeTelegram(limits_of(policy)) as tg:
        tg.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", policy, language="en")
        await h.start()
        try:
            await open_table(h, tg)
            await h.settle()
            # Alice's hand is refused once, as a message sent a moment before she pressed Start would be.
            tg.fail_next("editMessageText", ALICE.user_id, code=403,
                         description="Forbidden: bot can't initiate conversation with a user")
            tg.send_text(ALICE.user_id, GROUP, "/startgame")
            await h.settle()
            # The refused edit is sent again and taken; the bots' calls before her turn may edit her hand again.
            edits = [e.ok for e in tg.log[ALICE.user_id] if e.method == "editMessageText"]
            assert edits[0] is False and len(edits) >= 2 and all(edits[1:]), edits
            assert any(m == "sendChatAction" for m, _ in tg.calls)
            assert not any(STALE in text for text in tg.texts_seen(GROUP))
            [hand] = [m for m in tg.in_chat(ALICE.user_id) if m.text.startswith("<b>Table")]
            assert len(cards_in(hand.text)) == 5 and "Your turn" in hand.text  # the first five cards of the deal
            assert await h.adapter.private.known_open(str(ALICE.user_id))
            assert not await h.adapter.private.unreachable(str(ALICE.user_id))
        finally:
            await h.stop()
