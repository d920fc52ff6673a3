"""A Bela table across a restart: a new host from the same SQLite file, and ``belote-bot run`` killed with SIGKILL
in the middle of a deal. The hands, talons included, are the ones dealt, and the match goes on."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.familymatch import FamilyMatch
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.family import (
    ALICE,
    GROUP,
    PEOPLE,
    POLICY,
    PrivacyWatch,
    check_finished,
    hand_line_cards,
    hand_of,
    open_family_table,
    play_to_the_end,
)
from tests.telegram.harness import Harness, buttons_with, limits_of


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in PEOPLE:
            server.add_user(p.user_id, p.name, p.language)
        server.add_group(GROUP, "Bela club", admins={ALICE.user_id})
        yield server


async def test_a_bela_table_restarted_mid_deal_continues_with_the_same_cards(tg: FakeTelegram, tmp_path: Path) -> None:
    """The process stops in the middle of a deal (trump named, a trick played); a new host and adapter start from
    the same SQLite file: every hand is the one dealt, the talons are where they were, and the match goes on to its
    end."""
    database = tmp_path / "belote.sqlite3"
    h = Harness(tg, database, POLICY)
    watch = PrivacyWatch()
    tg.watchers.append(watch)
    await h.start()
    rng = random.Random(11)
    try:
        table_id = await open_family_table(h, tg, "/belot bela", "Bela (Croatian)")
        table = h.host.table(table_id)
        assert table is not None and isinstance(table.match, FamilyMatch)
        watch.table = table
        while not (table.match.deal.tricks and table.match.deal.phase == "play" and len(table.match.deals) == 1):
            await h.delivered()
            seat = table.to_act
            assert seat is not None
            person = next(p for p in PEOPLE if str(p.user_id) == table.seats[seat].user_id)
            hand = await hand_of(h, table_id, seat, person)
            assert hand is not None
            moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
            await h.press(person, hand, rng.choice(moves)[1])
            await h.delivered()
        deal = table.match.deal
        dealt = deal.hands
        held = list(deal.held)
        version = table.version
        shown_before = {}
        for p in PEOPLE:
            hand = await hand_of(h, table_id, table.seat_of(str(p.user_id)) or 0, p)
            assert hand is not None
            shown_before[p.user_id] = hand_line_cards(hand.text, p.language)
    finally:
        await h.stop()
    h2 = Harness(tg, database, POLICY)
    await h2.start()
    try:
        await h2.settle()
        table2 = h2.host.table(table_id)
        assert table2 is not None and isinstance(table2.match, FamilyMatch)
        assert table2.version == version and table2.game == "bela"
        deal2 = table2.match.deal
        assert deal2.hands == dealt and list(deal2.held) == held  # the same cards, talons included
        for p in PEOPLE:
            seat = table2.seat_of(str(p.user_id))
            assert seat is not None
            hand = await hand_of(h2, table_id, seat, p)
            assert hand is not None
            assert hand_line_cards(hand.text, p.language) == shown_before[p.user_id] == set(deal2.hand_of(seat))
        counts = await play_to_the_end(h2, table_id, rng, watch)
        assert counts["presses"] > 10
        await check_finished(h2, tg, table_id, "bela")
        assert not watch.problems, watch.problems[:3]
    finally:
        await h2.stop()


async def test_a_bela_bot_killed_mid_deal_comes_back_with_the_same_hand(tmp_path: Path) -> None:
    """``belote-bot run`` is killed with SIGKILL after trump was named and cards were played; the next process on
    the same database shows Alice the same hand (talon included) and takes her next press."""
    from bot.core.messages import TELEGRAM
    from bot.storage.sqlite import SqliteStorage
    from tests.telegram.process import BotProcess

    alice = 8901
    async with FakeTelegram() as tg:
        tg.add_user(alice, "Alice", "en")
        tg.add_group(GROUP, "Bela club", members={alice})
        bot = BotProcess(tg, tmp_path, telegram_user_commands="100", telegram_chat_commands="100")
        await bot.start()

        def my_hand() -> Sent | None:
            found = [m for m in tg.in_chat(alice) if buttons_with(m, "c:") or buttons_with(m, "p:")]
            return found[-1] if found else None

        def offered() -> set[str]:
            m = my_hand()
            return {d for _, d in buttons_with(m, "c:") + buttons_with(m, "p:")} if m is not None else set()

        async def press_one(rng: random.Random) -> None:
            await tg.wait_for(lambda: bool(offered()), timeout=30)
            m = my_hand()
            assert m is not None
            data = rng.choice(sorted(offered()))
            await tg.answer_of(tg.press(alice, m, data))
            await tg.wait_for(lambda: data not in offered(), timeout=30)

        rng = random.Random(5)
        try:
            tg.start_private(alice)
            tg.send_text(alice, GROUP, "/belot bela")
            await tg.wait_for(lambda: any(buttons_with(m, "a") for m in tg.in_chat(GROUP)), timeout=30)
            for _ in range(3):
                tg.send_text(alice, GROUP, "/addbot")
            await tg.wait_for(lambda: any("Bot 4" in m.text for m in tg.in_chat(GROUP)), timeout=30)
            tg.send_text(alice, GROUP, "/startgame")
            while True:  # Alice plays until she has played two cards of the first deal
                await press_one(rng)
                await tg.wait_for(lambda: bool(offered()), timeout=30)
                m = my_hand()
                assert m is not None
                if buttons_with(m, "p:") and len(hand_line_cards(m.text, "en")) <= 6 and "Deal 1" in m.text:
                    break
            before = hand_line_cards(m.text, "en")
            await bot.kill()
            seen = len(tg.texts_seen(alice))
            await bot.start()
            await tg.wait_for(lambda: len(tg.texts_seen(alice)) > seen or bool(offered()), timeout=30)
            m = my_hand()
            assert m is not None and hand_line_cards(m.text, "en") == before and "Deal 1" in m.text
            await press_one(rng)  # the new process takes her press
        finally:
            status = await bot.stop()
        assert status == 0, bot.log[-3000:]
        storage = SqliteStorage(tmp_path / "belote.sqlite3")
        await storage.open()
        try:
            [row] = await storage.unfinished_tables()
            events = [e.data for e in await storage.events(row.table_id)]
        finally:
            await storage.close()
        from bot.core.messages import ChatRef
        from bot.core.table import replay

        table = replay(row.table_id, ChatRef.from_key(TELEGRAM, row.chat), row.creator, events)
        assert isinstance(table.match, FamilyMatch) and table.game == "bela"
        first = table.match.deals[0]
        assert before <= set(first.hands[0]) and len(first.hands[0]) == 8
        assert sum(1 for e in events if e.get("by") == "human") >= 3  # two cards before the kill, one after


async def test_a_three_player_table_restarted_mid_discard_keeps_the_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    """A `bela-3` caller has picked two cards to discard, not confirmed, when the process stops; a new host from
    the same SQLite file has the same deal (hands, the two extra cards, the caller's twelve) waiting for the same
    discard; the picks are forgotten (nothing was logged before Confirm); the match goes on to its end."""
    database = tmp_path / "belote.sqlite3"
    h = Harness(tg, database, POLICY)
    watch = PrivacyWatch()
    tg.watchers.append(watch)
    await h.start()
    rng = random.Random(3)
    try:
        table_id = await open_family_table(h, tg, "/belot bela-3", "Bela for three", bots=1)
        table = h.host.table(table_id)
        assert table is not None and isinstance(table.match, FamilyMatch) and len(table.seats) == 3
        watch.table = table
        while True:  # play until a person has to discard
            await h.delivered()
            seat = table.to_act
            assert seat is not None
            person = next(p for p in PEOPLE if str(p.user_id) == table.seats[seat].user_id)
            hand = await hand_of(h, table_id, seat, person)
            assert hand is not None
            if table.match.deal.phase == "discard":
                break
            moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
            await h.press(person, hand, rng.choice(moves)[1])
        picks = buttons_with(hand, "dp:")
        for _, data in picks[:2]:
            await h.press(person, hand, data)
            await h.delivered()
        hand = await hand_of(h, table_id, seat, person)
        assert hand is not None and buttons_with(hand, "dc:"), "two cards picked, not confirmed"
        deal = table.match.deal
        dealt, extra, held = deal.hands, deal.extra, list(deal.held)
        version = table.version
        deals = len(table.match.deals)
        assert [e.data["e"] for e in await h.storage.events(table_id)][-1] == "bid"  # the picks are not events
    finally:
        await h.stop()
    h2 = Harness(tg, database, POLICY)
    await h2.start()
    try:
        await h2.settle()
        table2 = h2.host.table(table_id)
        assert table2 is not None and isinstance(table2.match, FamilyMatch) and table2.game == "bela-3"
        assert table2.version == version and len(table2.match.deals) == deals
        deal2 = table2.match.deal
        assert deal2.phase == "discard" and table2.to_act == seat
        assert deal2.hands == dealt and deal2.extra == extra and list(deal2.held) == held
        hand = await hand_of(h2, table_id, seat, person)
        assert hand is not None
        assert len(buttons_with(hand, "dp:")) == 12 and not buttons_with(hand, "dc:")  # the picks are forgotten
        assert hand_line_cards(hand.text, person.language) == set(deal2.hand_of(seat))
        counts = await play_to_the_end(h2, table_id, rng, watch)
        assert counts["discards"] >= 1
        await check_finished(h2, tg, table_id, "bela-3")
        assert not watch.problems, watch.problems[:3]
    finally:
        await h2.stop()
