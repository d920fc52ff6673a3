"""The agent side of ``belote-agent/1``: one of our bots answering a referee on standard input/output.

Any table that speaks the protocol (ours or another program's) can seat our bots this way. Each ``act`` message is
read back into what the bot is shown at our own tables (an ``Observation`` for the Bulgarian game, a ``SeatView`` for
Bela and French belote, formats §7.6) and handed to the bot; its action goes back as one JSON line. The hello answer
lists the variants the bot plays.
"""

from __future__ import annotations

from typing import IO, Any

from bot.ai.base import Agent, View
from bot.engine import CallParseError, parse_call

from . import PROTOCOL
from .messages import BULGARIAN, ProtocolError, action_to_json, decode, encode
from .observation_json import observation_from_json
from .seatview_json import family_variants, seatview_from_json


def first_legal(message: dict[str, Any]) -> dict[str, Any]:
    """The answer to an ``act`` message this agent cannot make sense of: its first ``legal`` entry (formats §6,
    §7.6.3: a call, a card, the seven exchange's true or false, or the first two cards for a discard)."""
    legal = message.get("legal")
    first = legal[0] if isinstance(legal, list) and legal else None
    if isinstance(first, bool):
        return {"exchange": first}
    if not isinstance(first, str):  # nothing to go by: a pass is legal in every auction; the referee judges the rest
        return {"call": "pass"}
    phase = message.get("phase")
    if phase == "discard" and isinstance(legal, list):
        return {"discard": legal[:2]}
    if phase in ("bid", "play"):
        return {"call": first} if phase == "bid" else {"card": first}
    try:
        parse_call(first)
    except CallParseError:
        return {"card": first}
    return {"call": first}


def view_from_json(message: dict[str, Any]) -> View:
    """What the bot is shown for an ``act`` message: a Bulgarian observation (no ``variant``, or ``bulgarian``) or a
    family seat's view. Raises ProtocolError (``malformed``) naming the bad field."""
    variant = message.get("variant")
    if variant is None or variant == BULGARIAN:
        return observation_from_json(message)
    return seatview_from_json(message)


def variants_of(agent: Agent) -> list[str]:
    """The variants the bot says it plays in its hello (formats §7.6.1): its own ``variants`` if it names them, else
    every game whose act messages this runner reads (a bot that fails on a position still answers, with the first
    legal action)."""
    named = getattr(agent, "variants", None)
    if isinstance(named, (list, tuple)) and all(isinstance(v, str) for v in named):
        return list(named)
    return ["bulgarian", *family_variants()]


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
            observation = view_from_json(message)
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
                answer({"type": "hello", "protocol": PROTOCOL, "name": agent.name, "variants": variants_of(agent)})
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
