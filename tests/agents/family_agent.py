"""A belote-agent/1 program written from formats §7.6 alone: it plays Bela and French belote (and the Bulgarian game).

It answers the hello with the variants it plays (all three, or those named on the command line, comma-separated),
each act with the first legal action of its phase, announcing every declarable combination with its first card and
a belote whenever the message allows one.
"""

import json
import sys

variants = sys.argv[1].split(",") if len(sys.argv) > 1 else ["bulgarian", "bela", "french"]
TRUMP_PAIR = "KQ"

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        answer = {"type": "hello", "protocol": "belote-agent/1", "name": "family", "variants": variants}
    elif kind == "act":
        first = message["legal"][0]
        # "phase" names what to do (§7.6.2); a Bulgarian message (§6) has none: a null contract means the auction.
        phase = message.get("phase", "bid" if message["contract"] is None else "play")
        if phase == "bid":
            answer = {"call": first}
        else:
            answer = {"card": first}
            if message.get("declarable"):
                answer["declare"] = message["declarable"]
            trump = (message.get("contract") or " ")[0].upper()
            if message.get("belote") and first[0] in TRUMP_PAIR and first[1] == trump:
                answer["belote"] = True
    elif kind == "quit":
        break
    else:
        continue
    print(json.dumps(answer), flush=True)
