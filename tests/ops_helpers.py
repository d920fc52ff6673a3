"""What the operations tests share: a free port, the health server read over real HTTP, and a person who opens a
table in a Telegram group (the fake Bot API server) and plays their calls and cards from the buttons they were sent."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import buttons_with


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def get(port: int, path: str, timeout: float = 5.0) -> tuple[int, str]:
    """(status, body) of a GET on the health server; (0, the error) when nothing answers."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session, \
                session.get(f"http://127.0.0.1:{port}{path}") as response:
            return response.status, await response.text()
    except (aiohttp.ClientError, TimeoutError) as exc:
        return 0, str(exc)


async def ready(port: int) -> tuple[int, dict[str, Any]]:
    status, body = await get(port, "/readyz")
    return status, (json.loads(body) if status else {"error": body})


async def wait_ready(port: int, want: int = 200, timeout: float = 20.0) -> float:
    """Wait until /readyz answers ``want``; the seconds it took."""
    began = time.monotonic()
    while True:
        status, body = await ready(port)
        if status == want:
            return time.monotonic() - began
        if time.monotonic() - began > timeout:
            raise AssertionError(f"/readyz still answers {status} {body} after {timeout} s")
        await asyncio.sleep(0.1)


async def wait_standby(port: int, timeout: float = 20.0) -> dict[str, Any]:
    """Wait until /readyz says this process is a standby; its answer."""
    began = time.monotonic()
    while True:
        status, body = await ready(port)
        if status == 503 and body.get("role") == "standby":
            return body
        if time.monotonic() - began > timeout:
            raise AssertionError(f"not a standby after {timeout} s: /readyz answers {status} {body}")
        await asyncio.sleep(0.05)


async def wait_delivered(port: int, platform: str = "telegram", timeout: float = 20.0) -> None:
    """Wait until the process's outbox for the platform is empty: every post it took was delivered, and the message
    id of each was stored (a post leaves the queue only then)."""
    began = time.monotonic()
    while True:
        samples = await scrape(port)
        pending = samples.get(("belote_outbox_pending", (("platform", platform),)))
        if pending == 0:
            return
        if time.monotonic() - began > timeout:
            raise AssertionError(f"{pending} posts still waiting in the {platform} outbox after {timeout} s")
        await asyncio.sleep(0.1)


def connects(tg: FakeTelegram) -> int:
    """How many times a Telegram adapter connected (each start asks getMe once)."""
    return sum(1 for method, _ in tg.calls if method == "getMe")


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample /metrics serves, parsed by the Prometheus library: (name, sorted labels) -> value."""
    status, body = await get(port, "/metrics")
    assert status == 200, body
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def lobby_of(tg: FakeTelegram, group: int) -> Sent | None:
    found = [m for m in tg.in_chat(group) if buttons_with(m, "s")]
    return found[-1] if found else None


async def open_and_start(tg: FakeTelegram, person: int, group: int) -> None:
    """The person opens a table with /belot and starts it at once (bots take the empty seats)."""
    tg.send_text(person, group, "/belot")
    await tg.wait_for(lambda: lobby_of(tg, group) is not None, timeout=20)
    for _ in range(20):
        lobby = lobby_of(tg, group)
        assert lobby is not None
        answer = await tg.answer_of(tg.press(person, lobby, buttons_with(lobby, "s")[0][1]), timeout=20)
        if answer.text == "The match begins.":
            return
        # The lobby changed after it was shown (the opener's language was stored): press on its newest state.
        await asyncio.sleep(0.2)
    raise AssertionError(f"the table did not start: {answer}")


def my_move(tg: FakeTelegram, person: int) -> tuple[Sent, str] | None:
    """The person's hand with a call or card to press, and the first of them (None when it is not their turn)."""
    for message in reversed(tg.in_chat(person)):
        moves = buttons_with(message, "c:") + buttons_with(message, "p:")
        if moves:
            return message, moves[0][1]
    return None


async def play_moves(tg: FakeTelegram, person: int, moves: int, timeout: float = 30.0) -> list[tuple[int, str]]:
    """The person presses ``moves`` calls or cards, each when their hand offers one; (the hand message's id, the
    payload) of each press the bot took."""
    pressed: list[tuple[int, str]] = []
    tried: set[str] = set()
    deadline = time.monotonic() + timeout
    while len(pressed) < moves:
        await tg.wait_for(lambda: (m := my_move(tg, person)) is not None and m[1] not in tried,
                          timeout=max(0.1, deadline - time.monotonic()))
        found = my_move(tg, person)
        assert found is not None
        message, data = found
        tried.add(data)
        answer = await tg.answer_of(tg.press(person, message, data), timeout=20)
        if not answer.text:  # a refused press (an older state of the hand) is answered with the reason
            pressed.append((message.message_id, data))
    return pressed
