"""The outbox: ordered, coalesced, paced delivery that survives 429s, deleted messages, a failing server and a
restart, with the table's messages ahead of replies to commands."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from telegram.ext import AIORateLimiter, ExtBot
from telegram.request import HTTPXRequest

from bot.adapters.telegram.outbox import FloodPolicy, MemoryRefs, Outbox, Post
from bot.adapters.telegram.refs import StorageRefs
from bot.storage.sqlite import SqliteStorage
from tests.fake_telegram import TOKEN, FakeTelegram, FloodLimits

GROUP = -100300
ALICE = 601
# Windows shrunk fifty times: the same limits in a fiftieth of the time.
POLICY = FloodPolicy().scaled(0.02)
LIMITS = FloodLimits(POLICY.chat_messages, POLICY.chat_window, POLICY.group_messages, POLICY.group_window)


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(LIMITS) as server:
        server.add_user(ALICE, "Alice")
        server.add_group(GROUP, "club")
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> ExtBot[None]:
    limiter = AIORateLimiter(group_max_rate=POLICY.group_messages, group_time_period=POLICY.group_window)
    async with ExtBot(TOKEN, base_url=tg.base_url, rate_limiter=limiter) as b:
        yield b


async def test_sends_arrive_in_order_within_the_flood_limits(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    for i in range(25):
        outbox.put(Post(GROUP, f"line {i}"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == [f"line {i}" for i in range(25)]
    tg.assert_within_limits()


async def test_a_waiting_edit_takes_the_newest_state(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    for i in range(30):
        outbox.put(Post(GROUP, f"table v{i}", key="table"))
    await outbox.drain()
    [table] = tg.in_chat(GROUP)
    assert table.text == "table v29"
    assert len(tg.texts_seen(GROUP)) < 30  # the states nobody would have seen were never sent
    assert outbox.stats.coalesced > 0
    tg.assert_within_limits()


async def test_coalescing_keeps_the_order_of_other_messages(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    outbox.put(Post(GROUP, "table v0", key="table"))
    outbox.put(Post(GROUP, "deal result"))
    outbox.put(Post(GROUP, "table v1", key="table"))
    outbox.put(Post(GROUP, "match result"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == ["table v1", "deal result", "match result"]


async def test_a_429_is_waited_out_and_nothing_is_lost_or_reordered(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    tg.fail_next("sendMessage", GROUP, code=429, retry_after=1)
    for i in range(4):
        outbox.put(Post(GROUP, f"line {i}"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == [f"line {i}" for i in range(4)]
    assert outbox.stats.retried_after == 1
    assert ("sendMessage", 429, "Too Many Requests: retry after 1") in tg.errors_served


async def test_a_message_deleted_in_the_chat_is_sent_again(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    refs = MemoryRefs()
    outbox = Outbox(bot, refs, policy=POLICY)
    outbox.put(Post(GROUP, "hand v0", key="hand"))
    await outbox.drain()
    first = refs.refs["hand"]
    await bot.delete_message(GROUP, first[1])
    outbox.put(Post(GROUP, "hand v1", key="hand"))
    await outbox.drain()
    [hand] = tg.in_chat(GROUP)
    assert hand.text == "hand v1" and refs.refs["hand"] == (GROUP, hand.message_id) != first


async def test_a_fresh_post_replaces_the_old_message_so_telegram_notifies(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    outbox.put(Post(ALICE, "Your turn", key="ping", fresh=True))
    await outbox.drain()
    outbox.put(Post(ALICE, "Your turn again", key="ping", fresh=True))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(ALICE)] == ["Your turn again"]
    assert [e.method for e in tg.log[ALICE]] == ["sendMessage", "deleteMessage", "sendMessage"]


async def test_a_refused_private_chat_is_reported_and_the_queue_goes_on(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    refused: list[tuple[int, str]] = []

    async def on_forbidden(chat_id: int, post: Post) -> None:
        refused.append((chat_id, post.text))

    tg.add_user(602, "Bob", started=False)
    outbox = Outbox(bot, policy=POLICY, on_forbidden=on_forbidden)
    outbox.put(Post(602, "Bob's hand", key="hand-bob"))
    outbox.put(Post(602, "Bob's ping"))
    await outbox.drain()
    assert refused == [(602, "Bob's hand"), (602, "Bob's ping")]
    assert tg.in_chat(602) == []


async def test_refusals_count_toward_the_chats_limits(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    """A message Telegram refuses (to a person who never opened the chat) counts as one it took, as the fake server
    counts it: a table's posts to such a person keep to the chat's pace as any others do."""
    tg.add_user(602, "Bob", started=False)
    outbox = Outbox(bot, policy=POLICY)
    for i in range(2 * POLICY.chat_messages):
        outbox.put(Post(602, f"Bob's turn {i}"))
    await outbox.drain()
    assert outbox.stats.failed == 2 * POLICY.chat_messages and tg.in_chat(602) == []
    tg.assert_within_limits()


async def test_an_edit_to_the_same_content_is_not_an_error(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    outbox.put(Post(GROUP, "same", key="k"))
    await outbox.drain()
    outbox.put(Post(GROUP, "same", key="k"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == ["same"]
    assert outbox.stats.failed == 0


async def test_at_the_bots_overall_limit_private_hands_go_before_group_edits(tg: FakeTelegram) -> None:
    from dataclasses import replace

    groups = [-100301, -100302, -100303, -100304]
    for g in groups:
        tg.add_group(g, f"club {g}")
    tight = replace(POLICY, overall_messages=1, overall_window=0.05)
    async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
        outbox = Outbox(plain, policy=tight)
        for g in groups:
            outbox.put(Post(g, "table", key=f"table{g}"))
        outbox.put(Post(ALICE, "your hand", key="hand"))
        await outbox.drain()
    order = sorted((e.at, chat) for chat, entries in tg.log.items() for e in entries)
    arrival = [chat for _, chat in order]
    assert arrival.index(ALICE) <= 1, f"the hand waited behind group tables: {arrival}"


async def test_an_upgraded_group_gets_its_waiting_and_later_posts_under_the_new_id(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    old, new = -4001, -1004001
    tg.add_group(old, "club", basic=True)
    moves: list[tuple[int, int]] = []

    async def on_migrated(old_id: int, new_id: int) -> None:
        moves.append((old_id, new_id))

    refs = MemoryRefs()
    outbox = Outbox(bot, refs, policy=POLICY, on_migrated=on_migrated)
    outbox.put(Post(old, "table v0", key="table"))
    await outbox.drain()
    tg.migrate(old, new, by=ALICE, announce=False)
    # The next edit is refused with the new id: it, and everything behind it, goes to the supergroup in order.
    outbox.put(Post(old, "table v1", key="table"))
    outbox.put(Post(old, "deal result", reply_to=1))
    outbox.put(Post(old, "table v2", key="table"))
    await outbox.drain()
    assert moves == [(old, new)]
    assert [m.text for m in tg.in_chat(new)] == ["table v2", "deal result"]
    assert refs.refs["table"] == (new, tg.in_chat(new)[0].message_id)
    # From now on the old id is not even tried; the moved message is edited in place.
    failed_before = len(tg.errors_served)
    outbox.put(Post(old, "table v3", key="table"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(new)] == ["table v3", "deal result"]
    assert len(tg.errors_served) == failed_before and moves == [(old, new)]
    assert outbox.moved_to(old) == new and outbox.stats.failed == 0
    tg.assert_within_limits()


async def test_a_known_upgrade_moves_what_waits_ahead_of_the_new_chats_own_posts(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    old, new = -4002, -1004002
    tg.add_group(old, "club", basic=True)
    outbox = Outbox(bot, policy=POLICY, start_open=False)
    for i in range(3):
        outbox.put(Post(old, f"line {i}"))
    tg.migrate(old, new, by=ALICE, announce=False)
    outbox.put(Post(new, "welcome", key="k"))
    assert outbox.move_chat(old, new) and not outbox.move_chat(old, new)  # known the second time
    outbox.open()
    await outbox.drain()
    assert [m.text for m in tg.in_chat(new)] == ["line 0", "line 1", "line 2", "welcome"]
    assert tg.errors_served == []  # nothing was tried under the old id


# --- the group's budget across restarts ---


async def test_a_group_budget_spent_by_the_previous_process_is_respected(tg: FakeTelegram, tmp_path: Path) -> None:
    """A process stopped right after filling the group's minute (killed: nothing saved at a stop) leaves its
    request times in storage; the next process waits for the window instead of being refused."""
    database = tmp_path / "belote.sqlite3"
    first_storage = SqliteStorage(database)
    await first_storage.open()
    async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
        first = Outbox(plain, StorageRefs(first_storage), policy=POLICY)
        for i in range(POLICY.group_messages):
            first.put(Post(GROUP, f"line {i}"))
        await first.drain()
        await first.close()
    await first_storage.close()
    before = len(tg.log[GROUP])

    storage = SqliteStorage(database)
    await storage.open()
    try:
        async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
            second = Outbox(plain, StorageRefs(storage), policy=POLICY)
            second.put(Post(GROUP, "after the restart"))
            await second.drain()
    finally:
        await storage.close()
    assert [e.method for e in tg.log[GROUP][before:]] == ["sendMessage"]  # no 429 first
    assert second.stats.retried_after == 0
    tg.assert_within_limits()


async def test_a_group_budget_counts_from_when_telegram_answered_the_previous_process(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Requests travel slowly (a loaded machine): Telegram counts each one later than it was made. The previous
    process's three messages fill the group's short window as Telegram counted them, so the next process waits
    for that window, not for the one its predecessor's request times would give."""
    policy = FloodPolicy().scaled(0.5)  # three in 1.5 s per chat
    tg.limits = FloodLimits(policy.chat_messages, policy.chat_window, policy.group_messages, policy.group_window)
    # Between a third and a half of the window: the first request's start has left the window when the third is
    # answered, the moment Telegram counted the first one has not.
    tg.latency = 0.4 * policy.chat_window
    database = tmp_path / "belote.sqlite3"
    first_storage = SqliteStorage(database)
    await first_storage.open()
    async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
        first = Outbox(plain, StorageRefs(first_storage), policy=policy)
        for i in range(policy.chat_messages):
            first.put(Post(GROUP, f"line {i}"))
        await first.drain()
        await first.close()
    await first_storage.close()
    tg.latency = 0.0

    storage = SqliteStorage(database)
    await storage.open()
    try:
        async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
            second = Outbox(plain, StorageRefs(storage), policy=policy)
            second.put(Post(GROUP, "after the restart"))
            await second.drain()
    finally:
        await storage.close()
    assert [m.text for m in tg.in_chat(GROUP)] == [f"line {i}" for i in range(policy.chat_messages)] + [
        "after the restart"
    ]
    assert second.stats.retried_after == 0
    tg.assert_within_limits()


