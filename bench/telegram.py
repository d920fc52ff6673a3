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

Other scenarios (``--scenario``), one group each, times printed in Telegram's seconds (divided by ``--scale``):

- ``deal``: four people press their moves the instant they are offered, for ``--deals`` deals. Printed: group API
  calls and new group messages per deal, the longest time the group went without an update, tricks never shown.
- ``spam``: one member sends 60 ``/rules`` at once, then another presses Join: how long until the lobby shows it.
- ``outage``: the Bot API answers 5xx to every message for ``--outage`` seconds in the middle of a match: messages
  lost (deal results, the current table and hands not shown when the dust settles).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
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
from bot.adapters.telegram.render import post_of  # noqa: E402
from bot.core import views  # noqa: E402
from bot.core.messages import TELEGRAM, UserRef  # noqa: E402
from bot.core.table import Table  # noqa: E402
from bot.i18n import translator  # noqa: E402
from tests.fake_telegram import FLOOD_METHODS, FakeTelegram, Sent  # noqa: E402
from tests.telegram.harness import Harness, Person, buttons_with, cards_in, limits_of  # noqa: E402

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


class GroupBench:
    """One group, four people (or one member and a spammer): the group's budget per deal, and what it costs."""

    GROUP = -1_000_000_000_777
    PEOPLE = tuple(Person(30_001 + i, f"P{i + 1}", "en") for i in range(4))

    def __init__(self, scale: float, seed: int, deals: int, outage: float) -> None:
        self.policy = FloodPolicy().scaled(scale)
        self.scale = scale
        self.rng = random.Random(seed)
        self.deals = deals
        self.outage = outage
        self.stalled = False
        self.verbose = False

    async def run(self, scenario: str) -> None:
        async with FakeTelegram(limits_of(self.policy)) as tg:
            tg.add_group(self.GROUP, "Bench club")
            for p in self.PEOPLE:
                tg.add_user(p.user_id, p.name, p.language)
                tg.start_private(p.user_id)
            with tempfile.TemporaryDirectory() as tmp:
                h = Harness(tg, Path(tmp) / "bench.sqlite3", self.policy, language="en")
                await h.start()
                try:
                    await getattr(self, scenario)(h, tg)
                finally:
                    await h.stop()

    async def _lobby(self, h: Harness, tg: FakeTelegram, seated: int) -> tuple[str, Sent]:
        tg.send_text(self.PEOPLE[0].user_id, self.GROUP, "/belot target_score=301")  # long enough for --deals
        await h.settle()
        [lobby] = [m for m in tg.in_chat(self.GROUP) if buttons_with(m, "s")]
        table_id = lobby.buttons()[0][1].split(":")[1]
        for person in self.PEOPLE[1:seated]:
            join = next(d for _, d in buttons_with(tg.messages[(self.GROUP, lobby.message_id)], "j") if d[-2:] == ":j")
            await h.press(person, lobby, join)
            await h.settle()
        return table_id, tg.messages[(self.GROUP, lobby.message_id)]

    async def _play(self, h: Harness, tg: FakeTelegram, table_id: str, until: float | None = None) -> None:
        """Every person presses a random offered move the moment their hand offers it, until ``deals`` deals were
        played (or the ``until`` time)."""

        moved = [time.perf_counter(), -1]  # when the table last changed, its version then

        async def person(p: Person) -> None:
            pressed: set[str] = set()
            while True:
                table = h.host.table(table_id)
                if table is None or table.match is None or played(table) >= self.deals:
                    return
                now = time.perf_counter()
                if until is not None and now > until:
                    return
                if table.version != moved[1]:
                    moved[:] = [now, table.version]
                elif until is None and now - moved[0] > 120 * self.scale:
                    self.stalled = True  # nobody has been offered a move for two minutes: the chats lost it
                    return
                seat = table.seat_of(str(p.user_id))
                ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{p.user_id}")
                hand = tg.messages.get(ref) if ref is not None else None
                moves = [d for _, d in buttons_with(hand, "c:") + buttons_with(hand, "p:") if d not in pressed]
                if hand is None or not moves:
                    await tg.next_change(p.user_id, timeout=0.2)
                    continue
                pressed.update(moves)
                await tg.answer_of(tg.press(p.user_id, hand, self.rng.choice(moves)), timeout=60)

        await asyncio.gather(*(person(p) for p in self.PEOPLE))

    async def deal(self, h: Harness, tg: FakeTelegram) -> None:
        table_id, lobby = await self._lobby(h, tg, 4)
        start_at = len(tg.log[self.GROUP])
        began = time.monotonic()
        await h.press(self.PEOPLE[0], lobby, buttons_with(lobby, "s")[0][1])
        await self._play(h, tg, table_id)
        await h.settle()  # the group has seen the deals when everything queued was delivered
        entries = [e for e in tg.log[self.GROUP][start_at:] if e.method in FLOOD_METHODS]
        sends = sum(1 for e in entries if e.method == "sendMessage")
        if self.verbose:
            for e in entries:
                first_line = (e.text or "").splitlines()[0]
                print(f"{(e.at - began) / self.scale:7.1f} s {e.method} {e.message_id} {first_line}")
        shown = [began] + [e.at for e in entries if e.ok]
        silence = max(b - a for a, b in itertools.pairwise(shown))
        table = await h.oracle(table_id)
        assert table.match is not None
        deals = len(table.match.results)  # the match may end sooner; passed-out deals count (they cost requests)
        seen = tg.texts_seen(self.GROUP)
        unseen = sum(
            1
            for deal in table.match.deals[: len(table.match.results)]
            for trick in deal.tricks
            if not any(set(trick.cards) <= cards_in(text) for text in seen)
        )
        print(f"deal: {deals} deals ({deals - played(table)} passed out) by four people pressing at once, "
              f"flood windows x{self.scale:g}")
        print(f"group API calls per deal: {len(entries) / deals:.1f}; new group messages per deal: "
              f"{sends / deals:.1f}; refused by the server: {sum(1 for e in entries if not e.ok)}")
        print(f"longest time the group saw no update: {silence / self.scale:.1f} s; tricks never shown: {unseen}")
        print(f"flood-limit violations seen by the server: {len(tg.violations)}")

    async def spam(self, h: Harness, tg: FakeTelegram) -> None:
        _, lobby = await self._lobby(h, tg, 1)
        spammer, joiner = self.PEOPLE[0], self.PEOPLE[1]
        for _ in range(60):
            tg.send_text(spammer.user_id, self.GROUP, "/rules")
        await tg.wait_for(lambda: tg.pending_updates() == 0, 60)
        join = next(d for _, d in buttons_with(lobby, "j") if d[-2:] == ":j")
        pressed = time.monotonic()
        await h.press(joiner, lobby, join)
        await tg.wait_for(lambda: joiner.name in tg.messages[(self.GROUP, lobby.message_id)].text, 3600)
        delay = time.monotonic() - pressed
        replies = sum(1 for e in tg.log[self.GROUP] if e.ok and e.text and "Options of table" in e.text)
        print(f"spam: 60 /rules, then Join; flood windows x{self.scale:g}")
        print(f"Join -> the lobby shows it: {delay / self.scale:.1f} s; /rules replies posted: {replies} "
              f"(so far); flood-limit violations: {len(tg.violations)}")

    async def outage_(self, h: Harness, tg: FakeTelegram) -> None:
        table_id, lobby = await self._lobby(h, tg, 4)
        await h.press(self.PEOPLE[0], lobby, buttons_with(lobby, "s")[0][1])
        # Play a while, then Telegram fails every message for a minute while people keep pressing what they see.
        await self._play(h, tg, table_id, until=time.perf_counter() + 2 * self.scale)
        tg.outage(self.outage * self.scale)
        await self._play(h, tg, table_id, until=time.perf_counter() + self.outage * self.scale)
        await self._play(h, tg, table_id)
        await h.settle()
        lost = await lost_messages(h, tg, table_id)
        table = await h.oracle(table_id)
        assert table.match is not None
        print(f"outage: {self.outage:g} s of 5xx mid-match, {played(table)} deals played, "
              f"flood windows x{self.scale:g}")
        print(f"messages lost: {len(lost)} {lost}; refused with 5xx: "
              f"{sum(1 for _, code, _ in tg.errors_served if code >= 500)}"
              + ("; the game stalled: nobody was offered a move for two minutes" if self.stalled else ""))


