"""Dies on its N-th act: with "thinking" (second argument) before answering, with "after" right after it."""

import json
import sys

from _tiny import every, first_legal, serve

WHEN = sys.argv[2] if len(sys.argv) > 2 else "thinking"


def answer(message: dict, n: int) -> str | None:
    if n % every():
        return json.dumps(first_legal(message))
    if WHEN == "after":
        print(json.dumps(first_legal(message)), flush=True)
    print("crashing.py: giving up on purpose", file=sys.stderr, flush=True)
    sys.exit(3)


serve("crashing", answer)
