"""Lines from standard input, read on the event loop itself.

A thread blocked in ``input()`` cannot be interrupted: after Ctrl-C the process waits for that thread, that is for
Enter. Waiting for the file descriptor to become readable instead lets Ctrl-C cancel the wait at once, and Ctrl-D
(end of input) still ends it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import TextIO


class LineReader:
    """``await reader(prompt)``: the next line typed (without its newline), or None at the end of input."""

    def __init__(self, out: TextIO, fd: int | None = None) -> None:
        self.out = out
        self._fd = fd  # standard input's, looked up at the first read (watching four bots never reads)
        self._buffer = b""
        self._ended = False

    @property
    def fd(self) -> int:
        if self._fd is None:
            self._fd = sys.stdin.fileno()
        return self._fd

    async def _readable(self) -> None:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(self.fd, wake)
        except (PermissionError, ValueError, NotImplementedError):
            return  # a regular file is always readable (the loop cannot even watch it)
        try:
            await ready
        finally:
            loop.remove_reader(self.fd)

    async def __call__(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        while b"\n" not in self._buffer and not self._ended:
            await self._readable()
            chunk = os.read(self.fd, 4096)
            if chunk:
                self._buffer += chunk
            else:
                self._ended = True
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r")
