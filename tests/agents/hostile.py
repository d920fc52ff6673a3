"""Every N-th answer is hostile JSON (a number of thousands of digits, arrays nested thousands deep, a lone
surrogate, a card of the wrong type); the rest are the first legal action of the act message's phase."""

import json

from _tiny import every, serve

HOSTILE = [
    '{"card": ' + "9" * 5000 + "}",
    "[" * 50000 + "]" * 50000,
    '{"card": "\\ud800"}',
    '{"call": {"suit": "spades"}}',
    '{"card": ["JH"], "belote": "yes"}',
]


def answer(message: dict, n: int) -> str:
    if n % every():
        first = message["legal"][0]
        return json.dumps({"call": first} if message.get("phase") == "bid" else {"card": first})
    # Chosen by the hand, not by n: the referee restarts the program after each one, and n starts again.
    return HOSTILE[sum(map(ord, "".join(message["hand"]))) % len(HOSTILE)]


serve("hostile", answer)
