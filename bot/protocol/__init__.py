"""The open agent protocol ``belote-agent/1`` (formats.md §6, §7.6): any program plays a seat over JSON lines, in the
Bulgarian game, Bela or French belote.

- ``messages``: the messages both sides write, and the checking of an agent's answers against its observation.
- ``observation_json``: rebuilding an ``Observation`` from an ``act`` message (for agents written with our code).
- ``seatview_json``: rebuilding a family ``SeatView`` from a Bela or French ``act`` message.
- ``referee``: ``ProcessAgent``, an external program seated as an ``Agent``.
- ``process``: one run of such a program, with the threads that keep every wait on it bounded.
- ``agent_runner``: one of our bots speaking the protocol on standard input/output.
"""

PROTOCOL = "belote-agent/1"
