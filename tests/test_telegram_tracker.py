"""The card tracker through python-telegram-bot and the fake Bot API server: the "Cards played" button in a private
hand answers the presser alone with an alert (no message to the group or anyone else) that names only played cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, action_of, buttons_with, limits_of
from tests.test_terminal_screen import _parse_tracker as parse_tracker

GROUP = -100888
POLICY = FloodPolicy().scaled(0.005)
ANA = Person(2001, "Ana", "bg")


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        server.add_user(ANA.user_id, ANA.name, ANA.language)
        server.add_group(GROUP, "Belote club", admins={ANA.user_id})
        yield server


async def test_tracker_button_answers_with_a_private_alert_of_played_cards(tg: FakeTelegram, tmp_path: Path) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        tg.start_private(ANA.user_id)
        for text in ("/belot", "/set tracker on", "/startgame"):
            tg.send_text(ANA.user_id, GROUP, text)
            await h.settle()
        table_id = next(action_of(d) and d.split(":")[1] for m in tg.in_chat(GROUP) for _, d in m.buttons() if d)
        answered = 0
        for _ in range(60):
            await h.settle()
            table = await h.oracle(table_id)
            if table.status != "playing" or answered >= 2:
                break
            deal = table.deal
            assert deal is not None
            ref = await h.adapter.refs.get(f"{table_id}:h0:{ANA.user_id}")
            hand = tg.messages.get(ref) if ref is not None else None
            assert hand is not None
            tracker = buttons_with(hand, "k")
            if tracker and deal.trick:
                calls_before = len(tg.calls)
                answer = await h.press(ANA, hand, tracker[0][1])
                await h.settle()
                assert answer.show_alert and answer.text is not None and len(answer.text) <= 200
                played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
                assert answer.text.startswith("Неизиграни (и изиграни) карти по бои:\n")
                still, named_as_played = parse_tracker(answer.text)
                assert named_as_played == played and still == set(range(32)) - played
                sent = [m for m, _ in tg.calls[calls_before:] if m in ("sendMessage", "editMessageText")]
                assert not sent, "the tracker's answer is the alert alone"
                answered += 1
            move = buttons_with(hand, "c:") or buttons_with(hand, "p:")
            if move:
                await h.press(ANA, hand, move[0][1])
        assert answered >= 1
    finally:
        await h.stop()
