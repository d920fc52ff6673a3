"""The score sheet of a Bela match (to 1001) and a French one (to 1000): falls as a dash, held points carried to the
next decided deal, the end of the match (family §2.9, §3.8, §7.9), undo, corrections, storage as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.calculator import CalculatorError, SheetError, score, score_text
from bot.calculator.family_sheet import FamilySheet, WrongGame
from bot.calculator.sheets import ScoreSheet, entry_on, load_sheet, new_sheet, sheet_game, write_entry

ROOT = Path(__file__).resolve().parent.parent


def bela(**rules: object) -> FamilySheet:
    sheet = new_sheet("bela", None, rules)
    assert isinstance(sheet, FamilySheet)
    return sheet


def french(**rules: object) -> FamilySheet:
    sheet = new_sheet("french", None, rules)
    assert isinstance(sheet, FamilySheet)
    return sheet


def add(sheet: FamilySheet, line: str) -> None:
    write_entry(sheet, entry_on(sheet, line.split()))


def test_a_held_tie_goes_to_the_winner_of_the_next_decided_deal() -> None:
    # B4-10: deal 1 ties under "visi": B writes 81, A's 81 is held; deal 2 B calls and falls: A writes 70+92+81.
    sheet = bela(tie="visi")
    add(sheet, "mi 81")
    assert (sheet.lines[0].shown, sheet.hanging) == (("—", "81"), 81)
    add(sheet, "vi zvali 70")
    assert (sheet.lines[1].score, sheet.lines[1].shown, sheet.hanging) == ((243, 0), ("243", "—"), 0)
    assert sheet.totals == (243, 81)
    history = sheet.history("en")
    assert history[0] == "Bela: We | You"
    assert history[1] == "1. — | 81  (total 0 | 81; We called: the callers' points are held) 81 held"
    assert history[2] == "2. 243 | —  (total 243 | 81; You called: the callers fall)"
    # Correcting deal 1 into a plain pass leaves nothing held for deal 2.
    sheet.correct(1, score_text("bela mi 92"))
    assert [line.score for line in sheet.lines] == [(92, 70), (162, 0)]


def test_the_end_of_a_bela_match() -> None:
    # B4-12: before A 950 / B 900, A passes 92 : 70 -> A 1042, B 970: A wins; nothing more is written.
    sheet = bela()
    sheet.add_points(950, 900)
    add(sheet, "mi 92")
    assert (sheet.winner, sheet.status("en")) == (0, "Winner: We, 1042 to 970.")
    with pytest.raises(SheetError, match="the match is over, the winner is We"):
        add(sheet, "mi 92")
    # B4-13: 980 / 998, A passes 80 + a terca against 82 -> 1080 : 1080, another deal.
    level = bela()
    level.add_points(980, 998)
    add(level, "mi 80 terca")
    assert level.totals == (1080, 1080) and not level.over
    assert level.status("en") == "Level at 1080 above the target: play on until one team leads."
    # Points held do not count toward the target (a tie under "visi" at 990 : 990).
    held = bela(tie="visi")
    held.add_points(990, 900)
    add(held, "vi zvali 81")
    assert held.totals == (1071, 900) and held.hanging == 81 and held.winner == 0


def test_the_end_of_a_french_match() -> None:
    # FR-10: before A 940 / B 700, A makes 92 : 70 -> 1032 : 770, A wins.
    sheet = french()
    sheet.add_points(940, 700)
    add(sheet, "nous 92")
    assert sheet.winner == 0 and sheet.history("fr")[-1] == "Gagnant\u00a0: Nous, 1032 à 770."
    # Both reach 1000 in one deal: a draw (default), or the higher total with both_reach "higher_wins".
    draw = french()
    draw.add_points(950, 950)
    add(draw, "nous 92")
    assert draw.drawn and draw.over and draw.to_json()["winner"] == "draw"
    assert draw.status("en") == "Both teams reached 1000 in the same deal: a draw."
    with pytest.raises(SheetError, match="a draw"):
        draw.add_points(1, 1)
    higher = french(both_reach="higher_wins")
    higher.add_points(950, 950)
    add(higher, "nous 92")
    assert higher.winner == 0


def test_french_litige_is_carried_and_rounding_applies() -> None:
    sheet = french(tie="litige", rounding=10)
    add(sheet, "71 tierce")
    assert (sheet.lines[0].score, sheet.hanging) == ((0, 90), 91)
    add(sheet, "eux pris 92")
    assert sheet.lines[1].score == (70, 180)  # B collects 92 + 91 = 183 -> 180; A 70


def test_numbers_by_hand_with_a_dash_and_undo() -> None:
    sheet = bela()
    add(sheet, "— 162")
    add(sheet, "90 72")
    assert [line.shown for line in sheet.lines] == [("—", "162"), ("90", "72")]
    assert sheet.undo().number == 2 and sheet.totals == (0, 162)
    with pytest.raises(SheetError, match="'x' is not a whole number"):
        add(sheet, "— x")


def test_a_deal_of_another_game_is_refused() -> None:
    sheet = bela()
    # Refused as every other game's line is, naming the game so the chat can say how to start a sheet of it.
    with pytest.raises(WrongGame, match="this sheet keeps a Bela match; a line of French belote does not") as wrong:
        add(sheet, "belote nous 92")
    assert wrong.value.other == "french"
    with pytest.raises(SheetError, match="a line of Bulgarian belote does not belong"):
        sheet.add(score_text("купа 102 60"))
    bulgarian = ScoreSheet()
    with pytest.raises(SheetError, match="this sheet keeps a Bulgarian belote match; a line of Bela"):
        write_entry(bulgarian, entry_on(bulgarian, ["bela", "mi", "92"]))
    with pytest.raises(SheetError, match="a line of Bela does not belong"):
        bulgarian.add({"variant": "bela", "points": {"A": 92}})
    # The line itself is checked in the sheet's game and options.
    with pytest.raises(CalculatorError, match=r"rules\.tie"):
        add(sheet, "mi 92 tie=litige")


def test_stored_and_read_back_as_the_game_it_keeps() -> None:
    sheet = new_sheet("bela", ("Ana", "Ivo"), {"tie": "visi"})
    assert isinstance(sheet, FamilySheet)
    add(sheet, "Ana 81")
    add(sheet, "— 162")
    sheet.add(score({"variant": "bela", "declarer": "B", "points": {"B": 100},
                     "declarations": {"A": ["quint:K"], "B": ["quint:A"]}, "declarations_winner": "B"}))
    data = sheet.to_json()
    assert data["variant"] == "bela" and data["rules"] == {"tie": "visi"}
    assert data["lines"][1] == {"points": {"A": 0, "B": 162}, "pot": None, "dash": ["A"],
                                "score": {"A": 0, "B": 162}, "hanging": 81, "totals": {"A": 0, "B": 243}}
    assert sheet.lines[2].score == (62, 281)  # B passes 200 : 62 and collects the 81 held
    back = load_sheet(data)
    assert isinstance(back, FamilySheet)
    assert back.history("hr") == sheet.history("hr") and back.to_json() == data
    assert isinstance(load_sheet(ScoreSheet().to_json()), ScoreSheet)
    with pytest.raises(SheetError, match=r"rules\.contra_tie"):
        load_sheet({**data, "rules": {"contra_tie": "split"}})
    with pytest.raises(SheetError, match="variant"):
        load_sheet({**data, "variant": "coinche"})
    assert sheet_game(["bela", "Ana", "Ivo"]) == ("bela", ["Ana", "Ivo"])
    assert sheet_game(["Ana", "Ivo"]) == ("bulgarian", ["Ana", "Ivo"])


def test_a_bela_sheet_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "bela.json"

    def sheet(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", "sheet", str(path), *args], capture_output=True,
                              text=True, cwd=ROOT, timeout=60, check=False)

    done = sheet("new", "--game", "bela", "--teams", "Mi", "Vi", "--rule", "tie=visi", "--lang", "hr")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Bela: Mi | Vi", "Još nema dijeljenja; pobjeđuje tko prvi dođe do 1001."]
    assert sheet("add", "Mi", "92", "zvanje", "50", "bela", "--lang", "hr").returncode == 0
    assert sheet("add", "Vi", "zvali", "81", "--lang", "hr").returncode == 0
    done = sheet("add", "—", "162", "--lang", "hr")
    assert done.stdout.splitlines()[1:4] == [
        "1. 162 | 70  (ukupno 162 | 70; zvali su Mi: prošli)",
        "2. 81 | —  (ukupno 243 | 70; zvali su Vi: visi) 81 visi",
        "3. — | 162  (ukupno 243 | 232; upisano ručno) 81 visi",
    ]
    # A Bulgarian line, an unknown option and a bad number: the file stays as it was, no traceback.
    before = path.read_text(encoding="utf-8")
    for args in (("add", "купа", "102", "60", "белот", "ние"), ("add", "Mi", "92", "contra_tie=split"),
                 ("add", "—", "x"), ("correct", "9", "Mi", "92")):
        done = sheet(*args, "--lang", "en")
        assert done.returncode == 1 and "Traceback" not in done.stderr, args
        assert path.read_text(encoding="utf-8") == before
    done = sheet("add", "Mi", "92", "contra_tie=split", "--lang", "en")
    assert "rules.contra_tie: not a table option of bela" in done.stderr
    done = sheet("correct", "1", "Mi", "100", "--lang", "en")
    assert done.returncode == 0 and "1. 100 | 62  (total 100 | 62; Mi called: the callers pass)" in done.stdout
    assert sheet("undo").returncode == 0 and len(json.loads(path.read_text(encoding="utf-8"))["lines"]) == 2
    assert sheet("new", "--game", "french", "--rule", "tie=visi").returncode == 1
