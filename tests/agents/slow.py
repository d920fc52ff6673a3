"""Every N-th answer comes after SECONDS (second argument) and is the last legal action, not the first."""

import json
import sys
import time

from _tiny import every, first_legal, serve

DELAY = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0


def answer(message: dict, n: int) -> str:
    if n % every():
        return json.dumps(first_legal(message))
    time.sleep(DELAY)
    last = message["legal"][-1]
    # If the referee took this late answer for the next question, it would most likely be illegal there.
    return json.dumps({"call": last} if message["contract"] is None else {"card": last})


serve("slow", answer)
