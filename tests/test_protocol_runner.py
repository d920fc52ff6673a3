"""The agent side: our bots answering a referee's JSON lines (bot.protocol.agent_runner, belote-bot agent)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

from bot.ai.registry import make_agent
from bot.engine import Match, observe, parse_rules
from bot.protocol.agent_runner import first_legal, run_agent
from bot.protocol.messages import encode, parse_answer
from bot.protocol.observation_json import observation_from_json

from .test_protocol_referee import ENV


def session(*messages: dict[str, object] | str) -> tuple[list[dict[str, object]], str]:
    """Feed lines to an easy bot; its answers and its complaints."""
    stdin = io.StringIO("".join((m if isinstance(m, str) else encode(m)) + "\n" for m in messages))
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_agent(make_agent("easy", "runner"), stdin, stdout, stderr) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()], stderr.getvalue()


def first_act() -> dict[str, Any]:
    match = Match(parse_rules({}), "runner")
    return observe(match.deal, match.deal.to_act).to_json()


def test_hello_then_an_act_gets_one_legal_answer_each() -> None:
    act = first_act()
    answers, complaints = session({"type": "hello", "protocol": "belote-agent/1"}, act, {"type": "quit"}, act)
    # The hello answer lists the games the bot plays (formats §7.6.1); a bot that names none is offered for all.
    assert answers[0] == {
        "type": "hello", "protocol": "belote-agent/1", "name": "easy",
        "variants": ["bulgarian", "bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2"],
    }
    assert len(answers) == 2  # nothing after quit
    parse_answer(answers[1], observation_from_json(act))  # raises unless legal
    assert complaints == ""


def test_bad_referee_lines_are_reported_on_stderr_and_skipped() -> None:
    act = first_act()
    broken = {**act, "hand": ["ZZ", *act["hand"][1:]]}
    answers, complaints = session("not json", {"type": "dance"}, broken, {"type": "deal_end"}, act)
    # Both acts are answered: the one it cannot read with its first legal entry (formats §6, last paragraph).
    assert answers == [first_legal(broken), answers[1]] and len(answers) == 2
    assert "message 1: not valid JSON" in complaints
    assert "message 2: unknown message type 'dance'" in complaints
    assert "message 3: cannot read this act message (act.hand[0]: 'ZZ' is not a card" in complaints
    assert f"answering {encode(first_legal(broken))}" in complaints
    assert "message 4: deal_end needs a report object and a hands list" in complaints


def test_the_command_refuses_a_bad_move_time_with_a_message() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "agent", "--level", "easy", "--move-time", "0"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "--move-time must be a positive number of seconds" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_ends_quietly_at_the_end_of_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "agent", "--level", "medium"],
        input=encode({"type": "hello", "protocol": "belote-agent/1"}) + "\n",
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "type": "hello", "protocol": "belote-agent/1", "name": "medium",
        "variants": ["bulgarian", "bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2"],
    }
    assert done.stderr == ""
