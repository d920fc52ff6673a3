"""The machinery of the host's chaos test (``test_host_chaos.py``): bots that think only when the test lets them,
a wait until every task of the host is parked, seeded table ids and deals, and which cards a text shows.

Why a gate: bots think on threads, so when a move lands depends on the machine. Here every ``act`` blocks until the
test releases it, and the test only moves on once each host task waits either on the manual clock (a turn timer
with time left) or on a bot that has not been released. The order of everything is then the seed's alone.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from bot.ai.base import Agent
from bot.ai.simple import RandomAgent
from bot.core.clock import ManualClock
from bot.core.live import LiveTable
from bot.engine import Action, Bid, Observation, Play
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.deal import Deal
from bot.engine.seatview import view as seat_view
from bot.engine.trumpdeal import TrumpDeal

# --- seeded randomness where the host draws from ``secrets`` (table ids, deal seeds, first dealers) ---


class SeededSecrets:
    """Stands in for the ``secrets`` module inside the host, so the same seed opens the same tables and deals."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choice(self, seq: Sequence[str]) -> str:
        return self._rng.choice(seq)

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)

    def token_hex(self, nbytes: int) -> str:
        return self._rng.randbytes(nbytes).hex()


# --- the gate bots think behind ---


@dataclass
class Gate:
    """Every bot's ``act`` waits here until the test releases it (by the observation it was given)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    waiting: dict[int, tuple[Observation, threading.Event]] = field(default_factory=dict)
    busy: int = 0  # threads making an agent or thinking that are not parked at the gate
    passing: bool = False  # the host is closing: nobody waits
    thoughts: int = 0

    def park(self, observation: Observation) -> None:
        event = threading.Event()
        with self.lock:
            if self.passing:
                return
            self.waiting[id(observation)] = (observation, event)
            self.busy -= 1
        if not event.wait(60):  # a forgotten bot must fail the test, not hang it
            with self.lock:
                self.waiting.pop(id(observation), None)
                self.busy += 1

    def is_waiting(self, observation: object) -> bool:
        with self.lock:
            return id(observation) in self.waiting

    def release(self, observation: object) -> None:
        with self.lock:
            parked = self.waiting.pop(id(observation), None)
            if parked is None:
                return
            self.busy += 1  # counted busy before the thread wakes, so nobody sees it neither parked nor busy
            self.thoughts += 1
        parked[1].set()

    def open_all(self) -> None:
        """Let every parked bot finish and every later one pass (the host is closing)."""
        with self.lock:
            self.passing = True
            parked = list(self.waiting.values())
            self.waiting.clear()
            self.busy += len(parked)
        for _, event in parked:
            event.set()

    def close_all(self) -> None:
        with self.lock:
            self.passing = False


class BotBlunder(RuntimeError):
    """A bot failing on purpose: the host must play a legal move for it (and log why)."""


class GatedAgent:
    """Our random bot, thinking only when the gate lets it. A share ``blunders`` of its answers are wrong on
    purpose, as an external program's may be: an action the rules refuse, or an exception."""

    name = "random"

    def __init__(self, gate: Gate, seed: int, blunders: float = 0.0) -> None:
        self._gate = gate
        self._inner = RandomAgent(seed)
        self._mischief = random.Random(seed * 7 + 3)
        self._blunders = blunders

    def act(self, observation: Observation) -> Action:
        with self._gate.lock:
            self._gate.busy += 1
        try:
            self._gate.park(observation)
            roll = self._mischief.random()
            if roll < self._blunders / 4:
                raise BotBlunder("a bot that fails on purpose")
            if roll < self._blunders:
                return self._any_action(observation)
            return self._inner.act(observation)
        finally:
            with self._gate.lock:
                self._gate.busy -= 1

    def _any_action(self, observation: Observation) -> Action:
        """Any call or any card, with any announcements: legal only by chance."""
        r = self._mischief
        if observation.legal_calls:
            return Bid(r.randrange(9))
        kinds = tuple(r.sample(["tierce", "quarte", "quint", "carre", "sextet"], r.randint(0, 2)))
        return Play(r.randrange(32), kinds, r.random() < 0.3)

    def deal_end(self, report: dict[str, Any], hands: list[list[str]], extra: object = None) -> None:
        self._inner.deal_end(report, hands)

    def close(self) -> None:
        self._inner.close()


def gated_factory(gate: Gate, blunders: float = 0.0) -> Callable[[str, int], Agent]:
    """Every level plays as the random bot (deterministic for its seed, unlike the timed searches)."""

    def factory(level: str, seed: int) -> Agent:
        return GatedAgent(gate, seed, blunders)

    return factory


# --- what the host's tasks are waiting for ---


def await_chain(task: asyncio.Task[Any]) -> list[tuple[str, FrameType | None]]:
    """The coroutines a task is suspended in, outermost first, by name, with their frames."""
    out: list[tuple[str, FrameType | None]] = []
    coro: Any = task.get_coro()
    while coro is not None and hasattr(coro, "cr_code"):
        out.append((coro.cr_code.co_name, coro.cr_frame))
        coro = coro.cr_await
    return out


