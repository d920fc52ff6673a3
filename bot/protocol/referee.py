"""``ProcessAgent``: an external program, speaking ``belote-agent/1`` on its standard input/output, as an ``Agent``.

The referee side of the protocol, for every game of the family (formats.md §6, §7.6): the hello names the game the
program is asked to play (a program whose ``variants`` lack it is sent ``quit`` and not seated), and a program
seated for one game and then shown another's view is greeted afresh for that game. Play never stops for a
misbehaving program: an illegal answer, a line that is not JSON, an answer later than ``move_time`` seconds, or a
process that died is counted in ``errors`` (by kind), described in ``problems``, and answered with a legal fallback
(the first legal action), so the table goes on.

How answers are matched to questions: strictly in order, one answer per ``act`` (the protocol has no question
ids). A program that misses the time limit is stopped and started afresh (with a new ``hello``) right away, so
its late answer can never be taken for the answer to the next question. A program that may be out of
step is restarted the same way: when lines arrive while no question is open (an answer to ``deal_end``, a second
answer), after a malformed answer, and after a second bad answer in a row. A single illegal answer keeps the
program running: that is a wrong move, not a lost thread.

Every wait on the program is bounded by its three threads (``process.AgentProcess``).
"""

from __future__ import annotations

import logging
import os
import queue
import shlex
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import IO, Any, Final

from bot.engine import Action, card_str
from bot.engine.game import VARIANTS
from bot.engine.seatview import SeatView

from .messages import (
    BULGARIAN,
    ERROR_KINDS,
    ErrorKind,
    ProtocolError,
    View,
    act_message,
    check_hello,
    deal_end_message,
    decode,
    encode,
    fallback_action,
    game,
    game_of,
    hello_message,
    hello_variants,
    parse_answer,
    quit_message,
    refusal,
)
from .process import AgentProcess

log = logging.getLogger(__name__)

PROBLEMS_KEPT: Final = 50
QUIT_GRACE: Final = 1.0  # seconds a program has to exit after "quit"
DEFAULT_MOVE_TIME: Final = 1.0


def seen_record_fields(view: SeatView) -> dict[str, Any]:
    """The deal's record fields (formats §7.6.4) a seat's view shows: the turned card, the seven exchange once
    settled, the caller's own discard."""
    out: dict[str, Any] = {}
    if view.turned is not None:
        out["turned"] = card_str(view.turned)
    if view.exchanged is not None:
        out["exchange"] = view.exchanged
    if view.discard is not None:
        out["discard"] = [card_str(c) for c in view.discard]
    return out


def set_aside(hands: list[list[str]]) -> list[str]:
    """The bela-3 deal's two set-aside cards: the pack less the three 10-card hands, public once the deal is over."""
    dealt = {c for hand in hands for c in hand}
    return [card_str(c) for c in range(32) if card_str(c) not in dealt]


class AgentStartError(RuntimeError):
    """The program could not be started, or did not answer ``hello`` as the protocol says."""


class AgentRefusedGame(AgentStartError):
    """The program's hello lists the variants it plays, and the table's is not among them (formats §7.6.1)."""


