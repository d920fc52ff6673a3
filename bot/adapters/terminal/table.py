"""A chat platform made of one terminal: the group's messages are printed as they change, the player's private
view is printed with its buttons numbered, and a number typed presses that button.

It is an adapter like the others: it only turns ``OutMessage``s into text and typed numbers into ``Host.press``.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from bot.core.host import Host
from bot.core.messages import TERMINAL, Button, ChatRef, OutMessage, UserRef
from bot.i18n import translator

_BOLD = re.compile(r"\*\*(.+?)\*\*")
ReadLine = Callable[[str], Awaitable[str | None]]


def render_markup(text: str, ansi: bool) -> str:
    """``**bold**`` as ANSI bold on a terminal, or plain."""
    return _BOLD.sub((lambda m: f"\033[1m{m.group(1)}\033[0m") if ansi else (lambda m: m.group(1)), text)


async def _read_stdin(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class TerminalTable:
    """Drives one table in a terminal. ``user`` None: nobody plays, four bots do (``watch``)."""

    def __init__(
        self,
        host: Host,
        out: TextIO | None = None,
        *,
        user: UserRef | None = None,
        chat_id: str = "local",
        read_line: ReadLine | None = None,
        ansi: bool | None = None,
        language: str | None = None,
    ) -> None:
        self.host = host
        self.out = out if out is not None else sys.stdout
        self.ansi = ansi if ansi is not None else bool(getattr(self.out, "isatty", lambda: False)())
        self.user = user
        self.watcher = UserRef(TERMINAL, "watcher", "Watcher", language)
        self.chat = ChatRef(TERMINAL, chat_id, title="terminal")
        self.read_line = read_line or _read_stdin
        self.language = language
        self.table_id = ""
        self._shown: dict[str, list[str]] = {}
        self._hand: OutMessage | None = None
        self._changed = asyncio.Event()
        self._over = asyncio.Event()
        host.add_sink(TERMINAL, self.deliver)

    def _print(self, text: str) -> None:
        self.out.write(render_markup(text, self.ansi) + "\n")
        self.out.flush()

    async def deliver(self, msg: OutMessage) -> None:
        """The sink: print what is new in each message (only the lines that changed, for a message edited in
        place), and remember the player's private view."""
        if self.table_id and msg.table_id and msg.table_id != self.table_id:
            return
        if isinstance(msg.audience, UserRef):
            if self.user is None or msg.audience != self.user:
                return
            if msg.kind == "hand":
                self._hand = msg
                self._changed.set()
            return
        lines = msg.text.split("\n")
        before = self._shown.get(msg.key)
        fresh = lines if before is None or msg.notify else [ln for ln in lines if ln not in before]
        self._shown[msg.key] = lines
        if msg.kind == "table" and before is not None:
            fresh = [ln for ln in fresh if not ln.startswith(lines[0])]
        if fresh:
            self._print("\n".join(fresh))
        if msg.kind == "result" and msg.key.endswith(":end"):
            self._over.set()
            self._changed.set()

    async def _open(self, seats: int) -> bool:
        """Open (or resume) this terminal's table with ``seats`` bots; False if the host refuses."""
        opener = self.user or self.watcher
        existing = self.host.table_for_chat(self.chat)
        if existing is not None:
            self.table_id = existing
            self._print(translator(self.language).gettext("Resuming table {table}.", table=existing))
            await self.host.command(self.chat, opener, "view")
            return True
        answer = await self.host.command(self.chat, opener, "new", [f"lang={self.language}"] if self.language else [])
        if not answer.ok:
            self._print(answer.text)
            return False
        self.table_id = answer.table_id
        if self.user is None:
            await self.host.command(self.chat, opener, "leave")
        for _ in range(seats):
            await self.host.command(self.chat, opener, "addbot")
        start = await self.host.command(self.chat, opener, "start")
        if not start.ok:
            self._print(start.text)
            return False
        return True

    async def watch(self) -> int:
        """Four bots play one match to its end."""
        if not await self._open(4):
            return 1
        await self._over.wait()
        await self.host.idle()
        return 0

    async def play(self) -> int:
        """The person plays seat 1 against three bots; returns when the match ends or input ends."""
        if self.user is None:
            raise ValueError("play needs a user")
        if not await self._open(3):
            return 1
        tr = translator(self.language)
        while not self._over.is_set():
            await self._changed.wait()
            self._changed.clear()
            hand = self._hand
            if self._over.is_set() or hand is None or not hand.buttons:
                continue
            buttons: list[Button] = [b for row in hand.buttons for b in row]
            self._print("\n" + hand.text)
            self._print("  ".join(f"[{i}] {b.label}" for i, b in enumerate(buttons, 1)))
            while True:
                line = await self.read_line(tr.gettext("Your choice (number, q to quit): "))
                if line is None or line.strip().lower() in ("q", "quit", "exit"):
                    self._print(tr.gettext("The table is saved; run the same command to resume it."))
                    return 0
                choice = line.strip()
                if choice.isdigit() and 1 <= int(choice) <= len(buttons):
                    break
                self._print(tr.gettext("Type a number from 1 to {n}.", n=len(buttons)))
            answer = await self.host.press(self.user, buttons[int(choice) - 1].payload)
            if answer.text:
                self._print(answer.text)
            if not answer.ok and answer.view is not None:
                self._hand = answer.view
                self._changed.set()
        await self.host.idle()
        return 0
