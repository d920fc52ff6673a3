"""The Telegram adapter's own duties: command menus per language, deep links for people the bot cannot write to,
forum topics, webhook mode, running until cancelled, and a clear error for a wrong token."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.adapters.telegram import serve
from bot.adapters.telegram.adapter import TelegramAdapter, TelegramStartError
from bot.adapters.telegram.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import table_of_payload
from bot.config import load_settings
from bot.core.host import Host
from bot.storage.sqlite import SqliteStorage
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, buttons_with, cards_in, harness_on, limits_of

GROUP = -100444
FORUM = -100555
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(4001, "Alice", "en")
CAROL = Person(4003, "Carol", "bg")


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        server.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        server.add_user(CAROL.user_id, CAROL.name, CAROL.language, started=False)
        server.add_group(GROUP, "Club", admins={ALICE.user_id})
        server.add_group(FORUM, "Forum club", forum=True)
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def test_command_menus_are_set_for_groups_and_private_chats_in_each_language(h: Harness) -> None:
    menus = h.tg.commands
    for lang in ("", "bg", "en"):
        assert [c["command"] for c in menus[("all_group_chats", lang)]] == list(GROUP_COMMANDS)
        assert [c["command"] for c in menus[("all_private_chats", lang)]] == list(PRIVATE_COMMANDS)
    bg = {c["command"]: c["description"] for c in menus[("all_group_chats", "bg")]}
    en = {c["command"]: c["description"] for c in menus[("all_group_chats", "en")]}
    assert en["belot"] == "Open a table in this group" and bg["belot"] != en["belot"]
    # The default menu is in the configured language (bg).
    assert menus[("all_group_chats", "")] == menus[("all_group_chats", "bg")]


async def test_a_person_the_bot_cannot_write_to_gets_the_deep_link_and_then_the_hand(h: Harness) -> None:
    tg = h.tg
    tg.start_private(ALICE.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await h.settle()
    tg.send_text(CAROL.user_id, GROUP, "/join")
    await h.settle()
    # The group is told, with a button that opens the bot on this table.
    notices = [m for m in tg.in_chat(GROUP) if m.urls()]
    assert len(notices) == 1 and "Carol" in notices[0].text
    [link] = notices[0].urls()
    payload = link.split("?start=")[1]
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "s")]
    table_id = table_of_payload(payload)
    assert table_id is not None and table_id in lobby.buttons()[0][1]
    await h.press(ALICE, lobby, buttons_with(lobby, "s")[0][1])
    await h.settle()
    assert tg.in_chat(CAROL.user_id) == [], "nothing can reach Carol before she opens the bot"
    assert len([m for m in tg.in_chat(GROUP) if m.urls()]) == 1, "the group is told only once"
    tg.start_private(CAROL.user_id, payload)
    await h.settle()
    table = await h.oracle(table_id)
    seat = next(i for i, s in enumerate(table.seats) if s.user_id == str(CAROL.user_id))
    ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{CAROL.user_id}")
    assert ref is not None
    hand = tg.messages[ref]
    assert table.match is not None
    deal = table.match.deal
    shown = cards_in(hand.text)
    assert set(deal.hand_of(seat)) <= shown <= set(deal.hand_of(seat)) | {c for t in deal.tricks for c in t.cards}


async def test_each_forum_topic_has_its_own_table(h: Harness) -> None:
    tg = h.tg
    tg.send_text(ALICE.user_id, FORUM, "/belot", thread_id=5)
    tg.send_text(CAROL.user_id, FORUM, "/belot", thread_id=7)
    await h.settle()
    lobbies = [m for m in tg.in_chat(FORUM) if buttons_with(m, "j")]
    assert sorted(m.thread_id for m in lobbies) == [5, 7]
    assert len({m.buttons()[0][1].split(":")[1] for m in lobbies}) == 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_webhook_mode_receives_updates_posted_with_the_secret(tg: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    h = Harness(
        tg,
        tmp_path / "belote.sqlite3",
        POLICY,
        telegram_webhook_url="https://bot.example.org/tg/hook",
        telegram_webhook_port=port,
        telegram_webhook_secret="s3cret",
    )
    await h.start()
    try:
        assert tg.webhook == ("https://bot.example.org/tg/hook", "s3cret")
        polls = sum(1 for method, _ in tg.calls if method == "getUpdates")
        update = {"update_id": 1, "message": tg.message_of(ALICE.user_id, GROUP, "/belot")}
        async with httpx.AsyncClient() as client:
            url = f"http://127.0.0.1:{port}/tg/hook"
            forged = await client.post(
                url,
                content=json.dumps(update),
                headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": "wrong"},
            )
            assert forged.status_code == 403
            ok = await client.post(
                url,
                content=json.dumps(update),
                headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": "s3cret"},
            )
            assert ok.status_code == 200
        await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=5)
        assert sum(1 for method, _ in tg.calls if method == "getUpdates") == polls == 0
    finally:
        await h.stop()


async def test_serve_runs_until_cancelled_and_stops_cleanly(tg: FakeTelegram, tmp_path: Path) -> None:
    settings = load_settings(
        env_file=None,
        telegram_token="123456:TEST-belote-token",
        telegram_base_url=tg.root_url,
        database=str(tmp_path / "b.sqlite3"),
        turn_seconds=0,
    )
    storage = SqliteStorage(settings.database)
    await storage.open()
    host = Host(storage, settings)
    task = asyncio.create_task(serve(host, settings, policy=POLICY))
    await host.start()
    await tg.wait_for(lambda: ("all_group_chats", "en") in tg.commands, timeout=5)
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    calls = len(tg.calls)
    await asyncio.sleep(0.1)
    assert len(tg.calls) == calls, "the bot still talks to Telegram after it was cancelled"
    await host.close()
    await storage.close()


async def test_a_wrong_token_fails_with_a_line_that_names_the_setting(tg: FakeTelegram, tmp_path: Path) -> None:
    settings = load_settings(
        env_file=None,
        telegram_token="999:not-this-one",
        telegram_base_url=tg.root_url,
        database=str(tmp_path / "b.sqlite3"),
    )
    storage = SqliteStorage(settings.database)
    await storage.open()
    try:
        adapter = TelegramAdapter(Host(storage, settings), settings, POLICY)
        with pytest.raises(TelegramStartError, match="BELOTE_TELEGRAM_TOKEN"):
            await adapter.start()
    finally:
        await storage.close()
