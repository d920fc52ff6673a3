"""Only members of a table's group sit at it, and only people (not chats posting as such) open, join, stop or vote.

A press under the group's own message shows membership; a deep link or a press forged from a private chat is
checked with getChatMember (members, admins and restricted members may sit; people who left, were banned or never
joined may not). Everyone acts at the same instant."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import deep_link_payload
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import REAL_COMMAND_LIMITS, Harness, Person, buttons_with, limits_of

GROUP = -100606
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(6601, "Alice", "en")  # opens the table
BOB = Person(6602, "Bob", "en")  # a member, presses Join in the group
CAROL = Person(6603, "Carol", "en")  # never joined the group
DAN = Person(6604, "Dan", "en")  # was banned
ERIN = Person(6605, "Erin", "en")  # restricted, then left
FRANK = Person(6606, "Frank", "en")  # restricted but still a member
GINA = Person(6607, "Gina", "en")  # left the group
PEOPLE = (ALICE, BOB, CAROL, DAN, ERIN, FRANK, GINA)


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in PEOPLE:
            server.add_user(p.user_id, p.name, p.language)
        server.add_group(GROUP, "Club", members={ALICE.user_id, BOB.user_id})
        server.set_member(GROUP, DAN.user_id, "kicked")
        server.set_member(GROUP, ERIN.user_id, "restricted-left")
        server.set_member(GROUP, FRANK.user_id, "restricted")
        server.set_member(GROUP, GINA.user_id, "left")
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> Harness:
    harness = Harness(tg, tmp_path / "belote.sqlite3", POLICY, language="en", **REAL_COMMAND_LIMITS)
    await harness.start()
    yield harness
    await harness.stop()


def forged_under_private_message(tg: FakeTelegram, person: Person) -> Sent:
    """A message in the person's private chat, under which a forged press claims to have been made."""
    return Sent(person.user_id, 1, "Hello", None, None)


async def seated(h: Harness, table_id: str) -> set[int]:
    return {int(s.user_id) for s in (await h.oracle(table_id)).seats if s.kind == "human"}


async def test_only_members_sit_whatever_way_they_come_in(tg: FakeTelegram, h: Harness) -> None:
    h.adapter.admission.members.outsider_seconds = 1.0  # how long a "not a member" is remembered (default 10 s)
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    table_id = lobby.buttons()[0][1].split(":")[1]
    join = next(d for _, d in buttons_with(lobby, "j") if d.endswith(":j"))
    payload = deep_link_payload(table_id)
    # At the same instant: Bob presses Join in the group; Carol, Erin, Gina and Frank follow the deep link; Dan
    # forges a Join press from his private chat.
    bob = tg.press(BOB.user_id, lobby, join)
    dan = tg.press(DAN.user_id, forged_under_private_message(tg, DAN), join)
    for person in (CAROL, ERIN, GINA, FRANK):
        tg.start_private(person.user_id, payload)
    answers = await asyncio.gather(tg.answer_of(bob), tg.answer_of(dan))
    await h.settle()
    assert await seated(h, table_id) == {ALICE.user_id, BOB.user_id, FRANK.user_id}
    assert answers[0].text == "You sit at seat 2." and answers[1].show_alert
    assert answers[1].text == "Only members of Club can sit at its table: join the group first, then try again."
    for person in (CAROL, ERIN, GINA):
        [said] = tg.in_chat(person.user_id)
        assert said.text == "Only members of Club can sit at its table: join the group first, then try again."
    asked = [p["user_id"] for m, p in tg.calls if m == "getChatMember"]
    assert sorted(asked) == sorted(p.user_id for p in (CAROL, DAN, ERIN, FRANK, GINA)), "a group press is not asked"
    # Asked again at once, the answer is remembered; Carol joins the group and is let in a moment later.
    again = tg.press(DAN.user_id, forged_under_private_message(tg, DAN), join)
    assert (await tg.answer_of(again)).show_alert
    tg.set_member(GROUP, CAROL.user_id, "member")
    await asyncio.sleep(1.0)
    tg.start_private(CAROL.user_id, payload)
    await h.settle()
    assert await seated(h, table_id) == {ALICE.user_id, BOB.user_id, FRANK.user_id, CAROL.user_id}
    assert [p["user_id"] for m, p in tg.calls if m == "getChatMember"].count(DAN.user_id) == 1
    # Seated players' presses from their private chat (their cards) are not checked.
    calls = len(tg.calls)
    tg.send_text(ALICE.user_id, GROUP, "/startgame")
    await h.settle()
    assert not [m for m, _ in tg.calls[calls:] if m == "getChatMember"]


async def test_chats_posting_as_such_may_not_open_join_or_stop(tg: FakeTelegram, h: Harness) -> None:
    # An anonymous admin and a member posting as a channel, at the same instant.
    tg.send_as_chat(GROUP, "/belot")
    tg.send_as_chat(GROUP, "/belot", as_chat=-100999, title="News")
    await h.settle()
    assert await h.storage.unfinished_tables() == []
    texts = sorted(m.text for m in tg.in_chat(GROUP))
    assert len(texts) == 2
    assert texts[0].startswith("This was sent on behalf of the channel News, and a table needs a person")
    assert texts[1].startswith("You are an anonymous admin here")
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    table_id = lobby.buttons()[0][1].split(":")[1]
    before = len(tg.in_chat(GROUP))
    # Each answered before the next: identical replies waiting together would be merged into one by the outbox.
    for command in ("/join", "/stop"):
        tg.send_as_chat(GROUP, command)
        await h.settle()
    for command in ("/startgame", "/addbot"):
        tg.send_as_chat(GROUP, command, as_chat=-100999, title="News")
        await h.settle()
    tg.send_as_chat(GROUP, "/rules")  # reading the rules needs no person
    await h.settle()
    table = await h.oracle(table_id)
    assert table.status == "lobby" and [s.kind for s in table.seats] == ["human", "empty", "empty", "empty"]
    said = [m.text for m in tg.in_chat(GROUP)[before:]]
    assert len(said) == 5 and sum("anonymous admin" in t for t in said) == 2 and sum("News" in t for t in said) == 2
    assert any("151" in t for t in said), "the rules are read out to anyone"
