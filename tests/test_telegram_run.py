"""``belote-bot run`` with a Telegram token: the real entry point serves the bot through the adapter, re-renders a
table left open by the previous run in place (spending nothing when it shows the table already), and stops
cleanly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.cli.run import serve_all
from bot.config import load_settings
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.telegram.harness import buttons_with

GROUP = -100666
ALICE = 6001


async def run_until(settings: object, tg: FakeTelegram, until: object) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(serve_all(settings, bot_pause=0.0, stop=stop))  # type: ignore[arg-type]
    try:
        await tg.wait_for(until, timeout=10)  # type: ignore[arg-type]
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0


async def test_run_serves_telegram_and_a_second_run_keeps_the_same_lobby(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club")
        settings = load_settings(
            env_file=None,
            telegram_token=TOKEN,
            telegram_base_url=tg.root_url,
            database=str(tmp_path / "belote.sqlite3"),
            turn_seconds=0,
        )
        tg.send_text(ALICE, GROUP, "/belot")
        await run_until(settings, tg, lambda: any(buttons_with(m, "j") for m in tg.in_chat(GROUP)))
        [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
        shown = tg.in_chat(GROUP)
        calls = len(tg.log[GROUP])
        # The next run finds the open table shown as it is: it spends nothing on it (the reply to a /rules sent
        # meanwhile, which waits behind the table's messages, shows that the run got that far).
        lobby_text = lobby.text
        tg.send_text(ALICE, GROUP, "/rules")
        await run_until(settings, tg, lambda: len(tg.in_chat(GROUP)) > len(shown))
        assert tg.in_chat(GROUP)[: len(shown)] == shown, "a restart must not post the table again"
        later = tg.log[GROUP][calls:]
        assert later and all(e.method == "sendMessage" and lobby_text != e.text for e in later), later
        assert tg.messages[(GROUP, lobby.message_id)].text == lobby_text
