"""No secret in the log: ``belote-bot run`` at DEBUG, in webhook mode, serving a table through the fake Bot API
server, writes a log that shows neither the bot token (which the Bot API puts in every URL) nor the webhook
secret; the redacting filter masks a token that reaches a log line or a traceback some other way."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import sys
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import httpx

from bot.logsafe import MASK, RedactSecrets, keep_secret
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.telegram.harness import buttons_with

GROUP = -100515
ALICE = 5151
DISCORD_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GxYz12.abcdefghijklmnopqrstuvwxyz0123456789AB"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_the_bot_at_debug_logs_no_token_and_no_webhook_secret(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club")
        env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
        env.update(
            BELOTE_TELEGRAM_TOKEN=TOKEN,
            BELOTE_TELEGRAM_BASE_URL=tg.root_url,
            BELOTE_TELEGRAM_WEBHOOK_URL="https://bot.example.org/hook",
            BELOTE_TELEGRAM_WEBHOOK_PORT=str(port),
            BELOTE_DATABASE=str(tmp_path / "belote.sqlite3"),
            BELOTE_LOG_LEVEL="debug",
            BELOTE_TURN_SECONDS="0",
        )
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--bot-pause", "0", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        try:
            await tg.wait_for(lambda: tg.webhook is not None, timeout=30)
            assert tg.webhook is not None and tg.webhook[1]
            secret = tg.webhook[1]
            update = {"update_id": 1, "message": tg.message_of(ALICE, GROUP, "/belot")}
            headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret}
            async with httpx.AsyncClient() as client:
                for _ in range(100):  # the server may still be starting after setWebhook was answered
                    try:
                        await client.post(f"http://127.0.0.1:{port}/hook", content=json.dumps(update),
                                          headers=headers)
                        break
                    except httpx.ConnectError:
                        await asyncio.sleep(0.05)
            await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=10)
        finally:
            bot.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(bot.communicate(), 30)
        log = err.decode()
        assert bot.returncode == 0, log[-2000:]
        # The log is a real DEBUG log of that run: requests were made and logged, the webhook was set.
        assert " DEBUG " in log and "setWebhook" in log and "sendMessage" in log
        for secret_text in (TOKEN, quote(TOKEN, safe=""), TOKEN.partition(":")[2], secret):
            assert secret_text not in log


def test_the_filter_masks_tokens_in_messages_arguments_and_tracebacks() -> None:
    keep_secret(DISCORD_TOKEN)
    stream = StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets())
    log = logging.getLogger("test.logsafe")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("login with %s", DISCORD_TOKEN)
        log.warning(f"url https://x/{quote(DISCORD_TOKEN, safe='')}/y")
        try:
            raise RuntimeError(f"refused token {DISCORD_TOKEN}")
        except RuntimeError:
            log.exception("failed")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert DISCORD_TOKEN not in text and quote(DISCORD_TOKEN, safe="") not in text
    assert text.count(MASK) == 3 and "RuntimeError: refused token" in text
