"""Telegram updates in, the core's messages out.

Commands and button presses become ``Host`` calls; the host's ``OutMessage``s become sends and edits through the
``Outbox``. The adapter decides no rule and reads no meaning from payloads: the core decodes them. What it does
know is Telegram's: chats and forum topics, private chats that must be opened by the person first (deep links),
admins, command menus, HTML text, and the flood limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Chat,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import TELEGRAM, ChatRef, OutMessage, UserRef
from bot.i18n import KINDRED, LANGUAGES, translator
from bot.logsafe import keep_secret
from bot.ops import metrics

from .calculator import CalculatorCommands
from .commands import GROUP_COMMANDS, LANGUAGE_CODES, PRIVATE_COMMANDS, TABLE_COMMANDS, command_menu
from .guard import Admission
from .outbox import FloodPolicy, Outbox, Post
from .reach import PrivateChats
from .refs import StorageRefs
from .render import alert_text, deep_link, post_of, table_of_payload, to_html
from .scan import PhotoScans, file_url_of

log = logging.getLogger(__name__)
_TITLE = "title:"  # storage key (a message ref of the platform): a group's name, for views after a restart


def base_url_of(setting: str) -> str:
    """python-telegram-bot appends the token to its base URL, so a server root (``http://host:8081``) gets the
    ``/bot`` that the Bot API path needs."""
    url = setting.rstrip("/")
    return url if url.endswith("/bot") or "{token}" in url else url + "/bot"


def user_ref(user: User) -> UserRef:
    return UserRef(TELEGRAM, str(user.id), user.full_name, user.language_code)


def chat_ref(message: Message) -> ChatRef:
    thread = message.message_thread_id if message.is_topic_message else None
    return ChatRef(TELEGRAM, str(message.chat.id), str(thread) if thread else None, message.chat.title or "")


class TelegramStartError(RuntimeError):
    """The bot cannot start; the message says which setting to check."""


class TelegramAdapter:
    def __init__(self, host: Host, settings: Settings, policy: FloodPolicy | None = None) -> None:
        if not settings.telegram_token:
            raise ValueError("BELOTE_TELEGRAM_TOKEN is not set: ask @BotFather for a token and set it")
        self.host = host
        self.settings = settings
        self.policy = policy or FloodPolicy()
        self.app: Application[Any, Any, Any, Any, Any, Any] = (
            ApplicationBuilder()
            .token(settings.telegram_token)
            .base_url(base_url_of(settings.telegram_base_url))
            .base_file_url(file_url_of(settings.telegram_base_url) or "https://api.telegram.org/file/bot")
            .rate_limiter(
                AIORateLimiter(
                    overall_max_rate=self.policy.overall_messages,
                    overall_time_period=self.policy.overall_window,
                    group_max_rate=self.policy.group_messages,
                    group_time_period=self.policy.group_window,
                    max_retries=0,  # the outbox retries after RetryAfter, keeping each chat's order
                )
            )
            # Presses of different tables run side by side; the host applies one action at a time per table.
            .concurrent_updates(True)
            .build()
        )
        # The configured secret, else one made now and registered with setWebhook at start.
        self.webhook_secret = settings.telegram_webhook_secret or secrets.token_urlsafe(32)
        keep_secret(settings.telegram_token)
        keep_secret(self.webhook_secret)
        self.admission = Admission(self)
        self.refs = StorageRefs(host.storage)
        self.private = PrivateChats(self)
        self.outbox = Outbox(
            self.app.bot,
            self.refs,
            self.policy,
            on_forbidden=self.private.refused,
            start_open=False,
            on_migrated=self.chat_moved,
        )
        # Tables whose settled messages were compared with their group since this process started.
        self._converged: set[str] = set()
        self._add_handlers()
        # The group names the tables' private views show, kept in storage for restarts (Telegram's are current).
        self._titles: dict[int, str] = {}
        # Registered at once (before any await), so tables re-rendered by ``Host.start`` reach the outbox, which
        # holds them until the bot is connected.
        self.host.add_titles(TELEGRAM, self.chat_title)
        self.host.add_sink(TELEGRAM, self.deliver)

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    # --- lifecycle ---

    async def start(self, polling: bool = True) -> None:
        """Connect (getMe), register the sink and the command menus, and start receiving updates."""
        try:
            await self.app.initialize()
        except InvalidToken:
            raise TelegramStartError(
                "Telegram refused the bot token (BELOTE_TELEGRAM_TOKEN); copy it again from @BotFather"
            ) from None
        except NetworkError as err:
            raise TelegramStartError(
                f"cannot reach the Telegram Bot API at {self.settings.telegram_base_url} "
                f"(BELOTE_TELEGRAM_BASE_URL): {err.message}"
            ) from None
        # What the previous run could not send goes first (a newer version of a keyed message wins).
        self.outbox.restore(await self.refs.load_pending())
        await self.calculator.forget_old()
        self.outbox.open()
        await self._set_commands()
        await self.app.start()
        updater = self.app.updater
        if updater is None:
            return
        if self.settings.telegram_webhook_url:
            await updater.start_webhook(
                listen=self.settings.telegram_webhook_listen,
                port=self.settings.telegram_webhook_port,
                # Telegram posts to the configured URL; its path is where we listen (behind a proxy that keeps it).
                url_path=urlsplit(self.settings.telegram_webhook_url).path.strip("/"),
                webhook_url=self.settings.telegram_webhook_url,
                # Always a secret: an update without it is refused (403), so nobody who reaches the port can
                # act for the players.
                secret_token=self.webhook_secret,
                allowed_updates=["message", "callback_query"],
            )
        elif polling:
            await updater.start_polling(allowed_updates=["message", "callback_query"], timeout=10)

    async def stop(self, drain_timeout: float = 10.0) -> None:
        """Stop receiving, deliver what is queued (for at most ``drain_timeout`` seconds), disconnect."""
        updater = self.app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.app.running:
            await self.app.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.outbox.drain(), drain_timeout)
        await self.outbox.close()
        # What the flood limits held back is kept for the next run instead of being lost.
        await self.refs.save_pending(self.outbox.unsent())
        await self.app.shutdown()

    async def _set_commands(self) -> None:
        """The command menus per language: groups get the table commands, private chats the personal ones."""
        # Telegram picks the menu by the client's language code; Serbian and Bosnian clients get the Croatian one.
        languages = [("", self.settings.language), *((code, code) for code in LANGUAGES), *KINDRED.items()]
        for code, lang in languages:
            for scope, names in (
                (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
                (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
                (BotCommandScopeDefault(), PRIVATE_COMMANDS),
            ):
                menu = [BotCommand(name, text) for name, text in command_menu(names, lang)]
                try:
                    await self.bot.set_my_commands(menu, scope=scope, language_code=code or None)
                except TelegramError as err:  # a menu is a convenience: the bot works without it
                    log.warning("could not set the %s command menu: %s", code or "default", err.message)

    # --- output: the host's sink ---

    async def deliver(self, message: OutMessage) -> None:
        post = post_of(message)
        if post is None:
            return
        if message.table_id and message.table_id not in self._converged:
            self._converged.add(message.table_id)
            await self._converge(message.table_id)
        if not await self.private.holds_back(post):
            self.outbox.put(post)

    async def _converge(self, table_id: str) -> None:
        """The first message of a table in this process (a start, a recovered table): what its group should show
        by the table's log and never got (results a killed process did not post) goes first. A chat's posts go in
        order, so a deal whose result the group got was shown whole; the outbox skips what the group shows."""
        for settled in self.host.settled_messages(table_id):
            last = post_of(settled[-1])
            if last is None or last.key is None or await self.refs.get(last.key) is not None:
                continue
            for message in settled:
                restated = post_of(message)
                if restated is not None:
                    restated.restated = True
                    self.outbox.put(restated)

    def say(
        self,
        chat_id: int,
        text: str,
        thread_id: int | None = None,
        reply_to: int | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """A message of the adapter's own (plain text, escaped here), in the chat's order and budget."""
        self.outbox.put(Post(chat_id, to_html(text), markup, thread_id=thread_id, reply_to=reply_to))

    # --- group names ---

    async def chat_title(self, chat_id: str) -> str:
        """The group's name as last seen in one of its updates ("" if never seen)."""
        return await self.host.storage.get_message_ref(TELEGRAM, _TITLE + chat_id) or ""

    async def _saw_chat(self, chat: Chat) -> None:
        if chat.type == ChatType.PRIVATE or not chat.title or self._titles.get(chat.id) == chat.title:
            return
        self._titles[chat.id] = chat.title
        await self.host.storage.set_message_ref(TELEGRAM, _TITLE + str(chat.id), chat.title)

    # --- a group upgraded to a supergroup ---

    async def chat_moved(self, old_id: int, new_id: int, title: str = "") -> None:
        """The group ``old_id`` is now the supergroup ``new_id`` (Telegram said so in a service message, or by
        refusing a message with the new id). Its messages, tables, language, sheet and statistics follow. Every
        step is idempotent: both signals come, the service messages in both chats, and again after a restart."""
        self.outbox.move_chat(old_id, new_id)
        await self.refs.remember_move(old_id, new_id)
        moved = await self.host.move_chat(TELEGRAM, str(old_id), str(new_id), title)
        if moved:
            log.info("group %s is now the supergroup %s; tables moved there: %s", old_id, new_id, ", ".join(moved))

    async def current_chat(self, chat_id: int) -> int:
        """The chat's id now: a press under a message of a group since upgraded counts for the supergroup."""
        if chat_id >= 0:
            return chat_id
        now = self.outbox.moved_to(chat_id)
        if now != chat_id:
            return now
        stored = await self.refs.moved_to(chat_id)
        if stored is None:
            return chat_id
        self.outbox.move_chat(chat_id, stored)
        return self.outbox.moved_to(chat_id)

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The service messages of an upgrade: ``migrate_to_chat_id`` in the old group, ``migrate_from_chat_id``
        in the new supergroup."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.chat_moved(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.chat_moved(message.migrate_from_chat_id, message.chat.id, message.chat.title or "")

    # --- input ---

    def _add_handlers(self) -> None:
        app = self.app
        # Before every other handler: a command over its limits, or from a chat posting as such, goes no further.
        app.add_handler(MessageHandler(filters.COMMAND, self.admission.on_command), group=-1)
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        app.add_handler(CommandHandler("start", self._on_start))
        app.add_handler(CommandHandler("help", self._on_help))
        app.add_handler(CommandHandler("lang", self._on_lang))
        for name in TABLE_COMMANDS:
            app.add_handler(CommandHandler(name, self._on_table_command))
        self.calculator = CalculatorCommands(self)
        self.scans = PhotoScans(self)
        app.add_handlers(self.scans.handlers())  # a photo, or /score in reply to one, before /score's own handler
        app.add_handler(CommandHandler("score", self.calculator.on_score))
        app.add_handler(CommandHandler("sheet", self.calculator.on_sheet))
        app.add_handler(CallbackQueryHandler(self.calculator.on_press, pattern=CalculatorCommands.PATTERN))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT, self._on_private_text))
        app.add_error_handler(self._on_error)

    async def language_for(self, message: Message, user: UserRef) -> str:
        if message.chat.type == ChatType.PRIVATE:
            return await self.host.user_language(user)
        return await self.host.chat_language(chat_ref(message))

    async def language_of(self, message: Message) -> str:
        if message.from_user is None:
            return await self.host.chat_language(chat_ref(message))
        return await self.language_for(message, user_ref(message.from_user))

    def reply(self, message: Message, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        thread = message.message_thread_id if message.is_topic_message else None
        self.say(message.chat.id, text, thread, reply_to=message.message_id, markup=markup)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("an update could not be handled: %r", context.error, exc_info=context.error)

    async def _on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None or message.chat.type != ChatType.PRIVATE:
            return
        user = user_ref(sender)
        table_id = table_of_payload(context.args[0]) if context.args else None
        await self.private.opened(user, joining=table_id)
        if table_id is not None:
            chat, table = self.host.table_chat(table_id), self.host.table(table_id)
            if chat is not None and table is not None and table.seat_of(user.user_id) is None:
                refusal = await self.admission.outsider(chat, sender, user)
                if refusal is not None:
                    self.reply(message, refusal)
                    return
            answer = await self.host.join(table_id, user)
            if answer.text:
                self.reply(message, answer.text)
            return
        await self._on_help(update, context)

    async def _on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None:
            return
        t = translator(await self.language_for(message, user_ref(sender)))
        lines = [
            t.gettext("Bulgarian Bridge-Belote for four, in this chat."),
            t.gettext(
                "/belot opens a table in a group; everyone presses Join, or Add bot for empty seats, then "
                "Start. Your cards come in our private chat as buttons: press a card to play it."
            ),
            t.gettext(
                "/belot bela opens a table of Croatian Bela, /belot french one of French belote, /belot bela-3, "
                "bela-2 or bela-open one of Bela for three or two, /belot bulgarian-3 or bulgarian-2 one of the "
                "Bulgarian house games for three or two; the lobby's Game button switches the game, and the group's "
                "next /belot offers the game it played last."
            ),
            t.gettext(
                "/score <deal> scores a real-life deal, /score alone asks step by step, and a photo of the won "
                "cards (in a group: captioned /score) is read card by card (packs lettered J Q K A or B D K, or "
                "В Д П with вдп in the caption, which the chat keeps; not V D R); /sheet keeps the group's score "
                "sheet."
            ),
            t.gettext("/lang and a code ({codes}): the language (a group's is changed by its admins).",
                      codes=LANGUAGE_CODES),
        ]
        self.reply(message, "\n\n".join(lines))

    async def _on_lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None:
            return
        user = user_ref(sender)
        choice = context.args[0].lower() if context.args else ""
        if choice not in LANGUAGES:
            t = translator(await self.language_for(message, user))
            self.reply(message, t.gettext("Say which language: /lang and its code ({codes}).", codes=LANGUAGE_CODES))
            return
        if message.chat.type == ChatType.PRIVATE:
            answer = await self.host.set_user_language(user, choice)
        else:
            if not await self._is_admin(message.chat, sender.id):
                t = translator(await self.language_for(message, user))
                self.reply(message, t.gettext("Only the group's admins can change its language."))
                return
            answer = await self.host.set_chat_language(chat_ref(message), choice)
        if answer.text:
            self.reply(message, answer.text)

    async def _is_admin(self, chat: Chat, user_id: int) -> bool:
        try:
            member = await self.bot.get_chat_member(chat.id, user_id)
        except TelegramError as err:
            log.info("could not check admin rights in %s: %s", chat.id, err.message)
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    async def _on_table_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None or not message.text:
            return
        user = user_ref(sender)
        name = message.text.split()[0][1:].split("@")[0].lower()
        if message.chat.type == ChatType.PRIVATE and name not in ("stats",):
            t = translator(await self.host.user_language(user))
            self.reply(message, t.gettext("Tables are played in groups: add me to a group and send /belot there."))
            return
        await self._saw_chat(message.chat)
        core_name = TABLE_COMMANDS[name]
        args: Sequence[str] = context.args or ()
        chat = chat_ref(message)
        answer = await self.host.command(chat, user, core_name, list(args))
        if answer.text:
            self.reply(message, answer.text)

    async def _on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        user = user_ref(query.from_user)
        if query.message is not None:
            await self._saw_chat(query.message.chat)
        refusal = await self.admission.outsider_press(query, user)
        if refusal is not None:
            with contextlib.suppress(TelegramError):
                await query.answer(alert_text(refusal), show_alert=True)
            return
        if self.private.is_review_press(query):
            await self.private.answer_review(query, user)
            return
        answer = await self.host.press(user, query.data or "")
        text, url = await self.private.asked_for_hand(query, user, answer)
        if answer.joined and answer.table_id and not await self.private.known_open(user.user_id):
            # Telegram opens this link at once: the person lands in our private chat, presses Start, and the
            # /start payload brings them back to the table (``Host.join``), now able to get their hand.
            url = deep_link(self.bot.username, answer.table_id)
        try:
            # A text of several lines (the card tracker) stays open as an alert until the person closes it.
            await query.answer(alert_text(text) or None, url=url, show_alert="\n" in text)
        except TelegramError as err:  # too late (over 15 s) or already answered: nothing to repair
            log.info("a press could not be answered: %s", err.message)

    async def _on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Any private message proves the chat is open (the bot may write there)."""
        sender = update.effective_user
        if sender is not None:
            await self.private.opened(user_ref(sender))
        await self.calculator.on_private_text(update, context)


async def serve(host: Host, settings: Settings, *, policy: FloodPolicy | None = None) -> None:
    """Run the Telegram bot until cancelled: polling, or a webhook when ``settings.telegram_webhook_url`` is set."""
    adapter = TelegramAdapter(host, settings, policy)
    await adapter.start()
    try:
        metrics.adapter_up(TELEGRAM)
        await asyncio.Event().wait()
    finally:
        metrics.adapter_down(TELEGRAM)
        await adapter.stop()
