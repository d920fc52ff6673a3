"""Nothing lost when ``belote-bot run`` is killed with SIGKILL between its actions and their posts: the deals were
played and logged while Telegram refused every message, the process died with its queue, and the next process
posts every result the group never got (its chats converge to what the table's log says)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.adapters.telegram.render import post_of
from bot.core import views
from bot.core.messages import TELEGRAM, ChatRef
from bot.core.table import Table, replay
from bot.i18n import translator
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.telegram.harness import buttons_with

ROOT = Path(__file__).resolve().parent.parent
GROUP = -100444
ALICE = 4001


def run_bot(tg: FakeTelegram, database: Path, bot_pause: float) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "BELOTE_TELEGRAM_TOKEN": TOKEN,
        "BELOTE_TELEGRAM_BASE_URL": tg.root_url,
        "BELOTE_DATABASE": str(database),
        "BELOTE_LANGUAGE": "en",
        "BELOTE_BOT_LEVEL": "random",
        "BELOTE_TURN_SECONDS": "0",
    }
    env.pop("BELOTE_DISCORD_TOKEN", None)
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "run", "--bot-pause", str(bot_pause)],
        cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def logged_table(database: Path) -> Table:
    with sqlite3.connect(database) as conn:
        [(table_id, chat, creator)] = conn.execute("SELECT table_id, chat, creator FROM tables")
        events: list[dict[str, Any]] = [
            json.loads(data) for (data,) in conn.execute("SELECT data FROM events WHERE table_id = ? ORDER BY seq",
                                                         (table_id,))
        ]
    return replay(table_id, ChatRef.from_key(TELEGRAM, chat), creator, events)


def finished_deals(database: Path) -> int:
    try:
        table = logged_table(database)
    except (ValueError, sqlite3.OperationalError):  # no table yet
        return 0
    return len(table.match.results) if table.match is not None else 0


async def test_deal_results_a_killed_process_never_posted_reach_the_group(tmp_path: Path) -> None:
    database = tmp_path / "belote.sqlite3"
    async with FakeTelegram() as tg:  # Telegram's own limits
        tg.add_group(GROUP, "Kill club")
        tg.add_user(ALICE, "Alice", "en")
        tg.start_private(ALICE)
        first = run_bot(tg, database, bot_pause=0.02)
        try:
            tg.send_text(ALICE, GROUP, "/belot target_score=1001")
            await tg.wait_for(lambda: any(buttons_with(m, "s") for m in tg.in_chat(GROUP)), 30)
            tg.send_text(ALICE, GROUP, "/startgame")
            await tg.wait_for(lambda: any("Deal 1" in m.text for m in tg.in_chat(GROUP)), 30)
            # Telegram fails every message from now on; Alice hands her seat to a bot, and four bots play on.
            tg.outage()
            tg.send_text(ALICE, GROUP, "/leave")
            for _ in range(600):  # the log, not the chat, says when: poll it
                if finished_deals(database) >= 2:
                    break
                await asyncio.sleep(0.1)
        finally:
            os.kill(first.pid, signal.SIGKILL)
            first.communicate(timeout=10)
        assert first.returncode == -signal.SIGKILL
        at_kill = logged_table(database)
        assert at_kill.match is not None and at_kill.status == "playing"
        done = len(at_kill.match.results)
        tr = translator("en")
        expected = [views.finished_deal_view(at_kill, i, tr) for i in range(done)]
        expected += [r for i in range(done) if (r := views.result_view(at_kill, i, tr)) is not None]
        texts = [p.text for m in expected if (p := post_of(m)) is not None]
        assert not set(texts) & {m.text for m in tg.in_chat(GROUP)}, "a result reached the group during the outage"

        tg.outage(0)  # Telegram is back
        second = run_bot(tg, database, bot_pause=30)  # the bots wait: the deals at the kill are what we look at
        try:
            await tg.wait_for(lambda: set(texts) <= {m.text for m in tg.in_chat(GROUP)}, 60)
        finally:
            second.kill()
            _, errors = second.communicate(timeout=30)
        lost = set(texts) - {m.text for m in tg.in_chat(GROUP)}
        assert not lost
        assert not [line for line in errors.splitlines() if " ERROR bot." in line], errors
        tg.assert_within_limits()
