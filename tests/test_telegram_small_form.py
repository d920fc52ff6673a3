"""The /score button form scores the games of three and two through the real python-telegram-bot stack against the
fake Bot API, with real SQLite: a Bela deal for three and a Bulgarian deal for two end in exactly the answer (and
the "Add to the sheet" deal) of the same deal typed as a line; the form survives a restart in the middle, and a
stranger's, a stale or a forged press changes nothing."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator import score, score_text
from bot.i18n import translator
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with

GROUP = -100555
POLICY = FloodPolicy().scaled(0.005)
MARA = Person(3201, "Mara", "hr")
JANE = Person(3202, "Jane", "en")
IVAN = Person(3203, "Ivan", "bg")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (MARA, JANE, IVAN), GROUP, "Karte na stolu", {JANE.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def press(h: Harness, person: Person, form: Sent, label: str) -> None:
    found = [d for lab, d in form.buttons() if lab == label]
    assert len(found) == 1, (label, form.buttons())
    await h.press(person, form, found[0])
    await h.settle()


def add_button(message: Sent, lang: str) -> str:
    [data] = [d for lab, d in message.buttons() if lab == translator(lang).gettext("Add to the sheet")]
    return data


async def kept_request(h: Harness, message: Sent, lang: str) -> dict[str, object]:
    """The deal an answer's "Add to the sheet" button would write, as the bot keeps it."""
    stored = await h.storage.get_form("telegram", "answer:" + add_button(message, lang).split(":")[-1])
    assert stored is not None
    request = stored["request"]
    assert isinstance(request, dict)
    return request


async def test_a_bela_deal_for_three_by_buttons_is_the_typed_lines_answer(h: Harness, tg: FakeTelegram) -> None:
    form = await say(h, MARA, MARA.user_id, "/score")
    t = translator("hr")
    await press(h, MARA, form, t.gettext("Three or two players…"))
    assert t.gettext("Which game of three or two players?") in form.text
    await press(h, MARA, form, "Bela utroje")
    # A Bela game's trump suit does not change the count: no contract, no contra, the caller at once.
    assert [lab for lab, _ in form.buttons()] == ["Igrač 0", "Igrač 1", "Igrač 2", t.gettext("Cancel")]
    await press(h, MARA, form, "Igrač 1")  # the caller
    await press(h, MARA, form, "Bez štiglje")
    # Every card is in play: the keypad asks two players, the third has the rest.
    for label in ("6", "0", t.gettext("OK"), "8", "2", t.gettext("OK")):
        await press(h, MARA, form, label)
    assert form.text.endswith(t.gettext("Add each player's declarations, then press Next."))
    for label in ("● Igrač 1", "+ Terca", "+ Bela"):
        await press(h, MARA, form, label)
    await press(h, MARA, form, "Dalje")
    line = "bela utroje ti zvao 82 terca bela ja 60"
    typed = await say(h, MARA, MARA.user_id, "/score " + line)
    expected = score_text(line)
    assert html.unescape(form.text).splitlines() == expected.render("hr").splitlines()
    assert form.text == typed.text
    assert expected.result.score == (60, 122, 20)
    assert await kept_request(h, form, "hr") == await kept_request(h, typed, "hr")


async def test_a_bela_for_three_caller_keeps_his_discards_when_another_takes_every_trick(
    h: Harness, tg: FakeTelegram
) -> None:
    form = await say(h, JANE, JANE.user_id, "/score")
    for label in ("Three or two players…", "Bela for three", "Player 0", "Valat: Player 1"):
        await press(h, JANE, form, label)
    assert "two cards Player 0 discarded" in form.text
    for label in ("2", "0", "OK", "Next"):
        await press(h, JANE, form, label)
    expected = score_text("bela three me 20 you valat")
    assert html.unescape(form.text).splitlines()[0] == expected.summary("en")
    assert expected.result.score == (0, 232, 0)


