"""/score and /sheet of Bela and French deals through the real python-telegram-bot stack against the fake Bot API:
a Croatian group scores a Bela deal, keeps a Bela sheet to 1001 with falls as a dash and held points, survives a
restart, and refuses a line of another game; two people adding one answer at the same instant add it once."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator import score_text
from bot.i18n import translator
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with

GROUP = -100777
POLICY = FloodPolicy().scaled(0.005)
IVAN = Person(3101, "Ivan", "hr")
ANA = Person(3102, "Ana", "hr")
LUC = Person(3103, "Luc", "fr")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (IVAN, ANA, LUC), GROUP, "Bela za stolom", {IVAN.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def test_a_bela_deal_is_scored_in_croatian_and_a_french_one_in_french(h: Harness, tg: FakeTelegram) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    answer = await say(h, ANA, GROUP, "/score bela mi 92 zvanje 50 bela")
    expected = score_text("bela mi 92 zvanje 50 bela")
    # The bot sends HTML: "162 > 70" travels as "162 &gt; 70".
    assert answer.text.splitlines() == [html.escape(expected.summary("hr"), quote=False)] + [
        html.escape(f"{i}. {s}", quote=False) for i, s in enumerate(expected.explanation("hr"), 1)]
    assert answer.text.splitlines()[0] == "Bela: Mi 162 : Vi 70 (prošli)"
    french = await say(h, LUC, LUC.user_id, "/score belote pris 65 belote")
    assert french.text.splitlines()[0] == "Belote\u00a0: Nous 20\u00a0: Vous 162 (dedans)"
    wrong = await say(h, ANA, GROUP, "/score bela mi 90 zvanj 50")
    assert "'zvanj' nije razumljivo; jeste li mislili 'zvanje'?" in wrong.text
    assert "Primjer: /score bela mi 92 zvanje 50 bela" in wrong.text


async def test_a_bela_sheet_with_falls_held_points_undo_fix_and_a_restart(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    await say(h, IVAN, GROUP, "/lang hr")
    new = await say(h, ANA, GROUP, "/sheet new bela Mi Vi")
    assert "Bela: Mi | Vi" in new.text and "1001" in new.text
    await say(h, ANA, GROUP, "/sheet add Mi 92 zvanje 50 bela")
    fell = await say(h, ANA, GROUP, "/sheet add Vi zvali 70")
    assert "2. 162 | —  (ukupno 324 | 70; zvali su Vi: pali)" in fell.text
    await say(h, ANA, GROUP, "/sheet add — 162")
    refused = await say(h, ANA, GROUP, "/sheet add belote nous 92")
    assert "ovaj list vodi partiju igre Bela; redak igre Francuski belot ne pripada na nj" in refused.text
    # A Bulgarian habit (the team word after the belote) is answered in the sheet's game's words.
    habit = await say(h, ANA, GROUP, "/sheet add купа 102 60 белот ние")
    assert "'ние' na kraju ništa ne imenuje" in habit.text
    undone = await say(h, ANA, GROUP, "/sheet undo")
    assert "3." not in undone.text.split("\n", 1)[1]
    fixed = await say(h, ANA, GROUP, "/sheet fix 2 Vi zvali 100")
    assert "2. 62 | 100  (ukupno 224 | 170; zvali su Vi: prošli)" in fixed.text
    # Another process on the same database reads the sheet back as a Bela sheet.
    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    try:
        shown = await say(again, ANA, GROUP, "/sheet")
        assert shown.text.splitlines()[:3] == [
            "Bela: Mi | Vi", "1. 162 | 70  (ukupno 162 | 70; zvali su Mi: prošli)",
            "2. 62 | 100  (ukupno 224 | 170; zvali su Vi: prošli)"]
        tie = await say(again, ANA, GROUP, "/sheet add Mi 81")
        assert "3. — | 162" in tie.text
        # A French line is refused with the way to a French sheet; following it keeps the Bela sheet in the history.
        refused = await say(again, ANA, GROUP, "/sheet add belote nous 92")
        assert refused.text.splitlines()[-1] == (
            "/sheet new french otvara list za igru Francuski belot; ovaj ostaje u /sheet history.")
        await say(again, ANA, GROUP, "/sheet new french")
        added = await say(again, ANA, GROUP, "/sheet add belote nous 92")
        assert "1. " in added.text and "Bela" not in added.text
        history = (await say(again, ANA, GROUP, "/sheet history")).text.splitlines()
        [replaced] = [line for line in history if "zamijenjena novom listom" in line]
        await say(again, ANA, GROUP, f"/sheet restore {replaced.split('.')[0]}")
        shown = await say(again, ANA, GROUP, "/sheet")
        assert shown.text.splitlines()[0] == "Bela: Mi | Vi" and "3. — | 162" in shown.text
    finally:
        h.adapter, h.host, h.storage = again.adapter, again.host, again.storage


async def test_two_people_adding_a_bela_answer_at_once_add_it_once(h: Harness, tg: FakeTelegram) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    await say(h, IVAN, GROUP, "/sheet new bela")
    answer = await say(h, IVAN, GROUP, "/score bela vi zvali 81")
    label = translator("hr").gettext("Add to the sheet")
    [data] = [d for lab, d in answer.buttons() if lab == label]
    presses = await asyncio.gather(h.press(IVAN, answer, data), h.press(ANA, answer, data))
    await h.settle()
    shown = await say(h, ANA, GROUP, "/sheet")
    assert "1. 162 | —  (ukupno 162 | 0; zvali su Vi: pali)" in shown.text and "2. " not in shown.text
    texts = [p.text or "" for p in presses]
    assert sum(1 for t in texts if "1" in t and "već" not in t) == 1, texts
    # The answer of a Bulgarian deal does not go onto the Bela sheet.
    bulgarian = await say(h, IVAN, GROUP, "/score купа 102 60")
    [data] = [d for lab, d in bulgarian.buttons() if lab == label]
    refusal = await h.press(IVAN, bulgarian, data)
    assert refusal.text == ("ovaj list vodi partiju igre Bela; redak igre Bugarski belot ne pripada na nj\n"
                            "/sheet new bulgarian otvara list za igru Bugarski belot; ovaj ostaje u /sheet history.")


async def test_the_button_form_scores_a_bela_deal_with_the_stronger_declaration(h: Harness, tg: FakeTelegram) -> None:
    form = await say(h, LUC, LUC.user_id, "/score")
    t = translator("fr")

    async def press(label: str) -> None:
        found = [d for lab, d in form.buttons() if lab == label]
        assert len(found) == 1, (label, form.buttons())
        [data] = found
        await h.press(LUC, form, data)
        await h.delivered()

    await press("Bela")
    assert "Bela" in form.text and t.gettext("Contra") not in [lab for lab, _ in form.buttons()]
    for label in ("Vous", "8", "2", "OK", "+ Tierce", "Vous", "+ Tierce"):
        await press(label)
    await press(t.gettext("Next"))
    await press(t.gettext("No valat"))
    # Two tierces the buttons cannot rank: the form asks, and keeps the deal.
    assert "declarations_winner" in form.text
    await press(t.gettext("Best declaration: {team}", team="Vous"))
    await press(t.gettext("Next"))
    await press(t.gettext("No valat"))
    expected = score_text("bela vous pris 82 tierce nous tierce vous meilleure")
    assert html.unescape(form.text).splitlines()[0] == expected.summary("fr")
    assert expected.result.score == (80, 102)
