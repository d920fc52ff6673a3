"""belote-record/1 and the replay command: reports, readable accounts, located errors, no tracebacks."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.engine import Match, Rules
from bot.engine.record import (
    RecordError,
    ReplayError,
    match_report,
    match_to_record,
    replay_record,
    restore_match,
    save_match,
)
from tests.test_engine_properties import choose


def random_record(seed: int = 3, rules: Rules | None = None, stop: int | None = None) -> tuple[Match, dict[str, Any]]:
    rng = random.Random(seed)
    match = Match(rules or Rules(), seed=seed)
    steps = 0
    while not match.over and (stop is None or steps < stop):
        match.apply(choose(match, rng))
        steps += 1
    return match, json.loads(json.dumps(match_to_record(match, ["Ana", "Boris", "Vera", "Georgi"])))


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_replay_json_is_the_report_of_the_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match, record = random_record()
    code, out, _ = run_cli(["replay", write(tmp_path, record), "--json"], capsys)
    assert code == 0
    assert json.loads(out) == match_report(match)
    assert json.loads(out)["winner"] in ("A", "B")


def test_replay_prints_a_readable_account(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, record = random_record()
    code, out, _ = run_cli(["replay", write(tmp_path, record)], capsys)
    assert code == 0
    assert "Deal 1: dealer" in out and "Auction:" in out and "Winner: team" in out
    assert "Ana" in out and "Trick 8" in out


def test_a_hand_written_record_with_contra_recontra_and_announcements() -> None:
    record = {
        "format": "belote-record/1",
        "seats": ["Ana", "Boris", "Vera", "Georgi"],
        "deals": [
            {
                "dealer": 3,
                "hands": [
                    ["JH", "9H", "AH", "TH", "KH", "QH", "7C", "8C"],
                    ["7S", "8S", "9S", "TS", "JS", "9C", "TC", "JC"],
                    ["AS", "KS", "QS", "7D", "8D", "9D", "QC", "KC"],
                    ["TD", "JD", "QD", "KD", "AD", "AC", "7H", "8H"],
                ],
                "bids": ["hearts", "contra", "pass", "pass", "recontra", "pass", "pass", "pass"],
                "play": [
                    {"card": "JH", "declare": ["quint"]},
                    {"card": "7S", "declare": ["quint"]},
                    "QC",
                    {"card": "7H", "declare": ["quint"]},  # seat 3 holds hearts: must follow
                ],
            }
        ],
    }
    match = replay_record(record)
    deal = match.deal
    assert deal.multiplier == 4 and len(deal.tricks) == 1
    assert [a.kinds for a in deal.announcements] == [("quint",), ("quint",), ("quint",)]
    report = match_report(match)["deals"][0]
    assert report["contract"] == "hearts" and report["declarer"] == "A" and report["raw"] is None
    assert report["tricks"] == {"A": 1, "B": 0}


def illegal_copy(record: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    """Swap in an illegal card: the first deal's second card replaced by a card of the leader."""
    bad = copy.deepcopy(record)
    for i, d in enumerate(bad["deals"]):
        if d.get("play"):
            first = d["play"][0]
            d["play"][1] = first if isinstance(first, str) else first["card"]
            return bad, i, 2
    raise AssertionError("no played deal")


def test_illegal_action_names_deal_position_seat_action_and_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record = random_record()
    bad, deal_index, position = illegal_copy(record)
    code, out, err = run_cli(["replay", write(tmp_path, bad), "--json"], capsys)
    assert code == 1 and out == ""
    assert f"deal {deal_index + 1}, play {position}" in err
    assert "seat" in err and "not in the player's hand" in err
    with pytest.raises(ReplayError) as info:
        replay_record(bad)
    assert (info.value.deal, info.value.part, info.value.position) == (deal_index + 1, "play", position)


