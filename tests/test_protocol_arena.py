"""The duplicate arena seats external programs through belote-agent/1 and reports their protocol errors."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.engine.record import replay_record

AGENTS = Path(__file__).resolve().parent / "agents"


def command(name: str, *args: object) -> str:
    return shlex.join([sys.executable, str(AGENTS / f"{name}.py"), *map(str, args)])


def test_the_tiny_first_legal_program_plays_a_full_duplicate_arena_run_against_easy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "arena",
            "--a",
            command("first_legal"),
            "--b",
            "easy",
            "--deals",
            "6",
            "--seed",
            "tiny",
            "--json",
            "--quiet",
            "--records",
            str(tmp_path),
        ]
    )
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal_pairs"] == 6
    assert report["a_decisions"] > 40
    assert report["a_errors"] == {}  # every decision was the program's own answer: no fallback was played
    assert report["b_errors"] == {}
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) >= 2  # both orientations of every match pair
    for path in records:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert sum("first_legal.py" in name for name in data["seats"]) == 2
        replay_record(data)  # every action the program took is legal


@pytest.mark.parametrize(
    ("agent", "kind"),
    [
        (command("malformed", 4), "agent:malformed"),
        (command("illegal", 3), "agent:illegal"),
        (command("slow", 12, 3), "agent:timeout"),
    ],
)
def test_protocol_errors_are_counted_and_reported_by_the_arena(
    agent: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The program misbehaves at every N-th question; how many questions two deal pairs bring depends on the cards (a
    # passed-out deal is four calls), so try seeds until the program was asked at least N times.
    every = int(shlex.split(agent)[2])
    for n in range(10):
        seed = "err" if n == 0 else f"err{n}"
        status = main(
            ["arena", "--a", "easy", "--b", agent, "--deals", "2", "--seed", seed, "--move-time", "0.5", "--quiet"]
        )
        assert status == 0
        out = capsys.readouterr().out
        line = next(row for row in out.splitlines() if row.startswith("B decision time"))
        if int(line.split(" decisions;")[0].rsplit(" ", 1)[1]) >= every:
            break
    counted = dict(part.rsplit(" ", 1) for part in line.split("errors: ", 1)[1].split(", "))
    assert int(counted[kind]) > 0
    assert not any(k.startswith("agent:") and k != kind for k in counted), line
    assert "timeout" not in counted, line  # the referee's own count is the only one: nothing is counted twice
