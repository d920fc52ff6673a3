"""Turn timers on a manual clock: each away policy, the group notice, and a deadline that survives a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.clock import ManualClock
from bot.core.live import WAITING
from bot.core.payload import decode

from .core_helpers import ANA, anas_timed_turn, make_host, shut


async def _until(predicate: object, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not predicate():  # type: ignore[operator]
            await asyncio.sleep(0.005)

    await asyncio.wait_for(wait(), timeout)


async def test_time_up_a_bot_plays_the_turn_and_the_group_is_told(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock)
    table = await anas_timed_turn(host, "bot_turn")
    row = await storage.get_table(table.table_id)
    assert row is not None and row.deadline == clock.now() + 30
    version = table.version
    await clock.advance(29)
    await asyncio.sleep(0.05)
    assert table.version == version  # not yet
    await clock.advance(2)
    await _until(lambda: any("Time is up for Ana" in m.text for m in outbox.group("notice")))
    events = [e.data for e in await storage.events(table.table_id)]
    timed = [e for e in events if e.get("by") == "timer"]
    assert timed and timed[0]["seat"] == 0
    assert not table.seats[0].away  # only that turn
    await shut(host, storage)


async def test_time_up_a_bot_takes_the_seat_until_im_back(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock)
    table = await anas_timed_turn(host, "bot_seat")
    host.bot_pause = 0.2  # slow bots, so Ana can come back mid-deal
    await clock.advance(31)
    await _until(lambda: any("until they press" in m.text for m in outbox.group("notice")))
    assert table.seats[0].away
    hand = outbox.for_user(ANA)[-1]
    back = [b for row in hand.buttons for b in row if decode(b.payload).action == "back"]
    assert back, "the away player's view offers “I'm back”"
    answer = await host.press(ANA, back[0].payload)
    assert answer.ok, answer.text
    assert not table.seats[0].away
    events = [e.data["e"] for e in await storage.events(table.table_id)]
    assert events[-2:] == ["away", "back"] or events[-3:-1] == ["away", "back"] or "back" in events
    host.bot_pause = 0.0
    await host.idle()
    assert table.status != "playing" or table.to_act == 0  # the bots stop at Ana's turn again
    await shut(host, storage)


async def test_time_up_the_table_waits(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", clock)
    table = await anas_timed_turn(host, "wait")
    version = table.version
    await clock.advance(31)
    await _until(lambda: any("the table waits" in m.text for m in outbox.group("notice")))
    assert table.version == version and table.to_act == 0
    row = await storage.get_table(table.table_id)
    assert row is not None and row.deadline == WAITING
    await shut(host, storage)
    # After a restart the table still waits, and the group is not told again.
    later = ManualClock(clock.now() + 600)
    host2, storage2, outbox2 = await make_host(tmp_path / "db.sqlite3", later)
    resumed = host2.table(table.table_id)
    assert resumed is not None and resumed.version == version
    await later.advance(120)
    await host2.idle()
    assert not any("the table waits" in m.text for m in outbox2.group("notice"))
    assert resumed.version == version and resumed.to_act == 0
    await shut(host2, storage2)


async def test_a_stored_deadline_fires_after_a_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    host, storage, _ = await make_host(tmp_path / "db.sqlite3", clock)
    table = await anas_timed_turn(host, "bot_turn")
    table_id, version = table.table_id, table.version
    await shut(host, storage)
    later = ManualClock(clock.now() + 120)  # the process was down past the deadline
    host2, storage2, outbox2 = await make_host(tmp_path / "db.sqlite3", later)
    resumed = host2.table(table_id)
    assert resumed is not None and resumed.version == version
    await _until(lambda: resumed.version > version)
    await host2.idle()
    events = [e.data for e in await storage2.events(table_id)]
    assert events[version]["by"] == "timer"  # the first action after the restart is the timer's
    assert any(m.kind == "table" for m in outbox2.messages)  # the table was re-rendered
    await shut(host2, storage2)


