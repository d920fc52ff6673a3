"""Presses on messages that are a few versions old, as a busy group makes them: judged against the table as it is
now. What still means the same is done (everyone pressing Join on the lobby they were shown sits down); what no
longer makes sense is refused with what changed; a replay or a double tap never acts twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.host import Host
from bot.core.messages import OutMessage, UserRef
from bot.core.payload import decode
from bot.core.table import Table
from bot.i18n import translator
from bot.storage.sqlite import SqliteStorage

from .core_helpers import ANA, BORIS, CHAT, GEORGI, PLATFORM, VERA, Outbox, Passer, make_host, shut

MILA = UserRef(PLATFORM, "5", "Mila", "en")


def button(msg: OutMessage, action: str) -> str:
    return next(b.payload for row in msg.buttons for b in row if decode(b.payload).action == action)


async def lobby_then_a_change(host: Host, outbox: Outbox) -> tuple[Table, OutMessage]:
    """Ana's table, the lobby as the group was shown it, and then a change that moves the table's version on
    before the group's message is edited."""
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    shown = outbox.latest[f"{table.table_id}:lobby"]
    assert (await host.command(CHAT, ANA, "set", ["target_score", "101"])).ok
    assert decode(button(shown, "j")).nonce < table.version
    return table, shown


async def test_three_people_pressing_join_on_the_same_lobby_at_once_all_sit(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    table, shown = await lobby_then_a_change(host, outbox)
    join = button(shown, "j")
    answers = await asyncio.gather(*(host.press(u, join) for u in (BORIS, VERA, GEORGI)))
    assert [a.ok for a in answers] == [True] * 3, [a.text for a in answers]
    assert all(a.joined for a in answers)
    assert sorted(table.seats[i].user_id for i in table.humans()) == sorted(u.user_id for u in (ANA, BORIS, VERA,
                                                                                               GEORGI))
    # A fifth person pressing the same Join is told what changed, and nothing does.
    version = table.version
    late = await host.press(MILA, join)
    assert not late.ok and late.text == "The table is full."
    assert table.version == version
    await shut(host, storage)


async def test_a_double_tap_or_a_replay_of_an_old_join_acts_once(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    table, shown = await lobby_then_a_change(host, outbox)
    join = button(shown, "j")
    version = table.version
    twice = await asyncio.gather(host.press(BORIS, join), host.press(BORIS, join))
    assert [a.ok for a in twice] == [True, False]
    assert twice[1].text == translator("bg").gettext("You acted after this message was shown; use the newest message.")
    assert table.version == version + 1
    # Boris leaves with the newest lobby, then his old Join arrives again (a replay): he pressed it already.
    assert (await host.press(BORIS, button(outbox.latest[f"{table.table_id}:lobby"], "l"))).ok
    version = table.version
    replayed = await host.press(BORIS, join)
    assert not replayed.ok and table.version == version and table.seat_of(BORIS.user_id) is None
    await shut(host, storage)


async def test_the_replay_protection_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    host, storage, outbox = await make_host(path)
    table, shown = await lobby_then_a_change(host, outbox)
    join = button(shown, "j")
    assert (await host.press(BORIS, join)).ok
    assert (await host.press(BORIS, button(outbox.latest[f"{table.table_id}:lobby"], "l"))).ok
    await shut(host, storage)
    host, storage, outbox = await make_host(path)
    again = host.table(table.table_id)
    assert again is not None
    version = again.version
    assert not (await host.press(BORIS, join)).ok
    assert again.version == version
    assert (await host.press(VERA, join)).ok, "someone who did not act since is still seated by the old Join"
    await shut(host, storage)


async def test_old_seat_buttons_take_a_free_seat_and_refuse_a_taken_one(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    table, shown = await lobby_then_a_change(host, outbox)
    seat3 = button(shown, "j2")
    first, second = await asyncio.gather(host.press(BORIS, seat3), host.press(VERA, seat3))
    assert first.ok and table.seat_of(BORIS.user_id) == 2
    assert not second.ok and second.text == "Seat 3 is taken." and table.seat_of(VERA.user_id) is None
    await shut(host, storage)


async def test_add_bot_pressed_by_two_at_once_seats_one_bot_each_while_seats_are_free(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    await host.command(CHAT, BORIS, "join")
    shown = outbox.latest[f"{table.table_id}:lobby"]
    await host.command(CHAT, VERA, "join")
    await host.command(CHAT, VERA, "leave")  # the lobby Ana and Boris see is two versions old
    add = button(shown, "a")
    answers = await asyncio.gather(host.press(ANA, add), host.press(BORIS, add))
    assert [a.ok for a in answers] == [True, True], [a.text for a in answers]
    assert sum(s.is_bot for s in table.seats) == 2 and not table.free_seats()
    version = table.version
    full = await host.press(GEORGI, add)
    assert not full.ok and table.version == version
    await shut(host, storage)


async def test_an_option_changed_meanwhile_is_not_changed_again_by_an_old_button(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    assert (await host.command(CHAT, VERA, "join")).ok
    assert (await host.command(CHAT, ANA, "options")).ok
    menu = outbox.latest[f"{table.table_id}:opts"]
    level = next(b.payload for row in menu.buttons for b in row if b.label.startswith("Bots:"))
    timer = next(b.payload for row in menu.buttons for b in row if b.label.startswith("Timer:"))
    first, second = await asyncio.gather(host.press(ANA, level), host.press(VERA, level))
    assert first.ok and table.options.level == "medium"
    assert not second.ok and second.text == "Someone changed this option meanwhile; it is now: Bots: medium."
    # Another option of the same old menu still cycles: it means what it meant.
    assert (await host.press(VERA, timer)).ok and table.options.timer == 60
    await shut(host, storage)


async def test_an_old_start_starts_a_full_table_and_not_one_whose_options_changed(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    await host.command(CHAT, BORIS, "join")
    start = button(outbox.latest[f"{table.table_id}:lobby"], "s")
    assert (await host.command(CHAT, VERA, "join")).ok  # the lobby Ana saw had a free seat more
    changed = await host.press(ANA, start)
    assert not changed.ok and changed.text == "The seats changed since; look at them and press Start again."
    await host.command(CHAT, GEORGI, "join")
    assert (await host.press(ANA, start)).ok, "a full table starts from the lobby Ana was shown"
    assert table.status == "playing"
    await shut(host, storage)
    host, storage, outbox = await make_host(tmp_path / "again.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table2 = host.table(opened.table_id)
    assert table2 is not None
    start = button(outbox.latest[f"{table2.table_id}:lobby"], "s")
    await host.command(CHAT, BORIS, "join")
    await host.command(CHAT, BORIS, "set", ["target_score", "301"])
    refused = await host.press(ANA, start)
    assert not refused.ok and refused.text == "The options changed since; look at them and press Start again."
    assert table2.status == "lobby"
    await shut(host, storage)


async def anas_turn_with_boris(path: Path) -> tuple[Host, SqliteStorage, Outbox, Table]:
    """Ana and Boris with two bots that always pass, at Ana's turn in the first auction."""
    host, storage, outbox = await make_host(path, agent_factory=lambda level, seed: Passer(seed))
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    await host.command(CHAT, BORIS, "join")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    for _ in range(8):
        await host.idle()
        if table.to_act == 0:
            break
        hand = outbox.latest[f"{table.table_id}:h1:{BORIS.user_id}"]
        assert (await host.press(BORIS, button(hand, "c:pass"))).ok
    assert table.to_act == 0
    return host, storage, outbox, table


async def test_a_move_from_a_view_a_vote_made_old_is_still_made(tmp_path: Path) -> None:
    host, storage, outbox, table = await anas_turn_with_boris(tmp_path / "db.sqlite3")
    hand = outbox.latest[f"{table.table_id}:h0:{ANA.user_id}"]
    assert (await host.command(CHAT, BORIS, "stop")).ok  # a vote to stop: a new version, the same turn
    version = table.version
    call = button(hand, "c:pass")
    assert decode(call).nonce < version
    twice = await asyncio.gather(host.press(ANA, call), host.press(ANA, call))
    assert [a.ok for a in twice] == [True, False], [a.text for a in twice]
    assert table.version > version
    await shut(host, storage)


async def test_an_old_call_of_a_timed_out_turn_is_refused_with_the_call_made_since(tmp_path: Path) -> None:
    from bot.core.clock import ManualClock

    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock,
                                            agent_factory=lambda level, seed: Passer(seed))
    opened = await host.command(CHAT, ANA, "new", ["timer=30", "away=bot_turn"])
    table = host.table(opened.table_id)
    assert table is not None
    await host.command(CHAT, BORIS, "join")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    await host.idle()
    person = table.to_act
    assert person in (0, 1)
    user = ANA if person == 0 else BORIS
    hand = outbox.latest[f"{table.table_id}:h{person}:{user.user_id}"]
    version = table.version
    await clock.advance(31)  # time is up: a bot passes for them

    async def timed_out() -> None:
        while table.version == version:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(timed_out(), 5)
    await host.idle()
    assert table.deal is not None and table.deal.calls
    version = table.version
    late = await host.press(user, button(hand, "c:pass"))
    assert not late.ok and table.version == version
    tr = translator(user.language or "en")
    said = tr.gettext("The auction has moved on: {name} said {call}.").split("{")[0]
    assert late.text.startswith((said, tr.gettext("A new deal has begun."))), late.text
    await shut(host, storage)
