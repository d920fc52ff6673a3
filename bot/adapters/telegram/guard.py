"""Who may act at a table, and how often: Telegram's side of it.

- A person must be a member of the table's group to sit there. A press under the group's own message shows it (only
  the group sees that message); a deep link or a press that comes from elsewhere is checked with ``getChatMember``,
  and the answer is kept for a short while.
- A message posted on behalf of a chat (an anonymous admin, a channel) carries Telegram's one shared sender id, not
  a person: it may not open, join, stop or vote.
- Commands are limited per person and per chat in a sliding window: one more gets one short answer, the rest
  silence until the window has room again, so nobody can spend a group's message budget by repeating a command.
"""

from __future__ import annotations

import enum
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from telegram import Bot, CallbackQuery, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.core.messages import TELEGRAM, ChatRef, UserRef
from bot.core.payload import PayloadError, decode
from bot.i18n import translator

from .commands import ALL_COMMANDS, OPEN_TO_CHATS, TABLE_COMMANDS

if TYPE_CHECKING:
    from .adapter import TelegramAdapter

log = logging.getLogger(__name__)

# The sender Telegram puts on messages of an anonymous group admin (GroupAnonymousBot) and on messages posted on
# behalf of a channel (Channel_Bot); the chat that really posted is ``message.sender_chat``.
ANONYMOUS_ADMIN: Final = 1087968824
CHANNEL_BOT: Final = 136817688
# Entries kept before the stale ones are swept out.
_SWEEP_AT: Final = 10_000


def posted_as_chat(message: Message) -> bool:
    """The message was posted on behalf of a chat (the group itself, or a channel), not by a person."""
    sender = message.from_user
    return message.sender_chat is not None or (sender is not None and sender.id in (ANONYMOUS_ADMIN, CHANNEL_BOT))


class Verdict(enum.Enum):
    OK = "ok"
    WARN = "warn"  # over the limit: answer once
    QUIET = "quiet"  # over the limit and already answered: say nothing


@dataclass
class _Window:
    stamps: deque[float] = field(default_factory=deque)
    warned: bool = False

    def full(self, now: float, count: int, window: float) -> bool:
        while self.stamps and self.stamps[0] <= now - window:
            self.stamps.popleft()
        if len(self.stamps) < count:
            self.warned = False  # room again: a later excess gets its one answer
            return False
        return True


class CommandLimits:
    """At most ``per_user`` commands from one sender and ``per_chat`` in one chat in any ``window`` seconds."""

    def __init__(self, per_user: int, per_chat: int, window: float) -> None:
        self.per_user = per_user
        self.per_chat = per_chat
        self.window = window
        self._users: dict[int, _Window] = {}
        self._chats: dict[int, _Window] = {}

    def admit(self, sender_id: int, chat_id: int, now: float | None = None) -> Verdict:
        now = time.monotonic() if now is None else now
        user = self._users.setdefault(sender_id, _Window())
        chat = self._chats.setdefault(chat_id, _Window())
        over = [w for w, count in ((user, self.per_user), (chat, self.per_chat)) if w.full(now, count, self.window)]
        if not over:
            user.stamps.append(now)
            chat.stamps.append(now)
            self._sweep(now)
            return Verdict.OK
        if any(w.warned for w in over):
            return Verdict.QUIET
        for w in over:
            w.warned = True
        return Verdict.WARN

    def _sweep(self, now: float) -> None:
        for windows in (self._users, self._chats):
            if len(windows) > _SWEEP_AT:
                for key in [k for k, w in windows.items() if not w.stamps or w.stamps[-1] <= now - self.window]:
                    del windows[key]


