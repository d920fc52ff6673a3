"""A chat platform made of one terminal: the group's messages are printed as they change, the player's private
view is printed with its buttons numbered, and a number typed presses that button.

It is an adapter like the others: it only turns ``OutMessage``s into text and typed numbers into ``Host.press``.
A terminal scrolls and cannot edit a line, so it prints what is new: each call once the auction is over, each
finished trick, each result, never the "whose turn" line (the prompt says it when it is the player's turn).
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from bot.core import names
from bot.core.host import Host
from bot.core.messages import TERMINAL, Button, ChatRef, OutMessage, UserRef
from bot.core.payload import decode, encode
from bot.core.review import REVIEW_ACTION
from bot.core.tracker import TRACKER_ACTION
from bot.i18n import LANGUAGES, Translator, translator

from .reader import LineReader

_BOLD = re.compile(r"\*\*(.+?)\*\*")
ReadLine = Callable[[str], Awaitable[str | None]]
QUIT_WORDS = frozenset({"q", "quit", "exit", "к", "край"})
TRACKER_WORDS = frozenset({"t", "т"})
REVIEW_WORDS = frozenset({"r", "р"})  # the hard bot's review of the player's last finished deal


def render_markup(text: str, ansi: bool) -> str:
    """``**bold**`` as ANSI bold on a terminal, or plain."""
    return _BOLD.sub((lambda m: f"\033[1m{m.group(1)}\033[0m") if ansi else (lambda m: m.group(1)), text)


def _prefix(tr: Translator, msgid: str) -> str:
    """The fixed start of a translated line template ("Turn: {name}" -> "Turn: ")."""
    return tr.gettext(msgid).split("{", 1)[0]


def _growth(line: str, printed: set[str]) -> str:
    """A line that extends one printed before ("Announced: A: tierce" -> "Announced: A: tierce; B: belote") as its
    label and what was added ("Announced: … B: belote")."""
    label, sep, _ = line.partition(": ")
    grown = [p for p in printed if p != line and line.startswith(p) and len(p) > len(label) + len(sep)]
    if not sep or not grown:
        return line
    return f"{label}{sep}… " + line[len(max(grown, key=len)):].lstrip(",; ")


class _Lines:
    """Recognises the group view's lines in every language by the start of their template."""

    def __init__(self) -> None:
        trs = [translator(lang) for lang in LANGUAGES]
        self.turn = tuple(_prefix(tr, "Turn: {name}") for tr in trs)
        self.trick = tuple(_prefix(tr, "Trick: {cards}") for tr in trs)
        self.tally = tuple(_prefix(tr, "Tricks: A {a} · B {b}") for tr in trs)
        self.auction = tuple(_prefix(tr, m) for tr in trs for m in ("Auction: {calls}", "Calls: {calls}"))
        contracts = ("Contract: {contract} by {name} ({team})", "Trump: {suit}, named by {name} ({team})")
        self.contract = tuple(_prefix(tr, m) for tr in trs for m in contracts)
        self.passed = tuple(tr.gettext("Everyone passed: the cards are dealt again.") for tr in trs)
        self.hand = tuple(_prefix(tr, "Your hand: {cards}") for tr in trs)

    def group_lines(self, lines: list[str]) -> list[str]:
        """The lines worth printing: no turn, trick in progress or trick count (each finished trick's line says who
        took it, and the deal's result gives the totals), and the auction only once it is over."""
        auction_over = any(ln.startswith(self.contract) or ln in self.passed for ln in lines)
        return [ln for ln in lines if not ln.startswith((*self.turn, *self.trick, *self.tally))
                and (auction_over or not ln.startswith(self.auction))]


