"""The open agent protocol ``belote-agent/1`` (formats.md §6): any program plays a seat over JSON lines.

- ``messages``: the messages both sides write, and the checking of an agent's answers against its observation.
- ``observation_json``: rebuilding an ``Observation`` from an ``act`` message (for agents written with our code).
- ``referee``: ``ProcessAgent``, an external program seated as an ``Agent``.
- ``agent_runner``: one of our bots speaking the protocol on standard input/output.
"""

PROTOCOL = "belote-agent/1"
