"""The health and metrics server of ``belote-bot run`` (aiohttp, the HTTP library the chat libraries bring along).

- ``GET /healthz``: 200 while the process runs its event loop (a liveness check: restart the process when it fails).
- ``GET /readyz``: 200 when this process acts (holds the lease), its storage answers and at least one chat adapter
  is connected; otherwise 503 with a short JSON reason (a standby, a process still starting, a lost database).
- ``GET /metrics``: ``bot.ops.metrics`` in the Prometheus text format (``bot.ops.exposition``).

Off unless ``BELOTE_HEALTH_PORT`` is set; it listens on ``BELOTE_HEALTH_LISTEN`` (the loopback address by default).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.storage.base import Storage

from . import metrics
from .exposition import registry

log = logging.getLogger(__name__)

Role = Literal["starting", "standby", "active", "stopping"]
STORAGE_TIMEOUT = 2.0  # seconds the storage may take to answer /readyz's read before it counts as down


@dataclass
class Readiness:
    """What ``/readyz`` judges: this process's role, and the storage it acts on once active."""

    role: Role = "starting"
    storage: Storage | None = None

    def standby(self) -> None:
        """Another process holds the lease: this one waits."""
        self.role = "standby"

    async def verdict(self) -> tuple[bool, dict[str, Any]]:
        """(ready, the JSON body): the first reason found why this process cannot serve, or what it serves."""
        if self.role == "standby":
            return False, {"ready": False, "role": self.role, "reason": "standby: another process holds the lease"}
        if self.role != "active" or self.storage is None:
            return False, {"ready": False, "role": self.role, "reason": f"{self.role}: not serving yet"}
        try:
            await asyncio.wait_for(self.storage.get_message_ref("ops", "readyz"), STORAGE_TIMEOUT)
        except Exception as exc:  # any failure to read is the answer: the storage is not usable now
            text = str(exc) or type(exc).__name__
            return False, {"ready": False, "role": self.role, "reason": f"storage does not answer: {text}"[:300]}
        up = metrics.adapters_up()
        if not up:
            return False, {"ready": False, "role": self.role, "reason": "no chat adapter is connected"}
        return True, {"ready": True, "role": self.role, "adapters": up}


class HealthServer:
    """``/healthz``, ``/readyz`` and ``/metrics`` on one port, in the bot's event loop."""

    def __init__(self, readiness: Readiness, listen: str, port: int) -> None:
        self.readiness = readiness
        self.listen = listen
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen; raises OSError (e.g. the port is taken) with the address named."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", make_aiohttp_handler(registry()))
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise OSError(exc.errno, f"cannot listen on {self.listen}:{self.port}: {exc.strerror}") from None
        log.info("health and metrics on http://%s:%d (/healthz, /readyz, /metrics)", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True, "role": self.readiness.role})

    async def _readyz(self, request: web.Request) -> web.Response:
        ready, body = await self.readiness.verdict()
        return web.json_response(body, status=200 if ready else 503)