async def test_a_private_chats_budget_spent_by_the_previous_process_is_respected(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A process killed right after three messages to a person (a hand, two turns) is restarted at once: the new
    one re-renders the hand only when that chat's short window allows it."""
    policy = FloodPolicy().scaled(0.5)  # three in 1.5 s per chat
    tg.limits = FloodLimits(policy.chat_messages, policy.chat_window, policy.group_messages, policy.group_window)
    database = tmp_path / "belote.sqlite3"
    first_storage = SqliteStorage(database)
    await first_storage.open()
    async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
        first = Outbox(plain, StorageRefs(first_storage), policy=policy)
        for i in range(policy.chat_messages):
            first.put(Post(ALICE, f"line {i}"))
        await first.drain()
        await first.close()
    await first_storage.close()

    storage = SqliteStorage(database)
    await storage.open()
    try:
        async with ExtBot(TOKEN, base_url=tg.base_url) as plain:
            second = Outbox(plain, StorageRefs(storage), policy=policy)
            second.put(Post(ALICE, "your hand"))
            await second.drain()
    finally:
        await storage.close()
    assert [m.text for m in tg.in_chat(ALICE)] == [f"line {i}" for i in range(policy.chat_messages)] + ["your hand"]
    assert second.stats.retried_after == 0
    tg.assert_within_limits()


@pytest.mark.parametrize("method", ["editMessageText", "sendMessage"])
async def test_a_request_taken_but_answered_too_late_counts_toward_the_chats_budget(
    tg: FakeTelegram, method: str
) -> None:
    """Telegram takes an edit of a hand (or a new message) but answers after the bot's timeout: it reached the chat
    and counts toward its limit, so the request tried again and the messages after it wait for the window."""
    policy = FloodPolicy().scaled(0.5)  # three in 1.5 s per chat; a failed request is tried again within 0.2 s
    tg.limits = FloodLimits(policy.chat_messages, policy.chat_window, policy.group_messages, policy.group_window)
    async with ExtBot(TOKEN, base_url=tg.base_url, request=HTTPXRequest(read_timeout=0.3)) as plain:
        outbox = Outbox(plain, policy=policy)
        outbox.put(Post(ALICE, "hand v0", key="hand"))
        await outbox.drain()
        await asyncio.sleep(policy.chat_window)  # the window is whole again
        tg.answer_late(method, ALICE, seconds=1.0)
        if method == "editMessageText":
            outbox.put(Post(ALICE, "hand v1", key="hand"))
        for i in range(3):
            outbox.put(Post(ALICE, f"trick {i}"))
        await outbox.drain()
    shown = [m.text for m in tg.in_chat(ALICE)]
    # A send tried again after a timeout that Telegram had taken shows twice (Telegram has no idempotent send).
    assert list(dict.fromkeys(shown)) == ["hand v1" if method == "editMessageText" else "hand v0", "trick 0",
                                          "trick 1", "trick 2"]
    assert outbox.stats.retried >= 1, "the request did not time out"
    tg.assert_within_limits()


async def test_a_429_is_a_warning_without_a_traceback(
    tg: FakeTelegram, bot: ExtBot[None], caplog: pytest.LogCaptureFixture
) -> None:
    outbox = Outbox(bot, policy=POLICY)
    tg.fail_next("sendMessage", GROUP, code=429, retry_after=1)
    with caplog.at_level(logging.INFO):
        outbox.put(Post(GROUP, "line"))
        await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == ["line"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], "an error with a traceback"
    assert any(r.levelno == logging.WARNING and "flood limit" in r.getMessage() for r in caplog.records)


# --- nothing lost ---


async def test_a_message_the_server_keeps_failing_is_delivered_when_it_recovers(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    """Telegram answers 5xx many times in a row (a minute of trouble): every message still arrives, in order."""
    outbox = Outbox(bot, policy=POLICY)
    tg.outage(requests=15)
    outbox.put(Post(ALICE, "your turn"))
    outbox.put(Post(GROUP, "deal result"))
    outbox.put(Post(GROUP, "match result"))
    await outbox.drain()
    assert [m.text for m in tg.in_chat(ALICE)] == ["your turn"]
    assert [m.text for m in tg.in_chat(GROUP)] == ["deal result", "match result"]
    assert outbox.stats.failed == 0 and outbox.stats.retried >= 15


async def test_a_failing_message_is_given_up_only_for_a_newer_version_of_it(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    outbox = Outbox(bot, policy=POLICY)
    outbox.put(Post(GROUP, "table v0", key="table"))
    await outbox.drain()
    tg.outage()
    outbox.put(Post(GROUP, "table v1", key="table"))
    await tg.wait_for(lambda: len(tg.errors_served) >= 2)
    outbox.put(Post(GROUP, "table v2", key="table"))  # while v1 is being retried
    tg.outage(0)
    await outbox.drain()
    assert [m.text for m in tg.in_chat(GROUP)] == ["table v2"]
    assert "table v1" not in tg.texts_seen(GROUP) and outbox.stats.superseded == 1


async def test_a_restated_message_is_sent_only_when_the_chat_lacks_it(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    refs = MemoryRefs()
    outbox = Outbox(bot, refs, policy=POLICY)
    outbox.put(Post(GROUP, "deal 1 result", key="r1", fresh=True))
    outbox.put(Post(GROUP, "deal 1, last trick", key="d1"))
    await outbox.drain()
    calls = len(tg.log[GROUP])
    # A new process restates what the group should show: what it shows already costs nothing, the rest is sent.
    again = Outbox(bot, refs, policy=POLICY)
    again.put(Post(GROUP, "deal 1 result", key="r1", fresh=True, restated=True))
    again.put(Post(GROUP, "deal 1, last trick", key="d1", restated=True))
    again.put(Post(GROUP, "deal 2 result", key="r2", fresh=True, restated=True))
    await again.drain()
    again.put(Post(GROUP, "deal 1, last trick", key="d1"))  # a re-render of an unchanged message
    await again.drain()
    assert [(e.method, e.text) for e in tg.log[GROUP][calls:]] == [("sendMessage", "deal 2 result")]
    assert again.stats.unchanged == 3


# --- a chat's queue ---


async def test_replies_wait_behind_the_table_and_a_newer_equal_reply_replaces_the_waiting_one(
    tg: FakeTelegram, bot: ExtBot[None]
) -> None:
    outbox = Outbox(bot, policy=POLICY, start_open=False)
    for i in range(60):
        outbox.put(Post(GROUP, "the table's rules", reply_to=i + 1))
    outbox.put(Post(GROUP, "lobby: Bob joined", key="lobby"))
    for i in range(10):
        outbox.put(Post(GROUP, f"stats {i}", reply_to=100 + i))
    outbox.open()
    await outbox.drain()
    # The table first; of sixty equal replies one waited, and the queue keeps the latest replies only.
    kept = [f"stats {i}" for i in range(10 - POLICY.waiting_replies, 10)]
    assert tg.texts_seen(GROUP) == ["lobby: Bob joined", *kept]
    assert outbox.stats.superseded == 59 and outbox.stats.dropped_replies == 11 - POLICY.waiting_replies
    tg.assert_within_limits()


async def test_the_queues_of_idle_chats_are_forgotten(tg: FakeTelegram, bot: ExtBot[None]) -> None:
    outbox = Outbox(bot, policy=POLICY)
    people = range(700, 900)
    for user in people:
        tg.add_user(user, f"P{user}")
        outbox.put(Post(user, "your hand"))
    await outbox.drain()
    assert outbox.queues() >= len(people)
    await asyncio.sleep(max(POLICY.group_window, POLICY.chat_window) + 0.05)
    outbox.put(Post(ALICE, "your hand"))
    await outbox.drain()
    assert outbox.queues() <= 2
