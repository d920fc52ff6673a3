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
from typing import Final

from telegram import Bot, Message
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

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