class Membership:
    """Whether a person is a member of a group, as ``getChatMember`` says, remembered for a short while (members
    longer than outsiders, so someone who has just joined the group may try again at once)."""

    def __init__(self, bot: Bot, member_seconds: float = 120.0, outsider_seconds: float = 10.0) -> None:
        self.bot = bot
        self.member_seconds = member_seconds
        self.outsider_seconds = outsider_seconds
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}

    async def holds(self, chat_id: int, user_id: int) -> bool | None:
        """True for a member (also an admin, the owner, or a restricted member), False for someone who left, was
        banned or never joined; None when Telegram could not be asked."""
        now = time.monotonic()
        known = self._known.get((chat_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except (BadRequest, Forbidden) as err:  # "user not found", or the bot is not in that group any more
            log.info("membership of %s in %s: %s", user_id, chat_id, err.message)
            holds = False
        except TelegramError as err:
            log.warning("could not check membership of %s in %s: %s", user_id, chat_id, err.message)
            return None
        else:
            status = member.status
            holds = status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER) or (
                status == ChatMemberStatus.RESTRICTED and bool(getattr(member, "is_member", False))
            )
        if len(self._known) > _SWEEP_AT:
            self._known = {k: v for k, v in self._known.items() if v[1] > now}
        self._known[(chat_id, user_id)] = (holds, now + (self.member_seconds if holds else self.outsider_seconds))
        return holds


class Admission:
    """The adapter's door: the command limits and chats posting as such (a handler that runs before every other),
    and the membership of people who come to a table from outside its group."""

    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter
        settings = adapter.settings
        self.limits = CommandLimits(
            settings.telegram_user_commands, settings.telegram_chat_commands, settings.telegram_command_window
        )
        self.members = Membership(adapter.app.bot)

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Commands over the sender's or the chat's limit, and table commands posted on behalf of a chat, stop
        here (``ApplicationHandlerStop``) with at most one short answer."""
        message = update.effective_message
        if message is None or not message.text:
            return
        name, _, addressee = message.text.split()[0][1:].partition("@")
        ours = not addressee or addressee.lower() == (self.adapter.bot.username or "").lower()
        if name.lower() not in ALL_COMMANDS or not ours:
            return  # not a command of ours (perhaps another bot's): not counted, not answered
        as_chat = posted_as_chat(message)
        sender_id = message.sender_chat.id if message.sender_chat is not None else (
            message.from_user.id if message.from_user is not None else message.chat.id
        )
        verdict = self.limits.admit(sender_id, message.chat.id)
        if verdict is Verdict.WARN:
            t = translator(await self.adapter.language_of(message))
            self.adapter.reply(message, t.gettext("Too many commands: I will answer again in a minute."))
        if verdict is not Verdict.OK:
            raise ApplicationHandlerStop
        if as_chat and name.lower() in TABLE_COMMANDS and name.lower() not in OPEN_TO_CHATS:
            t = translator(await self.adapter.language_of(message))
            if message.sender_chat is not None and message.sender_chat.id != message.chat.id:
                text = t.gettext(
                    "This was sent on behalf of the channel {channel}, and a table needs a person: choose your own "
                    "account (the picture next to the message field) and send the command again.",
                    channel=message.sender_chat.title or "",
                )
            else:
                text = t.gettext(
                    "You are an anonymous admin here, so your commands carry no name and cannot open, join, stop or "
                    "vote: turn off “Remain anonymous” in your admin rights, or send it from another account."
                )
            self.adapter.reply(message, text)
            raise ApplicationHandlerStop

    async def outsider(self, chat: ChatRef, user: User, lang_user: UserRef) -> str | None:
        """Why ``user`` may not sit at a table in ``chat`` (not a member of it), or None when they may."""
        holds = await self.members.holds(int(chat.chat_id), user.id)
        if holds:
            return None
        t = translator(await self.adapter.host.user_language(lang_user))
        if holds is None:
            return t.gettext("I could not check that you are in the table's group; please try again in a moment.")
        return t.gettext(
            "Only members of {group} can sit at its table: join the group first, then try again.",
            group=chat.title or t.gettext("the group"),
        )

    async def outsider_press(self, query: CallbackQuery, user: UserRef) -> str | None:
        """A press that could seat someone who is not seated, and did not come from the table's group itself (a
        press there proves membership): why it is refused, if it is."""
        try:
            table_id = decode(query.data or "").table_id
        except PayloadError:
            return None  # the host answers it
        chat, table = self.adapter.host.table_chat(table_id), self.adapter.host.table(table_id)
        if chat is None or table is None or chat.platform != TELEGRAM or table.seat_of(user.user_id) is not None:
            return None
        shown = query.message
        if shown is not None and await self.adapter.current_chat(shown.chat.id) == int(chat.chat_id):
            return None
        return await self.outsider(chat, query.from_user, user)

