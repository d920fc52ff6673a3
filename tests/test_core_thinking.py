"""Bots think fairly: tables take turns for the threads, quick levels never wait behind searching ones, and a busy
crowd of hard-bot tables does not stop an ordinary table."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from bot.ai.simple import RandomAgent
from bot.core.messages import ChatRef, UserRef
from bot.core.thinking import ThinkPool
from bot.engine import Action, Observation

from .core_helpers import PLATFORM, make_host, shut


async def _until(predicate: object, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not predicate():  # type: ignore[operator]
            await asyncio.sleep(0.002)

    await asyncio.wait_for(wait(), timeout)


async def test_tables_take_turns_for_the_slow_threads() -> None:
    pool = ThinkPool(slow_threads=1, quick_threads=1)
    started: list[str] = []
    gates = {t: threading.Event() for t in "abc"}

    def work(table: str) -> str:
        started.append(table)
        gates[table].wait(5)
        gates[table].clear()
        return table

    async def table(name: str, decisions: int) -> None:
        for _ in range(decisions):  # the next decision is asked for only once the last is made, as a table does
            assert await pool.think(name, "hard", lambda: work(name)) == name

    tasks = [asyncio.create_task(table(name, 3 if name == "a" else 2)) for name in "abc"]
    await _until(lambda: len(started) == 1)
    for _ in range(7):
        count = len(started)
        gates[started[-1]].set()
        await _until(lambda c=count: len(started) == c + 1 or all(t.done() for t in tasks))  # type: ignore[misc]
    await asyncio.gather(*tasks)
    assert started == ["a", "b", "c", "a", "b", "c", "a"], "each table waits for its turn, none twice in a row"
    pool.close()


async def test_a_quick_level_does_not_wait_behind_searching_bots() -> None:
    pool = ThinkPool(slow_threads=1, quick_threads=1)
    release = threading.Event()
    slow = [asyncio.create_task(pool.think(f"hard{i}", "hard", lambda: release.wait(5))) for i in range(5)]
    await asyncio.sleep(0.01)
    assert pool.waiting() == 4
    assert await asyncio.wait_for(pool.think("ordinary", "medium", lambda: "quick"), 1) == "quick"
    release.set()
    await asyncio.gather(*slow)
    pool.close()


async def test_a_cancelled_decision_leaves_the_queue_and_the_thread_free() -> None:
    pool = ThinkPool(slow_threads=1, quick_threads=1)
    release = threading.Event()
    busy = asyncio.create_task(pool.think("a", "hard", lambda: release.wait(5)))
    waiting = asyncio.create_task(pool.think("b", "hard", lambda: "never"))
    await asyncio.sleep(0.01)
    assert pool.waiting() == 1
    waiting.cancel()
    await asyncio.sleep(0)
    assert pool.waiting() == 0
    release.set()
    await busy
    assert await asyncio.wait_for(pool.think("c", "hard", lambda: "next"), 1) == "next"
    pool.close()


class Stuck:
    """A searching bot that thinks until the test lets it go (a slow machine, a long search)."""

    def __init__(self, release: threading.Event, thinking: list[int]) -> None:
        self._release = release
        self._thinking = thinking
        self._inner = RandomAgent(0)

    def act(self, observation: Observation) -> Action:
        self._thinking.append(1)
        self._release.wait(120)  # stuck for the whole test (its ``finally`` lets go), however slow the machine
        return self._inner.act(observation)

    def deal_end(self, report: object, hands: object, extra: object = None) -> None:
        pass

    def close(self) -> None:
        pass


async def test_an_ordinary_table_plays_on_while_many_hard_tables_think(tmp_path: Path) -> None:
    release = threading.Event()
    thinking: list[int] = []

    def factory(level: str, seed: int) -> object:
        return Stuck(release, thinking) if level == "hard" else RandomAgent(seed)

    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3", agent_factory=factory,  # type: ignore[arg-type]
                                             bot_only_tables=True)
    try:
        for i in range(12):  # more searching tables than a default thread pool has threads
            chat = ChatRef(PLATFORM, f"-5{i}")
            owner = UserRef(PLATFORM, f"5{i}", f"Owner {i}", "en")
            await host.command(chat, owner, "new", ["level=hard"])
            await host.command(chat, owner, "leave")
            for _ in range(4):
                await host.command(chat, owner, "addbot", ["hard"])
            assert (await host.command(chat, owner, "start")).ok
        await _until(lambda: len(thinking) >= 2)
        chat = ChatRef(PLATFORM, "-60")
        owner = UserRef(PLATFORM, "60", "Ordinary", "en")
        opened = await host.command(chat, owner, "new", ["level=medium"])
        await host.command(chat, owner, "leave")
        for _ in range(4):
            await host.command(chat, owner, "addbot", ["medium"])
        await host.command(chat, owner, "start")
        table_id = opened.table_id
        assert table_id is not None

        def version() -> int | None:
            # Looked up at each step: a table whose action could not be stored is rebuilt from its log as a new
            # object, and a reference kept from before would stand still while the table plays on. None once the
            # table has ended: random bots, doubling at will, can end a match in two or three deals.
            table = host.table(table_id)
            return None if table is None else table.version

        start = version()
        assert start is not None

        def played_on() -> bool:
            now = version()
            return now is None or now >= start + 40  # a whole deal's calls and cards, and more, or the match's end

        try:
            await _until(played_on, timeout=20)
        except TimeoutError:
            moved, waiting = (version() or start) - start, host.thinking.waiting()
            raise AssertionError(f"the ordinary table made {moved} moves in 20 s; decisions waiting for a thread: "
                                 f"{waiting}; hard decisions begun: {len(thinking)}") from None
        if version() is None:  # gone: it must have played its match to the end, not stopped
            assert await storage.match_record(table_id) is not None, "the ordinary table ended without its match"
        assert len(thinking) <= host.settings.bot_threads, "more searches at once than the slow lane has threads"
    finally:
        release.set()
        await shut(host, storage)