class ProcessAgent:
    """An external program as a seat's player.

    ``command`` is a command line (split like a shell would, without running a shell) or an argument list.
    ``move_time`` is the time limit of one decision in seconds (None: ``DEFAULT_MOVE_TIME``); ``start_time`` the
    limit for starting up and answering ``hello``. ``variant`` and ``rules`` (the options that differ from the
    variant's defaults) name the game in the hello; a view of another game later greets the program afresh. The
    program is started here: a command that cannot start or does not greet raises AgentStartError, one that does not
    play the variant AgentRefusedGame. ``transcript``, if given, receives every line exchanged (``> `` to the
    agent, ``< `` from it).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        move_time: float | None = DEFAULT_MOVE_TIME,
        *,
        start_time: float = 10.0,
        name: str | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        max_restarts: int = 20,
        transcript: IO[str] | None = None,
        variant: str = BULGARIAN,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise AgentStartError("the agent command is empty")
        if move_time is None:
            move_time = DEFAULT_MOVE_TIME
        if move_time <= 0:
            raise ValueError("move_time must be a positive number of seconds")
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.move_time = move_time
        self.start_time = start_time
        self.cwd = cwd
        self.env = env
        self.max_restarts = max_restarts
        self.transcript = transcript
        self.game: tuple[str, dict[str, Any]] = game(variant, rules)
        self.refused: str | None = None  # why the program will not play the current game, once it said so
        self._deal_extra: dict[str, Any] = {}  # the current deal's public record fields (turned), for deal_end
        self.errors: dict[str, int] = dict.fromkeys(ERROR_KINDS, 0)
        self.problems: deque[str] = deque(maxlen=PROBLEMS_KEPT)
        self.restarts = 0
        self.decisions = 0
        self.think_time = 0.0  # seconds spent waiting for answers, over all decisions
        self.slowest = 0.0
        self._closed = False
        self._bad_in_a_row = 0
        self._process: AgentProcess | None = None
        try:
            self._process, greeted = self._start()
        except AgentStartError as exc:
            raise type(exc)(f"agent {self.command!r}: {exc}") from None
        self.name = name or greeted or os.path.basename(self.argv[0])

    # --- the Agent protocol ---

    def act(self, observation: View) -> Action:
        """The program's answer, checked; on any failure a legal fallback (and the failure counted)."""
        if self._closed:
            return fallback_action(observation)  # the table closed this seat while it was being asked
        if isinstance(observation, SeatView):
            self._deal_extra.update(seen_record_fields(observation))
        shown = game_of(observation)
        if shown != self.game:
            self._regreet(shown)
        if self.refused is not None:
            self._count("crash", self.refused)
            return fallback_action(observation)
        process = self._ready()
        if process is not None and self._discard_stale(process):
            # Out of step with the questions: start afresh so that answers match questions again.
            self._retire(process)
            process = self._ready()
        if process is None:
            self._count("crash", "the agent is not running and could not be restarted")
            return fallback_action(observation)
        started = time.monotonic()
        self._send(process, act_message(observation))
        timed_out = False
        try:
            line = process.next_line(started + self.move_time)
        except queue.Empty:
            line, timed_out = None, True
        spent = time.monotonic() - started
        self.decisions += 1
        self.think_time += spent
        self.slowest = max(self.slowest, spent)
        if self._closed:
            return fallback_action(observation)  # closed while thinking: stopped by us, not a failure
        if timed_out:
            self._count("timeout", f"no answer within {self.move_time:g} s; the agent is restarted")
            self._restart(process)
            return fallback_action(observation)
        if line is None:
            self._count("crash", f"the agent stopped while thinking: it {process.describe_exit()}")
            self._restart(process)
            return fallback_action(observation)
        self._note("<", line)
        try:
            action = parse_answer(decode(line), observation)
        except ProtocolError as exc:
            self._bad_in_a_row += 1
            # A line that is no answer, or a second bad answer in a row, may mean the program answers an earlier
            # message (say, a deal_end): it is started afresh, since no line says which question it answers.
            restart = exc.kind == "malformed" or self._bad_in_a_row >= 2
            self._count(exc.kind, exc.reason + ("; the agent is restarted" if restart else ""))
            if restart:
                self._restart(process)
            return fallback_action(observation)
        self._bad_in_a_row = 0
        return action

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        """``extra``: a family deal's record fields beside the hands (formats §7.6.4); by default what this seat's
        views of the deal showed (the turned card)."""
        seen, self._deal_extra = self._deal_extra, {}
        if extra is None and self.game[0] == "bela-3":
            seen = {"extra": set_aside(hands), **seen}
        if self._closed or self.refused is not None:
            return
        process = self._ready()
        if process is not None:
            self._send(process, deal_end_message(report, hands, seen if extra is None else extra))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        process, self._process = self._process, None
        if process is not None:
            if process.alive:
                self._send(process, quit_message())
            process.stop(QUIT_GRACE)

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def pid(self) -> int | None:
        """The process id of the running program, if one is running."""
        process = self._process
        return process.popen.pid if process is not None and process.alive else None

    # --- the process ---

    def _start(self) -> tuple[AgentProcess, str]:
        try:
            process = AgentProcess(self.argv, self.cwd, self.env)
        except OSError as exc:
            raise AgentStartError(f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        self._send(process, hello_message(*self.game))
        try:
            line = process.next_line(time.monotonic() + self.start_time)
        except queue.Empty:
            process.stop(0)
            raise AgentStartError(f"no hello within {self.start_time:g} s of starting") from None
        if line is None:
            process.stop(QUIT_GRACE)
            raise AgentStartError(f"it stopped before answering hello: it {process.describe_exit()}")
        self._note("<", line)
        try:
            hello = decode(line)
            name, variants = check_hello(hello), hello_variants(hello)
        except ProtocolError as exc:
            process.stop(0)
            raise AgentStartError(f"bad hello: {exc.reason}") from None
        refused = refusal(name, variants, self.game[0])
        if refused is not None:
            self._send(process, quit_message())
            process.stop(QUIT_GRACE)
            raise AgentRefusedGame(refused)
        return process, name

    def _regreet(self, wanted: tuple[str, dict[str, Any]]) -> None:
        """Seated for one game and shown another's view: start the program afresh with a hello naming that game.
        A change of table, not a failure, so it is not counted as a restart."""
        self.game = wanted
        self.refused = None
        process, self._process = self._process, None
        if process is not None:
            if process.alive:
                self._send(process, quit_message())
            process.stop(QUIT_GRACE)
        try:
            self._process, _ = self._start()
        except AgentRefusedGame as exc:
            self.refused = str(exc)
            self.problems.append(f"refused: {exc}")
            log.warning("agent %s: %s", self.command, exc)
        except AgentStartError as exc:
            self.problems.append(f"start for {wanted[0]} failed: {exc}")
            log.warning("agent %s: start for %s failed: %s", self.command, wanted[0], exc)

    def _ready(self) -> AgentProcess | None:
        """The running process, started afresh if it died or was retired; None if it cannot be started."""
        process = self._process
        if process is not None and not process.alive:
            stale = process.stale_lines()
            self._count("crash", f"the agent died between questions: it {process.describe_exit()}")
            if stale:
                self._count("malformed", f"an answer nobody asked for: {stale[0].strip()[:120]}")
            self._retire(process)
            process = None
        if process is None:
            if self.restarts >= self.max_restarts:
                return None
            self.restarts += 1
            try:
                process, _ = self._start()
            except AgentRefusedGame as exc:
                self.refused = str(exc)
                return None
            except AgentStartError as exc:
                self.problems.append(f"restart {self.restarts} failed: {exc}")
                log.warning("agent %s: restart %d failed: %s", self.command, self.restarts, exc)
                return None
            self._process = process
        return process

    def _restart(self, process: AgentProcess) -> None:
        """Replace a failed run now, while this decision is lost anyway, so that the next one is not delayed."""
        self._retire(process)
        self._ready()

    def _retire(self, process: AgentProcess) -> None:
        self._bad_in_a_row = 0
        process.stop(0)
        if self._process is process:
            self._process = None

    def _discard_stale(self, process: AgentProcess) -> bool:
        """Drop lines that came while no question was open; True if there were any."""
        stale = process.stale_lines()
        for line in stale:
            self._note("<", line)
        if stale:
            self._count("malformed", f"an answer nobody asked for: {stale[0].strip()[:120]}; the agent is restarted")
        return bool(stale)

    def _send(self, process: AgentProcess, message: dict[str, Any]) -> None:
        line = encode(message)
        self._note(">", line)
        process.send(line)

    def _count(self, kind: ErrorKind, reason: str) -> None:
        self.errors[kind] += 1
        self.problems.append(f"{kind}: {reason}")
        log.info("agent %s: %s: %s", self.command, kind, reason)

    def _note(self, direction: str, line: str) -> None:
        if self.transcript is not None:
            self.transcript.write(f"{direction} {line.rstrip()}\n")
