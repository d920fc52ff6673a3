"""The post-deal review at a table (``bot.core.review``): a button on each deal's result answers the presser alone
with the hard bot's review of their seat, from a real host over a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.ai.review import review_deal
from bot.core.host import Host
from bot.core.messages import OutMessage
from bot.core.payload import decode
from bot.core.review import review_text
from bot.core.table import Table
from bot.engine.deal import Deal
from bot.i18n import translator
from bot.storage.sqlite import SqliteStorage

from .core_helpers import ANA, BORIS, CHAT, VERA, Outbox, make_host, shut

# A review's budget only guards against a slow machine: with a loose one, a review is the same whenever it is made
# (here and in the host), however busy the machine is.
LOOSE = 120.0


async def loose_host(path: Path) -> tuple[Host, SqliteStorage, Outbox]:
    host, storage, outbox = await make_host(path)
    host.reviews.cpu = host.reviews.call_cpu = LOOSE
    return host, storage, outbox


def review_payload(result: OutMessage) -> str | None:
    found = [b.payload for row in result.buttons for b in row if decode(b.payload).action.startswith("v:")]
    return found[0] if found else None


async def first_deal_done(host: Host, outbox: Outbox, *options: str) -> Table:
    """Ana (seat 1) and Vera (seat 3) with two bots, playing their first legal button until a deal is scored."""
    opened = await host.command(CHAT, ANA, "new", list(options))
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, VERA, "join")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    table = host.table(opened.table_id)
    assert table is not None and table.seat_of(VERA.user_id) == 2
    for _ in range(200):
        await host.idle()
        if outbox.group("result"):
            return table
        for user in (ANA, VERA):
            hand = outbox.for_user(user)[-1]
            moves = [b for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:")]
            if moves:
                await host.press(user, moves[0].payload)
    raise AssertionError("no deal was scored")


def index_of(payload: str) -> int:
    """The deal a review button is for (0-based): the first scored deal need not be the first dealt (a pass-out)."""
    return int(decode(payload).action.split(":")[1]) - 1


def expected(table: Table, seat: int, index: int) -> str:
    """The review the analysis gives for that seat, computed here from the table's own deal."""
    assert table.match is not None
    deal = table.match.deals[index]
    assert isinstance(deal, Deal)
    before = [0, 0]
    for r in table.match.results[:index]:
        if r is not None:
            before = [before[0] + r.score[0], before[1] + r.score[1]]
    review = review_deal(deal, seat, (before[0], before[1]), f"{table.table_id}/{index}", LOOSE, call_cpu=LOOSE)
    return review_text(table, index, review, translator("en"))


async def test_the_result_offers_a_review_to_each_player_privately(tmp_path: Path, pinned_deals: str) -> None:
    host, storage, outbox = await loose_host(tmp_path / "db.sqlite3")
    table = await first_deal_done(host, outbox)
    result = outbox.group("result")[0]
    payload = review_payload(result)
    assert payload is not None, result.buttons
    posted = len(outbox.messages)
    version = table.version
    ana = await host.press(ANA, payload)
    assert ana.ok, ana.text
    index = index_of(payload)
    assert ana.text == expected(table, 0, index)
    assert ana.text.startswith(f"**Deal {index + 1}: the hard bot's review for Ana**")
    assert table.version == version and len(outbox.messages) == posted  # nothing changed, nothing was posted
    vera = await host.press(VERA, payload)
    assert vera.ok and vera.text == expected(table, 2, index) and "for Vera" in vera.text.splitlines()[0]
    # Boris did not sit at the table: a short refusal in his language, and nothing of the deal.
    boris = await host.press(BORIS, payload)
    assert not boris.ok and boris.text == "Само играчите на тази маса могат да поискат разбор."
    # A forged button for the deal in progress: its hands are not public yet.
    assert table.match is not None and len(table.match.deals) == index + 2
    assert table.match.deals[-1].phase != "done"
    forged = await host.press(ANA, payload.replace(f":v:{index + 1}", f":v:{index + 2}"))
    assert not forged.ok and forged.text == "That is not possible now."
    await shut(host, storage)


async def test_two_presses_at_once_get_the_same_review(tmp_path: Path, pinned_deals: str) -> None:
    host, storage, outbox = await loose_host(tmp_path / "db.sqlite3")
    table = await first_deal_done(host, outbox)
    payload = review_payload(outbox.group("result")[0])
    assert payload is not None
    answers = await asyncio.gather(host.press(ANA, payload), host.press(ANA, payload), host.press(VERA, payload))
    assert [a.ok for a in answers] == [True, True, True]
    assert answers[0].text == answers[1].text == expected(table, 0, index_of(payload))
    assert answers[2].text == expected(table, 2, index_of(payload))
    await shut(host, storage)


async def test_an_older_deal_is_reviewed_after_a_restart_and_after_the_table_ends(
    tmp_path: Path, pinned_deals: str
) -> None:
    path = tmp_path / "db.sqlite3"
    host, storage, outbox = await loose_host(path)
    table = await first_deal_done(host, outbox)
    payload = review_payload(outbox.group("result")[0])
    assert payload is not None
    index = index_of(payload)
    before = expected(table, 0, index)
    await shut(host, storage)
    # A new process over the same file: the unfinished table is rebuilt from its log, the old button still works.
    host, storage, outbox = await loose_host(path)
    again = await host.press(ANA, payload)
    assert again.ok and again.text == before
    await host.command(CHAT, ANA, "stop")
    assert host.table(table.table_id) is None  # the table has ended and left memory
    ended = await host.press(VERA, payload)
    assert ended.ok and ended.text == expected(table, 2, index)
    # A deal that never happened, and a table nobody stored.
    missing = await host.press(ANA, payload.replace(f":v:{index + 1}", ":v:99"))
    assert not missing.ok and "no longer stored" in missing.text
    gone = await host.press(ANA, payload.replace(table.table_id, "zzzzzz"))
    assert not gone.ok and "no longer stored" in gone.text
    await shut(host, storage)


async def test_the_review_button_can_be_switched_off(tmp_path: Path) -> None:
    host, storage, outbox = await loose_host(tmp_path / "db.sqlite3")
    bad = await host.command(CHAT, ANA, "new", ["review=maybe"])
    assert not bad.ok and "on, off" in bad.text
    table = await first_deal_done(host, outbox, "review=off")
    assert not table.options.review
    assert review_payload(outbox.group("result")[0]) is None
    await shut(host, storage)


async def test_the_options_menu_switches_the_review(tmp_path: Path) -> None:
    host, storage, outbox = await loose_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None and table.options.review  # on by default
    await host.command(CHAT, ANA, "options")
    menu = outbox.latest[f"{table.table_id}:opts"]
    assert len(menu.buttons) <= 5 and all(len(row) <= 5 for row in menu.buttons)
    switch = [b for row in menu.buttons for b in row if b.label == "Review button: on"]
    assert switch, menu.buttons
    answer = await host.press(ANA, switch[0].payload)
    assert answer.ok and not table.options.review
    menu = outbox.latest[f"{table.table_id}:opts"]
    assert any(b.label == "Review button: off" for row in menu.buttons for b in row)
    await shut(host, storage)
