"""A basic group upgraded to a supergroup in the middle of a deal: Telegram gives the chat a new id, refuses the old
one, and tells the bot in service messages. The match goes on in the supergroup with no action lost, its messages
posted again there and edited in place from then on, the group's language and score sheet along, and a restart
keeps it all there."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator.text import score_text
from bot.engine.record import replay_record
from tests.fake_telegram import UPGRADED, FakeTelegram
from tests.telegram.harness import Harness, Person, action_of, buttons_with, limits_of

OLD = -4242  # the basic group
NEW = -1004242  # the supergroup it becomes
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(4001, "Alice", "en")
BOB = Person(4002, "Bob", "bg")
CAROL = Person(4003, "Carol", "en")
DAVE = Person(4004, "Dave", "bg")
PEOPLE = (ALICE, BOB, CAROL, DAVE)


def person_at(user_id: str) -> Person:
    return next(p for p in PEOPLE if str(p.user_id) == user_id)


async def play(h: Harness, table_id: str, rng: random.Random, done: object, limit: int | None = None) -> int:
    """The person to act presses one of the moves their hand offers, until ``done(table)`` (or ``limit`` presses);
    every press must be taken. Returns how many presses there were."""
    presses = 0
    while True:
        table = await h.oracle(table_id)
        if done(table) or presses == limit:  # type: ignore[operator]
            return presses
        assert table.match is not None and table.status == "playing"
        seat = table.match.deal.to_act
        assert seat is not None, "nobody is to act while the match is on"
        person = person_at(table.seats[seat].user_id)
        ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{person.user_id}")
        hand = None if ref is None else h.tg.messages.get(ref)
        moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
        assert hand is not None and moves, f"{person.name} is to act but is offered nothing"
        before = await h.version(table_id)
        await h.press(person, hand, rng.choice(moves)[1])
        assert await h.version(table_id) == before + 1, f"{person.name}'s press was lost"
        presses += 1
        await h.delivered()


def sends(tg: FakeTelegram, chat_id: int) -> int:
    return sum(1 for e in tg.log[chat_id] if e.method == "sendMessage" and e.ok)


@pytest.mark.parametrize("signal", ["service message", "refused edit"])
async def test_a_match_goes_on_in_the_supergroup_its_group_became(tmp_path: Path, signal: str) -> None:
    rng = random.Random(23)
    database = tmp_path / "belote.sqlite3"
    async with FakeTelegram(limits_of(POLICY)) as tg:
        for p in PEOPLE:
            tg.add_user(p.user_id, p.name, p.language)
            tg.start_private(p.user_id)
        tg.add_group(OLD, "Basic club", admins={ALICE.user_id}, basic=True)
        h = Harness(tg, database, POLICY)  # the bot's default language is Bulgarian
        await h.start()
        try:
            for line in ("/lang en", "/sheet add 90 72", "/belot target_score=60"):
                tg.send_text(ALICE.user_id, OLD, line)
                await h.settle()
            [lobby] = [m for m in tg.in_chat(OLD) if buttons_with(m, "j")]
            table_id = lobby.buttons()[0][1].split(":")[1]
            for person in (BOB, CAROL, DAVE):
                join = next(d for _, d in buttons_with(lobby, "j") if action_of(d) == "j")
                await h.press(person, lobby, join)
                await h.settle()
            await h.press(ALICE, lobby, buttons_with(lobby, "s")[0][1])
            await h.settle()

            def mid_deal(table: object) -> bool:
                deal = table.match.deal  # type: ignore[attr-defined]
                return deal.phase == "play" and len(deal.tricks) >= 2

            presses = await play(h, table_id, rng, mid_deal)
            await h.settle()
            deal_number = len((await h.oracle(table_id)).match.deals)  # type: ignore[union-attr]
            table_key = f"{table_id}:d{deal_number}"
            old_table = await h.adapter.refs.get(table_key)
            assert old_table is not None and old_table[0] == OLD
            shown_in_old = len(tg.log[OLD])

            tg.migrate(OLD, NEW, by=ALICE.user_id, announce=signal == "service message")
            if signal == "refused edit":
                # Nobody has told the bot yet: the next card's edit of the group's table is refused with the new id.
                presses += await play(h, table_id, rng, lambda table: False, limit=1)
                await h.settle()
                assert sends(tg, NEW) == 2, "the refused edit did not take the table to the supergroup"
                tg.announce_migration(OLD, ALICE.user_id)  # the service messages come after all: nothing twice
            await h.settle()
            refused = [e for e in tg.errors_served if e[2] == UPGRADED]
            assert len(refused) == (1 if signal == "refused edit" else 0)
            assert not [e for e in tg.log[OLD][shown_in_old:] if e.ok], "the old group was written to after the move"
            # The table's group messages were posted once in the supergroup, and the keys point there.
            assert sends(tg, NEW) == 2
            for key in (f"{table_id}:lobby", table_key):
                ref = await h.adapter.refs.get(key)
                assert ref is not None and ref[0] == NEW and tg.messages[ref].text

            def later_in_the_deal(table: object) -> bool:
                return len(table.match.deal.tricks) >= 5  # type: ignore[attr-defined]

            presses += await play(h, table_id, rng, later_in_the_deal)
            await h.settle()
            table_ref = await h.adapter.refs.get(table_key)
            assert table_ref is not None and table_ref[0] == NEW
            edits = [e for e in tg.log[NEW] if e.method == "editMessageText" and e.message_id == table_ref[1]]
            assert edits, "the supergroup's table was not edited in place"
            await h.stop()

            # A restart after the move: the table lives in the supergroup, re-rendered in its messages there.
            sent_before = sends(tg, NEW)
            h = Harness(tg, database, POLICY)
            await h.start()
            await h.settle()
            assert await h.adapter.refs.get(table_key) == table_ref and sends(tg, NEW) == sent_before
            assert [e for e in tg.errors_served if e[2] == UPGRADED] == refused, "the restart tried the old group"
            presses += await play(h, table_id, rng, lambda table: table.status != "playing")
            await h.settle()
            record = await h.storage.match_record(table_id)
            assert record is not None
            match = replay_record(record)
            assert match.over
            # No action was lost: every call and card of the match is one of the presses, and each was taken.
            assert presses == sum(len(d["bids"]) + len(d.get("play", [])) for d in record["deals"])
            final = next(m.text for m in tg.in_chat(NEW) if "Final score" in m.text)
            assert f"A {match.totals[0]} · B {match.totals[1]}" in final
            assert sends(tg, NEW) > sent_before  # the deal's result and the match's, posted in the supergroup
            assert not [e for e in tg.log[OLD][shown_in_old:] if e.ok]
            # The group's language and score sheet came along.
            tg.send_text(BOB.user_id, NEW, "/sheet")
            await h.settle()
            sheet = tg.last(NEW)
            assert sheet is not None and sheet.text.splitlines()[0] == "We | You" and "1. 90 | 72" in sheet.text
            tg.assert_within_limits()
        finally:
            await h.stop()



async def test_a_lobby_and_score_forms_follow_the_upgrade_and_old_buttons_still_work(tmp_path: Path) -> None:
    async with FakeTelegram(limits_of(POLICY)) as tg:
        for p in PEOPLE:
            tg.add_user(p.user_id, p.name, p.language)
            tg.start_private(p.user_id)
        tg.add_group(OLD, "Basic club", admins={ALICE.user_id}, basic=True)
        h = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
        await h.start()
        try:
            for line in ("/lang en", "/belot", "/score hearts 102 60"):
                tg.send_text(ALICE.user_id, OLD, line)
                await h.settle()
            answer = tg.last(OLD)
            assert answer is not None and answer.buttons()[0][0] == "Add to the sheet"
            tg.send_text(BOB.user_id, OLD, "/score")
            await h.settle()
            old_form = tg.last(OLD)
            assert old_form is not None and "What was the contract?" in old_form.text
            await h.press(BOB, old_form, next(d for label, d in old_form.buttons() if label == "♠ Spades"))
            await h.settle()
            [old_lobby] = [m for m in tg.in_chat(OLD) if buttons_with(m, "j")]
            table_id = old_lobby.buttons()[0][1].split(":")[1]
            shown_in_old = len(tg.log[OLD])

            tg.migrate(OLD, NEW, by=ALICE.user_id)
            await h.settle()
            [lobby] = [m for m in tg.in_chat(NEW) if buttons_with(m, "j")]
            assert tg.in_chat(NEW) == [lobby], "only the table's lobby is posted again"
            # A Join on the old group's message (its buttons name the table, and are still current) seats, then one
            # on the new lobby.
            for person, message in ((DAVE, old_lobby), (CAROL, lobby)):
                join = next(d for _, d in buttons_with(message, "j") if action_of(d) == "j")
                assert (await h.press(person, message, join)).text is not None
                await h.settle()
            seated = {s.user_id for s in (await h.oracle(table_id)).seats}
            assert {str(CAROL.user_id), str(DAVE.user_id)} <= seated
            assert "Dave" in lobby.text and "Dave" not in old_lobby.text  # shown in the supergroup's lobby
            tg.send_text(ALICE.user_id, NEW, "/startgame")
            await h.settle()
            assert (await h.oracle(table_id)).status == "playing"
            # Bob's form goes on from the old message; its next step is shown in the supergroup.
            await h.press(BOB, old_form, next(d for label, d in old_form.buttons() if label == "Contra"))
            await h.settle()
            [form] = [m for m in tg.in_chat(NEW) if "Score a deal" in m.text]
            assert "Contract: ♠ Spades" in form.text and "Contra: Contra" in form.text
            # An answer given in the old group adds to the sheet the group took along.
            added = await h.press(ALICE, answer, answer.buttons()[0][1])
            assert added.text and "line 1" in added.text
            await h.settle()
            tg.send_text(ALICE.user_id, NEW, "/sheet")
            await h.settle()
            sheet = tg.last(NEW)
            hearts = score_text("hearts 102 60").result.score
            assert sheet is not None and f"1. {hearts[0]} | {hearts[1]}" in sheet.text
            assert not [e for e in tg.log[OLD][shown_in_old:] if e.ok], "the old group was written to after the move"
            tg.assert_within_limits()
        finally:
            await h.stop()
