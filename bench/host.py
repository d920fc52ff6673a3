"""How the game host holds up: N bot-only tables play whole matches at once through the core and the storage (a
SQLite file by default; ``--database postgresql://...`` for a PostgreSQL server, the same figures).

Prints deals per second, p50/p99 latency of one action (apply + store + render; bot thinking excluded, it runs off
the event loop), the event loop's lag (how long a press waits before its action starts) and memory per table.
Target: 500 tables finish without an error, p99 under 50 ms.

    python bench/host.py            # 500 tables
    python bench/host.py -n 50 --level medium
    python bench/host.py -n 100 --game bela     # Croatian Bela (or french) tables

Fairness of bot thinking: one ordinary table watched while many hard-bot tables play beside it, with the pause
chats use before each bot move. Prints the watched table's moves per 30 s (compare with ``--hard-tables 0``), how
long bot decisions waited before their thinking began (p95, watched table and all), and the loop's lag p99.

    python bench/host.py --hard-tables 40 --watch-table medium --seconds 90

On PostgreSQL (an empty database, or one this bench used before):

    python -m tests.pgserver --serve &            # a local server with the ordinary durability; prints its URL
    python bench/host.py --database postgresql://postgres@127.0.0.1:PORT/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.base import Agent
from bot.cli.run import SWITCH_INTERVAL
from bot.config import Settings
from bot.core.agents import make_agent_factory
from bot.core.host import Host
from bot.core.messages import ChatRef, OutMessage, UserRef
from bot.engine import Action, Observation
from bot.storage.factory import is_postgres, open_storage, shown_database


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def run(n: int, level: str, database: str, pause: float = 0.0, game: str = "bulgarian") -> int:
    storage = open_storage(database)
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level=level, bot_only_tables=True,
                        max_tables_per_user=1000, max_tables_per_chat=1000)  # type: ignore[call-arg]
    host = Host(storage, settings, bot_pause=pause)
    messages = 0

    async def sink(msg: OutMessage) -> None:
        nonlocal messages
        messages += 1

    host.add_sink("bench", sink)
    await host.start()
    host.latencies = []
    before = rss_bytes()
    opener = UserRef("bench", "0", "Bench")
    chats = [ChatRef("bench", str(-i)) for i in range(1, n + 1)]

    async def open_table(chat: ChatRef) -> str:
        opened = await host.command(chat, opener, "new", [f"game={game}"])
        await host.command(chat, opener, "leave")
        for _ in range(4):
            await host.command(chat, opener, "addbot")
        return opened.table_id

    opened_at = time.perf_counter()
    ids = await asyncio.gather(*(open_table(c) for c in chats))
    opening_seconds = time.perf_counter() - opened_at
    # Opening every table in the same instant is a burst no chat makes: its actions are reported apart from play's.
    opening = sorted(host.latencies)
    host.latencies = []
    started = time.perf_counter()
    async def start(chat: ChatRef, delay: float) -> None:
        await asyncio.sleep(delay)  # tables in chats start at different moments, not in lockstep
        await host.command(chat, opener, "start")

    lags: list[float] = []

    async def watch_the_loop() -> None:
        # How late a 10 ms timer fires: what a person's press waits before its action even starts.
        while True:
            due = time.perf_counter() + 0.01
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - due)

    watcher = asyncio.create_task(watch_the_loop())
    rng = random.Random(1)
    await asyncio.gather(*(start(c, rng.uniform(0, pause)) for c in chats))
    await asyncio.sleep(0.5)
    during = rss_bytes()
    await host.idle()
    elapsed = time.perf_counter() - started
    watcher.cancel()
    errors = 0
    deals = 0
    for table_id in ids:
        record = await storage.match_record(table_id)
        if record is None:
            errors += 1
        else:
            deals += len(record["deals"])
    lat = sorted(host.latencies)
    stalls: list[float] = getattr(storage, "loop_checkpoints", [])  # SQLite's own
    await host.close()
    await storage.close()
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    backend = "PostgreSQL " + shown_database(database) if is_postgres(database) else "SQLite"
    print(f"storage: {backend}")
    print(f"tables: {n}, finished: {n - errors}, errors: {errors}, bots: {level}, pause per bot move: {pause} s")
    print(f"deals: {deals} in {elapsed:.1f} s = {deals / elapsed:.1f} deals/s; actions: {len(lat)}; "
          f"messages: {messages}")
    print(f"opening the {n} tables at once: {opening_seconds:.1f} s, {len(opening)} actions, p50 "
          f"{statistics.median(opening) * 1000:.2f} ms, p99 {opening[int(len(opening) * 0.99)] * 1000:.2f} ms")
    print(f"action latency in play (apply + store + render): p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    lags.sort()
    print(f"event loop lag (a 10 ms timer's delay): p50 {statistics.median(lags) * 1000:.2f} ms, "
          f"p99 {lags[int(len(lags) * 0.99)] * 1000:.2f} ms")
    if stalls:
        print(f"WAL catch-up checkpoints on the loop's thread: {len(stalls)}, longest {max(stalls) * 1000:.2f} ms")
    print(f"memory per table: {(during - before) / n / 1024:.0f} KiB (resident, measured mid-run)")
    ok = errors == 0 and p99 < 50
    print("target (no error, p99 < 50 ms):", "met" if ok else "NOT met")
    return 0 if ok else 1


async def run_fair(hard_tables: int, watched_level: str, seconds: float, pause: float, database: str) -> int:
    storage = open_storage(database)
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="hard", bot_only_tables=True,
                        max_tables_per_user=1000, max_tables_per_chat=1000)  # type: ignore[call-arg]
    make = make_agent_factory(settings.agents, settings.bot_move_seconds)
    hard_cpu: list[float] = []  # processor seconds each hard decision got within its time budget

    def factory(level: str, seed: int) -> Agent:
        agent = make(level, seed)
        if level != "hard":
            return agent
        act = agent.act

        def timed(observation: Observation) -> Action:
            started = time.thread_time()
            try:
                return act(observation)
            finally:
                hard_cpu.append(time.thread_time() - started)

        agent.act = timed  # type: ignore[method-assign]
        return agent

    host = Host(storage, settings, bot_pause=pause, agent_factory=factory)
    host.add_sink("bench", _discard)
    await host.start()
    host.think_waits = []
    opener = UserRef("bench", "0", "Bench")

    async def open_table(chat: ChatRef, level: str) -> str:
        opened = await host.command(chat, opener, "new", [f"level={level}"])
        await host.command(chat, opener, "leave")
        for _ in range(4):
            await host.command(chat, opener, "addbot", [level])
        return opened.table_id

    lags: list[float] = []

    async def watch_the_loop() -> None:
        while True:
            due = time.perf_counter() + 0.01
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - due)

    watched_chat = ChatRef("bench", "-1")
    watched = await open_table(watched_chat, watched_level)
    hard_chats = [ChatRef("bench", str(-i)) for i in range(2, hard_tables + 2)]
    await asyncio.gather(*(open_table(c, "hard") for c in hard_chats))
    watcher = asyncio.create_task(watch_the_loop())
    rng = random.Random(1)

    async def start(chat: ChatRef, delay: float) -> None:
        await asyncio.sleep(delay)
        await host.command(chat, opener, "start")

    await asyncio.gather(*(start(c, rng.uniform(0, 1)) for c in hard_chats))
    await asyncio.sleep(5)  # the hard tables are thinking: now the watched table starts among them
    host.think_waits.clear()
    lags.clear()
    await host.command(watched_chat, opener, "start")
    table = host.table(watched)
    assert table is not None
    windows: list[int] = []
    load_before = os.getloadavg()[0]
    for _ in range(max(1, int(seconds // 30))):
        version = table.version
        await asyncio.sleep(30)
        windows.append(table.version - version)  # a bot-only table logs nothing but calls and cards
    hard_moves = sum(t.version for c in hard_chats if (t := host.table(host.table_for_chat(c) or "")) is not None)
    watcher.cancel()
    waits = host.think_waits
    await host.close()
    await storage.close()
    print(f"hard-bot tables: {hard_tables}, watched table: {watched_level} bots, pause per bot move: {pause} s, "
          f"load average at the start: {load_before:.2f}, {os.cpu_count()} cores")
    print(f"watched table: moves per 30 s {windows} (mean {statistics.mean(windows):.1f})")
    for who, seconds in (("watched table", [w for t, w in waits if t == watched]),
                         ("hard tables", [w for t, w in waits if t != watched])):
        if seconds:
            seconds.sort()
            p95 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.95))] * 1000
            print(f"bot queue wait (asked -> thinking starts), {who}: p50 {statistics.median(seconds) * 1000:.0f} "
                  f"ms, p95 {p95:.0f} ms over {len(seconds)} decisions")
    lags.sort()
    print(f"event loop lag p99: {lags[int(len(lags) * 0.99)] * 1000:.1f} ms; hard tables' log entries: {hard_moves}")
    if hard_cpu:
        hard_cpu.sort()
        print(f"processor time per hard decision: p50 {statistics.median(hard_cpu) * 1000:.0f} ms, "
              f"p10 {hard_cpu[len(hard_cpu) // 10] * 1000:.0f} ms over {len(hard_cpu)} decisions "
              f"(time budget {0.8 * settings.bot_move_seconds * 1000:.0f} ms of the clock)")
    return 0


async def _discard(msg: OutMessage) -> None:
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--tables", type=int, default=500, help="concurrent tables (default 500)")
    parser.add_argument("--level", default="random", choices=("random", "easy", "medium", "hard"))
    parser.add_argument("--database", help="SQLite file or postgresql:// URL (default: a temporary SQLite file)")
    parser.add_argument("--game", default="bulgarian", choices=("bulgarian", "bela", "french"),
                        help="the game every table plays (default bulgarian)")
    parser.add_argument(
        "--pause", type=float, default=0.0,
        help="seconds each bot waits before moving (0: as fast as possible, a saturation test; chats use 1)",
    )
    parser.add_argument(
        "--switch-interval", type=float, default=SWITCH_INTERVAL, metavar="SECONDS",
        help=f"the interpreter's thread switch interval (default {SWITCH_INTERVAL}, as belote-bot run sets it)",
    )
    parser.add_argument("--hard-tables", type=int, metavar="N",
                        help="fairness scenario: N hard-bot tables beside one watched table")
    parser.add_argument("--watch-table", default="medium", choices=("random", "easy", "medium", "hard"),
                        help="the watched table's bot level in the fairness scenario (default medium)")
    parser.add_argument("--seconds", type=float, default=90, help="fairness scenario: seconds watched (default 90)")
    args = parser.parse_args()
    sys.setswitchinterval(args.switch_interval)
    if args.hard_tables is not None:
        pause = args.pause or 1.0
        with tempfile.TemporaryDirectory() as tmp:
            return asyncio.run(run_fair(args.hard_tables, args.watch_table, args.seconds, pause,
                                        args.database or str(Path(tmp) / "bench.sqlite3")))
    if args.database is not None:
        return asyncio.run(run(args.tables, args.level, args.database, args.pause, args.game))
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(args.tables, args.level, str(Path(tmp) / "bench.sqlite3"), args.pause, args.game))


if __name__ == "__main__":
    sys.exit(main())
