"""The match score sheet: adding, undoing and correcting lines, the hanging pot, the winner (rules §8–§9, §13.7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.calculator import CalculatorError, ScoreSheet, SheetError, parse_text, score, score_text
from bot.calculator.written import line_number, plain_points
from bot.engine.rules import Rules

T01 = {"contract": "hearts", "points": {"A": 102}}  # A 10 / B 6
T08 = {"contract": "clubs", "points": {"A": 81}}  # hangs: B 8, 8 in the pot
T17 = {"contract": "all-trumps", "points": {"A": 175}}  # A 18 / B 8
T22 = {"contract": "no-trumps", "points": {"A": 77}}  # A 15 / B 11
T32 = {"contract": "clubs", "valat": "A"}  # A 25, a valat
B_MAKES = {"contract": "spades", "declarer": "B", "points": {"B": 102}}  # A 6 / B 10


def test_a_deal_carries_the_hanging_pot_to_the_next() -> None:
    sheet = ScoreSheet()
    first = sheet.add(score(T08))
    assert (first.score, first.hanging) == ((0, 8), 8)
    second = sheet.add(score({"contract": "diamonds", "points": {"A": 110}}))  # T09: A collects the 8
    assert second.hanging_in == 8
    assert (second.score, second.hanging) == ((19, 5), 0)
    assert sheet.totals == (19, 13)


def test_the_sheet_uses_its_pot_not_the_requests_hanging_in() -> None:
    sheet = ScoreSheet()
    line = sheet.add({**T01, "hanging_in": 30})
    assert line.hanging_in == 0 and line.score == (10, 6)


def test_plain_numbers_leave_the_pot_unless_told() -> None:
    sheet = ScoreSheet()
    sheet.add(T08)
    assert sheet.add_points(5, 11).hanging == 8
    assert sheet.add_points(3, 13, pot=0).hanging == 0
    assert sheet.totals == (8, 32)


def test_undo_removes_the_last_line() -> None:
    sheet = ScoreSheet()
    sheet.add(T01)
    sheet.add(T08)
    removed = sheet.undo()
    assert removed.number == 2 and removed.hanging == 8
    assert [line.number for line in sheet.lines] == [1]
    assert (sheet.totals, sheet.hanging) == ((10, 6), 0)
    sheet.undo()
    with pytest.raises(SheetError) as caught:
        sheet.undo()
    assert "empty" in caught.value.render("en") and caught.value.render("bg") != caught.value.render("en")


def test_correcting_a_line_recomputes_the_pot_of_later_lines() -> None:
    sheet = ScoreSheet()
    sheet.add(T01)
    sheet.add({"contract": "diamonds", "points": {"A": 110}})
    assert sheet.lines[1].score == (11, 5)
    # Line 1 really hung (81 : 81): its 8 points now reach line 2, whose declarers made it and collect them.
    lines = sheet.correct(1, T08)
    assert lines[0].score == (0, 8)
    assert (lines[1].hanging_in, lines[1].score) == (8, (19, 5))
    assert sheet.totals == (19, 13)
    # And back: a plain correction of line 1 that leaves nothing hanging.
    sheet.correct(1, (10, 6))
    assert sheet.lines[1].hanging_in == 0 and sheet.lines[1].score == (11, 5)


def test_correction_keeps_the_explanation_of_later_deals_in_step() -> None:
    sheet = ScoreSheet()
    sheet.add(T01)
    sheet.add({"contract": "diamonds", "points": {"A": 110}})
    sheet.correct(1, T08)
    answer = sheet.lines[1].answer
    assert answer is not None
    assert any("8" in step and "hanging" in step for step in answer.explanation("en"))


def test_correcting_a_line_that_does_not_exist() -> None:
    sheet = ScoreSheet()
    sheet.add(T01)
    with pytest.raises(SheetError) as caught:
        sheet.correct(3, T01)
    assert caught.value.field == "line"


def test_m1_a_plain_finish() -> None:
    sheet = ScoreSheet()
    sheet.add_points(145, 120)
    assert sheet.winner is None
    sheet.add(T01)
    assert sheet.totals == (155, 126) and sheet.winner == 0


def test_m2_both_pass_the_target_and_the_higher_wins() -> None:
    sheet = ScoreSheet()
    sheet.add_points(140, 148)
    sheet.add(T17)
    assert sheet.totals == (158, 156) and sheet.winner == 0


def test_m3_level_above_151_plays_on() -> None:
    sheet = ScoreSheet()
    sheet.add_points(141, 145)
    sheet.add(T22)
    assert sheet.totals == (156, 156)
    assert sheet.winner is None and sheet.verdict is not None and sheet.verdict.reason == "tie"
    assert "156" in sheet.status("en")
    sheet.add(B_MAKES)
    assert sheet.winner == 1


def test_m4_no_finish_on_a_capot() -> None:
    sheet = ScoreSheet()
    sheet.add_points(130, 90)
    line = sheet.add(T32)
    assert line.valat and sheet.totals == (155, 90)
    assert sheet.winner is None and sheet.verdict is not None and sheet.verdict.reason == "capot_lock"
    assert "valat" in sheet.status("en") and "капо" in sheet.status("bg")
    sheet.add(B_MAKES)
    assert sheet.totals == (161, 100) and sheet.winner == 0


def test_a_plain_line_marked_valat_also_locks() -> None:
    sheet = ScoreSheet()
    sheet.add_points(160, 20, valat=True)
    assert sheet.winner is None
    sheet.add_points(0, 16)
    assert sheet.winner == 0


def test_capot_lock_off_by_option() -> None:
    sheet = ScoreSheet(rules=Rules(capot_blocks_finish=False))
    sheet.add_points(130, 90)
    sheet.add(T32)
    assert sheet.winner == 0


def test_winner_must_score_in_the_last_deal() -> None:
    sheet = ScoreSheet(rules=Rules(winner_must_score_last_deal=True))
    sheet.add_points(160, 100)  # A leads, wrote in this line: wins at once
    assert sheet.winner == 0
    sheet = ScoreSheet(rules=Rules(winner_must_score_last_deal=True))
    sheet.add_points(150, 140)
    sheet.add_points(0, 6)  # A leads 150 : 146, below the target
    sheet.add_points(10, 0)
    assert sheet.winner == 0
    sheet = ScoreSheet(rules=Rules(winner_must_score_last_deal=True))
    sheet.add_points(155, 150, valat=True)  # capot lock
    sheet.add_points(0, 2)  # A still leads 155 : 152 but wrote nothing
    assert sheet.winner is None and sheet.verdict is not None and sheet.verdict.reason == "no_score"


def test_no_finish_while_points_hang() -> None:
    sheet = ScoreSheet(rules=Rules(no_finish_while_hanging=True))
    sheet.add_points(150, 100)
    sheet.add(T08)  # B 8, 8 hang: A 150
    sheet.add_points(10, 0)  # the pot is untouched: still hanging
    assert sheet.winner is None and sheet.verdict is not None and sheet.verdict.reason == "hanging"
    sheet.add(T01)  # A makes the deal and collects the pot
    assert sheet.winner == 0


def test_custom_target() -> None:
    sheet = ScoreSheet(rules=Rules(target_score=51))
    sheet.add_points(52, 0)
    assert sheet.winner == 0


def test_no_line_after_the_match_is_over() -> None:
    sheet = ScoreSheet(("Ана и Боби", "Вера и Гошо"))
    sheet.add_points(160, 0)
    with pytest.raises(SheetError) as caught:
        sheet.add(T01)
    assert "Ана и Боби" in caught.value.render("bg")


def test_a_correction_that_would_end_the_match_early_is_refused() -> None:
    sheet = ScoreSheet()
    sheet.add_points(100, 100)
    sheet.add_points(10, 6)
    sheet.add_points(10, 6)
    with pytest.raises(SheetError):
        sheet.correct(1, (160, 100))
    assert sheet.totals == (120, 112)  # unchanged


def test_history_shows_every_line_and_the_verdict() -> None:
    sheet = ScoreSheet(("Ана", "Боби"))
    sheet.add(score_text("купа 81 ние", teams=("Ана", "Боби")))
    sheet.add_points(4, 12)
    rows = sheet.history("bg")
    assert rows[0] == "Ана | Боби"
    assert rows[1].startswith("1. 0 | 8") and "купа" in rows[1] and "висят 8" in rows[1]
    assert rows[2].startswith("2. 4 | 12") and "общо 4 | 20" in rows[2]
    assert "151" in rows[-1]
    assert sheet.history("en")[2].startswith("2. 4 | 12") and "total 4 | 20" in sheet.history("en")[2]


def test_default_team_names_follow_the_language() -> None:
    sheet = ScoreSheet()
    assert sheet.names("bg") == ("Ние", "Вие") and sheet.names("en") == ("We", "You")


def test_json_round_trip_recomputes_the_same_sheet() -> None:
    sheet = ScoreSheet(("Ана", "Боби"), Rules(contra_tie="split"))
    sheet.add(T08)
    sheet.add({"contract": "hearts", "multiplier": 2, "points": {"A": 81}, "declarations": {"A": ["belote"]}})
    sheet.add_points(7, 9, pot=0)
    data = json.loads(json.dumps(sheet.to_json()))
    assert data["format"] == "belote-sheet/1" and data["rules"] == {"contra_tie": "split"}
    again = ScoreSheet.from_json(data)
    def numbers(s: ScoreSheet) -> list[object]:
        return [(x.score, x.hanging_in, x.hanging, x.totals, x.valat) for x in s.lines]

    assert numbers(again) == numbers(sheet)
    assert again.teams == ("Ана", "Боби") and again.rules == sheet.rules
    assert again.to_json() == sheet.to_json()


def test_from_json_names_the_bad_field() -> None:
    good = ScoreSheet()
    good.add(T01)
    data = good.to_json()
    data["lines"][0]["deal"]["points"] = {"A": 100, "B": 100}
    with pytest.raises(SheetError) as caught:
        ScoreSheet.from_json(data)
    assert caught.value.field == "lines[0].deal.points"
    with pytest.raises(SheetError) as caught:
        ScoreSheet.from_json({**good.to_json(), "rules": {"contra_tie": 1}})
    assert caught.value.field == "rules.contra_tie"
    with pytest.raises(SheetError) as caught:
        ScoreSheet.from_json({"format": "belote-sheet/2", "lines": []})
    assert caught.value.field == "format"


def test_sheet_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "match.json"

    def sheet(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "sheet", str(path), *args], capture_output=True,
                              text=True, cwd=Path(__file__).resolve().parent.parent, timeout=60, check=False)

    assert sheet("new", "--teams", "Ана", "Боби", "--rule", "target_score=31").returncode == 0
    assert sheet("add", "купа", "81", "Ана").returncode == 0  # a tie: 8 hang
    done = sheet("add", "каро", "110", "Ана", "--lang", "en")
    assert done.returncode == 0 and "2. 19 | 5" in done.stdout  # the 8 were carried
    done = sheet("correct", "1", "купа", "102", "Ана", "--lang", "en")
    assert "2. 11 | 5" in done.stdout and "total 21 | 11" in done.stdout
    done = sheet("add", "--points", "15", "0")
    assert done.returncode == 0 and "Победител: Ана" in done.stdout
    done = sheet("add", "--points", "1", "0")
    assert done.returncode == 1 and "Traceback" not in done.stderr and "Ана" in done.stderr
    assert ScoreSheet.from_json(json.loads(path.read_text(encoding="utf-8"))).totals == (36, 11)
    done = sheet("undo")
    assert done.returncode == 0 and ScoreSheet.from_json(json.loads(path.read_text(encoding="utf-8"))).winner is None
    done = sheet("add", "купа", "100", "50")
    assert done.returncode == 1 and "points:" in done.stderr


# What people type into /sheet add and /sheet fix: digits of other scripts, superscripts, fractions, signs, and
# numbers too long for int().
_TYPED = st.text(alphabet="0123456789²³¹½٣७-+., aкп", min_size=0, max_size=8) | st.just("9" * 5000)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TYPED, min_size=0, max_size=3))
def test_every_typed_line_gets_a_line_or_an_answer_that_says_what_is_wrong(words: list[str]) -> None:
    sheet = ScoreSheet()
    try:
        points = plain_points(words)
        if points is not None:
            assert all(w.isascii() and w.isdigit() for w in words) and points == (int(words[0]), int(words[1]))
            sheet.add_points(*points)
        else:
            sheet.add(parse_text(" ".join(words) or "?"))
    except (SheetError, CalculatorError) as err:
        texts = [err.render(lang) for lang in ("bg", "en")] if isinstance(err, SheetError) else err.render("bg")
        assert all(texts) and not any("{" in text for text in texts)


@settings(max_examples=200, deadline=None)
@given(_TYPED)
def test_a_typed_line_number_is_a_number_or_an_answer(word: str) -> None:
    try:
        number = line_number(word)
    except SheetError as err:
        assert word[:20] in err.render("bg") and err.field == "line"
    else:
        assert number >= 1 and word.isascii() and str(number) == word.lstrip("0")


def test_a_superscript_is_not_a_number_of_points() -> None:
    with pytest.raises(SheetError) as caught:
        plain_points(["²", "5"])
    assert caught.value.field == "A" and "²" in caught.value.render("en") and "0-9" in caught.value.render("bg")


async def test_a_sheet_kept_before_keepers_survives_the_migration_and_its_first_writer_keeps_it(
    tmp_path: Path,
) -> None:
    import sqlite3

    from bot.calculator.book import NotAllowed, SheetBook, Writer
    from bot.storage.sqlite import MIGRATIONS, SqliteStorage

    db = tmp_path / "old.sqlite3"
    old = ScoreSheet(("Ана", "Боби"))
    old.add_points(90, 72)
    with sqlite3.connect(db) as conn:  # a database of the release before keepers
        for version, script in enumerate(MIGRATIONS[:2], 1):
            conn.executescript(script + f"\nPRAGMA user_version={version};")
        conn.execute("INSERT INTO sheets VALUES ('telegram', '-5', ?, 0)", (json.dumps(old.to_json()),))
    storage = SqliteStorage(db)
    await storage.open()
    try:
        book = SheetBook(storage, "telegram")

        async def no() -> bool:
            return False

        ana, boris = Writer("1", "Ana", no), Writer("2", "Boris", no)
        assert (await book.load("-5")).totals == (90, 72) and await storage.get_sheet_keeper("telegram", "-5") is None
        await book.add("-5", ana, lambda sheet: sheet.add_points(10, 6))
        assert await storage.get_sheet_keeper("telegram", "-5") == ("1", "Ana")
        with pytest.raises(NotAllowed):
            await book.undo("-5", boris)
        sheet, removed = await book.undo("-5", ana)
        assert removed.number == 2 and sheet.totals == (90, 72)
        [kept] = await storage.old_sheets("telegram", "-5")
        assert kept.reason == "undo" and kept.keeper == ("1", "Ana") and len(ScoreSheet.from_json(kept.data).lines) == 2
    finally:
        await storage.close()


async def test_a_group_that_becomes_a_supergroup_keeps_every_sheet_in_the_history(database: str) -> None:
    from bot.storage.factory import open_storage

    def sheet(a: int) -> dict[str, object]:
        s = ScoreSheet()
        s.add_points(a, 0)
        return s.to_json()

    storage = open_storage(database)  # on each backend
    await storage.open()
    try:
        await storage.set_sheet("telegram", "-5", sheet(1), ("1", "Ana"))
        await storage.replace_sheet("telegram", "-5", sheet(2), ("1", "Ana"), "undo", "Ana")
        await storage.replace_sheet("telegram", "-5", sheet(3), ("1", "Ana"), "new", "Ana")
        # The supergroup was used before the move was known: a sheet and a history of its own.
        await storage.set_sheet("telegram", "-1005", sheet(10), ("2", "Boris"))
        await storage.replace_sheet("telegram", "-1005", sheet(11), ("2", "Boris"), "undo", "Boris")
        await storage.move_chat("telegram", "-5", "-1005")
        assert await storage.get_sheet("telegram", "-1005") == sheet(11)
        history = await storage.old_sheets("telegram", "-1005")
        firsts = [ScoreSheet.from_json(old.data).totals[0] for old in history]
        assert firsts == [3, 2, 1, 10], "the old group's current sheet, its history, then the supergroup's own"
        assert [old.number for old in history] == [4, 3, 2, 1] and history[0].reason == "moved"
        from bot.calculator.book import SheetBook

        shown = SheetBook.describe(history[0], "en")
        assert shown.startswith("4. ") and "supergroup" in shown and "()" not in shown
        assert await storage.old_sheets("telegram", "-5") == [] and await storage.get_sheet("telegram", "-5") is None
    finally:
        await storage.close()
