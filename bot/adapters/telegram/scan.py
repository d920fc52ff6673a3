"""Photos of won cards in Telegram (docs/scanner.md): a photo in the private chat, a photo captioned ``/score`` in
a group, or ``/score`` in reply to a photo; with вдп in the caption (or after ``/score``) the pack is read as
lettered В Д П. The flow itself is ``bot.core.scanflow``'s; this module downloads the photo (its announced size
checked first), posts the answer as a reply and edits it in place on each press.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Final

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import BaseHandler, CallbackQueryHandler, ContextTypes, MessageHandler, filters

from bot.core.messages import TELEGRAM
from bot.core.scanflow import MAX_PHOTO_BYTES, PATTERN, ScanFlow, ScanView, is_photo_file, letters_in
from bot.i18n import translator

from .outbox import Post
from .render import alert_text, to_html

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

log = logging.getLogger(__name__)

_SCORE: Final = re.compile(r"^/score(@\w+)?(\s|$)", re.IGNORECASE)
DOWNLOAD_SECONDS: Final = 30.0
_LETTERS_WORDS: Final = 12  # "/score в. д. п." at most: a longer text in reply to a photo is a deal to score


def file_url_of(setting: str) -> str | None:
    """Where a Bot API server serves files (``<root>/file/bot<token>/<path>``); None: the default, Telegram's."""
    url = setting.rstrip("/")
    if "{token}" in url:
        return None
    root = url.removesuffix("/bot")
    return None if root == "https://api.telegram.org" else root + "/file/bot"


def _has_image(message: Message | None) -> bool:
    if message is None:
        return False
    document = message.document
    return bool(message.photo) or (document is not None and is_photo_file(document.mime_type, document.file_name))


class _ReplyToPhoto(filters.MessageFilter):
    """``/score`` alone (or with the pack's letters, ``/score вдп``) in reply to a message with a photo; ``/score``
    with a deal is the calculator's."""

    def filter(self, message: Message) -> bool:
        text = message.text or ""
        match = _SCORE.match(text)
        if match is None or not _has_image(message.reply_to_message):
            return False
        rest = text[match.end():].strip()
        return not rest or (letters_in(rest) is not None and len(rest) <= _LETTERS_WORDS)


class _PhotoToScan(filters.MessageFilter):
    """A photo (or an image sent as a file) in a private chat, or anywhere with the caption ``/score``."""

    def filter(self, message: Message) -> bool:
        if not _has_image(message):
            return False
        return message.chat.type == ChatType.PRIVATE or bool(message.caption and _SCORE.match(message.caption))


class PhotoScans:
    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter
        self.flow = ScanFlow(adapter.host.storage, TELEGRAM)

    def handlers(self) -> list[BaseHandler[Update, ContextTypes.DEFAULT_TYPE, None]]:
        """Registered before ``/score``'s own handler, which then sees every other ``/score``."""
        return [
            MessageHandler(_ReplyToPhoto(), self.on_reply),
            MessageHandler(_PhotoToScan(), self.on_photo),
            CallbackQueryHandler(self.on_press, pattern=PATTERN),
        ]

    async def on_photo(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is not None:
            await self._scan(message, message)

    async def on_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is not None and message.reply_to_message is not None:
            await self._scan(message, message.reply_to_message)

    async def _scan(self, asked: Message, shown: Message) -> None:
        """Read the photo of ``shown`` for the person who sent ``asked`` (the same message, or a reply to it)."""
        sender = asked.from_user
        if sender is None:
            return
        from .adapter import user_ref

        user = user_ref(sender)
        if asked.chat.type == ChatType.PRIVATE:
            await self.adapter.private.opened(user)  # any private message shows the bot may write there
        lang = await self.adapter.language_for(asked, user)
        t = translator(lang)
        file_id, size = self._pick(shown)
        refusal = self.flow.too_large(size, lang)
        if refusal is not None or file_id is None:
            self.adapter.reply(asked, refusal or t.gettext("The photo could not be downloaded; send it again."))
            return
        try:
            file = await self.adapter.bot.get_file(file_id, read_timeout=DOWNLOAD_SECONDS)
            if file.file_size is not None and file.file_size > MAX_PHOTO_BYTES:
                self.adapter.reply(asked, self.flow.too_large(file.file_size, lang) or "")
                return
            data = bytes(await file.download_as_bytearray(read_timeout=DOWNLOAD_SECONDS))
        except TelegramError as err:
            log.info("a photo could not be downloaded: %s", err.message)
            self.adapter.reply(asked, t.gettext("The photo could not be downloaded; send it again."))
            return
        words = " ".join(filter(None, (asked.text, asked.caption, shown.caption)))
        _, sheet_key, _ = await self.adapter.calculator.sheets.chat_key(asked)
        opened = await self.flow.open(data, str(sender.id), lang, letters_in(words), sheet_key)
        if opened.scan_id is None:
            self.adapter.reply(asked, opened.view.text)
            return
        thread = asked.message_thread_id if asked.is_topic_message else None
        self.adapter.outbox.put(Post(asked.chat.id, to_html(opened.view.text), self._markup(opened.view),
                                     key=f"scan:{opened.scan_id}", thread_id=thread, reply_to=asked.message_id))

    @staticmethod
    def _pick(message: Message) -> tuple[str | None, int | None]:
        """The file to read and its announced size: the largest photo size within the limit (Telegram keeps
        several), or the image file."""
        if message.photo:
            sizes = sorted(message.photo, key=lambda p: p.width * p.height)
            fitting = [p for p in sizes if (p.file_size or 0) <= MAX_PHOTO_BYTES]
            chosen = fitting[-1] if fitting else sizes[-1]
            return chosen.file_id, chosen.file_size
        if message.document is not None:
            return message.document.file_id, message.document.file_size
        return None, None

    @staticmethod
    def _markup(view: ScanView) -> InlineKeyboardMarkup | None:
        if not view.rows:
            return None
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(b.label, callback_data=b.payload) for b in row] for row in view.rows]
        )

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        from .adapter import user_ref

        lang = await self.adapter.host.user_language(user_ref(query.from_user))
        pressed = await self.flow.press(str(query.from_user.id), lang, query.data or "")
        await self._answer(query, pressed.note)
        message = query.message
        if pressed.view is None or not isinstance(message, Message):
            return
        thread = message.message_thread_id if message.is_topic_message else None
        markup = self._markup(pressed.view)
        if pressed.view.sheet is not None:  # scored: the deal may go on the chat's sheet, as a typed one's
            markup = await self.adapter.calculator.sheet_button(pressed.view.sheet, pressed.view.sheet_label)
        self.adapter.outbox.put(Post(message.chat.id, to_html(pressed.view.text), markup,
                                     key=f"scan:{pressed.scan_id}", thread_id=thread))

    @staticmethod
    async def _answer(query: CallbackQuery, text: str) -> None:
        with contextlib.suppress(TelegramError):  # too late or already answered: nothing to repair
            await query.answer(alert_text(text) or None)
