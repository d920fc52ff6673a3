"""A restart in the middle of a deal: a new Application on the same database resumes the table, edits the same
messages, and the match is finished."""

from __future__ import annotations

import random
from pathlib import Path

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import to_html
from bot.core import views
from bot.engine.record import replay_record
from bot.i18n import translator
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, buttons_with, limits_of

GROUP = -100888
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(2001, "Alice", "en")
BOB = Person(2002, "Bob", "bg")


async def hand_message(h: Harness, table_id: str, person: Person) -> tuple[int, int] | None:
    table = await h.oracle(table_id)
    seat = next(i for i, s in enumerate(table.seats) if s.user_id == str(person.user_id))
    return await h.adapter.refs.get(f"{table_id}:h{seat}:{person.user_id}")


async def play_until(h: Harness, table_id: str, rng: random.Random, done: object) -> None:
    """Alice and Bob press one of their offered moves until ``done(table)`` (the bots play their own turns)."""
    while True:
        table = await h.oracle(table_id)
        if done(table):  # type: ignore[operator]
            return
        acted = False
        for person in (ALICE, BOB):
            ref = await hand_message(h, table_id, person)
            hand = None if ref is None else h.tg.messages.get(ref)
            moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
            if hand is not None and moves:
                before = await h.version(table_id)
                await h.press(person, hand, rng.choice(moves)[1])
                assert await h.version(table_id) > before, f"{person.name}'s offered move was refused"
                acted = True
                break
        assert acted, "nobody was offered a move while the match is on"
        await h.delivered()


async def test_a_restart_mid_deal_resumes_in_the_same_messages(database: str) -> None:
    rng = random.Random(11)  # on a SQLite file, then on a PostgreSQL database
    async with FakeTelegram(limits_of(POLICY)) as tg:
        tg.add_group(GROUP, "Restart club")
        for p in (ALICE, BOB):
            tg.add_user(p.user_id, p.name, p.language)
            tg.start_private(p.user_id)
        first = Harness(tg, database, POLICY)
        await first.start()
        tg.send_text(ALICE.user_id, GROUP, "/belot")
        await first.settle()
        [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
        table_id = lobby.buttons()[0][1].split(":")[1]
        join = next(d for _, d in buttons_with(lobby, "j") if d.endswith(":j1"))
        assert (await first.press(BOB, lobby, join)).text is not None
        await first.settle()
        # Start fills the two empty seats with bots.
        await first.press(ALICE, lobby, buttons_with(lobby, "s")[0][1])
        await first.settle()

        def mid_deal(table: object) -> bool:
            deal = table.match.deal  # type: ignore[attr-defined]
            return deal.phase == "play" and len(deal.tricks) >= 2

        await play_until(first, table_id, rng, mid_deal)
        await first.settle()
        deals_before = len((await first.oracle(table_id)).match.deals)  # type: ignore[union-attr]
        group_ref = await first.adapter.refs.get(f"{table_id}:d{deals_before}")
        hands = {p.user_id: await hand_message(first, table_id, p) for p in (ALICE, BOB)}
        assert group_ref is not None and all(hands.values())
        sent_before = sum(1 for e in tg.log[GROUP] if e.method == "sendMessage")
        events_before = await first.version(table_id)
        await first.stop()
        log_at_restart = len(tg.log[GROUP])

        # A new process: new storage connection, host and Application on the same database.
        second = Harness(tg, database, POLICY)
        await second.start()
        await second.settle()
        assert await second.adapter.refs.get(f"{table_id}:d{deals_before}") == group_ref
        for p in (ALICE, BOB):
            assert await hand_message(second, table_id, p) == hands[p.user_id], "the hand moved to a new message"
        assert sum(1 for e in tg.log[GROUP] if e.method == "sendMessage") == sent_before, "the group got a new table"
        # The table is shown in place as it is now; a restart spends nothing on a message that shows it already.
        live = second.host.table(table_id)
        assert live is not None
        view = views.table_view(live, translator(live.options.lang))
        assert view is not None and tg.messages[group_ref].text == to_html(view.text, view.mention)
        assert not [e for e in tg.log[GROUP][log_at_restart:] if e.message_id == group_ref[1]], "edited to the same"
        await play_until(second, table_id, rng, lambda table: table.status != "playing")  # type: ignore[attr-defined]
        await second.settle()
        record = await second.storage.match_record(table_id)
        assert record is not None
        match = replay_record(record)
        # Play went on after the restart to the end of the match: in the deal in progress or in later ones (the deal
        # in progress may decide the match: that depends on the cards).
        assert match.over
        assert await second.version(table_id) > events_before
        final = next(m.text for m in tg.in_chat(GROUP) if "Final score" in m.text or "Краен резултат" in m.text)
        assert f"A {match.totals[0]} · B {match.totals[1]}" in final
        tg.assert_within_limits()
        await second.stop()


async def test_messages_held_back_by_the_flood_limits_are_sent_by_the_next_run(tmp_path: Path) -> None:
    database = tmp_path / "belote.sqlite3"
    async with FakeTelegram(limits_of(POLICY)) as tg:
        tg.add_group(GROUP, "Restart club")
        tg.add_user(ALICE.user_id, ALICE.name, ALICE.language)
        # The first run may post one message a minute in the group: most of what it says must wait.
        strict = FloodPolicy(group_messages=1, group_window=60)
        first = Harness(tg, database, strict)
        await first.start()
        for text in ("/belot", "/help", "/rules"):
            tg.send_text(ALICE.user_id, GROUP, text)
        await tg.wait_for(lambda: first.adapter.outbox.pending() >= 3, timeout=5)
        await first.adapter.stop(drain_timeout=0.1)
        unsent = [p for p in first.adapter.outbox.unsent() if p.chat_id == GROUP]
        held = [p.text for p in unsent]
        replies = {p.text for p in unsent if p.is_reply}
        await first.host.close()
        await first.storage.close()
        shown_before = [m.text for m in tg.in_chat(GROUP)]
        assert len(shown_before) == 1 and held

        second = Harness(tg, database, POLICY)
        await second.start()
        await second.settle()
        texts = [m.text for m in tg.in_chat(GROUP)]
        # Everything arrives, none twice, the held messages in their order: the table's messages in theirs, and
        # the replies to commands in theirs (replies wait behind the table's messages).
        assert texts[0] == shown_before[0]
        for lane in (lambda t: t not in replies, lambda t: t in replies):
            arrived = [t for t in texts[1:] if t in held and lane(t)]
            assert arrived == [t for t in held if t in arrived]
        assert set(held) <= set(texts) and len(texts) == len(set(texts))
        await second.stop()
