"""Plays the first legal action, writes a lot to standard error, and answers deal_end too (which nobody asked)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    sys.stderr.write("thinking " * 20000 + "\n")  # far more than a pipe holds
    sys.stderr.flush()
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "belote-agent/1", "name": "chatty"}), flush=True)
    elif message["type"] == "act":
        first = message["legal"][0]
        print(json.dumps({"call": first} if message["contract"] is None else {"card": first}), flush=True)
    elif message["type"] == "deal_end":
        print(json.dumps({"thanks": True}), flush=True)
    elif message["type"] == "quit":
        break
