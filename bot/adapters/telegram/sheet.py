"""``/sheet``: the chat's score sheet in a Telegram group (or a private chat).

The sheet, its keeper and its history are ``bot.calculator.book``'s; this module reads the command's words, says who
writes (a group admin is asked of Telegram only when the writer is not the sheet's keeper) and answers in the chat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from telegram import Message, User
from telegram.constants import ChatType

from bot.calculator.book import (
    HISTORY_HEAD,
    NO_HISTORY,
    RESTORE_HOW,
    RESTORED,
    WHO_MAY,
    SheetBook,
    Writer,
    sheet_error_text,
)
from bot.calculator.errors import CalculatorError, Msg
from bot.calculator.sheet import SheetError
from bot.calculator.sheets import Line, Sheet, entry_on, sheet_game, write_entry
from bot.calculator.small_request import SEATS
from bot.calculator.written import line_number, whole_number
from bot.core.messages import TELEGRAM
from bot.i18n import Translator, translator

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

# How a sheet of the game a refused line belongs to is started ({word} is the game's word for /sheet new).
START_OTHER: Final = Msg("/sheet new {word} starts a sheet of {game}; this one stays in /sheet history.")
_SUB_SHOW: Final = frozenset({"show", "покажи"})
_SUB_NEW: Final = frozenset({"new", "нова", "нов"})
_SUB_ADD: Final = frozenset({"add", "добави", "+"})
_SUB_UNDO: Final = frozenset({"undo", "отмени", "назад"})
_SUB_FIX: Final = frozenset({"fix", "correct", "поправи", "поправка"})
_SUB_HISTORY: Final = frozenset({"history", "история"})
_SUB_RESTORE: Final = frozenset({"restore", "върни"})


class SheetCommands:
    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter
        self.book = SheetBook(adapter.host.storage, TELEGRAM)

    async def chat_key(self, message: Message) -> tuple[int, str, int | None]:
        """(chat id, the sheet's key, topic) of a message's chat; a group since upgraded means its supergroup."""
        chat_id = await self.adapter.current_chat(message.chat.id)
        thread = message.message_thread_id if message.is_topic_message else None
        return chat_id, (f"{chat_id}/{thread}" if thread else str(chat_id)), thread

    def writer(self, message: Message, sender: User) -> Writer:
        """Who writes on the sheet; whether they are an admin is asked of Telegram only when it matters."""

        async def is_admin() -> bool:
            if message.chat.type == ChatType.PRIVATE:
                return True  # a private chat's sheet is the person's own
            if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
                return True  # an admin writing anonymously, as the group itself
            return await self.adapter._is_admin(message.chat, sender.id)

        return Writer(str(sender.id), sender.full_name, is_admin)

    @staticmethod
    def error_text(err: SheetError | CalculatorError, lang: str) -> str:
        return sheet_error_text(err, lang, START_OTHER)

    def line_text(self, sheet: Sheet, number: int, lang: str) -> str:
        history = sheet.history(lang)
        return "\n".join([history[0], history[number], history[-1]])

    async def on_sheet(self, message: Message, sender: User, lang: str, args: list[str]) -> None:
        """``/sheet [sub] [words]`` from ``sender``, answered in ``lang``."""
        t = translator(lang)
        sub = args[0].lower() if args else "show"
        rest = args[1:]
        _, chat_key, _ = await self.chat_key(message)
        writer = self.writer(message, sender)
        book = self.book
        try:
            if sub in _SUB_NEW:
                game, names = sheet_game(rest)
                seats = SEATS.get(game)
                if names and seats is not None and len(names) != seats:
                    self.adapter.reply(message, t.gettext(
                        "Name all {n} players, or none: /sheet new {game} {example}.", n=seats, game=game,
                        example=" ".join(("Ana", "Ivo", "Mara")[:seats])))
                    return
                if names and seats is None and len(names) != 2:
                    self.adapter.reply(message, t.gettext("Name both teams, or none: /sheet new Us Them."))
                    return
                sheet = await book.new(chat_key, writer, names, game)
                self.adapter.reply(message, t.gettext("A new sheet.") + "\n" + "\n".join(sheet.history(lang)))
                return
            if sub in _SUB_HISTORY:
                old = await book.history(chat_key, lang)
                self.adapter.reply(message, "\n".join([(HISTORY_HEAD if old else NO_HISTORY).render(lang), *old]))
                return
            if sub in _SUB_RESTORE:
                number = whole_number(rest[0]) if len(rest) == 1 else None
                if number is None:
                    raise SheetError(RESTORE_HOW, "number")
                sheet = await book.restore(chat_key, writer, number)
                self.adapter.reply(message, RESTORED.render(lang) + "\n" + "\n".join(sheet.history(lang)))
                return
            if sub in _SUB_SHOW:
                self.adapter.reply(message, "\n".join((await book.load(chat_key)).history(lang)))
                return
            if sub in _SUB_ADD and rest:

                def write(sheet: Sheet) -> Line:
                    return write_entry(sheet, entry_on(sheet, rest, lang))

                sheet, line = await book.add(chat_key, writer, write)
                self.adapter.reply(message, self.line_text(sheet, line.number, lang))
                return
            if sub in _SUB_UNDO:
                sheet, removed = await book.undo(chat_key, writer)
                self.adapter.reply(
                    message,
                    t.gettext("Line {n} removed.", n=removed.number) + "\n" + "\n".join(sheet.history(lang)),
                )
                return
            if sub in _SUB_FIX:
                if len(rest) < 2:
                    self.adapter.reply(
                        message, t.gettext("Say which line: /sheet fix 2 80 82, or /sheet fix 2 hearts 102.")
                    )
                    return
                number, what = line_number(rest[0]), rest[1:]
                current = await book.load(chat_key)
                sheet = await book.fix(chat_key, writer, number, entry_on(current, what, lang))
                self.adapter.reply(message, "\n".join(sheet.history(lang)))
                return
        except (SheetError, CalculatorError) as err:
            self.adapter.reply(message, self.error_text(err, lang))
            return
        self.adapter.reply(message, self.usage(t))

    @staticmethod
    def usage(t: Translator) -> str:
        return t.gettext(
            "The score sheet: /sheet shows it; /sheet add 90 72 (two numbers) or /sheet add hearts 102 (a deal); "
            "/sheet undo; /sheet fix 2 80 82; /sheet new [team] [team]."
        ) + "\n" + t.gettext(
            "A Bela or French match: /sheet new bela [team] [team] (or belote), then /sheet add mi 92 zvanje 50 bela "
            "or /sheet add — 162 (a fall written by hand)."
        ) + "\n" + WHO_MAY.render(t.lang)