def test_illegal_bid_is_reported_with_its_rule() -> None:
    _, record = random_record()
    bad = copy.deepcopy(record)
    bad["deals"][0]["bids"] = ["spades", "hearts", *bad["deals"][0]["bids"][2:]]
    with pytest.raises(ReplayError, match=r"deal 1, bid 2: .*higher than spades"):
        replay_record(bad)


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda r: r.update(format="belote-record/2"), "format"),
        (lambda r: r.update(seats=["a", "b"]), "seats"),
        (lambda r: r.update(rules={"target": 151}), "rules.target"),
        (lambda r: r.update(rules={"target_score": "151"}), "rules.target_score"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "ZZ"), "deals[0].hands[0][0]"),
        (lambda r: r["deals"][0]["hands"][1].__setitem__(0, r["deals"][0]["hands"][0][0]), "deals[0].hands[1][0]"),
        (lambda r: r["deals"][0].update(dealer=r["deals"][0]["dealer"]), None),
        (lambda r: r["deals"][1].update(dealer=(r["deals"][0]["dealer"] + 2) % 4), "deals[1].dealer"),
        (lambda r: r["deals"][0]["bids"].__setitem__(0, "hearts!"), "deals[0].bids[0]"),
        (lambda r: r["deals"][0].update(extra=1), "deals[0].extra"),
    ],
)
def test_malformed_records_are_located(mutate: Any, where: str | None) -> None:
    record = next(r for _, r in (random_record(seed=s) for s in range(100)) if len(r["deals"]) >= 3)
    bad = copy.deepcopy(record)
    mutate(bad)
    if where is None:
        replay_record(bad)  # an unchanged dealer is fine
        return
    with pytest.raises(RecordError) as info:
        replay_record(bad)
    assert where in str(info.value)


def test_declarations_in_an_auto_declarations_record_are_an_error() -> None:
    _, record = random_record(seed=4, rules=Rules(auto_declarations=True))
    bad = copy.deepcopy(record)
    for d in bad["deals"]:
        if d.get("play"):
            d["play"][0] = {"card": d["play"][0], "belote": False}
            break
    with pytest.raises(RecordError, match="auto_declarations"):
        replay_record(bad)


def test_a_deal_after_the_match_is_decided_is_an_error() -> None:
    _, record = random_record(seed=8)
    bad = copy.deepcopy(record)
    last = bad["deals"][-1]
    bad["deals"].append({"dealer": (last["dealer"] + 1) % 4, "hands": last["hands"], "bids": []})
    with pytest.raises(RecordError, match="after the match was decided"):
        replay_record(bad)


def test_an_unfinished_record_replays_to_where_it_stops() -> None:
    match, record = random_record(seed=9, stop=23)
    replayed = replay_record(record)
    assert match_report(replayed) == match_report(match)
    last = match_report(replayed)["deals"][-1]
    assert last["score"] is None and last["outcome"] is None


def test_saved_state_restores_and_deals_the_same_future() -> None:
    rng = random.Random(2)
    # How long the match lasts depends on the cards (a contra'd capot can end it in two deals): play it once to know,
    # then save it halfway through.
    actions = []
    whole = Match(Rules(), seed="table-7")
    while not whole.over:
        actions.append(choose(whole, rng))
        whole.apply(actions[-1])
    half = len(actions) // 2
    match = Match(Rules(), seed="table-7")
    for action in actions[:half]:
        match.apply(action)
    assert not match.over
    restored = restore_match(type(save_match(match)).model_validate_json(save_match(match).model_dump_json()))
    for action in actions[half:]:
        match.apply(action)
        restored.apply(action)
    assert match.over and match_report(restored) == match_report(match)


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON (line 1"), ("[]", "a record is a JSON object"), ("", "not valid JSON")],
)
def test_command_line_errors_are_one_line_without_traceback(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path), "--json"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_missing_file_and_standard_input(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    proc = subprocess.run([sys.executable, "-m", "bot", "replay", missing], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    _, record = random_record(seed=5)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "replay", "-", "--json"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["winner"] in ("A", "B")
