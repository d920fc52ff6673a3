"""Private chats: Telegram lets the bot write to a person only after that person opened a chat with it.

What this module knows per person: that they opened the chat (``/start`` or any private message), or that Telegram
refused a message to them (403) since. A refused person gets nothing more until they open the chat, so the bot does
not keep trying and failing; the table's group is told once, in a message keyed ``open:<table>:<user>`` with a
button that opens the bot on that table. The moment they open the chat the notice is withdrawn (deleted, or, if it
is still waiting to be sent, corrected), and the hand of every table whose messages were held back is sent to them.

Both facts are stored (message refs of the platform, keys ``private:<user>`` and ``unreachable:<user>``), so a
restart neither writes to someone who never opened the chat nor tells the group again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ChatAction, ChatType
from telegram.error import Forbidden, TelegramError

from bot.core.messages import TELEGRAM, Answer, UserRef
from bot.core.payload import READ_ONLY, PayloadError, decode
from bot.core.review import is_review
from bot.i18n import translator

from .outbox import Post
from .render import alert_text, deep_link, post_of, to_html

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

log = logging.getLogger(__name__)

_UNREACHABLE = "unreachable:"
REVIEW_WAIT = 4.0  # seconds a review press waits for the review before it is answered "it will come"


def notice_key(table_id: str, user_id: str) -> str:
    return f"open:{table_id}:{user_id}"


class PrivateChats:
    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter
        self.host = adapter.host
        self.refs = adapter.refs
        self._open: set[str] = set()  # known to have opened the chat
        self._unreachable: dict[str, bool] = {}  # a 403 seen and the chat not opened since (storage's, cached)
        self._held: dict[str, set[str]] = {}  # person -> tables whose private messages were held back or refused
        self._noticed: set[tuple[str, str]] = set()  # (table, person) notices put in the outbox by this run
        # A refusal and the person opening the chat are handled one after the other: each awaits storage, and an
        # opening handled in the middle of a refusal would find no notice to withdraw yet, leaving a stale one.
        self._turns: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def _turn_of(self, user_id: str) -> AsyncIterator[None]:
        lock = self._turns.setdefault(user_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._turns.get(user_id) is lock:
                del self._turns[user_id]  # nobody waits: keep no lock per person ever seen

    # --- what is known ---

    async def known_open(self, user_id: str) -> bool:
        if user_id in self._open:
            return True
        if await self.refs.private_open(user_id):
            self._open.add(user_id)
            return True
        return False

    async def unreachable(self, user_id: str) -> bool:
        if user_id not in self._unreachable:
            stored = await self.host.storage.get_message_ref(TELEGRAM, _UNREACHABLE + user_id)
            self._unreachable[user_id] = stored is not None
        return self._unreachable[user_id]

    async def _mark_unreachable(self, user_id: str, unreachable: bool) -> None:
        if await self.unreachable(user_id) != unreachable:
            self._unreachable[user_id] = unreachable
            await self.host.storage.set_message_ref(TELEGRAM, _UNREACHABLE + user_id, "1" if unreachable else None)

    # --- the outbox's side ---

    async def holds_back(self, post: Post) -> bool:
        """True when ``post`` is for a person the bot cannot reach: it is not sent (their hand goes when they open
        the chat)."""
        if post.chat_id <= 0 or not await self.unreachable(str(post.chat_id)):
            return False
        if post.table_id:
            self._held.setdefault(str(post.chat_id), set()).add(post.table_id)
        return True

    async def refused(self, chat_id: int, post: Post) -> None:
        """Telegram refused a private post: the person never opened the chat, or blocked the bot. A refusal of a
        request made before the person opened the chat is stale: the chat is checked, and if it is open now the
        table's hand goes again and nobody is told anything."""
        if chat_id < 0:
            return
        async with self._turn_of(str(chat_id)):
            await self._refused(chat_id, post)

    async def _refused(self, chat_id: int, post: Post) -> None:
        user_id = str(chat_id)
        if await self.known_open(user_id) and await self._reachable_now(chat_id):
            log.info("a refusal for %s came after the chat was opened; sending again", user_id)
            if post.table_id:
                await self._send_hand(post.table_id, UserRef(TELEGRAM, user_id, post.who))
            return
        self._open.discard(user_id)
        await self.refs.forget_private(user_id)
        await self._mark_unreachable(user_id, True)
        if post.table_id:
            self._held.setdefault(user_id, set()).add(post.table_id)
            await self.tell_group(post.table_id, user_id, post.who)

    async def _reachable_now(self, chat_id: int) -> bool:
        try:
            await self.adapter.bot.send_chat_action(chat_id, ChatAction.TYPING)
        except Forbidden:
            return False
        except TelegramError as err:
            log.info("could not check the private chat of %s: %s", chat_id, err.message)
            return False
        return True

    async def tell_group(self, table_id: str, user_id: str, name: str) -> None:
        """Tell the table's group, once, that the bot cannot send this person their cards, with the button that
        opens the bot on the table."""
        key = notice_key(table_id, user_id)
        if (table_id, user_id) in self._noticed or await self.refs.get(key) is not None:
            return
        chat = self.host.table_chat(table_id)
        if chat is None or chat.platform != TELEGRAM:
            return
        self._noticed.add((table_id, user_id))
        t = translator(await self.host.chat_language(chat))
        text = t.gettext(
            "{name}, I cannot send you your cards until you open a private chat with me: press the button, then Start.",
            name=name or user_id,
        )
        button = InlineKeyboardButton(t.gettext("Open the bot"), url=deep_link(self.adapter.bot.username, table_id))
        group_id, thread_id = int(chat.chat_id), int(chat.thread_id) if chat.thread_id else None
        self.adapter.outbox.put(
            Post(group_id, to_html(text), InlineKeyboardMarkup([[button]]), key=key, thread_id=thread_id)
        )

    # --- the person opened the chat ---

    async def opened(self, user: UserRef, joining: str | None = None) -> None:
        """``user`` wrote to the bot privately: it may write to them. Notices about them are withdrawn and the hands
        held back are sent (but the hand of ``joining``, the table their deep link names: ``Host.join`` sends it)."""
        async with self._turn_of(user.user_id):
            await self._opened(user, joining)

    async def _opened(self, user: UserRef, joining: str | None) -> None:
        user_id = user.user_id
        if user_id not in self._open:
            self._open.add(user_id)
            await self.refs.remember_private(user_id)
        if not await self.unreachable(user_id) and user_id not in self._held and not any(
            u == user_id for _, u in self._noticed
        ):
            return
        await self._mark_unreachable(user_id, False)
        tables = self._held.pop(user_id, set()) | {t for t, u in self._noticed if u == user_id}
        for table_id in tables:
            await self._withdraw_notice(table_id, user)
            if table_id != joining:
                await self._send_hand(table_id, user)

    async def _withdraw_notice(self, table_id: str, user: UserRef) -> None:
        key = notice_key(table_id, user.user_id)
        queued = (table_id, user.user_id) in self._noticed
        self._noticed.discard((table_id, user.user_id))
        ref = await self.refs.get(key)
        if ref is not None:
            with contextlib.suppress(TelegramError):  # already deleted, or too old to delete: nothing to repair
                await self.adapter.bot.delete_message(ref[0], ref[1])
            await self.refs.set(key, None)
        elif queued:
            # Still waiting for the group's budget: it takes this text instead (a waiting post with the same key
            # is replaced in place), so the group never reads the stale one.
            chat = self.host.table_chat(table_id)
            if chat is None:
                return
            t = translator(await self.host.chat_language(chat))
            text = t.gettext("{name} has opened the chat with me and gets the cards there.", name=user.name)
            self.adapter.outbox.put(
                Post(int(chat.chat_id), to_html(text), None, key=key,
                     thread_id=int(chat.thread_id) if chat.thread_id else None)
            )

    async def _send_hand(self, table_id: str, user: UserRef, fresh: bool = False) -> bool:
        view = await self.host.private_view(table_id, user)
        post = post_of(view) if view is not None else None
        if post is None:
            return False
        self.adapter.outbox.put(dataclasses.replace(post, fresh=fresh))
        return True

    # --- a hand asked for ---

    async def asked_for_hand(self, query: CallbackQuery, user: UserRef, answer: Answer) -> tuple[str, str | None]:
        """A seated person pressed the group's "My hand": their hand is sent again at the bottom of the private chat
        (a fresh message, so it is found and notified), and the press is answered saying so; someone the bot cannot
        write to gets the link that opens the chat instead. Returns the answer's text and link."""
        try:
            read_only = decode(query.data or "").action in READ_ONLY
        except PayloadError:
            return answer.text, None
        shown = query.message
        if not (read_only and answer.ok and answer.view is not None and answer.table_id):
            return answer.text, None
        if shown is None or shown.chat.type == ChatType.PRIVATE:
            return answer.text, None
        t = translator(await self.host.user_language(user))
        if not await self.known_open(user.user_id) or await self.unreachable(user.user_id):
            return t.gettext("Open the chat with me to get your cards."), deep_link(
                self.adapter.bot.username, answer.table_id
            )
        await self._send_hand(answer.table_id, user, fresh=True)
        return t.gettext("Your cards are at the bottom of our private chat."), None

    # --- a review asked for ---

    @staticmethod
    def is_review_press(query: CallbackQuery) -> bool:
        try:
            return is_review(decode(query.data or "").action)
        except PayloadError:
            return False

    async def answer_review(self, query: CallbackQuery, user: UserRef) -> None:
        """A review (``bot.core.review``) is longer than a press's alert and may take seconds: it goes to the
        presser's private chat. A quick review answers the press saying so; a slow one answers it at once (Telegram
        drops a press left unanswered for long) and follows when it is made. A refusal, and anything for someone
        the bot cannot write to, is an alert holding as much as fits."""
        work = asyncio.ensure_future(self.host.press(user, query.data or ""))
        done, _ = await asyncio.wait({work}, timeout=REVIEW_WAIT)
        t = translator(await self.host.user_language(user))
        reachable = await self.known_open(user.user_id) and not await self.unreachable(user.user_id)
        if not done and reachable:
            await self._answer_query(query, t.gettext("Reviewing the deal… it will come to our private chat."))
        answer = await work
        if answer.ok and reachable:
            self.adapter.outbox.put(Post(int(user.user_id), to_html(answer.text), table_id=answer.table_id,
                                         who=user.name))
            if done:
                await self._answer_query(query, t.gettext("The review is in our private chat."))
            return
        plain = answer.text.replace("**", "")  # an alert shows no markup
        text = alert_text(plain)
        if done or not reachable:
            await self._answer_query(query, text, alert=True)
        else:
            self.adapter.outbox.put(Post(int(user.user_id), to_html(answer.text), who=user.name))

    @staticmethod
    async def _answer_query(query: CallbackQuery, text: str, alert: bool = False) -> None:
        try:
            await query.answer(text, show_alert=alert)
        except TelegramError as err:  # too late or already answered: nothing to repair
            log.info("a review press could not be answered: %s", err.message)
