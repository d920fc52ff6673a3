"""Every metric the bot keeps, in one place; the core and the adapters update them with one call each.

The values live here as plain numbers: an update is a dictionary look-up and an addition on the event loop's
thread (a few hundred nanoseconds), and importing this module costs nothing, so the terminal and the other commands
that load the core do not load the metrics library. ``bot.ops.exposition`` turns them into the Prometheus text
format when ``GET /metrics`` asks (``bot.ops.health``); the gauges that describe queues and tables are read from
callbacks only then. docs/hosting.md ("Metrics") lists each metric with its meaning.
"""

from __future__ import annotations

import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

ACTION_BUCKETS = (0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Histogram:
    """Observations counted per bucket (a value falls in the first bucket whose bound is at least the value; the
    last count is for values beyond every bound), with their sum."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def count(self) -> int:
        return sum(self.counts)


# Actions stored, by kind (the log's "e": bid, play, sit, start, ...), and the time each took.
actions: dict[str, int] = {}
action_seconds = Histogram(ACTION_BUCKETS)
# Rate-limit refusals by platform, and the seconds the platform asked the bot to wait.
flood_waits: dict[str, int] = {}
flood_wait_seconds: dict[str, float] = {}
# Bot decisions, by lane ("quick", "slow"): observed on the thinking threads, hence the lock.
think_seconds: dict[str, Histogram] = {}
_think_lock = threading.Lock()
# Read when scraped: each platform's outbox queue length, and the statuses of the host's tables.
outboxes: dict[str, Callable[[], int]] = {}
table_statuses: Callable[[], Iterable[str]] | None = None
_adapters: set[str] = set()
lease_held = False


def action_stored(kind: str, since: float) -> None:
    """An action of this kind was stored; ``since`` is ``time.perf_counter()`` when it began (a press's arrival)."""
    action_seconds.observe(time.perf_counter() - since)
    actions[kind] = actions.get(kind, 0) + 1


def flood_wait(platform: str, seconds: float) -> None:
    """The platform refused a request for its rate limit and asked for a pause of ``seconds``."""
    flood_waits[platform] = flood_waits.get(platform, 0) + 1
    flood_wait_seconds[platform] = flood_wait_seconds.get(platform, 0.0) + max(0.0, seconds)


def watch_outbox(platform: str, pending: Callable[[], int]) -> None:
    """The platform's outbox queue length is ``pending()`` (the newest outbox of a platform wins)."""
    outboxes[platform] = pending


def watch_tables(statuses: Callable[[], Iterable[str]] | None) -> None:
    """Where the open tables are counted from: the statuses of the running host's tables (None: no host)."""
    global table_statuses
    table_statuses = statuses


def timed_think(lane: str, work: Callable[[], T]) -> T:
    """Run a bot's decision (on its thread) and record how long it took."""
    began = time.perf_counter()
    try:
        return work()
    finally:
        spent = time.perf_counter() - began
        with _think_lock:
            histogram = think_seconds.get(lane)
            if histogram is None:
                histogram = think_seconds[lane] = Histogram(THINK_BUCKETS)
            histogram.observe(spent)


def think_snapshot() -> dict[str, Histogram]:
    """A consistent copy of the bot think times (the thinking threads keep adding to them)."""
    with _think_lock:
        copies = {}
        for lane, histogram in think_seconds.items():
            copy = copies[lane] = Histogram(histogram.bounds)
            copy.counts, copy.total = list(histogram.counts), histogram.total
        return copies


def adapter_up(platform: str) -> None:
    """The platform's adapter is connected: ``/readyz`` may answer ready."""
    _adapters.add(platform)


def adapter_down(platform: str) -> None:
    _adapters.discard(platform)


def adapters_up() -> list[str]:
    """The platforms whose adapters are up now, sorted."""
    return sorted(_adapters)


def set_lease(held: bool) -> None:
    global lease_held
    lease_held = held
