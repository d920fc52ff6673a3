"""``bot.ops.metrics`` in the Prometheus format, through the prometheus_client library: its registry (with the
process's own CPU, memory, file and garbage-collector metrics) and its text and OpenMetrics writers, so what
``/metrics`` serves is what every Prometheus server and exporter-aware tool expects. Imported only by the health
server: nothing else pays for the library."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from . import metrics

PLATFORMS = ("telegram", "discord")
STATUSES = ("lobby", "playing")


def _histogram(family: HistogramMetricFamily, labels: list[str], histogram: metrics.Histogram) -> None:
    cumulative = 0
    buckets: list[tuple[str, float]] = []
    for bound, count in zip((*histogram.bounds, float("inf")), histogram.counts, strict=True):
        cumulative += count
        buckets.append(("+Inf" if bound == float("inf") else repr(bound), cumulative))
    family.add_metric(labels, buckets, histogram.total)


class BeloteCollector(Collector):
    """Reads ``bot.ops.metrics`` at each scrape."""

    def collect(self) -> Iterator[Metric]:
        actions = CounterMetricFamily("belote_actions", "Actions stored, by kind (bid, play, sit, start, ...)",
                                      labels=["kind"])
        for kind, count in sorted(metrics.actions.items()):
            actions.add_metric([kind], count)
        yield actions
        latency = HistogramMetricFamily(
            "belote_action_seconds",
            "From a press reaching the host (or a bot's or timer's action starting) until its action is stored",
        )
        _histogram(latency, [], metrics.action_seconds)
        yield latency
        pending = GaugeMetricFamily("belote_outbox_pending", "Messages waiting to be sent, by platform",
                                    labels=["platform"])
        for platform, queued in sorted(metrics.outboxes.items()):
            pending.add_metric([platform], queued())
        yield pending
        waits = CounterMetricFamily("belote_flood_waits", "Rate-limit refusals (Telegram RetryAfter, HTTP 429)",
                                    labels=["platform"])
        seconds = CounterMetricFamily("belote_flood_wait_seconds", "Seconds the platform asked the bot to wait",
                                      labels=["platform"])
        for platform in PLATFORMS:
            waits.add_metric([platform], metrics.flood_waits.get(platform, 0))
            seconds.add_metric([platform], metrics.flood_wait_seconds.get(platform, 0.0))
        yield waits
        yield seconds
        think = HistogramMetricFamily("belote_bot_think_seconds", "Time a bot took to decide one call or card",
                                      labels=["lane"])
        for lane, histogram in sorted(metrics.think_snapshot().items()):
            _histogram(think, [lane], histogram)
        yield think
        tables = GaugeMetricFamily("belote_tables", "Open tables this process hosts, by status", labels=["status"])
        counts = dict.fromkeys(STATUSES, 0)
        for status in metrics.table_statuses() if metrics.table_statuses is not None else ():
            counts[status] = counts.get(status, 0) + 1
        for status, count in sorted(counts.items()):
            tables.add_metric([status], count)
        yield tables
        up = GaugeMetricFamily("belote_adapter_up", "1 while the platform's adapter is connected", labels=["platform"])
        serving = metrics.adapters_up()
        for platform in sorted({*PLATFORMS, *serving}):
            up.add_metric([platform], 1 if platform in serving else 0)
        yield up
        yield GaugeMetricFamily("belote_lease_held", "1 while this process holds the lease and acts, 0 on a standby",
                                value=1 if metrics.lease_held else 0)


def registry() -> CollectorRegistry:
    """A registry with the bot's metrics and the process's own (one per health server)."""
    reg = CollectorRegistry()
    reg.register(BeloteCollector())
    ProcessCollector(registry=reg)
    PlatformCollector(registry=reg)
    GCCollector(registry=reg)
    return reg
