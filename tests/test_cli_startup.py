"""The command line imports only what the subcommand being run needs (bench/startup.py measures the time): the
engine, pydantic, storage and the chat libraries are not loaded for a command that does not use them."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from bot.cli.main import COMMANDS

HEAVY = ("bot.core", "bot.storage", "bot.ai", "bot.adapters", "telegram", "discord", "aiosqlite", "pydantic_settings")

PROBE = """
import contextlib, io, json, sys
from bot.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60, check=True)
    modules: list[str] = json.loads(done.stdout)
    return modules


def heavy(modules: list[str], *extra: str) -> list[str]:
    return [m for m in modules if m.split(".")[0] in (*HEAVY, *extra) or m.startswith(HEAVY + extra)]


def test_help_loads_no_subcommand() -> None:
    modules = loaded_by("--help")
    assert not heavy(modules, "bot.engine", "bot.calculator", "pydantic", "babel")
    assert not [m for m in modules if m.startswith("bot.cli.") and m != "bot.cli.main"]


# The game's words (card, call and declaration names) are shared with the host, and demo's bots pick at random.
ALLOWED = {"bot.core", "bot.core.names", "bot.ai", "bot.ai.base", "bot.ai.simple"}


@pytest.mark.parametrize(
    "args",
    [("score", "купа 102 60"), ("sheet", "no-such-sheet.json", "show"), ("replay", "no-such-record.json"),
     ("demo", "--seed", "1")],
)
def test_a_calculator_or_record_command_loads_no_host_storage_bots_or_chat_library(args: tuple[str, ...]) -> None:
    assert not set(heavy(loaded_by(*args))) - ALLOWED


def test_each_command_registers_the_help_listed_in_main() -> None:
    for name, text in COMMANDS.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(f"bot.cli.{name}").register(sub)
        (listed,) = [a for a in sub._choices_actions if a.dest == name]
        assert listed.help == text, name
