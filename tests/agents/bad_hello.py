"""Greets with a protocol this referee does not speak."""

import json
import sys

sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": "belote-agent/0", "name": "old"}), flush=True)
sys.stdin.readline()