class TerminalTable:
    """Drives one table in a terminal. ``user`` None: nobody plays, four bots do (``watch``).

    ``language`` is the language of a new table and of the screen; ``keep_language`` lets a resumed table keep its
    own (the screen follows it) instead of switching it to ``language``.
    """

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
        keep_language: bool = False,
        fresh: bool = False,
        game: str | None = None,
    ) -> None:
        """``game``: the game of a new table (a name of bot.engine.game.VARIANTS; None: the one played last)."""
        self.host = host
        self.game = game
        self.out = out if out is not None else sys.stdout
        self.ansi = ansi if ansi is not None else bool(getattr(self.out, "isatty", lambda: False)())
        self.user = user
        self.language = language
        self.keep_language = keep_language
        self.fresh = fresh
        tr = translator(language)
        self.watcher = UserRef(TERMINAL, "watcher", tr.gettext("Watcher"), language)
        self.chat = ChatRef(TERMINAL, chat_id, title=tr.gettext("terminal"))
        self.read_line = read_line or LineReader(self.out)
        self.table_id = ""
        self._printed: dict[str, set[str]] = {}
        self._hand_printed: set[str] = set()
        self._group_recent: set[str] = set()  # the group's lines printed since the hand was last shown
        self._lines = _Lines()
        self._hand: OutMessage | None = None
        self._changed = asyncio.Event()
        self._over = asyncio.Event()
        host.add_sink(TERMINAL, self.deliver)

    @property
    def tr(self) -> Translator:
        return translator(self.language)

    def _print(self, text: str) -> None:
        self.out.write(render_markup(text, self.ansi) + "\n")
        self.out.flush()

    async def deliver(self, msg: OutMessage) -> None:
        """The sink: print what is new in each group message, and remember the player's private view."""
        if not self.table_id or (msg.table_id and msg.table_id != self.table_id):
            return  # before this terminal's table is chosen (the host re-renders every table at its start)
        if isinstance(msg.audience, UserRef):
            if self.user is not None and msg.audience == self.user and msg.kind == "hand":
                self._hand = msg
                self._changed.set()
            return
        if msg.kind == "lobby" and msg.buttons:
            return  # the seats are taken and the bots added by this program: nothing to ask the person
        lines = msg.text.split("\n")
        if msg.kind == "table":
            lines = self._lines.group_lines(lines)
        printed = self._printed.setdefault(msg.key, set())
        fresh = lines if msg.notify else [ln for ln in lines if ln not in printed]
        printed.update(fresh)
        if fresh:
            self._print("\n".join(_growth(ln, printed | self._hand_printed) for ln in fresh))
            self._group_recent.update(lines)
        if msg.kind == "result" and msg.key.endswith(":end"):
            self._over.set()
            self._changed.set()

    async def _open(self, seats: int) -> bool:
        """Open (or resume) this terminal's table with ``seats`` bots; False if the host refuses."""
        opener = self.user or self.watcher
        existing = self.host.table_for_chat(self.chat)
        if existing is not None and self.fresh:
            await self.host.command(self.chat, opener, "stop")
            existing = self.host.table_for_chat(self.chat)
        if existing is not None:
            table = self.host.table(existing)
            if table is not None and self.keep_language:
                self.language = table.options.lang
            elif table is not None and self.language and table.options.lang != self.language:
                await self.host.set_chat_language(self.chat, self.language)
            if self.user is not None and self.language:
                await self.host.set_user_language(self.user, self.language)
            self.table_id = existing
            self._print(self.tr.gettext("Resuming table {table}.", table=existing))
            if table is not None and self.game is not None and table.game != self.game:
                self._print(self.tr.gettext("That table plays {game}; --new starts a new table.",
                                            game=names.game_name(table.game, self.tr)))
            await self.host.command(self.chat, opener, "view")
            return True
        args = [f"lang={self.language}"] if self.language else []
        if self.game is not None:
            args.append(f"game={self.game}")
        answer = await self.host.command(self.chat, opener, "new", [*args, "tracker=on"])
        if not answer.ok:
            self._print(answer.text)
            return False
        self.table_id = answer.table_id  # its lobby asks to take seats and add bots: this program does that
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
        try:
            if not await self._open(4):
                return 1
            await self._over.wait()
        except asyncio.CancelledError:
            self._print("\n" + self.tr.gettext("The table is saved; run the same command to resume it."))
            raise
        await self.host.idle()
        return 0

    async def play(self) -> int:
        """The person plays seat 1 against bots in the other seats; returns when the match ends or input ends. Ctrl-C
        (a cancellation) says, in the table's language, that the table is saved."""
        if self.user is None:
            raise ValueError("play needs a user")
        try:
            if not await self._open(3):
                return 1
            return await self._play(self.user)
        except asyncio.CancelledError:
            self._print("\n" + self.tr.gettext("The table is saved; run the same command to resume it."))
            raise

    def _show_hand(self, hand: OutMessage) -> None:
        """The private view's new lines: the hand and the trick in progress always, the rest when it changed and
        the group's view did not just print it."""
        lines = hand.text.split("\n")
        known = self._hand_printed | self._group_recent
        always = (*self._lines.hand, *self._lines.trick)
        shown = [ln if ln.startswith(always) else _growth(ln, known) for ln in lines
                 if ln not in known or ln.startswith(always)]
        self._hand_printed = set(lines)
        self._group_recent.clear()
        self._print("\n" + "\n".join(shown))

    async def _play(self, user: UserRef) -> int:
        while not self._over.is_set():
            await self._changed.wait()
            self._changed.clear()
            hand = self._hand
            if self._over.is_set() or hand is None or not hand.buttons:
                continue
            buttons: list[Button] = [b for row in hand.buttons for b in row
                                     if decode(b.payload).action != TRACKER_ACTION]
            if not buttons:
                continue
            self._show_hand(hand)
            self._print("  ".join(f"[{i}] {b.label}" for i, b in enumerate(buttons, 1)))
            chosen = await self._choose(user, buttons)
            if chosen is None:
                self._print(self.tr.gettext("The table is saved; run the same command to resume it."))
                return 0
            answer = await self.host.press(user, chosen.payload)
            if answer.text:
                self._print(answer.text)
            if not answer.ok and answer.view is not None:
                self._hand = answer.view
                self._changed.set()
        await self.host.idle()
        return 0

    async def _review(self, user: UserRef) -> str:
        """The review of the last finished deal for the player's seat (``bot.core.review``), or why there is none."""
        table = self.host.table(self.table_id)
        match = table.match if table is not None else None
        if table is None or match is None:
            return self.tr.gettext("No deal has ended yet.")
        done = len(match.deals) if match.deals and match.deals[-1].phase == "done" else len(match.deals) - 1
        if done < 1:
            return self.tr.gettext("No deal has ended yet.")
        self._print(self.tr.gettext("Reviewing the deal…"))
        answer = await self.host.press(user, encode(self.table_id, table.version, f"{REVIEW_ACTION}:{done}"))
        return answer.text

    async def _choose(self, user: UserRef, buttons: list[Button]) -> Button | None:
        """Ask until the person names a button (Enter takes the only one, e.g. a pass); None: quit or input ended.
        ``t`` answers with the card tracker and asks again."""
        tr = self.tr
        only = buttons[0] if len(buttons) == 1 else None
        prompt = (tr.gettext("Your choice (Enter: {action}; t: cards played; r: review; q: quit): ",
                             action=only.label)
                  if only else tr.gettext("Your choice (number; t: cards played; r: review; q: quit): "))
        while True:
            line = await self.read_line(prompt)
            if line is None:
                return None
            choice = line.strip().lower()
            if choice in QUIT_WORDS:
                return None
            if choice in TRACKER_WORDS:
                table = self.host.table(self.table_id)
                version = table.version if table is not None else 0
                answer = await self.host.press(user, encode(self.table_id, version, TRACKER_ACTION))
                self._print(answer.text)
                continue
            if choice in REVIEW_WORDS:
                self._print(await self._review(user))
                continue
            if only is not None and not choice:
                return only
            if choice.isdigit() and 1 <= int(choice) <= len(buttons):
                return buttons[int(choice) - 1]
            self._print(tr.gettext("Type a number from 1 to {n}.", n=len(buttons)))
