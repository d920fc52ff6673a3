"""Failover with two real ``belote-bot run`` processes for one bot on one database, against the fake Bot API server:
A acts, B waits as a standby (/readyz 503, no request to Telegram); Alice opens a table and plays; A is killed with
SIGKILL; B takes over within 15 s, re-renders the table without posting anything anew, and Alice's next press on
the buttons A sent is taken. Every press she made is in the table's log, once, and her hand shows the log's cards.
A started again waits as the new standby. On a SQLite file and on a PostgreSQL database."""

from __future__ import annotations

import time
from pathlib import Path

from bot.core.messages import TELEGRAM, ChatRef
from bot.core.table import replay
from bot.storage.factory import open_storage
from tests.fake_telegram import FakeTelegram, Sent
from tests.ops_helpers import (
    connects,
    free_port,
    my_move,
    open_and_start,
    play_moves,
    scrape,
    value,
    wait_delivered,
    wait_ready,
    wait_standby,
)
from tests.telegram.family import hand_line_cards
from tests.telegram.process import BotProcess

GROUP = -100888
ALICE = 8801
TAKEOVER = 15.0  # seconds: issue 18's bound from the kill to the standby serving


def process(tg: FakeTelegram, workdir: Path, database: str, port: int) -> BotProcess:
    workdir.mkdir()
    return BotProcess(tg, workdir, database=database, health_port=str(port))


def hand_message(tg: FakeTelegram) -> Sent | None:
    found = [m for m in tg.in_chat(ALICE) if "Your hand:" in m.text]
    return found[-1] if found else None


async def test_the_standby_takes_over_a_killed_process_and_the_table_goes_on(tmp_path: Path, database: str) -> None:
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        tg.add_group(GROUP, "Club", members={ALICE})
        tg.start_private(ALICE)
        port_a, port_b = free_port(), free_port()
        a = process(tg, tmp_path / "a", database, port_a)
        b = process(tg, tmp_path / "b", database, port_b)
        await a.start()
        try:
            await wait_ready(port_a, timeout=30)
            await b.start()
            body = await wait_standby(port_b, timeout=30)
            assert body["reason"] == "standby: another process holds the lease"
            assert "standby: waiting for the active process" in b.log
            assert value(await scrape(port_b), "belote_lease_held") == 0

            await open_and_start(tg, ALICE, GROUP)
            before = await play_moves(tg, ALICE, 3)
            # A is killed at rest: Alice's turn has come and A's outbox has delivered (and recorded) every post. A
            # kill between Telegram taking a message and the message's id being stored leaves the group one copy
            # too many, which no process can find again (Telegram has no idempotent send); that is not what this
            # test is about.
            pressed = {data for _, data in before}
            await tg.wait_for(lambda: (m := my_move(tg, ALICE)) is not None and m[1] not in pressed, timeout=30)
            await wait_delivered(port_a)
            assert connects(tg) == 1, "the standby connected to Telegram"
            hand = hand_message(tg)
            assert hand is not None
            group_sends = sum(1 for e in tg.log[GROUP] if e.method == "sendMessage")
            shown_before = {m.text for m in tg.in_chat(GROUP)}

            await a.kill()
            killed = time.monotonic()
            await wait_ready(port_b, timeout=TAKEOVER)
            took = time.monotonic() - killed
            assert took < TAKEOVER
            assert connects(tg) == 2
            assert value(await scrape(port_b), "belote_lease_held") == 1
            assert value(await scrape(port_b), "belote_tables", status="playing") == 1

            # Alice's next move is pressed on the hand message A sent: B took it.
            await tg.wait_for(lambda: my_move(tg, ALICE) is not None, timeout=30)
            after = await play_moves(tg, ALICE, 2)
            assert after[0][0] == hand.message_id, "the hand was posted anew instead of edited in place"
            await tg.wait_for(lambda: (m := hand_message(tg)) is not None and after[-1][1] not in
                              {d for _, d in m.buttons()}, timeout=20)
            # B re-rendered the table in place: the group got no post that A had made already.
            texts = [m.text for m in tg.in_chat(GROUP)]
            assert len(texts) == len(set(texts)), texts
            sends = [e for e in tg.log[GROUP] if e.method == "sendMessage"][group_sends:]
            assert not [e.text for e in sends if e.text in shown_before]

            await a.start()  # the killed process comes back as the standby
            await wait_standby(port_a, timeout=30)
            assert connects(tg) == 2
        finally:
            statuses = [await proc.stop() for proc in (b, a) if proc.proc is not None]
        assert statuses == [0, 0], (a.log[-2000:], b.log[-2000:])
        assert "this process takes over" in b.log

        # Every press Alice made is in the log once; her hand shows the log's cards.
        storage = open_storage(database)
        await storage.open()
        try:
            [row] = await storage.unfinished_tables()
            events = [e.data for e in await storage.events(row.table_id)]
        finally:
            await storage.close()
        table = replay(row.table_id, ChatRef.from_key(TELEGRAM, row.chat), row.creator, events)
        human = [e for e in events if e.get("by") == "human"]
        assert len(human) == len(before) + len(after) == 5
        seat = table.seat_of(str(ALICE))
        assert seat is not None and table.match is not None
        shown = hand_message(tg)
        assert shown is not None
        assert hand_line_cards(shown.text, "en") == set(table.match.observe(seat).hand)
        tg.assert_within_limits(f"\nA:\n{a.log[-3000:]}\nB:\n{b.log[-3000:]}")
