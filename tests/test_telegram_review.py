"""The Review button through python-telegram-bot and the fake Bot API server: the review goes to the presser's
private chat, a stranger gets a short alert, two presses at once both get it, and an old button still works after
a restart over the same SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.adapters.telegram.render import to_html
from bot.ai.review import review_deal
from bot.core.review import review_text
from bot.engine.deal import Deal
from bot.i18n import translator
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, action_of, buttons_with, limits_of

GROUP = -100555
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(2001, "Alice", "en")
BOB = Person(2002, "Bob", "bg")
DAVE = Person(2004, "Dave", "en")  # never sits at the table
# A quick review answers the press "it is there"; a slow one (a busy machine) "it will come". Either way it comes.
# A review's budget only guards against a slow machine: with a loose one, a review is the same whenever it is made.
LOOSE = 120.0
SENT = {"The review is in our private chat.", "Reviewing the deal… it will come to our private chat."}
SENT_BG = {"Разборът е в личния ни чат.", "Разглеждам раздаването… разборът ще дойде в личния ни чат."}


@pytest.fixture
async def tg() -> FakeTelegram:
    async with FakeTelegram(limits_of(POLICY)) as server:
        for p in (ALICE, BOB, DAVE):
            server.add_user(p.user_id, p.name, p.language, started=True)
        server.add_group(GROUP, "Belote club", admins={ALICE.user_id})
        yield server


def lobby_of(tg: FakeTelegram) -> Sent:
    return next(m for m in tg.in_chat(GROUP) if buttons_with(m, "j"))


async def first_result(h: Harness, tg: FakeTelegram) -> tuple[str, Sent]:
    """Alice and Bob with two bots play their first legal buttons until the first deal's result is posted."""
    for person in (ALICE, BOB):
        tg.start_private(person.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/lang en")
    await h.settle()
    tg.send_text(ALICE.user_id, GROUP, "/belot")
    await h.settle()
    lobby = lobby_of(tg)
    table_id = lobby.buttons()[0][1].split(":")[1]
    await h.press(BOB, tg.messages[(GROUP, lobby.message_id)], next(d for _, d in buttons_with(lobby, "j")
                                                                    if action_of(d) == "j"))
    await h.settle()
    for action in ("a", "a", "s"):
        lobby = tg.messages[(GROUP, lobby_of(tg).message_id)]
        await h.press(ALICE, lobby, next(d for _, d in lobby.buttons() if action_of(d) == action))
        await h.settle()
    for _ in range(300):
        results = [m for m in tg.in_chat(GROUP) if buttons_with(m, "v:")]
        if results:
            return table_id, results[0]
        for person in (ALICE, BOB):
            mine = [m for m in tg.in_chat(person.user_id) if buttons_with(m, "c:") or buttons_with(m, "p:")]
            if mine:
                moves = buttons_with(mine[-1], "c:") + buttons_with(mine[-1], "p:")
                await h.press(person, mine[-1], moves[0][1])
        await h.settle()
    raise AssertionError("no deal result with a review button")


async def expected_html(h: Harness, table_id: str, data: str, seat: int, lang: str = "en") -> str:
    return to_html(await expected_text(h, table_id, data, seat, lang))


async def expected_text(h: Harness, table_id: str, data: str, seat: int, lang: str = "en") -> str:
    """The review the analysis gives for the seat in the deal of the button ``data``."""
    index = int(action_of(data).split(":")[1]) - 1  # the first scored deal need not be the first (a pass-out)
    table = await h.oracle(table_id)
    assert table.match is not None
    deal = table.match.deals[index]
    assert isinstance(deal, Deal)
    before = [0, 0]
    for r in table.match.results[:index]:
        if r is not None:
            before = [before[0] + r.score[0], before[1] + r.score[1]]
    # Off the event loop, as the bot's own review is.
    review = await asyncio.to_thread(review_deal, deal, seat, (before[0], before[1]), f"{table_id}/{index}", LOOSE,
                                     call_cpu=LOOSE)
    return review_text(table, index, review, translator(lang))


def private_texts(tg: FakeTelegram, person: Person) -> list[str]:
    return [m.text for m in tg.in_chat(person.user_id)]


async def test_the_review_reaches_the_presser_alone(tg: FakeTelegram, tmp_path: Path, pinned_deals: str) -> None:
    path = tmp_path / "belote.sqlite3"
    h = Harness(tg, path, POLICY)
    await h.start()
    h.host.reviews.cpu = h.host.reviews.call_cpu = LOOSE
    table_id, result = await first_result(h, tg)
    [(label, data)] = buttons_with(result, "v:")
    assert label == "Review my play"
    alice_html = await expected_html(h, table_id, data, 0)
    group_before = len(tg.in_chat(GROUP))
    answer = await h.press(ALICE, result, data)
    assert answer.text in SENT
    await h.settle()
    assert alice_html in private_texts(tg, ALICE)
    assert alice_html not in private_texts(tg, BOB)
    assert len(tg.in_chat(GROUP)) == group_before  # nothing for the group
    # Someone who did not sit at the table: a short alert, nothing in his private chat.
    dave_before = private_texts(tg, DAVE)
    refused = await h.press(DAVE, result, data)
    assert refused.text == "Only the players of this table can ask for its review."
    await h.settle()
    assert private_texts(tg, DAVE) == dave_before
    # Alice and Bob press at the same instant: each gets their own review once.
    bob_seat = (await h.oracle(table_id)).seat_of(str(BOB.user_id))
    assert bob_seat is not None
    bob_html = await expected_html(h, table_id, data, bob_seat, "bg")
    both = await asyncio.gather(h.press(ALICE, result, data), h.press(BOB, result, data))
    assert both[0].text in SENT
    assert both[1].text in SENT_BG  # Bob speaks Bulgarian
    await h.settle()
    assert private_texts(tg, ALICE).count(alice_html) == 2
    assert private_texts(tg, BOB).count(bob_html) == 1
    await h.stop()

    # A new process over the same file: the old button still reviews the deal.
    h = Harness(tg, path, POLICY)
    await h.start()
    h.host.reviews.cpu = h.host.reviews.call_cpu = LOOSE
    again = await h.press(ALICE, tg.messages[(GROUP, result.message_id)], data)
    assert again.text in SENT
    await h.settle()
    assert private_texts(tg, ALICE).count(alice_html) == 3
    # Bob blocks the bot: his next review is refused by Telegram, and after that he gets what an alert holds.
    tg.started.discard(BOB.user_id)
    await h.press(BOB, tg.messages[(GROUP, result.message_id)], data)
    await h.settle()
    alert = await h.press(BOB, tg.messages[(GROUP, result.message_id)], data)
    assert alert.show_alert and alert.text is not None
    plain = (await expected_text(h, table_id, data, bob_seat, "bg")).replace("**", "")
    # As much of the review as an alert holds, in whole lines, saying when some is left out.
    assert alert.text == plain or (len(alert.text) <= 200 and alert.text.endswith(" …")
                                   and plain.startswith(alert.text[: -len(" …")] + "\n"))
    await h.stop()
