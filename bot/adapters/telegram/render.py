"""The core's neutral messages as Telegram messages: HTML text, inline keyboards, chats and topics."""

from __future__ import annotations

import base64
import binascii
import html
import re
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.messages import TELEGRAM, ChatRef, Keyboard, OutMessage, UserRef

from .outbox import Post

MAX_TEXT: Final = 4096
# Deep-link payloads may use A-Z a-z 0-9 _ - and be at most 64 characters long (Bot API, "Deep linking").
_DEEP_LINK_SAFE = re.compile(r"[A-Za-z0-9_-]{1,62}")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def to_html(text: str, mention: UserRef | None = None) -> str:
    """``**bold**`` becomes ``<b>``; everything else is escaped. The mentioned player's name (its last
    occurrence, where the text says whose turn it is) becomes a real mention that notifies them."""
    escaped = html.escape(text, quote=False)
    if mention is not None and mention.platform == TELEGRAM and mention.name and mention.user_id.isdigit():
        name = html.escape(mention.name, quote=False)
        at = escaped.rfind(name)
        if at >= 0:
            link = f'<a href="tg://user?id={mention.user_id}">{name}</a>'
            escaped = escaped[:at] + link + escaped[at + len(name) :]
    rendered = _BOLD.sub(r"<b>\1</b>", escaped)
    if len(rendered) > MAX_TEXT:
        # Too long for one message: plain text (a cut could leave markup open), cut at a line.
        rendered = html.escape(shorten(text.replace("**", ""), MAX_TEXT), quote=False)
    return rendered


ALERT_LIMIT: Final = 200  # characters of a callback query's answer


def alert_text(text: str) -> str:
    """A callback query's answer (plain text, at most ``ALERT_LIMIT`` characters): whole lines while they fit, then
    " …", so nothing is cut mid-word; a first line too long alone is cut and ends in "…"."""
    if len(text) <= ALERT_LIMIT:
        return text
    lines = text.split("\n")
    kept = lines[0]
    if len(kept) + len(" …") > ALERT_LIMIT:
        return kept[: ALERT_LIMIT - 1] + "…"
    for line in lines[1:]:
        if len(kept) + 1 + len(line) + len(" …") > ALERT_LIMIT:
            break
        kept += "\n" + line
    return kept + " …"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to fit ``limit`` characters once HTML-escaped. The longest line gives up its middle (an error
    quoting a long input keeps what it quotes first and the reason it ends with, and the heading and hint lines
    around it stay); when that is not enough, whole lines are kept while they fit, then "…"."""
    if _size(text) <= limit:
        return text
    lines = text.split("\n")
    longest = max(range(len(lines)), key=lambda i: _size(lines[i]))
    room = _size(lines[longest]) - (_size(text) - limit) - len(" … ")
    if room >= 80:
        head = _fit(lines[longest], room // 3)
        tail = _fit(lines[longest][::-1], room - _size(head))[::-1]
        lines[longest] = f"{head} … {tail}"
        return "\n".join(lines)
    kept: list[str] = []
    for line in lines:
        if _size("\n".join([*kept, line, "…"])) > limit:
            break
        kept.append(line)
    return "\n".join([*kept, "…"])


def _size(text: str) -> int:
    return len(html.escape(text, quote=False))


def _fit(line: str, room: int) -> str:
    """The longest start of ``line`` whose escaped form fits ``room``, cut after a word when one ends near."""
    low, high = 0, min(len(line), max(room, 0))
    while low < high:  # escaping only lengthens, so the starts that fit are the shortest ones
        mid = (low + high + 1) // 2
        if _size(line[:mid]) <= room:
            low = mid
        else:
            high = mid - 1
    part = line[:low]
    space = part.rfind(" ")
    return part[:space].rstrip() if space > len(part) * 3 // 4 else part


def keyboard(rows: Keyboard) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(b.label, callback_data=b.payload) for b in row] for row in rows if row]
    )


def chat_of(chat: ChatRef) -> tuple[int, int | None]:
    return int(chat.chat_id), int(chat.thread_id) if chat.thread_id else None


def post_of(message: OutMessage) -> Post | None:
    """The post for a core message, or None when it is for another platform."""
    audience = message.audience
    if audience.platform != TELEGRAM:
        return None
    if isinstance(audience, ChatRef):
        chat_id, thread_id = chat_of(audience)
        who = ""
    else:
        chat_id, thread_id, who = int(audience.user_id), None, audience.name
    return Post(
        chat_id=chat_id,
        text=to_html(message.text, message.mention),
        markup=keyboard(message.buttons),
        key=message.key,
        thread_id=thread_id,
        fresh=message.notify,
        table_id=message.table_id,
        who=who,
    )


def deep_link_payload(table_id: str) -> str:
    """The ``/start`` payload that seats a person at ``table_id``."""
    if _DEEP_LINK_SAFE.fullmatch(table_id):
        return "t" + table_id
    return "b" + base64.urlsafe_b64encode(table_id.encode()).decode().rstrip("=")


def table_of_payload(payload: str) -> str | None:
    """The table id a ``/start`` payload names, or None when it names none."""
    if payload.startswith("t") and _DEEP_LINK_SAFE.fullmatch(payload[1:]):
        return payload[1:]
    if payload.startswith("b") and len(payload) > 1:
        encoded = payload[1:] + "=" * (-len(payload[1:]) % 4)
        try:
            decoded = base64.b64decode(encoded, altchars=b"-_", validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        return decoded or None
    return None


def deep_link(bot_username: str, table_id: str) -> str:
    return f"https://t.me/{bot_username}?start={deep_link_payload(table_id)}"
