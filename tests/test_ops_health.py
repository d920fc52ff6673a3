"""The health and metrics server of ``belote-bot run``, read over real HTTP while the real stack (storage, host,
python-telegram-bot against the fake Bot API server) serves a group: /healthz, /readyz and /metrics, whose values
move as a person plays a table, a bot thinks and Telegram refuses a message for its flood limit."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.run import serve_all
from bot.config import SettingsProblem, load_settings
from tests.discord_fakes import FakeDiscord
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.ops_helpers import free_port, get, open_and_start, play_moves, ready, scrape, value, wait_ready

GROUP = -100777
ALICE = 7001


async def test_metrics_move_as_a_person_plays_a_table(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club")
        tg.start_private(ALICE)
        settings = load_settings(
            env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
            database=str(tmp_path / "belote.sqlite3"), turn_seconds=0, bot_level="random", language="en",
            health_port=port,
        )
        stop = asyncio.Event()
        run = asyncio.create_task(serve_all(settings, bot_pause=0.0, stop=stop))
        try:
            await wait_ready(port)
            assert (await get(port, "/healthz"))[0] == 200
            status, body = await ready(port)
            assert (status, body["adapters"]) == (200, ["telegram"])
            before = await scrape(port)
            assert value(before, "belote_tables", status="playing") == 0
            assert value(before, "belote_adapter_up", platform="telegram") == 1
            assert value(before, "belote_lease_held") == 1

            await open_and_start(tg, ALICE, GROUP)
            pressed = await play_moves(tg, ALICE, 4)
            # Telegram refuses the next edit of Alice's hand for its flood limit: the outbox waits 2 s, sends again.
            tg.fail_next("editMessageText", chat_id=ALICE, code=429, retry_after=2)
            pressed += await play_moves(tg, ALICE, 1)
            await tg.wait_for(lambda: any(code == 429 for _, code, _ in tg.errors_served), timeout=20)
            after = await scrape(port)
        finally:
            stop.set()
            assert await asyncio.wait_for(run, 20) == 0

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("belote_actions_total", kind="open") == 1
    assert moved("belote_actions_total", kind="start") == 1
    assert moved("belote_actions_total", kind="bot") == 3  # the empty seats, filled at the start
    calls_and_cards = moved("belote_actions_total", kind="bid") + moved("belote_actions_total", kind="play")
    assert calls_and_cards >= len(pressed) + 3, "Alice's five presses and at least the bots' calls between them"
    kinds = {dict(labels)["kind"] for name, labels in after if name == "belote_actions_total"}
    stored = sum(moved("belote_actions_total", kind=kind) for kind in kinds)
    assert moved("belote_action_seconds_count") == stored
    assert moved("belote_action_seconds_sum") > 0
    assert moved("belote_action_seconds_bucket", le="+Inf") == stored
    assert value(after, "belote_tables", status="playing") == 1
    assert moved("belote_bot_think_seconds_count", lane="quick") >= 3
    assert moved("belote_flood_waits_total", platform="telegram") == 1
    assert moved("belote_flood_wait_seconds_total", platform="telegram") == 2
    assert ("belote_outbox_pending", (("platform", "telegram"),)) in after
    assert value(after, "process_resident_memory_bytes") > 0


async def test_not_ready_until_an_adapter_is_connected_and_the_port_named_when_taken(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        tg.latency = 3.0  # a slow Bot API: the adapter is still connecting (getMe) for three seconds
        settings = load_settings(
            env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
            database=str(tmp_path / "belote.sqlite3"), health_port=port,
        )
        stop = asyncio.Event()
        run = asyncio.create_task(serve_all(settings, bot_pause=0.0, stop=stop))
        try:
            await tg.wait_for(lambda: any(method == "getMe" for method, _ in tg.calls), timeout=10)
            status, body = await ready(port)
            assert (status, body["reason"]) == (503, "no chat adapter is connected"), body
            assert (await get(port, "/healthz"))[0] == 200
            # A second process on the same port is told which settings to look at, with no traceback.
            second = load_settings(env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
                                   database=str(tmp_path / "other.sqlite3"), health_port=port)
            assert await serve_all(second, bot_pause=0.0, stop=asyncio.Event()) == 2
            tg.latency = 0.0
            await wait_ready(port)
        finally:
            stop.set()
            assert await asyncio.wait_for(run, 20) == 0


async def test_ready_once_the_discord_adapter_is_connected(tmp_path: Path, fake: FakeDiscord) -> None:
    port = free_port()
    settings = load_settings(env_file=None, discord_token=fake.token, database=str(tmp_path / "belote.sqlite3"),
                             health_port=port)
    stop = asyncio.Event()
    run = asyncio.create_task(serve_all(settings, bot_pause=0.0, stop=stop))
    try:
        await wait_ready(port)
        assert fake.identified, "ready before the gateway connection"
        status, body = await ready(port)
        assert (status, body["adapters"]) == (200, ["discord"])
        samples = await scrape(port)
        assert value(samples, "belote_adapter_up", platform="discord") == 1
        assert value(samples, "belote_adapter_up", platform="telegram") == 0
    finally:
        stop.set()
        assert await asyncio.wait_for(run, 20) == 0


def test_health_settings_are_checked() -> None:
    assert load_settings(env_file=None).health_port is None  # off by default
    assert load_settings(env_file=None, health_port="").health_port is None
    assert load_settings(env_file=None, health_port="9090").health_listen == "127.0.0.1"
    with pytest.raises(SettingsProblem, match="BELOTE_HEALTH_PORT"):
        load_settings(env_file=None, health_port="70000")
    with pytest.raises(SettingsProblem, match="BELOTE_HEALTH_LISTEN"):
        load_settings(env_file=None, health_listen=" ")


def test_the_metrics_library_is_loaded_only_by_the_health_server() -> None:
    """The terminal and every command that loads the core must not pay for prometheus_client."""
    code = "import sys, bot.core.host, bot.adapters.telegram.outbox; print('prometheus_client' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
