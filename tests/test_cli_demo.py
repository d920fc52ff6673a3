"""`belote-bot demo` describes itself and speaks the language asked for, Bulgarian by default, with the seats'
names in it; its record replays to the same account."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main


def test_demo_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = capsys.readouterr().out
    assert "Four bots" in text and "belote-record/1" in text and "default: bg" in text


def test_demo_in_bulgarian_by_default_and_in_english_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5"]) == 0
    bulgarian = capsys.readouterr().out
    assert bulgarian.startswith("Места: Север (A), Изток (B), Юг (A), Запад (B)")
    assert "Раздаване 1: раздава" in bulgarian and "Ръка 8:" in bulgarian and "Победител: отбор" in bulgarian
    assert not re.search(r"\b(North|East|South|West|Deal|Trick|Auction|Contract|Winner|scores|declares)\b",
                         bulgarian)
    assert main(["demo", "--seed", "5", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert english.startswith("Seats: North (A), East (B), South (A), West (B)")
    assert not re.search("[а-яА-Я]", english)


def test_demo_record_replays_to_the_same_account(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "demo.json"
    assert main(["demo", "--seed", "7", "--lang", "en", "--record", str(record)]) == 0
    shown = capsys.readouterr().out
    assert main(["replay", str(record)]) == 0
    assert capsys.readouterr().out == shown
    assert main(["replay", str(record), "--lang", "bg"]) == 0
    assert "Победител" in capsys.readouterr().out