def frame_local(chain: list[tuple[str, FrameType | None]], name: str, local: str) -> Any:
    for coro_name, frame in chain:
        if coro_name == name and frame is not None:
            return frame.f_locals.get(local)
    return None


@dataclass(frozen=True)
class Parked:
    """A host task that waits for the test: on the manual clock (``deadline``) or on a bot (``observation``)."""

    task: asyncio.Task[Any]
    live: LiveTable | None
    deadline: float | None = None
    observation: Observation | None = None


def parked_on(task: asyncio.Task[Any], gate: Gate, clock: ManualClock) -> Parked | None:
    """How the task waits for the test, or None when it can still run by itself."""
    chain = await_chain(task)
    names = [n for n, _ in chain]
    live = frame_local(chain, chain[0][0], "live") if chain else None
    if "sleep_until" in names and names[-1] == "wait":
        deadline = frame_local(chain, "sleep_until", "deadline")
        if isinstance(deadline, float | int) and deadline > clock.now():
            return Parked(task, live, deadline=float(deadline))
        return None
    if "_think" in names and names[-1] == "think" and "_agent" not in names:  # on a thread of the bots' pool
        observation = frame_local(chain, "_think", "obs")
        if observation is not None and gate.is_waiting(observation):
            return Parked(task, live, observation=observation)
    return None


class Stuck(AssertionError):
    """The host did not come to rest: some task neither finished nor waits for the clock or a bot."""


class HostTasks:
    """Every task the host creates (through the loop's task factory): to wait for them, and to catch exceptions
    that would otherwise vanish into a log."""

    def __init__(self) -> None:
        self.pending: set[asyncio.Task[Any]] = set()
        self.errors: list[str] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **kwargs)
            code = getattr(coro, "cr_code", None)
            if code is not None and "/bot/core/" in code.co_filename:
                self.pending.add(task)
                task.add_done_callback(self._done)
            return task

        loop.set_task_factory(factory)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(f"host task {task.get_coro()!r} raised {task.exception()!r}")

    async def settle(self, gate: Gate, clock: ManualClock, timeout: float = 20.0) -> list[Parked]:
        """Run the loop until every host task is parked; release bots whose task is gone (cancelled while they
        thought). Returns the parked tasks in a stable order."""
        started = time.monotonic()
        spins = 0
        while True:
            await asyncio.sleep(0)
            spins += 1
            parked = [parked_on(t, gate, clock) for t in self.pending if not t.done()]
            if all(p is not None for p in parked) and gate.busy == 0:
                waited_for = {id(p.observation) for p in parked if p is not None and p.observation is not None}
                with gate.lock:
                    orphans = [obs for key, (obs, _) in gate.waiting.items() if key not in waited_for]
                if not orphans:
                    return sorted((p for p in parked if p is not None), key=_order)
                for obs in orphans:
                    gate.release(obs)
                continue
            if time.monotonic() - started > timeout:
                states = [[n for n, _ in await_chain(t)] for t in self.pending if not t.done()]
                raise Stuck(f"host tasks never came to rest: {states}; bot threads busy: {gate.busy}")
            if spins > 20:
                await asyncio.sleep(0.0002)  # a thread or a storage read is running: give it time


def _order(p: Parked) -> tuple[str, int, float]:
    table_id = p.live.table.table_id if p.live is not None else ""
    seat = p.observation.seat if p.observation is not None else -1
    return (table_id, seat, p.deadline or 0.0)


# --- which cards a text shows ---

_GLUED = re.compile(r"(10|[789JQKA])([♣♦♥♠])")  # "J♥", "10♠": a card in a trick or a button
_GROUP = re.compile(r"([♣♦♥♠])((?: (?:10|[789JQKA]))+)(?![^\s;,.])")  # "♠ A K 10": a hand, suit by suit
_RANKS = "789TJQKA"


def _card(rank: str, suit: str) -> int:
    return SUIT_SYMBOLS.index(suit) * 8 + _RANKS.index("T" if rank == "10" else rank)


def glued_cards(text: str) -> set[int]:
    return {_card(rank, suit) for rank, suit in _GLUED.findall(text)}


def hand_cards(text: str) -> set[int]:
    """Cards written as a hand: a suit symbol followed by its ranks."""
    out: set[int] = set()
    for suit, ranks in _GROUP.findall(text):
        out.update(_card(rank, suit) for rank in ranks.split())
    return out


def played(deal: Deal | TrumpDeal) -> set[int]:
    """The cards anyone at the table has seen: the played ones and, in a family game, the French turned card and
    the declarations the contest's winner showed (family §2.3, §7.5: public by the rules)."""
    out = set(deal.trick)
    for trick in deal.tricks:
        out.update(trick.cards)
    if isinstance(deal, TrumpDeal):
        public = seat_view(deal, 0, turned=getattr(deal, "turned", None))
        out.update(c for _, _, cards in public.shown for c in cards)
        if public.turned is not None:
            out.add(public.turned)
    return out
