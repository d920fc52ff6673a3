"""The agent side of ``belote-agent/1``: one of our bots answering a referee on standard input/output.

Any table that speaks the protocol (ours or another program's) can seat our bots this way. Each ``act`` message is
read back into an ``Observation`` and handed to the bot; its action goes back as one JSON line.
"""

from __future__ import annotations

from typing import IO, Any

from bot.ai.base import Agent
from bot.engine import CallParseError, parse_call

from . import PROTOCOL
from .messages import ProtocolError, action_to_json, decode, encode
from .observation_json import observation_from_json


def first_legal(message: dict[str, Any]) -> dict[str, Any]:
    """The answer to an ``act`` message this agent cannot make sense of: its first ``legal`` entry (formats §6)."""
    legal = message.get("legal")
    first = legal[0] if isinstance(legal, list) and legal and isinstance(legal[0], str) else None
    if first is None:  # nothing to go by: a pass is legal in every auction, and the referee judges the rest
        return {"call": "pass"}
    try:
        parse_call(first)
    except CallParseError:
        return {"card": first}
    return {"call": first}


def run_agent(agent: Agent, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Answer the referee until ``quit`` or the end of input; never exit before. Problems go to ``stderr``."""

    def answer(message: dict[str, Any]) -> None:
        stdout.write(encode(message) + "\n")
        stdout.flush()

    def complain(number: int, why: str) -> None:
        stderr.write(f"{agent.name}: message {number}: {why}\n")
        stderr.flush()

    def act(number: int, message: dict[str, Any]) -> None:
        try:
            observation = observation_from_json(message)
        except ProtocolError as exc:
            fallback = first_legal(message)
            complain(number, f"cannot read this act message ({exc.reason}); answering {encode(fallback)}")
            answer(fallback)
            return
        try:
            action = action_to_json(agent.act(observation))
        except Exception as exc:  # a bot that fails on some position still answers, and the match goes on
            action = first_legal(message)
            complain(number, f"the bot failed ({type(exc).__name__}: {exc}); answering {encode(action)}")
        answer(action)

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
                act(number, message)
            elif kind == "deal_end":
                report, hands = message.get("report"), message.get("hands")
                if not isinstance(report, dict) or not isinstance(hands, list):
                    complain(number, "deal_end needs a report object and a hands list")
                    continue
                try:
                    agent.deal_end(report, hands)
                except Exception as exc:  # what the bot makes of a deal's end never stops the session
                    complain(number, f"the bot could not take in this deal_end ({type(exc).__name__}: {exc})")
            elif kind == "quit":
                break
            else:
                complain(number, f"unknown message type {kind!r}; expected hello, act, deal_end or quit")
    finally:
        agent.close()
    return 0