def played(table: Table) -> int:
    """Deals played to the end (not passed out)."""
    return sum(1 for r in table.match.results if r is not None) if table.match is not None else 0


async def lost_messages(h: Harness, tg: FakeTelegram, table_id: str) -> list[str]:
    """What the chats should show by the table's log and do not: each deal's result and final table, the current
    table and each person's hand (by key)."""
    table = h.host.table(table_id) or await h.oracle(table_id)  # the live one knows the chat's title
    match = table.match
    assert match is not None
    tr = translator(table.options.lang)
    expected = [views.finished_deal_view(table, i, tr) for i in range(len(match.results))]
    if table.status == "playing":
        expected += [
            views.hand_view(table, seat, UserRef(TELEGRAM, s.user_id, s.name), tr)
            for seat, s in enumerate(table.seats)
        ]
    expected += [m for i in range(len(match.results)) if (m := views.result_view(table, i, tr)) is not None]
    if table.status == "playing":
        current = views.table_view(table, tr)
        expected += [current] if current is not None else []
    lost = []
    for message in expected:
        ref = await h.adapter.refs.get(message.key)
        sent = tg.messages.get(ref) if ref is not None else None
        post = post_of(message)
        if sent is None or sent.deleted or post is None or sent.text != post.text:
            lost.append(message.key)
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--scale", type=float, default=1.0, help="flood-limit windows multiplied by this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds left out of the steady-state numbers")
    parser.add_argument("--bot-pause", type=float, default=0.0, help="pause before each bot move (as `run` has)")
    parser.add_argument("--scenario", choices=("load", "deal", "spam", "outage"), default="load")
    parser.add_argument("--deals", type=int, default=4, help="deals the deal scenario plays")
    parser.add_argument("--outage", type=float, default=60.0, help="seconds of 5xx in the outage scenario")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.scenario == "load":
        asyncio.run(Bench(args.tables, args.seconds, args.scale, args.seed, args.warmup, args.bot_pause).run())
    else:
        name = "outage_" if args.scenario == "outage" else args.scenario
        asyncio.run(GroupBench(args.scale, args.seed, args.deals, args.outage).run(name))


if __name__ == "__main__":
    main()
