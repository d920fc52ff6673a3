"""The fake Bot API server answers the real python-telegram-bot ``Bot`` the way Telegram does."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from tests.fake_telegram import BOT_USERNAME, CANT_INITIATE, TOKEN, UPGRADED, FakeTelegram, FloodLimits

GROUP = -100100
ALICE = 501
BOB = 502


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram() as server:
        server.add_user(ALICE, "Alice", "bg")
        server.add_user(BOB, "Bob", "en", started=False)
        server.add_group(GROUP, "Belote club")
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> Bot:
    async with Bot(TOKEN, base_url=tg.base_url) as b:
        yield b


async def test_get_me_names_the_bot(bot: Bot) -> None:
    me = await bot.get_me()
    assert me.username == BOT_USERNAME


async def test_send_and_edit_keep_one_message_with_its_buttons(tg: FakeTelegram, bot: Bot) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="v1:t:1:j")]])
    sent = await bot.send_message(GROUP, "Table", reply_markup=markup)
    await bot.edit_message_text("Table: Alice", chat_id=GROUP, message_id=sent.message_id, reply_markup=markup)
    [shown] = tg.in_chat(GROUP)
    assert shown.text == "Table: Alice"
    assert shown.buttons() == [("Join", "v1:t:1:j")]
    assert tg.texts_seen(GROUP) == ["Table", "Table: Alice"]


async def test_edit_with_the_same_content_is_refused_as_not_modified(bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "Same")
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_text("Same", chat_id=GROUP, message_id=sent.message_id)


async def test_private_message_to_a_user_who_never_started_the_bot_is_forbidden(tg: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(Forbidden, match=r"(?i)can.t initiate conversation"):
        await bot.send_message(BOB, "Your hand")
    assert tg.errors_served[-1] == ("sendMessage", 403, CANT_INITIATE)
    tg.start_private(BOB, "payload")
    await bot.send_message(BOB, "Your hand")
    assert [m.text for m in tg.in_chat(BOB)] == ["Your hand"]


async def test_injected_429_carries_retry_after(tg: FakeTelegram, bot: Bot) -> None:
    tg.fail_next("sendMessage", GROUP, code=429, retry_after=3)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "x")
    assert caught.value.retry_after == 3 or caught.value.retry_after.total_seconds() == 3  # type: ignore[union-attr]
    await bot.send_message(GROUP, "x")  # the next one goes through


async def test_callback_data_longer_than_64_bytes_is_refused(bot: Bot) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Too long", callback_data="я" * 33)]])
    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        await bot.send_message(GROUP, "x", reply_markup=markup)


async def test_a_burst_over_the_chat_limit_is_answered_429_and_recorded() -> None:
    async with FakeTelegram(FloodLimits(chat_messages=2, chat_window=5)) as tg:
        tg.add_group(GROUP, "club")
        async with Bot(TOKEN, base_url=tg.base_url) as bot:
            await bot.send_message(GROUP, "1")
            await bot.send_message(GROUP, "2")
            with pytest.raises(RetryAfter):
                await bot.send_message(GROUP, "3")
    assert len(tg.violations) == 1
    with pytest.raises(AssertionError, match="flood limits exceeded"):
        tg.assert_within_limits()


async def test_the_group_limit_counts_edits_too() -> None:
    async with FakeTelegram(FloodLimits(chat_messages=100, chat_window=1, group_messages=3, group_window=5)) as tg:
        tg.add_group(GROUP, "club")
        async with Bot(TOKEN, base_url=tg.base_url) as bot:
            sent = await bot.send_message(GROUP, "0")
            await bot.edit_message_text("1", chat_id=GROUP, message_id=sent.message_id)
            await bot.edit_message_text("2", chat_id=GROUP, message_id=sent.message_id)
            with pytest.raises(RetryAfter):
                await bot.edit_message_text("3", chat_id=GROUP, message_id=sent.message_id)


async def test_injected_updates_arrive_through_long_polling(tg: FakeTelegram, bot: Bot) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.05)
    tg.send_text(ALICE, GROUP, "/belot@" + BOT_USERNAME)
    updates = await asyncio.wait_for(poll, 3)
    [update] = updates
    assert update.message is not None and update.message.text == "/belot@" + BOT_USERNAME
    assert update.message.chat.id == GROUP and update.effective_user.id == ALICE  # type: ignore[union-attr]
    again = await bot.get_updates(offset=update.update_id + 1, timeout=0)
    assert again == ()


async def test_a_press_is_answered_once_and_a_second_answer_is_refused(tg: FakeTelegram, bot: Bot) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Pass", callback_data="v1:t:1:c:pass")]])
    await bot.send_message(ALICE, "Hand", reply_markup=markup)
    [hand] = tg.in_chat(ALICE)
    query_id = tg.press(ALICE, hand, hand.buttons()[0][1])
    [update] = await bot.get_updates(timeout=1)
    assert update.callback_query is not None and update.callback_query.data == "v1:t:1:c:pass"
    await bot.answer_callback_query(query_id, "Not your turn")
    answer = await tg.answer_of(query_id)
    assert answer.text == "Not your turn" and answer.latency >= 0
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query_id, "again")


async def test_commands_are_kept_per_scope_and_language(tg: FakeTelegram, bot: Bot) -> None:
    from telegram import BotCommand, BotCommandScopeAllGroupChats

    await bot.set_my_commands(
        [BotCommand("belot", "Нова маса")], scope=BotCommandScopeAllGroupChats(), language_code="bg"
    )
    assert tg.commands[("all_group_chats", "bg")] == [{"command": "belot", "description": "Нова маса"}]
    with pytest.raises(BadRequest, match=r"(?i)bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Bad-Name", "x")])


async def test_admins_are_reported_by_get_chat_member(tg: FakeTelegram, bot: Bot) -> None:
    tg.add_group(-100200, "admins", admins={ALICE})
    assert (await bot.get_chat_member(-100200, ALICE)).status == "administrator"
    assert (await bot.get_chat_member(-100200, BOB)).status == "member"


async def test_an_upgraded_group_answers_its_old_id_with_the_new_one(tg: FakeTelegram, bot: Bot) -> None:
    tg.add_group(-5001, "Old club", basic=True)
    sent = await bot.send_message(-5001, "Table")
    assert sent.chat.type == "group"
    tg.migrate(-5001, -1005001, by=ALICE)
    for request in (bot.send_message(-5001, "again"), bot.edit_message_text("Table v2", -5001, sent.message_id)):
        with pytest.raises(ChatMigrated) as raised:
            await request
        assert raised.value.new_chat_id == -1005001
    assert tg.errors_served[-1] == ("editMessageText", 400, UPGRADED)
    moved = await bot.send_message(-1005001, "Table")
    assert moved.chat.type == "supergroup" and moved.chat.title == "Old club"
    # Both chats got their service message, in the shape PTB reads.
    updates = await bot.get_updates(timeout=0)
    assert [(u.message.chat.id, u.message.migrate_to_chat_id, u.message.migrate_from_chat_id)
            for u in updates if u.message] == [(-5001, -1005001, None), (-1005001, None, -5001)]  # fmt: skip
    assert all(u.message and u.message.from_user and u.message.from_user.id == ALICE for u in updates)


async def test_a_429_names_the_seconds_until_the_group_window_lets_a_message_through() -> None:
    async with FakeTelegram(FloodLimits(chat_messages=100, chat_window=1, group_messages=2, group_window=30)) as tg:
        tg.add_group(GROUP, "club")
        async with Bot(TOKEN, base_url=tg.base_url) as bot:
            await bot.send_message(GROUP, "1")
            await bot.send_message(GROUP, "2")
            with pytest.raises(RetryAfter) as refused:
                await bot.send_message(GROUP, "3")
    assert refused.value._retry_after.total_seconds() in (29, 30)  # as Telegram says it: whole seconds


async def test_an_outage_answers_5xx_until_it_ends_and_nothing_reaches_the_chat(tg: FakeTelegram, bot: Bot) -> None:
    tg.outage(requests=2)
    for _ in range(2):
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(GROUP, "lost")
    await bot.send_message(GROUP, "after")
    tg.outage(60, code=500)
    with pytest.raises(NetworkError, match="Internal Server Error"):
        await bot.send_message(GROUP, "lost")
    assert await bot.get_me()  # only the methods that change a chat fail
    tg.outage(0)
    await bot.send_message(GROUP, "after again")
    assert [m.text for m in tg.in_chat(GROUP)] == ["after", "after again"]
