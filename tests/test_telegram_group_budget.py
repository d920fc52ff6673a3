"""A group's twenty messages a minute, spent well: four people pressing the instant they can, a member spamming
/rules, and Telegram failing for a while. The real bot (python-telegram-bot, SQLite) against the fake Bot API with
Telegram's limits enforced, in scaled time."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import post_of
from bot.core import views
from bot.core.messages import TELEGRAM, UserRef
from bot.core.table import Table
from bot.i18n import translator
from tests.fake_telegram import FLOOD_METHODS, FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, buttons_with, cards_in, limits_of

GROUP = -100555
SCALE = 0.1  # every flood window (and the group's edit spacing) a tenth of Telegram's
POLICY = FloodPolicy().scaled(SCALE)
PEOPLE = tuple(Person(5001 + i, f"P{i + 1}", "en") for i in range(4))


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        server.add_group(GROUP, "Budget club")
        for p in PEOPLE:
            server.add_user(p.user_id, p.name, p.language)
            server.start_private(p.user_id)
        yield server


def played(table: Table | None) -> int:
    match = table.match if table is not None else None
    return sum(1 for r in match.results if r is not None) if match is not None else 0


async def open_table(h: Harness, tg: FakeTelegram, seated: int) -> tuple[str, Sent]:
    tg.send_text(PEOPLE[0].user_id, GROUP, "/belot")
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "s")]
    for person in PEOPLE[1:seated]:
        join = next(d for _, d in buttons_with(tg.messages[(GROUP, lobby.message_id)], "j") if d.endswith(":j"))
        await h.press(person, lobby, join)
        await h.settle()
    return lobby.buttons()[0][1].split(":")[1], tg.messages[(GROUP, lobby.message_id)]


async def press_instantly(h: Harness, tg: FakeTelegram, table_id: str, deals: int, rng: random.Random) -> None:
    """Each person presses one of their offered moves the moment their hand shows it, until ``deals`` deals were
    played to the end."""

    async def person(p: Person) -> None:
        pressed: set[str] = set()
        while True:
            table = h.host.table(table_id)
            if table is None or played(table) >= deals:
                return  # played, or the match is over
            ref = await h.adapter.refs.get(f"{table_id}:h{table.seat_of(str(p.user_id))}:{p.user_id}")
            hand = tg.messages.get(ref) if ref is not None else None
            moves = [d for _, d in buttons_with(hand, "c:") + buttons_with(hand, "p:") if d not in pressed]
            if hand is None or not moves:
                await tg.next_change(p.user_id, timeout=0.05)
                continue
            pressed.update(moves)
            await tg.answer_of(tg.press(p.user_id, hand, rng.choice(moves)), timeout=30)

    await asyncio.wait_for(asyncio.gather(*(person(p) for p in PEOPLE)), 60)


async def missing(h: Harness, tg: FakeTelegram, table_id: str) -> list[str]:
    """The keys of what the chats should show by the table's log and do not: every finished deal's last state and
    result, the current table and each person's hand."""
    table = h.host.table(table_id)
    assert table is not None and table.match is not None
    tr = translator(table.options.lang)
    done = len(table.match.results)
    expected = [views.finished_deal_view(table, i, tr) for i in range(done)]
    expected += [r for i in range(done) if (r := views.result_view(table, i, tr)) is not None]
    expected += [v for v in [views.table_view(table, tr)] if v is not None]
    expected += [
        views.hand_view(table, seat, UserRef(TELEGRAM, s.user_id, s.name), tr) for seat, s in enumerate(table.seats)
    ]
    lost = []
    for message in expected:
        ref = await h.adapter.refs.get(message.key)
        shown = tg.messages.get(ref) if ref is not None else None
        post = post_of(message)
        if shown is None or shown.deleted or post is None or shown.text != post.text:
            lost.append(message.key)
    return lost


