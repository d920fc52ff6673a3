"""Every N-th answer is not valid JSON; the rest are the first legal action."""

import json

from _tiny import every, first_legal, serve


def answer(message: dict, n: int) -> str:
    return "{card: JH" if n % every() == 0 else json.dumps(first_legal(message))


serve("malformed", answer)
