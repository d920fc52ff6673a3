"""The agent side of ``belote-agent/1``: one of our bots answering a referee on standard input/output.

Any table that speaks the protocol (ours or another program's) can seat our bots this way. Each ``act`` message is
read back into an ``Observation`` and handed to the bot; its action goes back as one JSON line.
"""

from __future__ import annotations

from typing import IO, Any

from bot.ai.base import Agent

from . import PROTOCOL
from .messages import ProtocolError, action_to_json, decode, encode
from .observation_json import observation_from_json


def run_agent(agent: Agent, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Answer the referee until ``quit`` or the end of input. Problems with its messages go to ``stderr``."""

    def answer(message: dict[str, Any]) -> None:
        stdout.write(encode(message) + "\n")
        stdout.flush()

    def complain(number: int, why: str) -> None:
        stderr.write(f"{agent.name}: message {number}: {why}\n")
        stderr.flush()

    try:
        for number, line in enumerate(stdin, start=1):
            if not line.strip():
                continue
            try:
                message = decode(line)
            except ProtocolError as exc:
                complain(number, exc.reason)
                continue
            kind = message.get("type")
            if kind == "hello":
                if message.get("protocol") != PROTOCOL:
                    complain(number, f"the referee speaks {message.get('protocol')!r}; this agent speaks {PROTOCOL}")
                answer({"type": "hello", "protocol": PROTOCOL, "name": agent.name})
            elif kind == "act":
                try:
                    observation = observation_from_json(message)
                except ProtocolError as exc:
                    # No answer: the referee's time limit runs out and it plays for this seat.
                    complain(number, f"cannot read this act message: {exc.reason}")
                    continue
                answer(action_to_json(agent.act(observation)))
            elif kind == "deal_end":
                report, hands = message.get("report"), message.get("hands")
                if not isinstance(report, dict) or not isinstance(hands, list):
                    complain(number, "deal_end needs a report object and a hands list")
                    continue
                agent.deal_end(report, hands)
            elif kind == "quit":
                break
            else:
                complain(number, f"unknown message type {kind!r}; expected hello, act, deal_end or quit")
    finally:
        agent.close()
    return 0
