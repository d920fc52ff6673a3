"""End to end: four people open a table in a group, join (one through the deep link), and play a whole match by
pressing the buttons the bot sent them, through python-telegram-bot and the fake Bot API server."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import table_of_payload
from bot.core.views import CALL_BY_CODE
from bot.engine import parse_card
from bot.engine.record import replay_record
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, action_of, buttons_with, cards_in, limits_of

GROUP = -100777
# Telegram's limits with every window shrunk 200 times: the same shape, a 200th of the waiting.
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(1001, "Alice", "bg")
BOB = Person(1002, "Bob", "en")
CAROL = Person(1003, "Carol", "en")  # has never opened a private chat with the bot
DAVE = Person(1004, "Dave", "bg")
PEOPLE = (ALICE, BOB, CAROL, DAVE)


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in PEOPLE:
            server.add_user(p.user_id, p.name, p.language, started=p is not CAROL)
        server.add_group(GROUP, "Belote club", admins={ALICE.user_id})
        yield server


async def hand_of(h: Harness, table_id: str, seat: int, person: Person) -> Sent | None:
    """The person's hand message (the core keys it ``<table>:h<seat>:<user>``; the adapter remembers its id)."""
    ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{person.user_id}")
    return None if ref is None else h.tg.messages.get(ref)


async def group_table(h: Harness, table_id: str, deal_number: int) -> Sent | None:
    """The group's message of a deal (keyed ``<table>:d<n>`` by the core)."""
    ref = await h.adapter.refs.get(f"{table_id}:d{deal_number}")
    return None if ref is None else h.tg.messages.get(ref)


async def open_and_seat(h: Harness, tg: FakeTelegram) -> str:
    """Alice opens the table, switches the group to English, Bob and Dave press Join, Carol joins by deep link."""
    for person in (ALICE, BOB, DAVE):  # they have talked to the bot before
        tg.start_private(person.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/lang en")
    await h.settle()
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    table_id = action_of(lobby.buttons()[0][1]) and lobby.buttons()[0][1].split(":")[1]
    for person in (BOB, DAVE):
        join = buttons_with(tg.messages[(GROUP, lobby.message_id)], "j")
        data = next(d for _, d in join if action_of(d) == "j")
        answer = await h.press(person, tg.messages[(GROUP, lobby.message_id)], data)
        assert answer.url is None, "a person the bot can already write to needs no deep link"
        await h.settle()
    # Carol's press seats her, but the bot cannot write to her: Telegram opens the bot through the deep link.
    join = buttons_with(tg.messages[(GROUP, lobby.message_id)], "j")
    data = next(d for _, d in join if action_of(d) == "j")
    answer = await h.press(CAROL, tg.messages[(GROUP, lobby.message_id)], data)
    assert answer.url is not None and "?start=" in answer.url
    payload = answer.url.split("?start=")[1]
    assert table_of_payload(payload) == table_id
    tg.start_private(CAROL.user_id, payload)
    await h.settle()
    oracle = await h.oracle(table_id)
    assert sorted(s.user_id for s in oracle.seats) == sorted(str(p.user_id) for p in PEOPLE)
    return table_id


async def check_views(h: Harness, tg: FakeTelegram, table_id: str) -> Person | None:
    """Every private view shows only its owner's cards and, for the person to act, exactly the legal actions; the
    group shows no card that was not played. Returns the person to act."""
    table = await h.oracle(table_id)
    match = table.match
    assert match is not None
    deal = match.deal
    played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
    group = await group_table(h, table_id, len(match.deals))
    if group is not None and deal.phase != "done":
        shown = cards_in(group.text)
        assert shown <= played, f"the group sees unplayed cards {shown - played}: {group.text}"
    to_act: Person | None = None
    for seat, s in enumerate(table.seats):
        person = next(p for p in PEOPLE if str(p.user_id) == s.user_id)
        hand = await hand_of(h, table_id, seat, person)
        assert hand is not None, f"{person.name} has no hand message"
        own = set(deal.hand_of(seat))
        shown = cards_in(hand.text) - set(deal.trick)
        assert shown <= own, f"{person.name} sees cards that are not theirs: {shown - own}"
        if deal.phase == "play":
            assert own <= cards_in(hand.text), f"{person.name}'s hand is not all shown: {hand.text}"
        calls = buttons_with(hand, "c:")
        cards = buttons_with(hand, "p:")
        if deal.phase != "done" and deal.to_act == seat and not s.away:
            to_act = person
            if deal.phase == "auction":
                assert sorted(CALL_BY_CODE[action_of(d)[2:]] for _, d in calls) == sorted(deal.legal_calls())
            else:
                offered = sorted(parse_card(action_of(d)[2:]) for _, d in cards)
                assert offered == sorted(deal.legal_cards())
        else:
            assert not calls and not cards, f"{person.name} is offered actions out of turn"
    return to_act


async def test_four_people_play_a_whole_match_by_pressing_buttons(tg: FakeTelegram, tmp_path: Path) -> None:
    rng = random.Random(5)
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        table_id = await open_and_seat(h, tg)
        [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "s")]
        start = buttons_with(lobby, "s")[0][1]
        assert (await h.press(ALICE, lobby, start)).text is not None
        await h.settle()
        presses = 0
        stale: tuple[Person, Sent, str] | None = None
        while True:
            table = await h.oracle(table_id)
            if table.status != "playing":
                break
            person = await check_views(h, tg, table_id)
            assert person is not None, "nobody is offered a move"
            seat = next(i for i, s in enumerate(table.seats) if s.user_id == str(person.user_id))
            hand = await hand_of(h, table_id, seat, person)
            assert hand is not None
            moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
            label, data = rng.choice(moves)
            before = await h.version(table_id)
            if presses % 17 == 5:
                # A foreign press: someone else presses this person's button; nothing changes.
                other = next(p for p in PEOPLE if p is not person)
                answer = await h.press(other, hand, data)
                assert await h.version(table_id) == before and answer.text
            if presses == 11:
                # A 429 for the group and one for the next player's chat: waited out, nothing lost.
                tg.fail_next("editMessageText", GROUP, code=429, retry_after=1)
                tg.fail_next("editMessageText", person.user_id, code=429, retry_after=1)
            answer = await h.press(person, hand, data)
            assert await h.version(table_id) > before, f"{person.name}'s press of {label} changed nothing"
            # The same press again (a replay) and an older button (stale) change nothing.
            again = await h.press(person, hand, data)
            assert await h.version(table_id) == before + 1 and again.text
            if stale is not None:
                old = await h.press(*stale)
                assert await h.version(table_id) == before + 1 and old.text
            stale = (person, hand, data)
            presses += 1
            await h.delivered()
        await h.settle()
        # The scores posted are the engine's replay of the stored actions.
        record = await h.storage.match_record(table_id)
        assert record is not None
        match = replay_record(record)
        assert match.over
        group_texts = [m.text for m in tg.in_chat(GROUP)]
        final = next(t for t in group_texts if "Final score" in t)
        assert f"A {match.totals[0]} · B {match.totals[1]}" in final
        running = [0, 0]
        posted = [t for t in group_texts if "Match score:" in t]
        expected = []
        for result in match.results:
            if result is not None:
                running = [running[0] + result.score[0], running[1] + result.score[1]]
                expected.append(f"Match score: A {running[0]} · B {running[1]}")
        assert [re.search(r"Match score: A \d+ · B \d+", t).group(0) for t in posted] == expected  # type: ignore[union-attr]
        # Four people, no bots: every call and card of the match was one of their presses (and the 429s at press 11
        # were injected: a match has at least 36 actions).
        assert presses == sum(len(d["bids"]) + len(d.get("play", [])) for d in record["deals"]) > 11
        tg.assert_within_limits()
        # Private messages came in each person's language.
        assert any("Your hand" in t for t in tg.texts_seen(BOB.user_id))
        assert not any("Your hand" in t for t in tg.texts_seen(ALICE.user_id))
    finally:
        await h.stop()


