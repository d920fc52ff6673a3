"""The real-life calculator in chat: ``/score <line>``, ``/score`` as a form of buttons, and an answer's "Add to the
sheet" button (``/sheet`` itself is ``sheet.py``'s).

Scoring, explanations and the sheet model are ``bot.calculator``'s; this module only turns chat text and button
presses into calls to it, and keeps each chat's sheet in the host's storage (so it survives restarts). Forms in
progress and answers not yet added to a sheet are kept there too, for a day after their last press, so their buttons
go on working after a restart.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from pydantic import TypeAdapter, ValidationError
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.calculator.book import (
    Writer,
)
from bot.calculator.errors import CalculatorError
from bot.calculator.family_score import GAME_NAMES
from bot.calculator.family_text import family_game
from bot.calculator.family_words import EXAMPLES
from bot.calculator.score import score
from bot.calculator.sheet import SheetError
from bot.calculator.small_score import Answer
from bot.calculator.small_text import EXAMPLES as SMALL_EXAMPLES
from bot.calculator.small_text import small_game
from bot.calculator.text import score_text
from bot.calculator.written import whole_number
from bot.core import names
from bot.core.messages import TELEGRAM
from bot.engine import CALL_NAMES, card_symbol
from bot.i18n import Translator, translator

from .outbox import Post
from .render import to_html
from .sheet import SheetCommands

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

log = logging.getLogger(__name__)

PREFIX: Final = "calc:"
CONTRACTS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
DECLARATIONS: Final = ("tierce", "quarte", "quint", "belote", "carre:J", "carre:9", "carre:A", "carre:T",
                       "carre:K", "carre:Q")  # fmt: skip
# Forms and answers kept in memory (the most recently used); storage keeps every one for KEPT_SECONDS.
KEPT_ANSWERS: Final = 500
KEPT_FORMS: Final = 500
# A form, or an answer not added to the sheet, untouched for a day is forgotten: its buttons then say it is closed.
KEPT_SECONDS: Final = 24 * 3600
# Storage keys (``Storage.set_form``) of a form in progress and of an answer waiting for "Add to the sheet".
_FORM_KEY: Final = "score:"
_ANSWER_KEY: Final = "answer:"
STEPS: Final = ("contract", "contra", "declarer", "points", "declarations", "valat")
# The other games the form scores: chosen instead of a contract, they skip the contract and contra.
GAMES: Final = ("bela", "french")


@dataclass
class ScoreForm:
    """One person's ``/score`` form in progress: the deal as the buttons have described it so far."""

    form_id: str
    user_id: int
    chat_id: int
    thread_id: int | None
    lang: str
    step: str = "contract"
    contract: str = ""
    multiplier: int = 1
    declarer: str = "A"
    digits: str = ""
    declarations: dict[str, list[str]] = field(default_factory=lambda: {"A": [], "B": []})
    for_team: str = "A"
    valat: str | None = None
    note: str = ""
    touched: float = 0.0  # when it was last stored (epoch seconds)
    variant: str = "bulgarian"
    winner: str | None = None  # Bela/French: the side whose declaration won a tie the buttons cannot rank

    def request(self) -> dict[str, Any]:
        if self.variant in GAMES:
            family: dict[str, Any] = {"variant": self.variant, "declarer": self.declarer, "valat": self.valat,
                                      "declarations": self.declarations}
            if self.valat is None:
                family["points"] = {self.declarer: int(self.digits or "0")}
            if self.winner is not None:
                family["declarations_winner"] = self.winner
            return family
        data: dict[str, Any] = {
            "contract": self.contract,
            "multiplier": self.multiplier,
            "declarer": self.declarer,
            "valat": self.valat,
            "declarations": self.declarations,
            "hanging_in": 0,
            "rules": {},
        }
        if self.valat is None:
            data["points"] = {self.declarer: int(self.digits or "0")}
        return data


# Reads a stored form back, checking every field's type (a form written by another version is refused, not trusted).
_STORED_FORM: Final = TypeAdapter(ScoreForm)


def team_names(t: Translator) -> dict[str, str]:
    return {"A": t.gettext("We"), "B": t.gettext("You")}


