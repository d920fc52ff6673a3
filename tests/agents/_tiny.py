"""Shared loop of the misbehaving test agents: each one answers most questions with the first legal action."""

import json
import sys
from collections.abc import Callable


def first_legal(message: dict) -> dict:
    first = message["legal"][0]
    return {"call": first} if message["contract"] is None else {"card": first}


def serve(name: str, answer: Callable[[dict, int], str | None]) -> None:
    """Answer hello, then each act with ``answer(message, number of this act, from 1)`` (None: no answer)."""
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "belote-agent/1", "name": name}), flush=True)
        elif message["type"] == "act":
            acts += 1
            text = answer(message, acts)
            if text is not None:
                print(text, flush=True)
        elif message["type"] == "quit":
            return


def every() -> int:
    """How often the agent misbehaves: every N-th act, N from the command line (default 3)."""
    return int(sys.argv[1]) if len(sys.argv) > 1 else 3
