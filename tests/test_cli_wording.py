"""The calculator's command line answers in the language asked for: an English answer suggests English words (and
the suggestion works), and a sheet that does not exist yet says how to start one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main

CYRILLIC = re.compile("[а-яА-Я]")


@pytest.mark.parametrize(
    ("line", "shown", "fixed"),
    [
        ("hearts 102 belote", "'belote we'", "hearts 102 belote we"),
        ("hearts 102 60 tierce", "'tierce we'", "hearts 102 60 tierce we"),
        ("hearts 102 hanging", "'hanging 8'", "hearts 102 hanging 8"),
        ("hearts 102 60 80", "'hearts 102 60'", "hearts 102 60"),
        ("hearts", "'hearts 102'", "hearts 102"),
        ("foo 102", "use hearts, spades, diamonds, clubs", "spades 102"),
        ("102 60", "start the line with the contract: hearts", "clubs 102 60"),
        ("hearts 102 foo", "contra, teams (we, you), declarations, capot and hanging", None),
        ("at 258 capot we capot you", "'capot'", "at 258 capot we"),
    ],
)
def test_english_errors_suggest_english_words(
    line: str, shown: str, fixed: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--lang", "en", line]) == 1
    error = capsys.readouterr().err
    assert error.startswith("belote-bot score: ") and not CYRILLIC.search(error), error
    assert shown in error, error
    if fixed is not None:  # what the answer suggests is understood
        assert main(["score", "--lang", "en", fixed]) == 0, capsys.readouterr().err


def test_usage_error_in_english_shows_an_english_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--lang", "en"]) == 2
    error = capsys.readouterr().err
    assert "belote-bot score --lang en hearts 102 60" in error and not CYRILLIC.search(error)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "there is no score sheet here yet"), ("bg", "тук още няма лист с резултати")]
)
def test_adding_to_a_missing_sheet_says_to_start_one(
    lang: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "match.json"
    assert main(["sheet", str(sheet), "add", "--lang", lang, "купа", "102", "60"]) == 1
    error = capsys.readouterr().err
    assert words in error and f"belote-bot sheet {sheet} new" in error and "Traceback" not in error
    assert not sheet.exists()
    assert main(["sheet", str(sheet), "new"]) == 0  # the hint's command works, and then the line is added
    assert main(["sheet", str(sheet), "add", "купа", "102", "60"]) == 0