def contract_label(contract: str, t: Translator) -> str:
    return names.call_name(CALL_NAMES.index(contract), t)


def declaration_label(kind: str, t: Translator) -> str:
    if kind.startswith("carre:"):
        rank = kind[-1]
        return t.gettext("Carré of {rank}", rank=card_symbol("789TJQKA".index(rank))[:-1])
    word = names.declaration_name(kind, t)
    return word[:1].upper() + word[1:]


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
        answer_id = await self._keep(answer)
        t = translator(lang)
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t.gettext("Add to the sheet"), callback_data=f"{PREFIX}add:{answer_id}")]]
        )
        self.adapter.reply(message, answer.render(lang), markup)

    async def _keep(self, answer: Answer) -> str:
        """Keep an answer for its "Add to the sheet" button (in storage too, so the button outlives a restart)."""
        answer_id = self._new_id()
        stored = {"request": answer.request.to_json(), "touched": time.time()}
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
        text = final if final is not None else self._form_text(form)
        keyboard = markup if final is not None else self._form_keyboard(form)
        self.adapter.outbox.put(
            Post(form.chat_id, to_html(text), keyboard, key=f"calc:{form.form_id}", thread_id=form.thread_id)
        )

    def _form_text(self, form: ScoreForm) -> str:
        t = translator(form.lang)
        teams = team_names(t)
        lines = [t.gettext("**Score a deal**")]
        family = form.variant in GAMES
        if family:
            lines.append(GAME_NAMES[form.variant].render(form.lang))
        if form.contract:
            lines.append(t.gettext("Contract: {contract}", contract=contract_label(form.contract, t)))
        if family and form.step not in ("contract", "declarer"):
            lines.append(t.gettext("Called by: {team}", team=teams[form.declarer]))
        elif form.step not in ("contract", "contra"):
            lines.append(
                t.gettext("Contra: {contra}", contra=self._contra_label(form.multiplier, t))
                + " · "
                + t.gettext("Bid by: {team}", team=teams[form.declarer])
            )
        if form.step in ("declarations", "valat"):
            lines.append(t.gettext("{team} took {points} points.", team=teams[form.declarer], points=form.digits))
        if form.step in ("declarations", "valat"):
            for team in ("A", "B"):
                said = ", ".join(declaration_label(d, t) for d in form.declarations[team]) or "—"
                lines.append(t.gettext("Declarations of {team}: {list}", team=teams[team], list=said))
        questions = {
            "contract": t.gettext("What was the contract?"),
            "contra": t.gettext("Was there a contra?"),
            "declarer": t.gettext("Which team made the bid?"),
            "points": t.gettext(
                "How many card points did {team} take, the last trick included? {digits}",
                team=teams[form.declarer],
                digits=(form.digits or "0") + "▌",
            ) if family else t.gettext(
                "How many card points did {team} take, the last ten included? {digits}",
                team=teams[form.declarer],
                digits=(form.digits or "0") + "▌",
            ),
            "declarations": t.gettext("Add each team's declarations, then press Next."),
            "valat": t.gettext("Did one team take every trick (valat)?"),
        }
        lines.append(questions[form.step])
        if form.note:
            lines.append(form.note)
        return "\n".join(lines)

    @staticmethod
    def _contra_label(multiplier: int, t: Translator) -> str:
        return {1: t.gettext("none"), 2: t.gettext("Contra"), 4: t.gettext("Recontra")}[multiplier]

    def _form_keyboard(self, form: ScoreForm) -> InlineKeyboardMarkup:
        t = translator(form.lang)
        teams = team_names(t)

        def b(label: str, action: str) -> InlineKeyboardButton:
            return InlineKeyboardButton(label, callback_data=f"{PREFIX}{form.form_id}:{action}")

        rows: list[list[InlineKeyboardButton]] = []
        if form.step == "contract":
            rows = [
                [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[:4])],
                [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[4:], 4)],
                [b(GAME_NAMES[g].render(form.lang), f"g{i}") for i, g in enumerate(GAMES)],
            ]
        elif form.step == "contra":
            rows = [[b(self._contra_label(m, t), f"m{m}") for m in (1, 2, 4)]]
        elif form.step == "declarer":
            rows = [[b(teams["A"], "tA"), b(teams["B"], "tB")]]
        elif form.step == "points":
            rows = [[b(str(d), f"n{d}") for d in range(r, r + 3)] for r in (1, 4, 7)]
            rows.append([b("⌫", "nx"), b("0", "n0"), b(t.gettext("OK"), "nk")])
        elif form.step == "declarations":
            mark = {"A": "● " if form.for_team == "A" else "", "B": "● " if form.for_team == "B" else ""}
            rows = [[b(mark["A"] + teams["A"], "fA"), b(mark["B"] + teams["B"], "fB")]]
            kinds = [b("+ " + declaration_label(d, t), f"d{i}") for i, d in enumerate(DECLARATIONS)]
            rows += [kinds[i : i + 4] for i in range(0, len(kinds), 4)]
            if form.variant in GAMES:
                won = {team: "★ " if form.winner == team else "" for team in ("A", "B")}
                rows.append([b(won[team] + t.gettext("Best declaration: {team}", team=teams[team]), f"w{team}")
                             for team in ("A", "B")])
            rows.append([b(t.gettext("Clear"), "dc"), b(t.gettext("Next"), "dn")])
        elif form.step == "valat":
            rows = [[b(t.gettext("No valat"), "v-"), b(teams["A"], "vA"), b(teams["B"], "vB")]]
        rows.append([b(t.gettext("Cancel"), "x")])
        return InlineKeyboardMarkup(rows)

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
        done = self._step(form, action)
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
            # Keep the form: most refusals need one more detail (a top card, fewer points); say what.
            form.step, form.note = "declarations", self._problems(err.render(form.lang), translator(form.lang))
            await self._save(form)
            self._show(form)
            return
        answer_id = await self._keep(answer)
        markup = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        translator(form.lang).gettext("Add to the sheet"), callback_data=f"{PREFIX}add:{answer_id}"
                    )
                ]
            ]
        )
        self._show(form, answer.render(form.lang), markup)

    def _step(self, form: ScoreForm, action: str) -> str | None:
        """Apply one press to the form; "score" or "cancel" when the form is finished."""
        form.note = ""
        if action == "x":
            return "cancel"
        kind, arg = action[:1], action[1:]
        # Callback data can be forged: read every number as the digits 0-9 only (int("²") fails, "²".isdigit() not).
        index = whole_number(arg)
        if form.step == "contract" and kind == "k" and index is not None and index < len(CONTRACTS):
            form.contract, form.step = CONTRACTS[index], "contra"
        elif form.step == "contract" and kind == "g" and index is not None and index < len(GAMES):
            form.variant, form.step = GAMES[index], "declarer"  # the trump suit does not change the count
        elif form.step == "declarations" and kind == "w" and arg in ("A", "B") and form.variant in GAMES:
            form.winner = arg
        elif form.step == "contra" and kind == "m" and arg in ("1", "2", "4"):
            form.multiplier, form.step = int(arg), "declarer"
        elif form.step == "declarer" and kind == "t" and arg in ("A", "B"):
            form.declarer, form.step = arg, "points"
        elif form.step == "points" and kind == "n":
            if len(arg) == 1 and index is not None and len(form.digits) < 3:
                form.digits = (form.digits + arg).lstrip("0")
            elif arg == "x":
                form.digits = form.digits[:-1]
            elif arg == "k":
                form.step = "declarations"
        elif form.step == "declarations" and kind == "f" and arg in ("A", "B"):
            form.for_team = arg
        elif form.step == "declarations" and kind == "d":
            if arg == "c":
                form.declarations, form.winner = {"A": [], "B": []}, None
            elif arg == "n":
                form.step = "valat"
            elif index is not None and index < len(DECLARATIONS):
                form.declarations[form.for_team].append(DECLARATIONS[index])
        elif form.step == "valat" and kind == "v" and arg in ("-", "A", "B"):
            form.valat = None if arg == "-" else arg
            return "score"
        return None

    async def _answer(self, query: Any, text: str) -> None:
        try:
            await query.answer(text[:200] or None)
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
