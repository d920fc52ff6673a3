"""``belote-bot run`` as a separate process against the fake Bot API server, so a test can kill it with SIGKILL
(nothing is flushed or closed) and start the next one on the same database, as an operator's crash would."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fake_telegram import TOKEN, FakeTelegram


class BotProcess:
    def __init__(self, tg: FakeTelegram, workdir: Path, **settings: str) -> None:
        self.workdir = workdir
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
        self.env.update(
            BELOTE_TELEGRAM_TOKEN=TOKEN,
            BELOTE_TELEGRAM_BASE_URL=tg.root_url,
            BELOTE_DATABASE=str(workdir / "belote.sqlite3"),
            BELOTE_TURN_SECONDS="0",
            BELOTE_BOT_LEVEL="random",
            BELOTE_LANGUAGE="en",
        )
        self.env.update({f"BELOTE_{k.upper()}": v for k, v in settings.items()})
        self.runs = 0
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def log(self) -> str:
        """Everything the runs so far wrote to standard error."""
        return "".join(
            (self.workdir / f"run{i}.log").read_text(errors="replace") for i in range(1, self.runs + 1)
        )

    async def start(self) -> None:
        self.runs += 1
        with open(self.workdir / f"run{self.runs}.log", "wb") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", "--bot-pause", "0", cwd=self.workdir, env=self.env,
                stdout=asyncio.subprocess.DEVNULL, stderr=err,
            )

    async def kill(self) -> None:
        """SIGKILL: the process ends at once, mid-whatever."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(self.proc.wait(), 10) == -signal.SIGKILL

    async def stop(self) -> int:
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), 30)
