"""Discord interactions on a busy event loop: how long until each is acknowledged, with and without deferring at
once while the loop lags.

The real discord.py client and the fake Discord (tests/discord_fakes.py) share one event loop with work that holds
it ``--block`` seconds at a time (as a bot computing its move on the loop would). A person sends ``/belot new`` in
``--commands`` fresh channels, one after another. Printed for each block length: the time from the interaction's
creation to its acknowledgement (p50, max) and how many missed Discord's 3 seconds, first with the lag check off
(the core always gets its 2-second budget), then on.

    python bench/discord_lag.py [--block 0.1 0.15 0.2] [--commands 6]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.discord_fakes import ACK_WINDOW, FakeDiscord, FakeUser
from tests.test_discord_adapter import start_bot


async def run(block: float, commands: int, lag_check: bool) -> tuple[list[float], int]:
    fake = FakeDiscord()
    await fake.start()
    delays: list[float] = []
    missed = 0
    with tempfile.TemporaryDirectory() as folder:
        running = await start_bot(fake, Path(folder) / "belote.sqlite3")
        if not lag_check:
            running.client.adapter.lag_limit = math.inf
        ana = FakeUser(fake.next_id(), "Ana", "en-US")
        busy = True

        async def think() -> None:
            while busy:
                time.sleep(block)
                await asyncio.sleep(0)

        thinker = asyncio.create_task(think())
        await asyncio.sleep(4 * block)
        for _ in range(commands):
            try:
                record = await fake.command(ana, fake.add_channel(), "belot", "new")
            except AssertionError:  # never acknowledged in time
                missed += 1
                continue
            assert record.ack_delay is not None
            delays.append(record.ack_delay)
            missed += record.ack_delay > ACK_WINDOW
        busy = False
        await thinker
        await running.stop()
    await fake.stop()
    return delays, missed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--block", type=float, nargs="+", default=[0.1, 0.15, 0.2])
    parser.add_argument("--commands", type=int, default=6)
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    print(f"{'block s':>8} {'lag check':>9} {'ack p50 s':>10} {'ack max s':>10} {'missed':>7}")
    for block in args.block:
        for lag_check in (False, True):
            delays, missed = await run(block, args.commands, lag_check)
            p50 = f"{statistics.median(delays):.2f}" if delays else "-"
            worst = f"{max(delays):.2f}" if delays else "-"
            print(f"{block:>8.2f} {'on' if lag_check else 'off':>9} {p50:>10} {worst:>10} {missed:>4}/{args.commands}")


if __name__ == "__main__":
    asyncio.run(main())
