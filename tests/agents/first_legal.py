"""A tiny belote-agent/1 program for the tests: it plays the first legal action, in no language but JSON."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        answer = {"type": "hello", "protocol": "belote-agent/1", "name": "first-legal"}
    elif message["type"] == "act":
        first = message["legal"][0]
        answer = {"call": first} if message["contract"] is None else {"card": first}
    elif message["type"] == "quit":
        break
    else:
        continue
    print(json.dumps(answer), flush=True)
