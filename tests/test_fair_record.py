"""The record's `dealing` object and `belote-bot verify` (docs/fairness.md, formats §3), on records written by hand."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main

ROOT = Path(__file__).resolve().parent.parent

# The seed of docs/fairness.md's worked example. Deal 1: seat 0 deals, everyone passes (five cards each are listed);
# deal 2: seat 1 deals, the auction has not begun.
BY_HAND: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bulgarian",
    "rules": {},
    "seats": ["Ana", "Boris", "Vera", "Georgi"],
    "deals": [
        {
            "dealer": 0,
            "hands": [["TH", "AD", "9D", "TC", "7H"], ["JS", "KD", "8S", "9C", "AC"], ["QH", "8D", "AH", "TS", "JD"],
                      ["JH", "TD", "QC", "8C", "QS"]],
            "bids": ["pass", "pass", "pass", "pass"],
        },
        {
            "dealer": 1,
            "hands": [
                ["8S", "KC", "AC", "8C", "QC", "8D", "TC", "JC"], ["7C", "TS", "QD", "8H", "QS", "TD", "QH", "JD"],
                ["9H", "9C", "KS", "7D", "AH", "9S", "JS", "JH"], ["KD", "7S", "9D", "7H", "KH", "AS", "AD", "TH"],
            ],
            "bids": [],
        },
    ],
    "dealing": {
        "scheme": "hmac-sha256/1",
        "commitment": "c9162e2996d32877523d2d49c2c5d53d9849ff947a9ddc6a38dfd695208fb9f5",
        "seed": "fair-example",
    },
}


def _verify(tmp_path: Path, record: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_record_written_by_hand_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _verify(tmp_path, BY_HAND, capsys)
    assert status == 0, err
    assert "matches the commitment" in out and "2 deals" in out
    assert main(["replay", str(tmp_path / "record.json")]) == 0  # the field changes nothing for a replay


def test_the_command_is_registered_for_the_installed_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(BY_HAND), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The seed matches the commitment")


def test_a_swapped_card_names_the_first_deal_that_does_not_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tampered = copy.deepcopy(BY_HAND)
    hands = tampered["deals"][1]["hands"]
    hands[0][7], hands[1][7] = hands[1][7], hands[0][7]  # JC and JD change seats in deal 2
    status, out, err = _verify(tmp_path, tampered, capsys)
    assert status == 1 and out == ""
    assert "deal 2 does not follow from the seed: seat 0 holds" in err and "JD" in err


def test_a_reordered_hand_does_not_follow_either(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tampered = copy.deepcopy(BY_HAND)
    tampered["deals"][0]["hands"][2].reverse()  # the same five cards, not in the order received
    status, _, err = _verify(tmp_path, tampered, capsys)
    assert status == 1 and "deal 1 does not follow" in err and "seat 2" in err


def test_a_seed_that_is_not_the_committed_one_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tampered = copy.deepcopy(BY_HAND)
    tampered["dealing"]["seed"] = "fair-example "
    status, _, err = _verify(tmp_path, tampered, capsys)
    assert status == 1 and "does not match the commitment" in err


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda r: r.pop("dealing"), "dealing: absent"),
        (lambda r: r["dealing"].pop("seed"), "dealing.seed: absent"),
        (lambda r: r["dealing"].update(commitment="C9" * 32), "dealing.commitment"),
        (lambda r: r["dealing"].update(scheme="md5/1"), "dealing.scheme"),
        (lambda r: r["dealing"].update(salt="x"), "dealing.salt: unknown field"),
        (lambda r: r["dealing"].update(seed="\ud800"), "dealing.seed: holds a lone surrogate"),
        (lambda r: r["deals"][1].update(dealer=3), "deals[1].dealer: must be 1"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "XX"), "deals[0].hands[0][0]"),
    ],
)
def test_a_malformed_record_exits_2_saying_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, said: str
) -> None:
    broken = copy.deepcopy(BY_HAND)
    change(broken)
    status, out, err = _verify(tmp_path, broken, capsys)
    assert status == 2 and out == ""
    assert said in err and "Traceback" not in err


def test_a_file_that_is_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _verify(tmp_path, "{not json", capsys)
    assert status == 2 and "not valid JSON" in err
