"""Limits that keep one person from tying up the host: option ranges, a person needed to start, lobbies and idle
matches that end by themselves (also across a restart), and caps on open tables per chat and per person."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.clock import ManualClock
from bot.core.messages import TERMINAL, ChatRef, UserRef
from bot.core.payload import decode

from .core_helpers import ANA, BORIS, CHAT, PLATFORM, VERA, make_host, shut


async def _until(predicate: object, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not predicate():  # type: ignore[operator]
            await asyncio.sleep(0.005)

    await asyncio.wait_for(wait(), timeout)


async def test_every_numeric_option_has_a_range(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    for option in ("target_score=" + "9" * 4000, "target_score=3001", "target_score=0"):
        answer = await host.command(CHAT, ANA, "new", [option])
        assert not answer.ok and answer.text == "target_score takes one of: 1-3000.", answer.text
    answer = await host.command(CHAT, ANA, "new", ["timer=3601"])
    assert not answer.ok and answer.text == "timer takes one of: 0-3600."
    opened = await host.command(CHAT, ANA, "new", ["target_score=3000", "timer=3600"])
    assert opened.ok, opened.text
    table = host.table(opened.table_id)
    assert table is not None
    version = table.version
    assert not (await host.command(CHAT, ANA, "set", ["target_score", "99999"])).ok
    assert not (await host.command(CHAT, ANA, "set", ["timer", "86400"])).ok
    assert table.version == version and table.rules.target_score == 3000
    await shut(host, storage)


async def four_bots(host: object, chat: ChatRef, opener: UserRef) -> str:
    opened = await host.command(chat, opener, "new")  # type: ignore[attr-defined]
    await host.command(chat, opener, "leave")  # type: ignore[attr-defined]
    for _ in range(4):
        await host.command(chat, opener, "addbot")  # type: ignore[attr-defined]
    return str(opened.table_id)


async def test_a_table_of_four_bots_does_not_start_in_a_chat(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    table_id = await four_bots(host, CHAT, ANA)
    answer = await host.command(CHAT, ANA, "start")
    assert not answer.ok and answer.text == "Someone must sit at the table to start it."
    table = host.table(table_id)
    assert table is not None and table.status == "lobby"
    # The terminal's "watch four bots" may, and so may a host configured for it (a load test).
    watch = ChatRef(TERMINAL, "watch")
    watcher = UserRef(TERMINAL, "player", "You", "en")
    await four_bots(host, watch, watcher)
    assert (await host.command(watch, watcher, "start")).ok
    await shut(host, storage)
    host, storage, _outbox = await make_host(tmp_path / "bench.sqlite3", bot_only_tables=True)
    await four_bots(host, CHAT, ANA)
    assert (await host.command(CHAT, ANA, "start")).ok
    await shut(host, storage)


async def test_a_lobby_nobody_starts_closes_and_the_group_is_told(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock, lobby_minutes=30)
    opened = await host.command(CHAT, ANA, "new")
    await clock.advance(20 * 60)
    await host.command(CHAT, BORIS, "join")  # joining does not keep a lobby open for ever
    await clock.advance(9 * 60)
    await asyncio.sleep(0.05)
    assert host.table_for_chat(CHAT) == opened.table_id
    await clock.advance(2 * 60)
    await _until(lambda: host.table_for_chat(CHAT) is None)
    assert any(m.text == f"Table {opened.table_id} closed: nobody started it within 30 minutes."
               for m in outbox.group("notice"))
    assert f"{opened.table_id}:end" in outbox.latest
    row = await storage.get_table(opened.table_id)
    assert row is not None and row.status == "stopped"
    assert (await host.command(CHAT, ANA, "new")).ok, "the chat is free for a new table"
    await shut(host, storage)


async def test_a_lobbys_deadline_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    clock = ManualClock()
    host, storage, _outbox = await make_host(path, clock, lobby_minutes=30)
    opened = await host.command(CHAT, ANA, "new")
    await clock.advance(20 * 60)
    await shut(host, storage)
    host, storage, outbox = await make_host(path, clock, lobby_minutes=30)  # the restart does not reset it
    await clock.advance(9 * 60)
    await asyncio.sleep(0.05)
    assert host.table_for_chat(CHAT) == opened.table_id
    await shut(host, storage)
    await clock.advance(5 * 60)  # its time runs out while the bot is down: the next start closes it
    host, storage, outbox = await make_host(path, clock, lobby_minutes=30)
    await _until(lambda: host.table_for_chat(CHAT) is None)
    assert any("nobody started it within 30 minutes" in m.text for m in outbox.group("notice"))
    row = await storage.get_table(opened.table_id)
    assert row is not None and row.status == "stopped"
    await shut(host, storage)


async def test_a_match_nobody_plays_stops_and_a_persons_move_keeps_it_going(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock, idle_minutes=10)
    opened = await host.command(CHAT, ANA, "new", ["timer=0"])
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    table = host.table(opened.table_id)
    assert table is not None
    await host.idle()
    assert table.to_act == 0  # the bots wait for Ana, who has no timer
    await clock.advance(9 * 60)
    hand = outbox.latest[f"{table.table_id}:h0:{ANA.user_id}"]
    move = next(b.payload for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:"))
    assert (await host.press(ANA, move)).ok
    await host.idle()
    await clock.advance(9 * 60)
    await asyncio.sleep(0.05)
    assert table.status == "playing", "Ana moved 9 minutes ago"
    await clock.advance(2 * 60)
    await _until(lambda: table.status == "stopped")
    assert any(m.text == f"Table {table.table_id} stopped: nobody played for 10 minutes."
               for m in outbox.group("notice"))
    await _until(lambda: host.table_for_chat(CHAT) is None)
    await shut(host, storage)


async def test_open_tables_are_capped_per_person_and_per_chat(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3", max_tables_per_user=2,
                                             max_tables_per_chat=2)
    chats = [ChatRef(PLATFORM, f"-9{i}") for i in range(3)]
    assert (await host.command(chats[0], ANA, "new")).ok
    assert (await host.command(chats[1], ANA, "new")).ok
    third = await host.command(chats[2], ANA, "new")
    assert not third.ok and third.text == "You have 2 open tables, the most one person may have; finish or stop " \
                                          "one first."
    opened = await host.command(chats[2], VERA, "new")
    assert opened.ok
    version = host.table(opened.table_id).version  # type: ignore[union-attr]
    join = await host.command(chats[2], ANA, "join")
    assert not join.ok and "2 open tables" in join.text
    assert not (await host.join(opened.table_id, ANA)).ok
    assert host.table(opened.table_id).version == version  # type: ignore[union-attr]
    # A forum group's topics each have a table, up to the chat's cap.
    topics = [ChatRef(PLATFORM, "-77", str(t)) for t in range(3)]
    assert (await host.command(topics[0], BORIS, "new")).ok
    carol = UserRef(PLATFORM, "8", "Carol", "en")
    assert (await host.command(topics[1], carol, "new")).ok
    dave = UserRef(PLATFORM, "9", "Dave", "en")
    full = await host.command(topics[2], dave, "new")
    assert not full.ok and full.text == "This chat has 2 open tables, the most it may have; finish or stop one first."
    # Stopping one frees a place.
    assert (await host.command(topics[0], BORIS, "stop")).ok
    assert (await host.command(topics[2], dave, "new")).ok
    await shut(host, storage)
