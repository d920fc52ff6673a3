"""The platform-neutral data the core exchanges with adapters.

Inbound, an adapter names *who* acted (``UserRef``) and *where* (``ChatRef``), and hands the core a button's
payload or a command. Outbound, the core produces ``OutMessage``s (through the sink an adapter registered for its
platform) and, for every press or command, one short private ``Answer``.

Text markup: ``OutMessage.text`` is plain text with one mark only, ``**bold**`` (never nested, never across lines).
Adapters map it to their platform (Telegram HTML ``<b>``, Discord Markdown as is, the terminal as it likes) and must
escape everything else. Adapters never parse game meaning from text or keys: all structure they may act on is in
the fields below.

Button payloads are short opaque codes (at most 64 bytes, ASCII), decoded only by the core (``bot.core.payload``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

# Platform names used in refs, sinks and storage. An adapter may use any short lowercase name.
TELEGRAM: Final = "telegram"
DISCORD: Final = "discord"
TERMINAL: Final = "terminal"

MAX_PAYLOAD_BYTES: Final = 64


@dataclass(frozen=True, slots=True)
class ChatRef:
    """A place where a table lives: a group chat, or a topic/thread inside one.

    ``chat_id`` and ``thread_id`` are the platform's ids as strings (Telegram chat id and forum ``message_thread_id``;
    Discord channel id, and thread id when the table lives in a thread). One table at a time per ``ChatRef``.
    """

    platform: str
    chat_id: str
    thread_id: str | None = None
    title: str = field(default="", compare=False)  # the chat's name, shown in private views ("which table")

    @property
    def key(self) -> str:
        """The chat's key inside its platform, as storage uses it: ``chat_id`` or ``chat_id/thread_id``."""
        return self.chat_id if self.thread_id is None else f"{self.chat_id}/{self.thread_id}"

    @classmethod
    def from_key(cls, platform: str, key: str) -> ChatRef:
        chat_id, _, thread_id = key.partition("/")
        return cls(platform, chat_id, thread_id or None)


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person on a platform. Equality is by ``platform`` and ``user_id`` only.

    ``name`` is the display name to show at the table. ``language`` is the platform's hint (Telegram
    ``language_code``, Discord ``interaction.locale``); a language the user chose with
    ``Host.set_user_language`` takes precedence over it.
    """

    platform: str
    user_id: str
    name: str = field(default="", compare=False)
    language: str | None = field(default=None, compare=False)


# Who sees a message: the table's chat (everyone there), or one person privately.
Audience = ChatRef | UserRef

# What a message is, for presentation only (an adapter may style or route by it; it never changes game meaning):
#   lobby   - the table before the match: seats, options, Join/Leave/Add bot/Start buttons
#   options - the table options menu (buttons cycle values)
#   table   - the group's view of the deal in progress (one per deal), with "My hand" and, if needed, "I'm back"
#   result  - a finished deal's result and explanation, or the match's final result (new message, notify)
#   notice  - a short group notice (timeout, a bot took a seat, the table stopped, ...)
#   hand    - one player's private view: their hand and their legal actions as buttons (one per player per table)
#   ping    - a short private "your turn" alert (sent as a new message so the platform notifies the player)
#   info    - a reply to a command that changes nothing (stats, top, rules, help)
MessageKind = Literal["lobby", "options", "table", "result", "notice", "hand", "ping", "info"]


@dataclass(frozen=True, slots=True)
class Button:
    """One button: its label (already translated) and its opaque payload (≤ 64 bytes)."""

    label: str
    payload: str


Keyboard = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class OutMessage:
    """A message to show, created or replaced by ``key``.

    - ``key``: stable id of this message within its platform (unique across tables). A message with a key the
      adapter has seen before replaces the earlier one in place (edit); an unknown key is sent as a new message.
      The adapter keeps the key → platform message id mapping in storage (``Storage.get_message_ref`` /
      ``set_message_ref``), so edits survive restarts.
    - ``notify``: the audience must be alerted. Post it as a new message (deleting the previous message of the
      same key first, if there is one and the platform allows) rather than editing silently.
    - ``buttons``: rows of buttons, at most 5 rows of at most 5 (Discord's limit); empty removes the keyboard.
    - ``mention``: the player this message calls to act (whose turn it is), so an adapter can add a real
      mention or ping; the text already names them.
    - ``table_id``: the table this belongs to ("" for messages about no table, e.g. stats).
    """

    key: str
    audience: Audience
    text: str
    buttons: Keyboard = ()
    notify: bool = False
    kind: MessageKind = "info"
    table_id: str = ""
    mention: UserRef | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The core's reply to one press or command, for the person who did it only (Telegram
    ``answerCallbackQuery``, a Discord ephemeral reply, a line in the terminal).

    - ``text``: short and translated into that person's language; "" when there is nothing to say.
    - ``ok``: False when nothing changed because the press or command was refused (stale, forged, foreign, out of
      turn, illegal, not allowed); ``text`` then says why.
    - ``view``: the person's private view of the table after this (their ``hand`` message) when they hold a seat
      there, for platforms that answer a press with an ephemeral message instead of a pushed private message.
    - ``table_id``: the table the press or command concerned, when known.
    - ``joined``: this press or command gave the person a seat (Telegram uses it to check that the bot can write
      to them privately, and otherwise sends the deep link that ends in ``Host.join``).
    """

    text: str = ""
    ok: bool = True
    view: OutMessage | None = None
    table_id: str = ""
    joined: bool = False