async def test_a_bulgarian_deal_for_two_survives_a_restart_and_ignores_strangers(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    await say(h, JANE, GROUP, "/lang en")
    form = await say(h, JANE, GROUP, "/score")
    for label in ("Three or two players…", "Bulgarian belote for two (house rules)", "♥ Hearts", "Contra",
                  "Player 0", "No valat", "9", "0", "OK"):
        await press(h, JANE, form, label)
    assert "Player 0 took 90 points." in form.text and "Player 1" in form.text.splitlines()[-1]
    form_id = form.buttons()[0][1].split(":")[1]

    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    h.adapter, h.host, h.storage = again.adapter, again.host, again.storage  # the fixture stops this one
    shown, buttons = form.text, form.buttons()
    digit = next(d for lab, d in buttons if lab == "6")
    stranger = await again.press(IVAN, form, digit)
    assert stranger.text and "някой друг" in stranger.text  # told in his language whose form it is
    # A stale press (a contract, long chosen) and a forged one (seat 2 in a game of two) change nothing either.
    for data in (f"calc:{form_id}:k0", f"calc:{form_id}:t2", f"calc:{form_id}:n²"):
        await again.press(JANE, form, data)
    await again.settle()
    assert (form.text, form.buttons()) == (shown, buttons)

    await again.press(JANE, form, digit)
    for label in ("2", "OK", "Player 1", "+ Belote", "Next"):
        await press(again, JANE, form, label)
    line = "bulgarian two hearts contra me 90 you 62 belote"
    expected = score_text(line)
    assert html.unescape(form.text).splitlines() == expected.render("en").splitlines()
    assert expected.result.score == (34, 0)
    typed = await say(again, JANE, GROUP, "/score " + line)
    assert form.text == typed.text
    assert await kept_request(again, form, "en") == await kept_request(again, typed, "en")
    # The form's answer goes onto a sheet of that game.
    await say(again, JANE, GROUP, "/sheet new bulgarian-2")
    added = await again.press(JANE, form, add_button(form, "en"))
    assert added.text and "line 1" in added.text


async def test_back_from_the_games_of_three_and_two_to_a_deal_of_four(h: Harness, tg: FakeTelegram) -> None:
    form = await say(h, JANE, JANE.user_id, "/score")
    for label in ("Three or two players…", "Bulgarian belote for three (house rules)", "« Back"):
        await press(h, JANE, form, label)
    assert "Which game of three or two players?" in form.text
    await press(h, JANE, form, "« Back")
    # The first step of the games of four again, counting by team.
    for label in ("♥ Hearts", "none", "We", "9", "0", "OK", "+ Belote", "Next", "No valat"):
        await press(h, JANE, form, label)
    expected = score({"contract": "hearts", "declarer": "A", "points": {"A": 90}, "declarations": {"A": ["belote"]}})
    assert html.unescape(form.text).splitlines()[0] == expected.summary("en")


async def test_two_callers_pressed_at_the_same_instant_after_a_restart_choose_one(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    form = await say(h, JANE, JANE.user_id, "/score")
    for label in ("Three or two players…", "Bela for three"):
        await press(h, JANE, form, label)
    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    h.adapter, h.host, h.storage = again.adapter, again.host, again.storage  # the fixture stops this one
    # A double tap across two buttons, the form not yet read back from storage: both presses load it at once.
    player = {lab: d for lab, d in form.buttons()}
    # each press is answered (gather waits for both answers), neither left hanging
    await asyncio.gather(again.press(JANE, form, player["Player 1"]), again.press(JANE, form, player["Player 2"]))
    await again.settle()
    called = [line for line in form.text.splitlines() if line.startswith("Called by: ")]
    assert called in (["Called by: Player 1"], ["Called by: Player 2"]), form.text
    # What is stored is what is shown: one press won, and no copy of the form saved the other over it.
    stored = await again.storage.get_form("telegram", "score:" + player["Player 1"].split(":")[1])
    assert stored is not None and called == [f"Called by: Player {stored['declarer']}"]
    # The form goes on from the one state both presses left: the valat step, once.
    assert "Did one player take every trick (valat), or one take no trick?" in form.text
    for label in ("No valat", "6", "0", "OK", "8", "2", "OK", "Next"):
        await press(again, JANE, form, label)
    caller = called[0].removeprefix("Called by: Player ")
    line = {"1": "bela three me 60 you called 82", "2": "bela three me 60 you 82 him called"}[caller]
    expected = score_text(line)
    assert html.unescape(form.text).splitlines() == expected.render("en").splitlines()
