"""The real-life calculator in chat: ``/score <line>``, ``/score`` as a form of buttons, and an answer's "Add to the
sheet" button (``/sheet`` itself is ``sheet.py``'s).

Scoring, explanations and the sheet model are ``bot.calculator``'s; this module only turns chat text and button
presses into calls to it (what a press on the form means is ``score_form.py``'s, and ``small_form.py``'s for the
games of three and two), and keeps each chat's sheet in the host's storage (so it survives restarts). Forms in
progress and answers not yet added to a sheet are kept there too, for a day after their last press, so their buttons
go on working after a restart.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

from pydantic import TypeAdapter, ValidationError
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.calculator.book import (
    Writer,
)
from bot.calculator.errors import CalculatorError
from bot.calculator.family_text import family_game
from bot.calculator.family_words import EXAMPLES
from bot.calculator.score import score
from bot.calculator.sheet import SheetError
from bot.calculator.small_score import Answer
from bot.calculator.small_text import EXAMPLES as SMALL_EXAMPLES
from bot.calculator.small_text import small_game
from bot.calculator.text import score_text
from bot.core.messages import TELEGRAM
from bot.i18n import Translator, translator

from .outbox import Post
from .render import alert_text, to_html
from .score_form import PREFIX, STEPS, ScoreForm, form_keyboard, form_text, press, refused
from .sheet import SheetCommands

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

log = logging.getLogger(__name__)

# Forms and answers kept in memory (the most recently used); storage keeps every one for KEPT_SECONDS.
KEPT_ANSWERS: Final = 500
KEPT_FORMS: Final = 500
# A form, or an answer not added to the sheet, untouched for a day is forgotten: its buttons then say it is closed.
KEPT_SECONDS: Final = 24 * 3600
# Storage keys (``Storage.set_form``) of a form in progress and of an answer waiting for "Add to the sheet".
_FORM_KEY: Final = "score:"
_ANSWER_KEY: Final = "answer:"
# Reads a stored form back, checking every field's type (a form written by another version is refused, not trusted).
_STORED_FORM: Final = TypeAdapter(ScoreForm)


class CalculatorCommands:
    PATTERN: Final = r"^calc:"

    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter
        self._forms: OrderedDict[str, ScoreForm] = OrderedDict()
        self._answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._forgotten_at = 0.0
        self.sheets = SheetCommands(adapter)

    @staticmethod
    def _new_id() -> str:
        # Random, not counted: ids from before a restart (in old buttons and stored message keys) never collide.
        return secrets.token_hex(4)

    # --- /score ---

    async def _command(self, update: Update) -> tuple[Message, int, str] | None:
        """A command's message, its sender's id and the language to answer in; None for an update without them."""
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None:
            return None
        from .adapter import user_ref

        return message, sender.id, await self.adapter.language_for(message, user_ref(sender))

    async def on_score(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        command = await self._command(update)
        if command is None:
            return
        message, sender_id, lang = command
        t = translator(lang)
        line = " ".join(context.args or ())
        if not line:
            await self._open_form(message, sender_id, lang)
            return
        try:
            answer = score_text(line, lang=lang)
        except CalculatorError as err:
            # A Bela or French line gets an example of its own game, in the chat's language.
            small = small_game(line) is not None
            example = SMALL_EXAMPLES[lang] if small else EXAMPLES[lang] if family_game(line) is not None else None
            self.adapter.reply(message, self._problems(err.render(lang), t, example))
            return
        await self._reply_answer(message, answer, lang)

    def _problems(self, problems: list[str], t: Translator, example: str | None = None) -> str:
        head = t.gettext("I could not score that:")
        if example is not None:
            hint = t.gettext("Example: /score {example}, or /score alone to answer step by step.", example=example)
        else:
            hint = t.gettext("Example: /score hearts 102 60, or /score alone to answer step by step.")
        return "\n".join([head, *(f"• {p}" for p in problems), hint])

    async def _reply_answer(self, message: Message, answer: Answer, lang: str) -> None:
        label = translator(lang).gettext("Add to the sheet")
        self.adapter.reply(message, answer.render(lang), await self.sheet_button(answer.request.to_json(), label))

    async def sheet_button(self, request: dict[str, Any], label: str) -> InlineKeyboardMarkup:
        """The "Add to the sheet" button under a scored deal (typed, from the form or from a photo)."""
        answer_id = await self._keep(request)
        return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=f"{PREFIX}add:{answer_id}")]])

    async def _keep(self, request: dict[str, Any]) -> str:
        """Keep a scored request for its "Add to the sheet" button (in storage too, so the button outlives a
        restart)."""
        answer_id = self._new_id()
        stored = {"request": request, "touched": time.time()}
        self._answers[answer_id] = stored
        while len(self._answers) > KEPT_ANSWERS:
            self._answers.popitem(last=False)
        await self.adapter.host.storage.set_form(TELEGRAM, _ANSWER_KEY + answer_id, stored)
        await self._forget_old_now_and_then()
        return answer_id

    async def _kept_answer(self, answer_id: str) -> dict[str, Any] | None:
        """The deal request of a kept answer, from memory or (after a restart) from storage."""
        stored = self._answers.get(answer_id)
        if stored is None:
            stored = await self.adapter.host.storage.get_form(TELEGRAM, _ANSWER_KEY + answer_id)
        if stored is None or time.time() - float(stored.get("touched", 0)) > KEPT_SECONDS:
            return None
        kept = stored.get("request")
        return kept if isinstance(kept, dict) else None

    async def _forget_answer(self, answer_id: str) -> None:
        self._answers.pop(answer_id, None)
        await self.adapter.host.storage.set_form(TELEGRAM, _ANSWER_KEY + answer_id, None)

    async def forget_old(self) -> None:
        """Forget the forms and answers nobody has touched for KEPT_SECONDS."""
        self._forgotten_at = time.time()
        forgotten = await self.adapter.host.storage.forget_forms(TELEGRAM, self._forgotten_at - KEPT_SECONDS)
        if forgotten:
            log.info("forgot %d score forms and answers untouched for a day", forgotten)

    async def _forget_old_now_and_then(self) -> None:
        if time.time() - self._forgotten_at > 3600:
            await self.forget_old()

    # --- forms in progress, in memory and in storage ---

    async def _form(self, form_id: str) -> ScoreForm | None:
        """The form, from memory or (after a restart) from storage; None when finished, forgotten or too old."""
        form = self._forms.get(form_id)
        if form is None:
            stored = await self.adapter.host.storage.get_form(TELEGRAM, _FORM_KEY + form_id)
            if stored is None:
                return None
            try:
                loaded = _STORED_FORM.validate_python(stored)
            except ValidationError as err:
                log.warning("score form %s cannot be read back (%d problems); it is closed", form_id, err.error_count())
                return None
            if loaded.form_id != form_id or loaded.step not in STEPS:
                return None
            form = self._forms.setdefault(form_id, loaded)  # a press that loaded it meanwhile keeps its copy
        if time.time() - form.touched > KEPT_SECONDS:
            await self._close(form_id)
            return None
        self._cache(form)
        return form

    def _cache(self, form: ScoreForm) -> None:
        self._forms[form.form_id] = form
        self._forms.move_to_end(form.form_id)
        while len(self._forms) > KEPT_FORMS:
            self._forms.popitem(last=False)  # still in storage: read again at its next press

    async def _save(self, form: ScoreForm) -> None:
        form.touched = time.time()
        self._cache(form)
        await self.adapter.host.storage.set_form(TELEGRAM, _FORM_KEY + form.form_id, dataclasses.asdict(form))

    async def _close(self, form_id: str) -> None:
        self._forms.pop(form_id, None)
        await self.adapter.host.storage.set_form(TELEGRAM, _FORM_KEY + form_id, None)

    async def _open_form(self, message: Message, user_id: int, lang: str) -> None:
        thread = message.message_thread_id if message.is_topic_message else None
        form = ScoreForm(self._new_id(), user_id, message.chat.id, thread, lang)
        await self._save(form)
        await self._forget_old_now_and_then()
        self._show(form)

    def _show(self, form: ScoreForm, final: str | None = None, markup: InlineKeyboardMarkup | None = None) -> None:
        text = final if final is not None else form_text(form)
        keyboard = markup if final is not None else form_keyboard(form)
        self.adapter.outbox.put(
            Post(form.chat_id, to_html(text), keyboard, key=f"calc:{form.form_id}", thread_id=form.thread_id)
        )

    # --- presses on the form and on answers ---

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or query.data is None:
            return
        from .adapter import user_ref

        user = user_ref(query.from_user)
        lang = await self.adapter.host.user_language(user)
        t = translator(lang)
        body = query.data[len(PREFIX) :]
        if body.startswith("add:"):
            message = query.message if isinstance(query.message, Message) else None
            writer = self.sheets.writer(message, query.from_user) if message is not None else None
            text = (
                await self._add_answer(message, body[4:], lang, writer)
                if message is not None and writer is not None
                else t.gettext("That answer is too old to add; send it to /sheet add again.")
            )
            await self._answer(query, text)
            return
        form_id, _, action = body.partition(":")
        form = await self._form(form_id)
        if form is None:
            await self._answer(query, t.gettext("This form is closed; send /score to start a new one."))
            return
        if form.user_id != query.from_user.id:
            await self._answer(query, t.gettext("This form belongs to someone else; send /score for your own."))
            return
        done = press(form, action)
        await self._answer(query, "")
        if done is None:
            await self._save(form)
            self._show(form)
            return
        await self._close(form_id)
        if done == "cancel":
            self._show(form, translator(form.lang).gettext("Scoring cancelled."))
            return
        try:
            answer = score(form.request())
        except CalculatorError as err:
            # Keep the form where the missing detail is given (a top card, other points), saying what it is.
            example = SMALL_EXAMPLES[form.lang] if form.small else None
            refused(form, err, self._problems(err.render(form.lang), translator(form.lang), example))
            await self._save(form)
            self._show(form)
            return
        label = translator(form.lang).gettext("Add to the sheet")
        self._show(form, answer.render(form.lang), await self.sheet_button(answer.request.to_json(), label))

    async def _answer(self, query: Any, text: str) -> None:
        try:
            await query.answer(alert_text(text) or None)
        except TelegramError as err:
            log.info("a calculator press could not be answered: %s", err.message)

    async def _add_answer(self, message: Any, answer_id: str, lang: str, writer: Writer) -> str:
        t = translator(lang)
        request = await self._kept_answer(answer_id)
        if request is None or not isinstance(message, Message):
            return t.gettext("That answer is too old to add; send it to /sheet add again.")
        chat_id, chat_key, thread = await self.sheets.chat_key(message)
        once = f"answer:{answer_id}"
        try:
            sheet, line = await self.sheets.book.add(chat_key, writer, lambda sheet: sheet.add(request), once)
        except (SheetError, CalculatorError) as err:
            return self.sheets.error_text(err, lang)
        await self._forget_answer(answer_id)
        self.adapter.say(chat_id, self.sheets.line_text(sheet, line.number, lang), thread)
        return t.gettext("Added as line {n}.", n=line.number)

    # --- /sheet ---

    async def on_sheet(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        command = await self._command(update)
        if command is None or update.effective_user is None:
            return
        message, _, lang = command
        await self.sheets.on_sheet(message, update.effective_user, lang, list(context.args or ()))

    async def on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in a private chat is not a command the bot knows: point to /help."""
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None:
            return
        from .adapter import user_ref

        t = translator(await self.adapter.host.user_language(user_ref(sender)))
        self.adapter.reply(message, t.gettext("I answer commands: /help lists them."))
