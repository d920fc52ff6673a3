"""The score sheet of a game of three or two: a column per player, the game's target and end rules, the Bulgarian
pot, falls as a dash, undo, corrections that re-score later deals, the stored form; `belote-bot sheet` with
`--game bela-3`; `/sheet new bela-3` through the real python-telegram-bot stack and discord.py, with a restart and
two people adding one answer at the same instant."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator import score_text
from bot.calculator.players_sheet import PlayersSheet
from bot.calculator.sheet_base import SheetError
from bot.calculator.sheets import entry_on, load_sheet, new_sheet, sheet_game, write_entry
from bot.i18n import translator
from tests.discord_fakes import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, FakeDiscord, FakeUser, button_ids
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with
from tests.test_discord_adapter import start_bot

ROOT = Path(__file__).resolve().parent.parent
ANSWERED = (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE)


def add(sheet: PlayersSheet, words: str) -> None:
    write_entry(sheet, entry_on(sheet, words.split(), "en"))


def test_a_bela_three_sheet_to_701_with_falls_by_hand_undo_and_a_correction() -> None:
    sheet = new_sheet("bela-3", ["Ana", "Ivo", "Mara"], {"fall_points": "higher_opponent"})
    assert isinstance(sheet, PlayersSheet) and sheet.rules.target_score == 701
    add(sheet, "Ana 82 Ivo 60 Mara 20")  # B3-01
    add(sheet, "Ana 60 Ivo 80 Mara 22")  # B3-02 under higher_opponent
    add(sheet, "— 140 22")  # the same by hand
    assert [line.shown for line in sheet.lines] == [("82", "60", "20"), ("—", "140", "22"), ("—", "140", "22")]
    assert sheet.totals == (82, 340, 64)
    sheet.undo()
    sheet.correct(2, score_text("bela utroje ja 103 ti 17 on 42"))  # B3-03 in place of the fall
    assert sheet.totals == (185, 77, 62)
    while sheet.winner is None:
        add(sheet, "Ana 103 Ivo 17 Mara 42")
    assert sheet.winner == 0 and sheet.totals[0] >= 701
    assert sheet.history("en")[-1] == f"Winner: Ana, with {sheet.totals[0]}."
    with pytest.raises(SheetError):
        add(sheet, "Ana 82 Ivo 60 Mara 20")
    back = load_sheet(json.loads(json.dumps(sheet.to_json())))
    assert isinstance(back, PlayersSheet) and back.to_json() == sheet.to_json()
    assert back.to_json()["players"] == {"0": "Ana", "1": "Ivo", "2": "Mara"}


def test_level_at_the_top_plays_on_and_a_correction_that_would_end_early_is_refused() -> None:
    sheet = new_sheet("bela-2", None, {"target_score": 100})
    add(sheet, "ja 60 ti 56")
    add(sheet, "40 44")
    assert sheet.totals == (100, 100) and sheet.winner is None
    assert sheet.status("en") == "Level at 100 above the target: play on until one player leads."
    add(sheet, "ja 60 ti 56")
    assert sheet.winner == 0
    with pytest.raises(SheetError, match="would end the match at line 1"):
        sheet.correct(1, (150, 0))


def test_a_bulgarian_three_sheet_carries_the_pot_and_keeps_the_capot_lock() -> None:
    sheet = new_sheet("bulgarian-3", ["P", "M", "I"], {"made_rule": "both_together", "target_score": 20})
    add(sheet, "купа P 60 M 51 I 51")  # 60 < 102: inside, O1 and O2 equal
    assert sheet.lines[0].score == (0, 8, 8)
    add(sheet, "купа M избра 60 P 51 I 51")
    add(sheet, "купа P 100 M 62 I 0")  # made alone against both (100 > 62)
    line = sheet.lines[-1]
    assert line.score == (10, 6, 0)
    lock = new_sheet("bulgarian-2", None, {"target_score": 10})
    add(lock, "купа ja капо 152")
    assert lock.totals[0] >= 10 and lock.winner is None
    assert lock.status("en") == "The last deal was a valat: nobody goes out on a valat; one more deal."
    assert load_sheet(lock.to_json()).to_json() == lock.to_json()


def test_wrong_games_names_and_numbers_are_refused_with_what_is_right() -> None:
    sheet = new_sheet("bela-3", None)
    with pytest.raises(SheetError, match="this sheet keeps a Bela for three match; a line of Bela does not belong"):
        add(sheet, "bela mi 92")
    with pytest.raises(SheetError, match="write a number for each of the 3 players"):
        sheet.add_points(90, 72)
    with pytest.raises(SheetError, match="needs 3 non-empty player names"):
        new_sheet("bela-3", ["Ana", "Ivo"])
    bulgarian = new_sheet("bulgarian")
    with pytest.raises(SheetError, match="a line of Bela for three does not belong"):
        bulgarian.add(score_text("bela utroje ja 82 ti 60 on 20").request.to_json())  # type: ignore[union-attr]
    assert sheet_game(["bela", "utroje", "Ana", "Ivo", "Mara"]) == ("bela-3", ["Ana", "Ivo", "Mara"])
    assert sheet_game(["bulgarian-2"]) == ("bulgarian-2", [])


def test_the_command_line_keeps_a_sheet_of_three(tmp_path: Path) -> None:
    path = tmp_path / "three.json"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "sheet", str(path), *args, "--lang", "en"],
                              capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)

    assert run("new", "--game", "bela-3", "--players", "Ana", "Ivo", "Mara").returncode == 0
    assert run("add", "Ana", "82", "Ivo", "60", "Mara", "20").returncode == 0
    assert run("add", "--points", "0", "140", "22").returncode == 0
    done = run("correct", "2", "Ivo", "zvao", "100", "Ana", "31", "Mara", "31")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "Bela for three: Ana | Ivo | Mara", "1. 82 | 60 | 20  (total 82 | 60 | 20; Ana called: the caller passes)",
        "2. 31 | 100 | 31  (total 113 | 160 | 51; Ivo called: the caller passes)"]
    bad = run("add", "--points", "1", "2")
    assert bad.returncode == 1 and "write a number for each of the 3 players" in bad.stderr
    assert "Traceback" not in bad.stderr
    teams = subprocess.run([sys.executable, "-m", "bot", "sheet", str(tmp_path / "x.json"), "new", "--game", "bela",
                            "--players", "A", "B", "C", "--lang", "en"], capture_output=True, text=True, cwd=ROOT,
                           timeout=60, check=False)
    assert teams.returncode == 1 and "--players names the players of a game of three or two" in teams.stderr


# --- Telegram ---

GROUP = -100779
POLICY = FloodPolicy().scaled(0.005)
IVAN = Person(3301, "Ivan", "hr")
ANA = Person(3302, "Ana", "hr")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (IVAN, ANA), GROUP, "Bela utroje", {IVAN.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def test_telegram_keeps_a_bela_three_sheet_across_a_restart(h: Harness, tg: FakeTelegram,
                                                                  tmp_path: Path) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    wrong = await say(h, IVAN, GROUP, "/sheet new bela-3 Ana Ivo")
    assert "Navedite svih 3 igrača ili nijednog: /sheet new bela-3 Ana Ivo Mara." in wrong.text
    new = await say(h, IVAN, GROUP, "/sheet new bela utroje Ana Ivo Mara")
    assert "Bela utroje: Ana | Ivo | Mara" in new.text and "701" in new.text
    await say(h, ANA, GROUP, "/sheet add Ana 82 Ivo 60 Mara 20")
    fell = await say(h, ANA, GROUP, "/sheet add Ivo zvao 60 Ana 51 Mara 51")
    assert "2. 51 | — | 51  (ukupno 133 | 60 | 71; Ivo je zvao: zvač je pao)" in fell.text
    await say(h, ANA, GROUP, "/sheet add — 140 22")
    refused = await say(h, ANA, GROUP, "/sheet add bela mi 92")
    assert "ovaj list vodi partiju igre Bela utroje" in refused.text
    not_keeper = await say(h, ANA, GROUP, "/sheet undo")
    assert "samo vlasnik liste, Ivan" in not_keeper.text
    await say(h, IVAN, GROUP, "/sheet undo")
    fixed = await say(h, IVAN, GROUP, "/sheet fix 2 Ivo zvao 100 Ana 31 Mara 31")
    assert "2. 31 | 100 | 31  (ukupno 113 | 160 | 51; Ivo je zvao: zvač je prošao)" in fixed.text
    await h.stop()
    again = Harness(tg, tmp_path / "belote.sqlite3", POLICY)
    await again.start()
    try:
        shown = await say(again, ANA, GROUP, "/sheet")
        assert shown.text.splitlines()[:3] == [
            "Bela utroje: Ana | Ivo | Mara", "1. 82 | 60 | 20  (ukupno 82 | 60 | 20; Ana je zvao: zvač je prošao)",
            "2. 31 | 100 | 31  (ukupno 113 | 160 | 51; Ivo je zvao: zvač je prošao)"]
        history = await say(again, IVAN, GROUP, "/sheet history")
        # The sheets before the undo and the correction, each with every player's total.
        assert "prije ispravka (Ivan): Ana 133, Ivo 60, Mara 71, 2 redaka" in history.text
        assert "prije poništavanja (Ivan): Ana 133, Ivo 200, Mara 93, 3 redaka" in history.text
    finally:
        h.adapter, h.host, h.storage = again.adapter, again.host, again.storage


async def test_two_people_adding_a_bela_two_answer_at_once_add_it_once(h: Harness, tg: FakeTelegram) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    await say(h, IVAN, GROUP, "/sheet new bela-2")
    answer = await say(h, IVAN, GROUP, "/score bela udvoje ja 45 bela ti 71")
    label = translator("hr").gettext("Add to the sheet")
    [data] = [d for lab, d in answer.buttons() if lab == label]
    presses = await asyncio.gather(h.press(IVAN, answer, data), h.press(ANA, answer, data))
    await h.settle()
    shown = await say(h, ANA, GROUP, "/sheet")
    assert "1. — | 136  (ukupno 0 | 136; Igrač 0 je zvao: zvač je pao)" in shown.text and "2. " not in shown.text
    texts = [p.text or "" for p in presses]
    assert sum(1 for t in texts if "1" in t and "već" not in t) == 1, texts


# --- Discord ---


async def test_discord_keeps_a_bulgarian_three_sheet_and_two_presses_add_once(fake: FakeDiscord,
                                                                              tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana = FakeUser(fake.next_id(), "Ana", "en-US", manager=True)
    ivo = FakeUser(fake.next_id(), "Ivo", "en-US")
    channel = fake.add_channel()
    await fake.command(ana, channel, "belot", "lang", language="en", scope="channel")
    new = fake.reply(await fake.command(ana, channel, "sheet", "new", team_a="Ana", team_b="Ivo",
                                        player_c="Mara", game="bulgarian-3"))
    assert "Bulgarian belote for three (house rules): Ana \\| Ivo \\| Mara" in new["embeds"][0]["description"]
    answer = fake.reply(await fake.command(ana, channel, "score", line="bulgarian three hearts me 92 you 40 him 30"))
    (add,) = list(button_ids(answer))
    await running.stop()
    running = await start_bot(fake, db)
    seen = dict(answer)
    first, second = await asyncio.gather(
        fake.press(ana, int(answer["id"]), add, seen=seen), fake.press(ivo, int(answer["id"]), add, seen=seen))
    await running.settle()
    stored = load_sheet(await running.storage.get_sheet("discord", str(channel)))
    assert isinstance(stored, PlayersSheet) and [line.score for line in stored.lines] == [(9, 4, 3)]
    [refused] = [r for r in (first, second) if r.response_type in ANSWERED]
    assert "already" in fake.reply(refused)["content"]
    await fake.command(ana, channel, "sheet", "add", entry="hearts Ivo 60 Ana 51 Mara 51")
    await fake.command(ana, channel, "sheet", "fix", number=2, entry="0 13 3")
    shown = fake.reply(await fake.command(ana, channel, "sheet", "show"))["embeds"][0]["description"]
    assert "2. 0 \\| 13 \\| 3  (total 9 \\| 17 \\| 6; written by hand)" in shown
    assert not fake.errors
    await running.stop()


def test_the_bulgarian_sheet_ends_exactly_where_the_engines_verdict_does() -> None:
    # The sheet asks the engine's small_verdict; every end option and the capot lock, over many lines.
    import random

    from bot.calculator.players_sheet import players_verdict
    from bot.engine.bulgarian_small import BulgarianThreeRules, small_verdict

    rng = random.Random(17)
    reasons = set()
    for _ in range(3000):
        seats = rng.choice((2, 3))
        rules = BulgarianThreeRules(target_score=rng.choice((20, 151)), capot_blocks_finish=rng.random() < .5,
                                    winner_must_score_last_deal=rng.random() < .5,
                                    no_finish_while_hanging=rng.random() < .5)
        totals = tuple(rng.choice((0, 18, 20, 25, 151, 160)) for _ in range(seats))
        line = tuple(rng.choice((0, 0, 5, 26)) for _ in range(seats))
        pot, valat = rng.choice((0, 0, 7)), rng.choice((None, None, *range(seats)))
        winner, reason = players_verdict(f"bulgarian-{seats}", rules, totals, line, valat, pot)
        assert winner == small_verdict(rules, totals, line, pot, valat)
        assert (reason == "target") == (winner is not None)
        reasons.add(reason)
    assert reasons == {"target", "capot_lock", "below", "tie", "no_score", "hanging"}