async def test_three_people_pressing_join_on_the_same_lobby_at_once_all_sit(tg: FakeTelegram, tmp_path: Path) -> None:
    """A busy group: Alice changes an option, and before the group's lobby is edited Bob, Carol and Dave press its
    Join at the same instant. All three are seated, and each is answered."""
    import asyncio
    import copy

    from bot.core.payload import decode

    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await h.start()
    try:
        for person in PEOPLE:
            tg.start_private(person.user_id)
        tg.send_text(ALICE.user_id, GROUP, "/belot")
        await h.settle()
        [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
        shown = copy.deepcopy(lobby)  # the lobby as the three saw it
        join = next(d for _, d in buttons_with(shown, "j") if action_of(d) == "j")
        table_id = decode(join).table_id
        tg.send_text(ALICE.user_id, GROUP, "/set target_score 101")
        await h.settle()
        assert await h.version(table_id) > decode(join).nonce, "the option moved the table on"
        queries = [tg.press(p.user_id, shown, join) for p in (BOB, CAROL, DAVE)]
        answers = await asyncio.gather(*(tg.answer_of(q) for q in queries))
        await h.settle()
        oracle = await h.oracle(table_id)
        assert sorted(s.user_id for s in oracle.seats) == sorted(str(p.user_id) for p in PEOPLE), [
            a.text for a in answers
        ]
        assert oracle.options.rules.get("target_score") == 101
        # The same old Join pressed again by Bob (a replay) seats nobody twice and is answered.
        version = await h.version(table_id)
        again = await h.press(BOB, shown, join)
        assert again.text and await h.version(table_id) == version
    finally:
        await h.stop()
