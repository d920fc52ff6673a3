"""`belote-bot agent` as a real process, fed act messages written by hand from formats §6, not by our referee.

Agents read liberally (§6, last paragraph): unknown fields ignored, null accepted where a field has no value yet,
and a message that cannot be understood still gets an answer (the first entry of ``legal``) and a line on standard
error; the agent never exits before ``quit``.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


class Agent:
    def __init__(self, level: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "agent", "--level", level], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        os.set_blocking(self.proc.stderr.fileno(), False)
        self.errors = b""

    def send(self, line: str | bytes) -> None:
        assert self.proc.stdin
        self.proc.stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 20.0) -> dict[str, Any]:
        assert self.proc.stdout
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            assert sel.select(timeout), f"no answer within {timeout} s; stderr: {self.stderr()}"
        line = self.proc.stdout.readline()
        assert line, f"the agent exited ({self.proc.poll()}); stderr: {self.stderr()}"
        answer = json.loads(line)
        assert isinstance(answer, dict)
        return answer

    def stderr(self) -> str:
        assert self.proc.stderr
        chunk = self.proc.stderr.read()
        if chunk:
            self.errors += chunk
        return self.errors.decode("utf-8", "replace")

    def wait_stderr(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.stderr() and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.stderr()


@pytest.fixture(params=["easy", "medium"])
def agent(request: pytest.FixtureRequest) -> Iterator[Agent]:
    running = Agent(request.param)
    running.send(json.dumps({"type": "hello", "protocol": "belote-agent/1"}))
    hello = running.answer()
    assert hello["type"] == "hello" and hello["protocol"] == "belote-agent/1"
    yield running
    if running.proc.poll() is None:
        running.proc.kill()
    running.proc.wait(10)


# An auction decision as §6 allows it: trick null (the auction), and a field this agent has never heard of.
AUCTION_TRICK_NULL = """{"type": "act", "variant": "bulgarian", "rules": {}, "seat": 1, "dealer": 3,
 "hand": ["JH", "9H", "AH", "TS", "7C"], "bids": ["pass"], "contract": null, "multiplier": null, "declarer": null,
 "tricks": [], "trick": null, "announced": [], "score": {"A": 45, "B": 30}, "hanging": 0,
 "legal": ["pass", "clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps"], "declarable": [],
 "belote": false, "table": "friday", "clock": {"left_ms": 12000}}"""

# The same decision the other way §6 allows: an empty trick led by the dealer's right (seat 0 here).
AUCTION_EMPTY_TRICK = AUCTION_TRICK_NULL.replace('"trick": null', '"trick": {"leader": 0, "cards": []}')

# Nulls for every field that has no value yet on a first call of a deal, and no "variant".
AUCTION_ALL_NULLS = """{"type": "act", "rules": null, "seat": 0, "dealer": 3,
 "hand": ["JS", "9S", "AS", "TC", "KC"], "bids": null, "contract": null, "multiplier": null, "declarer": null,
 "tricks": null, "trick": null, "announced": null, "score": {"A": 0, "B": 0}, "hanging": null,
 "legal": ["pass", "clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps"], "declarable": null,
 "belote": null}"""

# A play decision with unknown fields inside the trick objects as well.
PLAY = """{"type": "act", "variant": "bulgarian", "rules": {"auto_declarations": false}, "seat": 2, "dealer": 0,
 "hand": ["QD", "8D", "7H", "9S", "KC", "AC", "TC"], "bids": ["hearts", "pass", "pass", "pass"],
 "contract": "hearts", "multiplier": 1, "declarer": "B",
 "tricks": [{"leader": 1, "cards": ["7S", "AS", "JS", "8S"], "winner": 2, "points": 13}],
 "trick": {"leader": 2, "cards": [], "started_at": 5}, "announced": [], "score": {"A": 0, "B": 0}, "hanging": 0,
 "legal": ["QD", "8D", "7H", "9S", "KC", "AC", "TC"], "declarable": [], "belote": false, "hint": null}"""


@pytest.mark.parametrize("message", [AUCTION_TRICK_NULL, AUCTION_EMPTY_TRICK, AUCTION_ALL_NULLS])
def test_an_auction_decision_gets_a_legal_call(agent: Agent, message: str) -> None:
    sent = json.loads(message)
    agent.send(json.dumps(sent))
    answer = agent.answer()
    assert answer.get("call") in sent["legal"], answer
    assert "message 2" not in agent.stderr(), "a message the spec allows was complained about"


def test_a_play_decision_with_unknown_fields_gets_a_legal_card(agent: Agent) -> None:
    sent = json.loads(PLAY)
    agent.send(json.dumps(sent))
    assert agent.answer().get("card") in sent["legal"]
    assert "message 2" not in agent.stderr()


def test_what_cannot_be_understood_still_gets_the_first_legal_action_and_never_an_exit(agent: Agent) -> None:
    # The example of §6 itself: the seat holds 8 cards after a trick, a card it does not hold is legal.
    example = json.loads(PLAY)
    example.update(hand=["JH", "9H", "AS", "TS", "7C", "8D", "QD", "KD"], legal=["QD", "8D"])
    not_understood = [
        example,
        {**json.loads(AUCTION_TRICK_NULL), "hand": ["ZZ", "9H", "AH", "TS", "7C"]},  # not a card
        {**json.loads(AUCTION_TRICK_NULL), "seat": 3},  # not this seat's turn by the bids
        {**json.loads(AUCTION_TRICK_NULL), "score": "lots"},
        {**json.loads(AUCTION_TRICK_NULL), "trick": {"leader": 9, "cards": "?"}},
    ]
    for number, sent in enumerate(not_understood, start=2):
        agent.send(json.dumps(sent))
        answer = agent.answer()
        first = sent["legal"][0]
        assert answer == ({"card": first} if sent is example else {"call": first}), (number, answer)
        assert f"message {number}:" in agent.wait_stderr(f"message {number}:"), number
    # Lines that are not act messages at all: told on standard error, and the agent reads on.
    for line in (b"{not json", b"[" * 100000, json.dumps({"type": "act", "legal": "pass"}).encode(), b"\xff\xfe"):
        agent.send(line)
    agent.send(AUCTION_EMPTY_TRICK.replace("\n", ""))
    assert agent.answer().get("call") in json.loads(AUCTION_EMPTY_TRICK)["legal"]
    assert agent.proc.poll() is None
    agent.send(json.dumps({"type": "deal_end", "report": {"dealer": 3, "extra": 1}, "hands": [[], [], [], []]}))
    agent.send(json.dumps({"type": "quit"}))
    assert agent.proc.wait(20) == 0
    assert "Traceback" not in agent.stderr()
