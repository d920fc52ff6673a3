"""/score and /sheet in chat, good and bad input, in Bulgarian and English, and a sheet that survives a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator.score import score
from bot.calculator.text import score_text
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with

GROUP = -100999
POLICY = FloodPolicy().scaled(0.005)
IVAN = Person(3001, "Ivan", "bg")
JANE = Person(3002, "Jane", "en")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (IVAN, JANE), GROUP, "Real cards", {IVAN.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def test_a_scored_line_is_explained_in_each_language(h: Harness, tg: FakeTelegram) -> None:
    bg = await say(h, IVAN, IVAN.user_id, "/score купа 102 60")
    en = await say(h, JANE, JANE.user_id, "/score hearts 102 60")
    expected = score_text("hearts 102 60")
    assert bg.text.splitlines()[0] == expected.summary("bg") != expected.summary("en")
    assert en.text.splitlines()[0] == expected.summary("en")
    assert en.text.splitlines()[1:] == [f"{i}. {s}" for i, s in enumerate(expected.explanation("en"), 1)]


@pytest.mark.parametrize(
    ("person", "line", "field"),
    [
        (IVAN, "/score купа 200", "points"),
        (JANE, "/score hearts 102 60 banana", "banana"),
        (JANE, "/score 102 60", "contract"),
        (IVAN, "/score без коз 80 терца ние", "declarations"),
    ],
)
async def test_a_bad_line_gets_the_field_and_a_hint_in_the_persons_language(
    h: Harness, person: Person, line: str, field: str
) -> None:
    answer = await say(h, person, person.user_id, line)
    assert field in answer.text
    if person.language == "bg":
        assert "Пример" in answer.text
    else:
        assert "Example" in answer.text and "Пример" not in answer.text


async def press_labelled(h: Harness, person: Person, message: Sent, label: str) -> None:
    [data] = [d for lab, d in message.buttons() if lab == label]
    await h.press(person, message, data)
    await h.delivered()


async def test_the_button_form_scores_a_deal_and_adds_it_to_the_sheet(h: Harness, tg: FakeTelegram) -> None:
    form = await say(h, JANE, JANE.user_id, "/score")
    for label in ("♠ Spades", "Contra", "You", "1", "0", "0", "OK", "You", "+ Belote", "We", "+ Tierce", "Next"):
        await press_labelled(h, JANE, form, label)
    # A foreign press on Jane's form changes nothing.
    [no_valat] = [d for lab, d in form.buttons() if lab == "No valat"]
    stranger = await h.press(IVAN, form, no_valat)
    assert stranger.text and "someone else" not in (form.text or "")
    await press_labelled(h, JANE, form, "No valat")
    expected = score(
        {
            "contract": "spades",
            "multiplier": 2,
            "declarer": "B",
            "points": {"B": 100},
            "valat": None,
            "declarations": {"A": ["tierce"], "B": ["belote"]},
            "hanging_in": 0,
            "rules": {},
        }
    )
    assert form.text.splitlines()[0] == expected.summary("en")
    await press_labelled(h, JANE, form, "Add to the sheet")
    sheet = await say(h, JANE, JANE.user_id, "/sheet")
    assert f"1. {expected.result.score[0]} | {expected.result.score[1]}" in sheet.text


async def test_the_group_sheet_adds_undoes_corrects_and_survives_a_restart(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    await say(h, IVAN, GROUP, "/lang en")
    await say(h, JANE, GROUP, "/sheet new Reds Blues")  # Jane keeps the sheet: her undo and fix are allowed
    first = await say(h, JANE, GROUP, "/sheet add 90 72")
    assert "1. 90 | 72" in first.text
    await say(h, JANE, GROUP, "/sheet add hearts 102 60")
    await say(h, JANE, GROUP, "/sheet add 5 5")
    undone = await say(h, JANE, GROUP, "/sheet undo")
    assert "Line 3 removed" in undone.text and "3." not in undone.text.split("removed", 1)[1]
    fixed = await say(h, JANE, GROUP, "/sheet fix 1 80 82")
    assert "1. 80 | 82" in fixed.text and "total 80 | 82" in fixed.text
    bad = await say(h, JANE, GROUP, "/sheet fix 9 1 1")
    assert "line" in bad.text and "9" in bad.text
    # A new process on the same database still has the group's sheet.
    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    try:
        shown = await say(again, JANE, GROUP, "/sheet")
        assert shown.text.splitlines()[0] == "Reds | Blues"
        hearts = score_text("hearts 102 60").result.score
        assert "1. 80 | 82" in shown.text and f"2. {hearts[0]} | {hearts[1]}" in shown.text
    finally:
        # The fixture stops ``h``; give it the running harness to stop.
        h.adapter, h.host, h.storage = again.adapter, again.host, again.storage


async def test_the_sheet_speaks_bulgarian_in_a_bulgarian_group(h: Harness, tg: FakeTelegram) -> None:
    await say(h, IVAN, GROUP, "/lang bg")
    shown = await say(h, IVAN, GROUP, "/sheet add 90 72")
    assert shown.text.splitlines()[0] == "Ние | Вие"
    usage = await say(h, IVAN, GROUP, "/sheet what")
    assert "/sheet add" in usage.text and "The score sheet" not in usage.text


async def test_only_an_admin_changes_the_group_language(h: Harness, tg: FakeTelegram) -> None:
    refused = await say(h, JANE, GROUP, "/lang en")
    assert "admin" in refused.text or "админ" in refused.text
    await say(h, IVAN, GROUP, "/lang en")
    shown = await say(h, JANE, GROUP, "/sheet")
    assert shown.text.splitlines()[0] == "We | You"


async def restarted(h: Harness, tg: FakeTelegram, tmp_path: Path) -> Harness:
    """Stop the running bot and start a new process (storage, host, Application) on the same database; the fixture
    stops whichever harness ``h`` holds at the end."""
    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    h.adapter, h.host, h.storage = again.adapter, again.host, again.storage
    return again


async def press_and_settle(h: Harness, person: Person, message: Sent, label: str) -> None:
    """Press a labelled button and wait until everything it caused is shown (group messages too)."""
    [data] = [d for lab, d in message.buttons() if lab == label]
    await h.press(person, message, data)
    await h.settle()


async def test_a_form_half_filled_before_a_restart_goes_on_where_it_was(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    await say(h, IVAN, GROUP, "/lang en")
    form = await say(h, JANE, GROUP, "/score")
    for label in ("♥ Hearts", "none", "We", "9"):
        await press_and_settle(h, JANE, form, label)
    assert "9▌" in form.text
    form_id = form.buttons()[0][1].split(":")[1]
    messages_before = len(tg.in_chat(GROUP))
    second = await restarted(h, tg, tmp_path)
    stranger = await second.press(IVAN, form, form.buttons()[0][1])
    assert stranger.text and "някой друг" in stranger.text  # Ivan is told in his language whose form it is
    for label in ("0", "OK", "+ Belote", "Next", "No valat"):
        await press_and_settle(second, JANE, form, label)
    expected = score(
        {
            "contract": "hearts",
            "multiplier": 1,
            "declarer": "A",
            "points": {"A": 90},
            "valat": None,
            "declarations": {"A": ["belote"], "B": []},
            "hanging_in": 0,
            "rules": {},
        }
    )
    # The same message was edited on, from the contract chosen before the restart to the answer.
    assert form.text.splitlines()[0] == expected.summary("en")
    assert len(tg.in_chat(GROUP)) == messages_before
    # The answer's "Add to the sheet" outlives a second restart, and adds the deal once.
    third = await restarted(h, tg, tmp_path)  # ``h`` holds the running bot
    [add] = [d for label, d in form.buttons() if label == "Add to the sheet"]
    assert "line 1" in ((await third.press(JANE, form, add)).text or "")
    assert "too old" in ((await third.press(JANE, form, add)).text or "")
    await third.settle()
    sheet = await say(third, JANE, GROUP, "/sheet")
    assert f"1. {expected.result.score[0]} | {expected.result.score[1]}" in sheet.text
    assert "2." not in sheet.text
    # A finished form is closed for good.
    closed = await third.press(JANE, form, f"calc:{form_id}:x")
    assert closed.text and "closed" in closed.text


async def test_a_form_untouched_for_a_day_is_forgotten(h: Harness, tg: FakeTelegram, tmp_path: Path) -> None:
    import sqlite3

    form = await say(h, JANE, JANE.user_id, "/score")
    await press_and_settle(h, JANE, form, "♣ Clubs")
    fresh = await say(h, JANE, JANE.user_id, "/score")
    answer = await say(h, JANE, JANE.user_id, "/score hearts 102 60")
    [add] = [d for label, d in answer.buttons() if label == "Add to the sheet"]
    await h.stop()
    with sqlite3.connect(tmp_path / "belote.sqlite3") as db:  # the first form and the answer are a day old
        [form_id] = {d.split(":")[1] for _, d in form.buttons()}
        for key in (f"score:{form_id}", f"answer:{add.split(':')[-1]}"):
            db.execute(
                "UPDATE forms SET updated = updated - 86401, data = json_set(data, '$.touched', "
                "json_extract(data, '$.touched') - 86401) WHERE form_id = ?",
                (key,),
            )
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    h.adapter, h.host, h.storage = again.adapter, again.host, again.storage
    assert await again.storage.get_form("telegram", f"score:{form_id}") is None  # forgotten at the start
    old = await again.press(JANE, form, form.buttons()[0][1])
    assert old.text and "closed" in old.text
    too_old = await again.press(JANE, answer, add)
    assert too_old.text and "too old" in too_old.text
    await press_and_settle(again, JANE, fresh, "♦ Diamonds")  # a form from the same hour goes on
    assert "Contract: ♦ Diamonds" in fresh.text


@pytest.mark.parametrize(
    ("line", "shows"),
    [
        ("/sheet add ² 5", "²"),
        ("/sheet add 90 ٧٢", "0-9"),
        ("/sheet fix ² 80 82", "²"),
        ("/sheet fix 1 ½ 5", "½"),
        ("/sheet restore ²", "/sheet restore 2"),
        ("/sheet add hearts " + "9" * 3000, "3000"),  # says how many digits it has
    ],
)
async def test_a_number_that_is_not_one_gets_an_answer(h: Harness, tg: FakeTelegram, line: str, shows: str) -> None:
    await say(h, IVAN, GROUP, "/sheet add 90 72")
    answer = await say(h, JANE, GROUP, line)
    assert shows in answer.text and "Traceback" not in answer.text


async def test_only_the_keeper_or_an_admin_replaces_or_undoes_and_nothing_is_lost(h: Harness, tg: FakeTelegram) -> None:
    petar = Person(3003, "Petar", "en")
    tg.add_user(petar.user_id, petar.name, petar.language)
    await say(h, IVAN, GROUP, "/lang en")
    await say(h, JANE, GROUP, "/sheet new Reds Blues")  # Jane keeps this sheet
    added = await say(h, petar, GROUP, "/sheet add 90 72")  # anyone may add a line
    assert "1. 90 | 72" in added.text
    await say(h, JANE, GROUP, "/sheet add 10 6")
    for attempt in ("/sheet undo", "/sheet new Us Them", "/sheet fix 1 0 0"):
        refused = await say(h, petar, GROUP, attempt)
        assert "Jane" in refused.text and "/sheet history" in refused.text, refused.text
    shown = await say(h, petar, GROUP, "/sheet")
    assert shown.text.splitlines()[0] == "Reds | Blues" and "2. 10 | 6" in shown.text, "nothing changed"

    undone = await say(h, JANE, GROUP, "/sheet undo")  # the keeper
    assert "Line 2 removed" in undone.text
    fresh = await say(h, IVAN, GROUP, "/sheet new Us Them")  # an admin, not the keeper
    assert "Us | Them" in fresh.text
    await say(h, IVAN, GROUP, "/sheet add 5 5")
    history = await say(h, petar, GROUP, "/sheet history")
    rows = history.text.splitlines()
    assert rows[1].startswith("2.") and "new sheet" in rows[1] and "Reds 90 : 72 Blues, 1 lines" in rows[1]
    assert rows[2].startswith("1.") and "undo" in rows[2] and "Reds 100 : 78 Blues, 2 lines" in rows[2]

    refused = await say(h, JANE, GROUP, "/sheet restore 1")  # Ivan keeps the current sheet now
    assert "Ivan" in refused.text
    back = await say(h, IVAN, GROUP, "/sheet restore 1")  # the sheet before the undo, both lines
    assert "Reds | Blues" in back.text and "2. 10 | 6" in back.text
    again = await say(h, JANE, GROUP, "/sheet undo")  # Jane keeps the restored sheet again
    assert "Line 2 removed" in again.text
    assert "/sheet history" in (await say(h, petar, GROUP, "/sheet help")).text


async def test_two_people_pressing_add_to_the_sheet_at_once_add_the_deal_once(h: Harness, tg: FakeTelegram) -> None:
    answer = await say(h, IVAN, GROUP, "/score hearts 102 60")
    [data] = [d for label, d in answer.buttons() if d and d.startswith("calc:add:")]
    answers = await asyncio.gather(h.press(IVAN, answer, data), h.press(JANE, answer, data))
    await h.settle()
    shown = await say(h, JANE, GROUP, "/sheet")
    assert "1. " in shown.text and "2. " not in shown.text, "one deal, one line"
    texts = sorted(a.text or "" for a in answers)
    assert any(t.startswith(("Added as line 1", "Записано на ред 1")) for t in texts), texts
    assert any("already" in t or "вече" in t for t in texts), texts
