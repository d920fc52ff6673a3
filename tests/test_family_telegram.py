"""Croatian Bela and French belote at a Telegram table, end to end: people open the table with /belot and the
game's word, press the buttons of their private hands (calls, cards, declaration switches), bots fill the other
seats, and the match is played to its end through python-telegram-bot and the fake Bot API server. Every message a
person's private chat receives is judged the instant it arrives: it may show that person's own cards (only the
first six in Bela, five in French belote, until trump is chosen) and what the whole table has seen, nothing else."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.i18n import translator
from tests.fake_telegram import FakeTelegram
from tests.telegram.family import (
    ALICE,
    BOB,
    GROUP,
    PEOPLE,
    POLICY,
    PrivacyWatch,
    check_finished,
    hand_of,
    open_family_table,
    play_to_the_end,
)
from tests.telegram.harness import Harness, action_of, buttons_with, limits_of


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in PEOPLE:
            server.add_user(p.user_id, p.name, p.language)
        server.add_group(GROUP, "Bela club", admins={ALICE.user_id})
        yield server


@pytest.mark.parametrize(
    ("command", "game", "name"),
    [("/belot бела", "bela", "Bela (Croatian)"), ("/belot french", "french", "French belote")],
)
async def test_two_people_and_two_bots_play_a_whole_family_match(
    tg: FakeTelegram, tmp_path: Path, command: str, game: str, name: str
) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    watch = PrivacyWatch()
    tg.watchers.append(watch)
    await h.start()
    try:
        table_id = await open_family_table(h, tg, command, name)
        counts = await play_to_the_end(h, table_id, random.Random(game), watch)
        await check_finished(h, tg, table_id, game)
        assert not watch.problems, watch.problems[:3]
        assert watch.checked > counts["presses"]  # every press re-rendered at least the presser's hand
        assert counts["calls"] >= 1 and counts["talons"] >= 2 and counts["presses"] > 30
        # Bob reads Croatian: his pass buttons were checked to say the players' word (check_call_buttons).
        assert translator(BOB.language).gettext("Pass") == "Dalje"
        # The group remembers the game for its next /belot.
        assert await h.storage.get_chat_game("telegram", str(GROUP)) == game
        tg.assert_within_limits()
    finally:
        await h.stop()


async def test_the_lobbys_game_button_and_options_menu_through_telegram(tg: FakeTelegram, tmp_path: Path) -> None:
    """Alice switches the game with the lobby's button; Bob's press of the same (older) button is refused; the
    options menu then offers Bela's options; the group's next /belot offers Bela; a call pressed twice at the same
    instant is made once."""
    import asyncio

    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        for person in PEOPLE:
            tg.start_private(person.user_id)
        tg.send_text(ALICE.user_id, GROUP, "/lang en")
        await h.settle()
        tg.send_text(ALICE.user_id, GROUP, "/belot")
        await h.settle()
        [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
        assert "Bridge-Belote" in lobby.text
        table_id = lobby.buttons()[0][1].split(":")[1]
        await h.press(BOB, lobby, next(d for _, d in buttons_with(lobby, "j") if action_of(d) == "j"))
        await h.settle()
        lobby = tg.messages[(GROUP, lobby.message_id)]
        game = buttons_with(lobby, "g")[0][1]
        both = [tg.press(ALICE.user_id, lobby, game), tg.press(BOB.user_id, lobby, game)]  # the same instant
        answers = await asyncio.gather(*(tg.answer_of(q) for q in both))
        await h.settle()
        table = h.host.table(table_id)
        assert table is not None and table.game == "bela", "two presses of one Game button switch it once"
        assert sorted(bool(a.text) for a in answers) == [False, True], answers  # one switched, one was told why not
        lobby = tg.messages[(GROUP, lobby.message_id)]
        assert "Bela (Croatian)" in lobby.text
        await h.press(ALICE, lobby, buttons_with(lobby, "o")[0][1])
        await h.settle()
        menu = next(m for m in tg.in_chat(GROUP) if buttons_with(m, "od"))
        labels = " ".join(label for label, _ in menu.buttons())
        assert "na prolaz" in labels and "Play to 1001" in labels and "Contra" not in labels
        await h.press(ALICE, menu, buttons_with(menu, "od")[0][1])
        for _ in range(2):
            lobby = tg.messages[(GROUP, lobby.message_id)]
            await h.press(ALICE, lobby, buttons_with(lobby, "a")[0][1])
            await h.settle()
        lobby = tg.messages[(GROUP, lobby.message_id)]
        await h.press(ALICE, lobby, buttons_with(lobby, "s")[0][1])
        await h.settle()
        # At a person's first call, two presses of the same button arrive at once: one call is made.
        while True:
            await h.delivered()
            seat = table.to_act
            assert seat is not None
            person = next(p for p in PEOPLE if str(p.user_id) == table.seats[seat].user_id)
            hand = await hand_of(h, table_id, seat, person)
            assert hand is not None
            calls = buttons_with(hand, "c:")
            if calls:
                break
            await h.press(person, hand, buttons_with(hand, "p:")[0][1])
        before = [e.data for e in await h.storage.events(table_id)]
        data = calls[0][1]
        twice = [tg.press(person.user_id, hand, data), tg.press(person.user_id, hand, data)]
        await asyncio.gather(*(tg.answer_of(q) for q in twice))
        await h.delivered()
        after = [e.data for e in await h.storage.events(table_id)]
        mine = [e for e in after[len(before):] if e.get("by") == "human"]
        assert len(mine) == 1 and mine[0]["e"] == "bid"
    finally:
        await h.stop()