async def test_four_people_pressing_at_once_stay_within_the_groups_budget_per_deal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """At most 12 group requests and 3 new group messages per deal, the group never silent for 10 s, and every
    trick of every deal shown to the group."""
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en")
    await h.start()
    try:
        table_id, lobby = await open_table(h, tg, 4)
        start_at = len(tg.log[GROUP])
        began = time.monotonic()
        await h.press(PEOPLE[0], lobby, buttons_with(lobby, "s")[0][1])
        await press_instantly(h, tg, table_id, 2, random.Random(3))
        await h.settle()
        table = h.host.table(table_id) or await h.oracle(table_id)
        assert table.match is not None
        deals = len(table.match.results)  # passed-out deals count too: their requests are in the log
        # The lobby's edits (the match starts, ends) are the match's, not a deal's.
        requests = [e for e in tg.log[GROUP][start_at:] if e.method in FLOOD_METHODS]
        per_deal = [e for e in requests if e.message_id != lobby.message_id]
        assert len(per_deal) <= 12 * deals, f"{len(per_deal)} group requests for {deals} deals"
        assert sum(1 for e in per_deal if e.method == "sendMessage") <= 3 * deals
        updates = [began] + [e.at for e in requests if e.ok]
        silence = max(b - a for a, b in itertools.pairwise(updates)) / SCALE
        assert silence <= 10, f"the group saw nothing for {silence:.1f} s"
        seen = tg.texts_seen(GROUP)
        for n, deal in enumerate(table.match.deals[:deals], 1):
            for trick in deal.tricks:
                assert any(set(trick.cards) <= cards_in(text) for text in seen), f"a trick of deal {n} never shown"
        tg.assert_within_limits()
    finally:
        await h.stop()


async def test_a_member_spamming_rules_does_not_hold_back_the_lobby(tg: FakeTelegram, tmp_path: Path) -> None:
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en")
    await h.start()
    try:
        _, lobby = await open_table(h, tg, 1)
        for _ in range(60):
            tg.send_text(PEOPLE[0].user_id, GROUP, "/rules")
        await tg.wait_for(lambda: tg.pending_updates() == 0)
        join = next(d for _, d in buttons_with(lobby, "j") if d.endswith(":j"))
        pressed = time.monotonic()
        await h.press(PEOPLE[1], lobby, join)
        await tg.wait_for(lambda: PEOPLE[1].name in tg.messages[(GROUP, lobby.message_id)].text, 60)
        delay = (time.monotonic() - pressed) / SCALE
        assert delay <= 6, f"the lobby showed the join {delay:.0f} s later"
        await h.settle()
        rules = [t for t in tg.texts_seen(GROUP) if "Options of table" in t]
        assert 1 <= len(rules) <= 1 + POLICY.waiting_replies  # equal replies waiting were replaced by the newest
        tg.assert_within_limits()
    finally:
        await h.stop()


async def test_telegram_failing_mid_match_loses_no_message(tg: FakeTelegram, tmp_path: Path) -> None:
    """Telegram answers 5xx to every message for a while (here: its next 60 requests) while people keep pressing
    what they see: when it recovers every chat shows what the table's log says, and the match goes on."""
    h = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en")
    await h.start()
    try:
        table_id, lobby = await open_table(h, tg, 4)
        await h.press(PEOPLE[0], lobby, buttons_with(lobby, "s")[0][1])
        await h.settle()
        tg.outage(requests=60)
        await press_instantly(h, tg, table_id, 1, random.Random(4))
        await h.settle()
        assert await missing(h, tg, table_id) == []
        assert any(code == 502 for _, code, _ in tg.errors_served)
        tg.assert_within_limits()
    finally:
        await h.stop()


async def test_a_restart_does_not_post_a_shown_result_again_when_a_seat_changed_hands(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Old deals render differently once a bot took a seat (its name changes): a restart compares them with the
    group deal by deal and leaves a deal whose result the group got alone."""
    database = tmp_path / "belote.sqlite3"
    h = Harness(tg, database, POLICY, language="en")
    await h.start()
    table_id, lobby = await open_table(h, tg, 4)
    await h.press(PEOPLE[0], lobby, buttons_with(lobby, "s")[0][1])
    await press_instantly(h, tg, table_id, 1, random.Random(5))
    tg.send_text(PEOPLE[1].user_id, GROUP, "/leave")  # a bot takes P2's seat: every deal's view names it anew
    await h.settle()
    await h.stop()
    results = [m.message_id for m in tg.in_chat(GROUP) if "Deal 1:" in m.text]
    first_deal = await h.adapter.refs.get(f"{table_id}:d1")
    calls = len(tg.log[GROUP])

    again = Harness(tg, database, POLICY, language="en")
    await again.start()
    try:
        await again.settle()
        assert [m.message_id for m in tg.in_chat(GROUP) if "Deal 1:" in m.text] == results
        later = tg.log[GROUP][calls:]
        assert first_deal is not None and not [e for e in later if e.message_id == first_deal[1]]
        assert not [e for e in later if e.method == "sendMessage"], "a restart posted something again"
    finally:
        await again.stop()
