"""docs/agent-protocol.md stays true: its minimal agent plays whole matches, its session follows the protocol."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from bot.ai.simple import RandomAgent
from bot.engine import Play, parse_rules
from bot.protocol import PROTOCOL
from bot.protocol.messages import check_hello, parse_answer
from bot.protocol.observation_json import observation_from_json
from bot.protocol.referee import ProcessAgent

from .test_protocol_referee import play_match

DOC = Path(__file__).resolve().parent.parent / "docs" / "agent-protocol.md"


def block(heading: str, language: str) -> str:
    """The first fenced block of ``language`` under the section ``heading``."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert found, f"no {language} block under '## {heading}' in {DOC.name}"
    return found.group(1)


@pytest.mark.parametrize("rules", [{}, {"auto_declarations": True}])
def test_the_minimal_agent_of_the_docs_plays_a_whole_match(tmp_path: Path, rules: dict[str, bool]) -> None:
    program = tmp_path / "first_legal.py"
    program.write_text(block("A minimal agent", "python"), encoding="utf-8")
    with ProcessAgent([sys.executable, str(program)], move_time=5) as ours:
        match = play_match([ours, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "docs", parse_rules(rules))
    assert match.over
    assert ours.name == "first-legal"
    assert ours.decisions > 10
    assert sum(ours.errors.values()) == 0, list(ours.problems)


def test_the_example_session_follows_the_protocol() -> None:
    lines = block("A complete session", "text").splitlines()
    assert lines[0] == '> {"type":"hello","protocol":"' + PROTOCOL + '"}'
    assert lines[-1] == '> {"type":"quit"}'
    assert lines[1].startswith("< ")
    assert check_hello(json.loads(lines[1][2:]))
    acts = 0
    announced_with_a_card = False
    for i, line in enumerate(lines[2:-1], start=2):
        message = json.loads(line[2:])
        if line.startswith("> ") and message["type"] == "act":
            observation = observation_from_json(message)
            reply = lines[i + 1]
            assert reply.startswith("< "), f"line {i + 1} of the session should answer the act"
            action = parse_answer(json.loads(reply[2:]), observation)  # raises if it was not legal
            announced_with_a_card |= isinstance(action, Play) and bool(action.declare or action.belote)
            acts += 1
        elif line.startswith("> "):
            assert message["type"] == "deal_end"
            assert len(message["hands"]) == 4
            assert set(message["report"]) >= {"contract", "score", "outcome"}
    assert acts >= 9  # a whole deal: at least one call and eight cards
    assert announced_with_a_card


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_the_minimal_agent_of_the_docs_plays_a_family_match(tmp_path: Path, variant: str) -> None:
    from .test_protocol_family import play_family

    program = tmp_path / "first_legal.py"
    program.write_text(block("A minimal agent", "python"), encoding="utf-8")
    with ProcessAgent([sys.executable, str(program)], move_time=5, variant=variant) as ours:
        match = play_family(variant, [ours, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "docs")
    assert match.over and ours.decisions > 10
    assert sum(ours.errors.values()) == 0, list(ours.problems)


def test_the_french_session_follows_the_protocol() -> None:
    from bot.protocol.seatview_json import seatview_from_json

    lines = block("Bela and French belote", "text").splitlines()
    hello = json.loads(lines[0][2:])
    assert hello == {"type": "hello", "protocol": PROTOCOL, "variant": "french", "rules": {}, "seats": 4}
    assert check_hello(json.loads(lines[1][2:])) == "random"
    assert "french" in json.loads(lines[1][2:])["variants"]
    assert lines[-1] == '> {"type":"quit"}'
    phases, shown = [], False
    for i, line in enumerate(lines[2:-2], start=2):
        message = json.loads(line[2:])
        if line.startswith("> "):
            view = seatview_from_json(message)
            phases.append(message["phase"])
            shown |= bool(view.shown)
            parse_answer(json.loads(lines[i + 1][2:]), view)  # raises if it was not legal
    assert phases[0] == "bid" and phases.count("play") == 8 and shown
    end = json.loads(lines[-2][2:])
    assert end["type"] == "deal_end" and end["turned"] == "9H"
    # The taker's sixth card is the turned card (formats §7.3); the report names him as the caller.
    assert end["hands"][end["report"]["caller"]][5] == end["turned"]
