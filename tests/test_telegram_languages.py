"""Languages through python-telegram-bot and the fake Bot API server: /lang hr in a private chat turns that
person's private hand Croatian while the group keeps its own language; an unknown code gets the list of codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.i18n import LANGUAGES
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, action_of, limits_of

GROUP = -100919
POLICY = FloodPolicy().scaled(0.005)
IVA = Person(3001, "Iva", "bg")  # her Telegram says Bulgarian; she asks for Croatian


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        server.add_user(IVA.user_id, IVA.name, IVA.language)
        server.add_group(GROUP, "Bela klub", admins={IVA.user_id})
        yield server


async def test_lang_hr_in_private_turns_the_private_hand_croatian(tg: FakeTelegram, tmp_path: Path) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        tg.start_private(IVA.user_id)
        await h.settle()
        tg.send_text(IVA.user_id, IVA.user_id, "/lang hr")
        await h.settle()
        assert tg.texts_seen(IVA.user_id)[-1] == "Vaš jezik sada je hrvatski."
        for text in ("/belot", "/startgame"):
            tg.send_text(IVA.user_id, GROUP, text)
            await h.settle()
        table_id = next(action_of(d) and d.split(":")[1] for m in tg.in_chat(GROUP) for _, d in m.buttons() if d)
        await h.settle()
        ref = await h.adapter.refs.get(f"{table_id}:h0:{IVA.user_id}")
        hand = tg.messages.get(ref) if ref is not None else None
        assert hand is not None and hand.text is not None
        assert "Sjedite na mjestu 1 (tim A)." in hand.text
        assert "Vaše karte:" in hand.text or "Bot igra umjesto Vas." in hand.text
        # The group never switched: its table speaks Bulgarian, the group's language by default.
        group_texts = "\n".join(t for t in tg.texts_seen(GROUP))
        assert "Sjedite" not in group_texts and "Раздаване" in group_texts
    finally:
        await h.stop()


async def test_unknown_language_code_is_answered_with_the_codes(tg: FakeTelegram, tmp_path: Path) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        tg.start_private(IVA.user_id)
        await h.settle()
        tg.send_text(IVA.user_id, IVA.user_id, "/lang de")
        await h.settle()
        assert tg.texts_seen(IVA.user_id)[-1] == f"Посочете езика: /lang и кода му ({', '.join(LANGUAGES)})."
        tg.send_text(IVA.user_id, IVA.user_id, "/lang HR")
        await h.settle()
        assert tg.texts_seen(IVA.user_id)[-1] == "Vaš jezik sada je hrvatski."
    finally:
        await h.stop()
