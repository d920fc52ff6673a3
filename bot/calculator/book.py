"""A chat's score sheet as the chat keeps it: who keeps it, who may replace it, and the history of what was replaced.

Anyone in the chat may add a line. Starting a new sheet, undoing a line, correcting one or bringing an old sheet
back changes what others wrote, so it needs the sheet's keeper (who started it) or one of the chat's admins; the
platform's adapter says who is an admin. Every such change first puts the sheet as it was into the chat's history
(``Storage.replace_sheet``), so ``restore`` can bring back anything removed. A sheet without lines, or one kept
before keepers were recorded, has nothing to protect: anyone may replace it, and whoever writes on a sheet without a
keeper becomes its keeper.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .errors import CalculatorError, Msg
from .family_score import GAME_NAMES
from .family_sheet import WrongGame
from .sheet import SheetError
from .sheets import Entry, Line, Sheet, correct_entry, load_sheet, new_sheet

if TYPE_CHECKING:  # the book is handed a storage; the calculator itself stores nothing
    from bot.storage.base import OldSheet, Storage

SHOWN_OLD: Final = 10  # how many replaced sheets /sheet history lists
KEPT_ONCE: Final = 10_000  # "Add to the sheet" presses remembered (their button is gone or forgotten after)

# Texts both platforms show around the history.
HISTORY_HEAD: Final = Msg("Sheets as they were before each change (newest first); /sheet restore with a number "
                          "brings one back.")
NO_HISTORY: Final = Msg("No sheet has been replaced or changed here.")
RESTORED: Final = Msg("The old sheet is back; the one it replaced is in /sheet history.")
NOTHING_LOST: Final = Msg("Nothing is lost: /sheet history lists the sheets as they were before each change.")
WHO_MAY: Final = Msg("Anyone may add a line. A new sheet, an undo, a correction or a restore needs the sheet's keeper "
                     "(who started it) or an admin. Nothing is lost: /sheet history lists the sheets as they were "
                     "before each change, and /sheet restore with a number brings one back.")
ALREADY_ADDED: Final = Msg("that deal is on the sheet already")
RESTORE_HOW: Final = Msg("say which one by its number in /sheet history, e.g. /sheet restore 2")

# What replaced a sheet, as the history names it.
REASONS: Final = {
    "new": Msg("replaced by a new sheet"),
    "undo": Msg("before an undo"),
    "fix": Msg("before a correction"),
    "restore": Msg("replaced by a restored sheet"),
    "moved": Msg("kept in the group before it became a supergroup"),
}


@dataclass(frozen=True, slots=True)
class Writer:
    """Who asks for a change: their id and name on the platform, and how to learn whether they are a chat admin
    (asked only when they are not the keeper, so a keeper's change costs no request to the platform)."""

    user_id: str
    name: str
    is_admin: Callable[[], Awaitable[bool]]


class NotAllowed(SheetError):
    """The person may not change what others wrote on this sheet."""


def sheet_error_text(err: SheetError | CalculatorError, lang: str, start_other: Msg) -> str:
    """A refused sheet change as the chat shows it. A line of another game is followed by how to start a sheet
    of that game (``start_other``, the platform's own wording, with {game} and {word}); a change the person may not
    make, by the reminder that nothing is lost."""
    if isinstance(err, CalculatorError):
        return "\n".join(err.render(lang))
    if isinstance(err, NotAllowed):
        return err.render(lang) + "\n" + NOTHING_LOST.render(lang)
    if isinstance(err, WrongGame) and err.other in GAME_NAMES:
        start = Msg(start_other.msgid, {"game": GAME_NAMES[err.other], "word": err.other})
        return err.render(lang) + "\n" + start.render(lang)
    return err.render(lang)


class SheetBook:
    """The score sheets of one platform's chats, in storage."""

    def __init__(self, storage: Storage, platform: str) -> None:
        self.storage = storage
        self.platform = platform
        self._locks: dict[str, asyncio.Lock] = {}
        self._added: OrderedDict[str, None] = OrderedDict()  # ``once`` keys already added, the latest KEPT_ONCE
        self._waiting: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def _turn(self, chat: str) -> AsyncIterator[None]:
        """One change of a chat's sheet at a time: several people adding at the same instant each get their line
        (a read, a change and a write of the whole sheet must not interleave)."""
        lock = self._locks.setdefault(chat, asyncio.Lock())
        self._waiting[chat] = self._waiting.get(chat, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._waiting[chat] -= 1
            if not self._waiting[chat]:
                del self._waiting[chat], self._locks[chat]

    async def load(self, chat: str) -> Sheet:
        """The chat's sheet as the game it keeps (a new empty Bulgarian one if it has none); SheetError when the
        stored one cannot be read."""
        stored = await self.storage.get_sheet(self.platform, chat)
        return new_sheet("bulgarian") if stored is None else load_sheet(stored)

    async def _allow(self, chat: str, writer: Writer, what: Msg) -> None:
        keeper = await self.storage.get_sheet_keeper(self.platform, chat)
        if keeper is None or keeper[0] == writer.user_id:
            return
        stored = await self.storage.get_sheet(self.platform, chat)
        if isinstance(stored, dict) and not stored.get("lines"):
            return  # an empty sheet: nothing to lose
        if await writer.is_admin():
            return
        raise NotAllowed(Msg(
            "only the sheet's keeper, {keeper}, or an admin can {what}; anyone may add a line",
            {"keeper": keeper[1] or keeper[0], "what": what}))

    async def _replace(self, chat: str, sheet: Sheet | None, keeper: tuple[str, str] | None, reason: str,
                       writer: Writer) -> None:
        data = None if sheet is None else sheet.to_json()
        await self.storage.replace_sheet(self.platform, chat, data, keeper, reason, writer.name)

    # --- anyone ---

    async def add(self, chat: str, writer: Writer, write: Callable[[Sheet], Line],
                  once: str | None = None) -> tuple[Sheet, Line]:
        """Add a line (``write`` adds it to the sheet it is given); the first writer of a sheet without a keeper
        becomes its keeper. ``once``: a key of what is added (an answer's "Add to the sheet" button); a second add
        with the same key, pressed at the same instant or later, is refused."""
        async with self._turn(chat):
            if once is not None and once in self._added:
                raise SheetError(ALREADY_ADDED)
            sheet = await self.load(chat)
            line = write(sheet)
            keeper = await self.storage.get_sheet_keeper(self.platform, chat)
            await self.storage.set_sheet(self.platform, chat, sheet.to_json(),
                                         (writer.user_id, writer.name) if keeper is None else None)
            if once is not None:
                self._added[once] = None
                while len(self._added) > KEPT_ONCE:
                    self._added.popitem(last=False)
        return sheet, line

    async def history(self, chat: str, lang: str) -> list[str]:
        """The replaced sheets, newest first, one line each; empty when there are none."""
        return [self.describe(old, lang) for old in await self.storage.old_sheets(self.platform, chat, SHOWN_OLD)]

    @staticmethod
    def describe(old: OldSheet, lang: str) -> str:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(old.at))
        try:
            sheet = load_sheet(old.data)
        except SheetError:
            what = Msg("cannot be read")
        else:
            names = sheet.names(lang)
            if len(names) == 2:
                what = Msg("{a} {ta} : {tb} {b}, {n} lines", {"a": names[0], "b": names[1], "ta": sheet.totals[0],
                                                              "tb": sheet.totals[1], "n": len(sheet.lines)})
            else:  # a sheet of three players
                what = Msg("{totals}, {n} lines", {"totals": ", ".join(
                    f"{name} {total}" for name, total in zip(names, sheet.totals, strict=True)), "n": len(sheet.lines)})
        params = {"number": old.number, "when": when, "reason": REASONS.get(old.reason, Msg(old.reason)),
                  "by": old.by, "what": what}
        if not old.by:  # replaced by no one in particular (a chat's move)
            return Msg("{number}. {when}, {reason}: {what}", params).render(lang)
        return Msg("{number}. {when}, {reason} ({by}): {what}", params).render(lang)

    # --- the keeper or an admin ---

    async def new(self, chat: str, writer: Writer, teams: Sequence[str] | None, variant: str = "bulgarian") -> Sheet:
        """A new empty sheet of ``variant`` (bulgarian, bela or french), kept by the writer."""
        sheet = new_sheet(variant, teams or None)
        async with self._turn(chat):
            await self._allow(chat, writer, Msg("start a new sheet"))
            await self._replace(chat, sheet, (writer.user_id, writer.name), "new", writer)
        return sheet

    async def undo(self, chat: str, writer: Writer) -> tuple[Sheet, Line]:
        async with self._turn(chat):
            sheet = await self.load(chat)
            removed = sheet.undo()
            await self._allow(chat, writer, Msg("undo a line"))
            await self._replace(chat, sheet, await self._keeper_or(chat, writer), "undo", writer)
        return sheet, removed

    async def fix(self, chat: str, writer: Writer, number: int, entry: Entry) -> Sheet:
        async with self._turn(chat):
            sheet = await self.load(chat)
            correct_entry(sheet, number, entry)
            await self._allow(chat, writer, Msg("correct a line"))
            await self._replace(chat, sheet, await self._keeper_or(chat, writer), "fix", writer)
        return sheet

    async def restore(self, chat: str, writer: Writer, number: int) -> Sheet:
        """Bring back old sheet ``number``; the current sheet goes into the history in its place."""
        async with self._turn(chat):
            old = await self.storage.old_sheet(self.platform, chat, number)
            if old is None:
                raise SheetError(Msg("there is no old sheet {number}; /sheet history lists them",
                                     {"number": number}), "number")
            sheet = load_sheet(old.data)
            await self._allow(chat, writer, Msg("bring back an old sheet"))
            await self._replace(chat, sheet, old.keeper or (writer.user_id, writer.name), "restore", writer)
        return sheet

    async def _keeper_or(self, chat: str, writer: Writer) -> tuple[str, str]:
        return await self.storage.get_sheet_keeper(self.platform, chat) or (writer.user_id, writer.name)
