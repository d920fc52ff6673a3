"""One run of an external program: its process, and the threads that keep every wait on it bounded.

One thread reads its answers into a queue (the referee waits on the queue with a deadline), one drains its standard
error (kept as a short tail for messages about a crash), and one writes to it (so a program that stops reading cannot
block the table).
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Final

STDERR_TAIL: Final = 20  # lines of the program's standard error kept for crash messages


class AgentProcess:
    """One run of the program, with its reader, stderr drain and writer threads."""

    def __init__(self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str] | None) -> None:
        self.popen: subprocess.Popen[str] = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
            env=None if env is None else dict(env),
            # Its own process group, so that stopping it also stops whatever it started.
            start_new_session=os.name == "posix",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()  # None: its standard output closed
        self.outbox: queue.Queue[str | None] = queue.Queue()  # None: close its standard input
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self.eof = False
        self._threads = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
            threading.Thread(target=self._write, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            for line in self.popen.stdout:
                self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.popen.stderr is not None
        with contextlib.suppress(OSError, ValueError):
            for line in self.popen.stderr:
                self.stderr_tail.append(line.rstrip("\n"))

    def _write(self) -> None:
        stdin = self.popen.stdin
        assert stdin is not None
        try:
            while (line := self.outbox.get()) is not None:
                stdin.write(line + "\n")
                stdin.flush()
        except (OSError, ValueError):
            pass  # it closed its input or died; the reader sees the rest
        finally:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

    def send(self, line: str) -> None:
        self.outbox.put(line)

    def next_line(self, deadline: float) -> str | None:
        """The next non-blank line before ``deadline``; None at end of output. Raises queue.Empty on time out."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise queue.Empty
            line = self.lines.get(timeout=remaining)
            if line is None:
                self.eof = True
                return None
            if line.strip():
                return line

    def stale_lines(self) -> list[str]:
        """Lines that arrived while no question was open."""
        stale: list[str] = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return stale
            if line is None:
                self.eof = True
                self.lines.put(None)  # keep the end visible to the next reader
                return stale
            if line.strip():
                stale.append(line)

    @property
    def alive(self) -> bool:
        return not self.eof and self.popen.poll() is None

    def describe_exit(self) -> str:
        """How it ended, for a person: exit status or signal, and the last lines of its error output."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=0.5)  # its output may close a moment before it has exited
        code = self.popen.poll()
        status = "closed its output but is still running" if code is None else f"exited with status {code}"
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                status = f"was killed by {signal.Signals(-code).name}"
        tail = " | ".join(list(self.stderr_tail)[-3:])
        return status + (f"; its last error output: {tail}" if tail else "")

    def stop(self, grace: float) -> None:
        """Close its input, give it ``grace`` seconds to exit, then kill it (and its process group)."""
        self.outbox.put(None)
        try:
            self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=5)
        for thread in self._threads:
            thread.join(timeout=1)
        for stream in (self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def _kill(self) -> None:
        if os.name == "posix":
            with contextlib.suppress(OSError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.popen.kill()
