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
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)
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


def commands() -> list[tuple[str, str, str]]:
    """(where, command line, the comment after it) for each finishing belote-bot line of the sh blocks."""
    found = []
    for where, code in blocks("sh"):
        for line in code.splitlines():
            command, _, comment = line.partition("  #")
            words = shlex.split(command)
            if len(words) > 1 and words[0] == "belote-bot" and words[1] in FINISHING:
                found.append((where, command.strip(), comment.strip()))
    return found


def test_the_examples_are_found() -> None:
    assert any(where.startswith("README.md") for where, _ in blocks("python"))
    assert len([c for c in commands() if c[1].startswith("belote-bot score")]) >= 3


@pytest.mark.parametrize(("where", "code"), [pytest.param(*b, id=b[0]) for b in blocks("python")])
def test_python_example_runs_and_finishes(where: str, code: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, input=STDIN.get(where.split(":")[0], ""),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, f"{where}:\n{done.stderr}"


@pytest.mark.parametrize(("where", "command", "comment"), [pytest.param(*c, id=c[1]) for c in commands()])
def test_command_example_runs(where: str, command: str, comment: str, tmp_path: Path) -> None:
    words = shlex.split(command)
    done = subprocess.run([sys.executable, "-m", "bot", *words[1:]], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"{where}: {command}\n{done.stderr}"
    expected = re.match(r"(\S+ \d+ : \S+ \d+)", comment)
    if expected:
        assert done.stdout.startswith(expected.group(1)), f"{where}: {command}\n{done.stdout}"
