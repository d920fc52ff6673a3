"""Webhook mode always has a secret: the configured one, else one made at start and registered with setWebhook.
Updates posted without it (or with a wrong one) are refused and change nothing. The server listens on the loopback
address unless told otherwise."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.config import SettingsProblem, load_settings
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, buttons_with, limits_of

GROUP = -100991
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(9101, "Alice", "en")
HEADER = "X-Telegram-Bot-Api-Secret-Token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_without_a_configured_secret_updates_need_the_one_registered_at_start(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram(limits_of(POLICY)) as tg:
        tg.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        tg.add_group(GROUP, "Club")
        h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, telegram_webhook_url="https://bot.example.org/hook",
                    telegram_webhook_port=port)
        await h.start()
        try:
            assert tg.webhook is not None
            url, secret = tg.webhook
            assert url == "https://bot.example.org/hook" and secret and len(secret) >= 32
            update = {"update_id": 1, "message": tg.message_of(ALICE.user_id, GROUP, "/belot")}
            body = json.dumps(update)
            async with httpx.AsyncClient() as client:
                hook = f"http://127.0.0.1:{port}/hook"
                for headers in ({}, {HEADER: "guessed"}, {HEADER: secret[:-1]}):
                    refused = await client.post(hook, content=body,
                                                headers={"Content-Type": "application/json", **headers})
                    assert refused.status_code == 403
                await h.settle()
                assert tg.in_chat(GROUP) == [] and await h.storage.unfinished_tables() == []
                ok = await client.post(hook, content=body,
                                       headers={"Content-Type": "application/json", HEADER: secret})
                assert ok.status_code == 200
            await tg.wait_for(lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)), timeout=5)
            # Listening on the loopback address only: another address of this machine does not answer.
            with pytest.raises(OSError), socket.create_connection(("127.0.0.2", port), timeout=2):
                pass
        finally:
            await h.stop()


async def test_each_start_makes_a_new_secret(tmp_path: Path) -> None:
    secrets = []
    async with FakeTelegram(limits_of(POLICY)) as tg:
        for _ in range(2):
            h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, telegram_webhook_url="https://bot.example.org/hook",
                        telegram_webhook_port=free_port())
            await h.start()
            assert tg.webhook is not None
            secrets.append(tg.webhook[1])
            await h.stop()
    assert secrets[0] != secrets[1]


@pytest.mark.parametrize("secret", ["has space", "x" * 257, "ключ"])
def test_a_secret_telegram_would_refuse_is_named_without_being_shown(secret: str) -> None:
    with pytest.raises(SettingsProblem, match="BELOTE_TELEGRAM_WEBHOOK_SECRET") as caught:
        load_settings(env_file=None, telegram_webhook_secret=secret)
    assert secret not in str(caught.value)
