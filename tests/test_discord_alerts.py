"""The turn alert (a short public line that mentions whose turn it is) against the fake Discord: one line per table
during play, and none left in the channel once the table ends, whether or not the bot restarted in between."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.adapters.discord.alerts import INDEX_KEY, alert_key
from bot.adapters.discord.render import COLOURS
from bot.core.messages import DISCORD
from bot.engine.record import replay_record
from tests.discord_fakes import FakeDiscord
from tests.test_discord_adapter import (
    Running,
    Table,
    open_table,
    people,
    play_turn,
    start_bot,
    to_act,
)


def alerts(fake: FakeDiscord, channel: int) -> list[dict[str, Any]]:
    """The turn alerts a person sees in the channel: the public messages styled as alerts."""
    return [m for m in fake.public(channel) if any(e.get("color") == COLOURS["ping"] for e in m["embeds"])]


def check_one_alert_for(table: Table) -> None:
    shown = alerts(table.fake, table.channel)
    actor = to_act(table)
    assert actor is not None
    assert len(shown) == 1, f"expected one alert line, found {len(shown)}"
    assert shown[0]["content"].startswith(f"<@{actor.id}>"), "the alert mentions the person to act"


async def check_no_alert_left(running: Running, table: Table) -> None:
    assert not alerts(table.fake, table.channel), "a turn alert outlived its table"
    assert await running.storage.get_message_ref(DISCORD, alert_key(table.table_id)) is None
    index = await running.storage.get_message_ref(DISCORD, INDEX_KEY) or ""
    assert table.table_id not in index.split(), "an ended table is still listed as having an alert"
    assert not table.fake.errors, [e.errors or e.message for e in table.fake.errors]


async def test_the_alert_follows_the_turn_and_is_removed_when_the_match_ends(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake))
    rng = random.Random(1)
    posted: set[int] = set()
    while await play_turn(table, rng):
        if to_act(table) is not None:
            check_one_alert_for(table)
            posted.add(int(alerts(fake, table.channel)[0]["id"]))
    stored = await running.storage.match_record(table.table_id)
    assert stored is not None and replay_record(stored).over
    assert len(posted) > 10, "a new alert for every turn"
    assert max(posted) in fake.deleted, "the last alert was deleted"
    await check_no_alert_left(running, table)
    await running.stop()


async def test_stopping_the_table_removes_its_alert(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(2)
    for _ in range(3):
        assert await play_turn(table, rng)
    check_one_alert_for(table)
    await fake.command(users[0], table.channel, "belot", "stop")
    await running.settle()
    await check_no_alert_left(running, table)
    await running.stop()


async def test_an_alert_from_before_a_restart_is_removed_when_the_table_stops(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(3)
    for _ in range(5):
        assert await play_turn(table, rng)
    check_one_alert_for(table)
    await running.stop()

    # The new process knows the alert only from storage.
    running = await start_bot(fake, db)
    table.running = running
    check_one_alert_for(table)
    await fake.command(users[0], table.channel, "belot", "stop")
    await running.settle()
    await check_no_alert_left(running, table)
    await running.stop()


async def test_a_restart_removes_the_alert_of_a_table_that_ended_before_it_could(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(4)
    for _ in range(4):
        assert await play_turn(table, rng)
    check_one_alert_for(table)
    # The table is stopped (and stored so), then the process dies before its queued messages go out.
    running.client.adapter.outbox.ready.clear()
    await fake.command(users[0], table.channel, "belot", "stop")
    await running.client.close()  # not logged in as far as the outbox knows: what waits is dropped
    await running.task
    await running.host.close()
    await running.storage.close()
    running.stopped = True  # closed by hand, as the dying process left it
    assert len(alerts(fake, table.channel)) == 1

    running = await start_bot(fake, db)
    table.running = running
    await check_no_alert_left(running, table)
    await running.stop()
