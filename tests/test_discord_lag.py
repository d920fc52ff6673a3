"""A busy event loop (a bot thinking on it) must not push Discord interactions past their 3-second acknowledgement:
the adapter measures the loop's lag and, when the loop is behind, defers at once instead of giving the core its
budget first."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.adapters.discord.adapter import LAG_LIMIT
from bot.adapters.discord.lag import LoopLag
from tests.discord_fakes import ACK_WINDOW, DEFERRED_CHANNEL_MESSAGE, EPHEMERAL, FakeDiscord, FakeUser
from tests.test_discord_adapter import start_bot


@asynccontextmanager
async def busy_loop(block: float) -> AsyncIterator[None]:
    """Work that holds the event loop for ``block`` seconds at a time, as a bot computing its move on it would."""
    running = True

    async def think() -> None:
        while running:
            time.sleep(block)  # holds the loop: nothing else runs meanwhile
            await asyncio.sleep(0)

    task = asyncio.create_task(think())
    await asyncio.sleep(4 * block)
    try:
        yield
    finally:
        running = False
        await task


async def test_the_lag_monitor_sees_a_busy_loop_and_forgets_it_after() -> None:
    lag = LoopLag(interval=0.02)
    lag.start()
    try:
        await asyncio.sleep(0.1)
        assert lag.behind() < LAG_LIMIT, "a loop with nothing to do is not lagging"
        async with busy_loop(0.2):
            assert lag.behind() >= LAG_LIMIT
        await asyncio.sleep(1.2)
        assert lag.behind() < LAG_LIMIT, "a lag that is over is forgotten"
    finally:
        await lag.stop()
    assert lag.behind() == 0.0


async def test_commands_on_a_lagging_loop_are_deferred_at_once_and_answered(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    records = []
    async with busy_loop(0.12):
        for _ in range(3):
            records.append(await fake.command(ana, fake.add_channel(), "belot", "new"))
    await running.settle()
    for record in records:
        assert record.ack_delay is not None and record.ack_delay < ACK_WINDOW
        assert record.response_type == DEFERRED_CHANNEL_MESSAGE, "a lagging loop defers before the core answers"
        answer = fake.messages[record.followup_ids[0]] if record.followup_ids else {}
        assert "is open" in answer.get("content", ""), "the deferred interaction got the core's answer after"
    assert not fake.errors
    await running.stop()


async def test_the_calculator_on_a_lagging_loop_acknowledges_first_and_answers_where_it_should(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    async with busy_loop(0.12):
        added = await fake.command(ana, channel, "sheet", "add", entry="90 72")
        refused = await fake.command(boris, channel, "sheet", "undo")
        scored = await fake.command(ana, channel, "score", line="hearts 102 60")
    await running.settle()
    for record in (added, refused, scored):
        assert record.ack_delay is not None and record.ack_delay < ACK_WINDOW
        assert record.response_type == DEFERRED_CHANNEL_MESSAGE
    [line] = [fake.messages[m] for m in added.followup_ids]
    assert "1. 90 \\| 72" in line["embeds"][0]["description"] and not line["flags"] & EPHEMERAL
    # A refusal is for the person only: the channel's "thinking…" goes, the answer comes privately.
    assert refused.original_id in fake.deleted
    [private] = [fake.messages[m] for m in refused.followup_ids]
    assert private["flags"] & EPHEMERAL and "Ana" in private["content"]
    [answer] = [fake.messages[m] for m in scored.followup_ids]
    assert answer["embeds"][0]["title"] and answer["components"], "the answer keeps its Add to the sheet button"
    assert not fake.errors
    await running.stop()
