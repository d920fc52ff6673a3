"""Every N-th answer is an action the seat may not take now; the rest are the first legal action."""

import json

from _tiny import every, first_legal, serve

CARDS = [rank + suit for suit in "CDHS" for rank in "789TJQKA"]
CALLS = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps", "pass", "contra", "recontra"]


def answer(message: dict, n: int) -> str:
    if n % every():
        return json.dumps(first_legal(message))
    if message["contract"] is None:
        return json.dumps({"call": next(c for c in CALLS if c not in message["legal"])})
    # A card that is not legal: someone else's, already played, or one that does not follow suit.
    return json.dumps({"card": next(c for c in CARDS if c not in message["legal"])})


serve("illegal", answer)
