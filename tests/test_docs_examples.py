"""Every code example in README.md and docs/ runs and finishes: each ```python block runs in a fresh interpreter,
and each `belote-bot score` / `belote-bot sheet` line of a ```sh block runs as written; where the line's comment
gives the score ("# Ние 12 : Вие 6"), the answer starts with it."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
# Commands that finish on their own; `run` and `play` serve or wait for a person.
FINISHING = ("score", "sheet", "replay", "demo")
# Standard input for examples that read it (an agent program): a greeting, then goodbye.
STDIN = {"agent-protocol.md": '{"type": "hello", "protocol": "belote-agent/1"}\n{"type": "quit"}\n'}


def blocks(language: str) -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if match.group(1) == language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{doc.name}:{line}", match.group(2)))
    return found


def command_blocks() -> list[tuple[str, list[tuple[str, str, list[str]]]]]:
    """For each untagged or sh block with finishing belote-bot commands: (where, [(command, comment, expected
    output)]). A line "$ belote-bot ..." is a transcript: the lines after it, up to the next "$", are its output."""
    found = []
    for where, code in blocks("sh") + blocks(""):
        steps: list[tuple[str, str, list[str]]] = []
        for line in code.splitlines():
            transcript = line.startswith("$ ")
            command, _, comment = line.removeprefix("$ ").partition("  #")
            words = command.split()
            if len(words) > 1 and words[0] == "belote-bot" and words[1] in FINISHING:
                steps.append((command.strip(), comment.strip(), [] if transcript else ["-"]))
            elif steps and steps[-1][2] != ["-"] and not transcript and line.strip():
                steps[-1][2].append(line)
        if steps:
            found.append((where, steps))
    return found


def test_the_examples_are_found() -> None:
    assert any(where.startswith("README.md") for where, _ in blocks("python"))
    commands = [step[0] for _, steps in command_blocks() for step in steps]
    assert len([c for c in commands if c.startswith("belote-bot score")]) >= 9
    assert len([c for c in commands if c.startswith("belote-bot sheet")]) >= 6


@pytest.mark.parametrize(("where", "code"), [pytest.param(*b, id=b[0]) for b in blocks("python")])
def test_python_example_runs_and_finishes(where: str, code: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, input=STDIN.get(where.split(":")[0], ""),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, f"{where}:\n{done.stderr}"


# The file a documented command names as the reader's own.
FILES = {"deal.json": '{"contract": "hearts", "points": {"A": 102}}'}


@pytest.mark.parametrize(("where", "steps"), [pytest.param(*b, id=b[0]) for b in command_blocks()])
def test_command_examples_run_in_order(where: str, steps: list[tuple[str, str, list[str]]], tmp_path: Path) -> None:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for command, comment, expected in steps:
        words = shlex.split(command)
        done = subprocess.run([sys.executable, "-m", "bot", *words[1:]], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
        if expected == ["-"]:  # a command meant to succeed
            assert done.returncode == 0, f"{where}: {command}\n{done.stderr}"
            score = re.match(r"(\S+ \d+ : \S+ \d+)", comment)
            if score:
                assert done.stdout.startswith(score.group(1)), f"{where}: {command}\n{done.stdout}"
        else:  # a transcript: the output shown is the output given
            shown = (done.stdout + done.stderr).strip().splitlines()
            assert shown == expected, f"{where}: {command}"
