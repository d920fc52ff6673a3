"""The Telegram adapter under load: N group tables played at once through python-telegram-bot and the fake Bot API
server (tests/fake_telegram.py), with Telegram's flood limits enforced by the server.

Each group has one table: its opener plays seat 1 by pressing the buttons of their private hand, the three other
seats are random bots (instant, and off the event loop, so bot thinking does not count). A spectator in each group
keeps pressing the table's "My hand" button. Printed: updates handled per second, p50/p99 time from a button press
to the bot's answer (``answerCallbackQuery``), messages sent and edited, edits saved by coalescing, and the number
of flood-limit violations the server saw (the target is none).

    python bench/telegram.py [--tables 100] [--seconds 30] [--scale 1]

``--scale`` multiplies every flood-limit window (0.1: ten times faster than Telegram allows, for a quick look).
The first ``--warmup`` seconds, when every table deals and its bots bid at once, are reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

# This file is named like the python-telegram-bot package: keep its folder off the import path, the project on it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bot.adapters.telegram.outbox import FloodPolicy  # noqa: E402
from tests.fake_telegram import FakeTelegram, Sent  # noqa: E402
from tests.telegram.harness import Harness, Person, buttons_with, limits_of  # noqa: E402

GROUP_BASE = -1_000_000_000_000
PLAYER_BASE = 10_000
WATCHER_BASE = 20_000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    def __init__(self, tables: int, seconds: float, scale: float, seed: int, warmup: float, bot_pause: float) -> None:
        self.bot_pause = bot_pause
        self.tables = tables
        self.seconds = seconds
        self.policy = FloodPolicy().scaled(scale)
        self.rng = random.Random(seed)
        self.latencies: list[tuple[float, float]] = []  # (when pressed, seconds to the answer)
        self.warmup = warmup
        self.refused = 0
        self.deadline = 0.0

    async def run(self) -> None:
        async with FakeTelegram(limits_of(self.policy)) as tg:
            with tempfile.TemporaryDirectory() as tmp:
                h = Harness(tg, Path(tmp) / "bench.sqlite3", self.policy, bot_pause=self.bot_pause, bot_level="random")
                await h.start()
                try:
                    await self._play(h, tg)
                finally:
                    await h.stop()

    async def _play(self, h: Harness, tg: FakeTelegram) -> None:
        players = [Person(PLAYER_BASE + i, f"Player {i}", "bg" if i % 2 else "en") for i in range(self.tables)]
        watchers = [Person(WATCHER_BASE + i, f"Watcher {i}", "en") for i in range(self.tables)]
        groups = [GROUP_BASE - i for i in range(self.tables)]
        for player, watcher, group in zip(players, watchers, groups, strict=True):
            tg.add_user(player.user_id, player.name, player.language)
            tg.add_user(watcher.user_id, watcher.name, watcher.language)
            tg.add_group(group, f"Bench {group}")
            tg.start_private(player.user_id)
            tg.send_text(player.user_id, group, "/belot")
        await tg.wait_for(lambda: all(any(buttons_with(m, "s") for m in tg.in_chat(g)) for g in groups), 60)
        table_ids = []
        starts = []
        for player, group in zip(players, groups, strict=True):
            [lobby] = [m for m in tg.in_chat(group) if buttons_with(m, "s")]
            table_ids.append(lobby.buttons()[0][1].split(":")[1])
            starts.append(tg.press(player.user_id, lobby, buttons_with(lobby, "s")[0][1]))
        for query_id in starts:
            await tg.answer_of(query_id, timeout=60)
        updates_before = tg.acknowledged_updates()
        started = time.perf_counter()
        self.deadline = started + self.seconds
        tasks = [
            asyncio.create_task(self._player(h, tg, player, table_id))
            for player, table_id in zip(players, table_ids, strict=True)
        ]
        tasks += [
            asyncio.create_task(self._watcher(h, tg, watcher, group))
            for watcher, group in zip(watchers, groups, strict=True)
        ]
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - started
        handled = tg.acknowledged_updates() - updates_before
        stats = h.adapter.outbox.stats
        print(f"tables: {self.tables}, {elapsed:.1f} s, flood windows x{self.policy.chat_window / 3:g}")
        print(f"updates handled: {handled} ({handled / elapsed:.1f}/s); presses answered: {len(self.latencies)}")
        everything = [latency for _, latency in self.latencies]
        steady = [latency for at, latency in self.latencies if at >= started + self.warmup]
        for name, values in (("all presses", everything), (f"after the first {self.warmup:g} s", steady)):
            print(
                f"press -> answer, {name}: p50 {percentile(values, 0.5) * 1000:.1f} ms, "
                f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values, default=0) * 1000:.1f} ms"
            )
        print(
            f"messages sent {stats.sent}, edited {stats.edited}, edits saved by coalescing {stats.coalesced}, "
            f"retried after 429 {stats.retried_after}, failed {stats.failed}; still queued {h.adapter.outbox.pending()}"
        )
        print(f"flood-limit violations seen by the server: {len(tg.violations)}")

    async def _press(self, tg: FakeTelegram, person: Person, message: Sent, data: str) -> None:
        pressed = time.perf_counter()
        answer = await tg.answer_of(tg.press(person.user_id, message, data), timeout=30)
        self.latencies.append((pressed, answer.latency))

    async def _player(self, h: Harness, tg: FakeTelegram, player: Person, table_id: str) -> None:
        """Press a random offered move whenever the private hand offers new ones."""
        pressed: set[str] = set()
        while time.perf_counter() < self.deadline:
            hand = None
            for seat in range(4):
                ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{player.user_id}")
                if ref is not None:
                    hand = tg.messages.get(ref)
                    break
            moves = [d for _, d in buttons_with(hand, "c:") + buttons_with(hand, "p:") if d not in pressed]
            if hand is None or not moves:
                await tg.next_change(player.user_id, timeout=max(0.0, self.deadline - time.perf_counter()))
                continue
            data = self.rng.choice(moves)
            pressed.update(moves)
            await self._press(tg, player, hand, data)

    async def _watcher(self, h: Harness, tg: FakeTelegram, watcher: Person, group: int) -> None:
        """A spectator pressing "My hand" on the group's table now and then (answered privately)."""
        while time.perf_counter() < self.deadline:
            await asyncio.sleep(0.5 + self.rng.random())
            tables = [m for m in tg.in_chat(group) if buttons_with(m, "h")]
            if tables:
                await self._press(tg, watcher, tables[-1], buttons_with(tables[-1], "h")[0][1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--scale", type=float, default=1.0, help="flood-limit windows multiplied by this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds left out of the steady-state numbers")
    parser.add_argument("--bot-pause", type=float, default=0.0, help="pause before each bot move (as `run` has)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(Bench(args.tables, args.seconds, args.scale, args.seed, args.warmup, args.bot_pause).run())


if __name__ == "__main__":
    main()
