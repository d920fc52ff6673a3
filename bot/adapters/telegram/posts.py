"""What the outbox sends (a ``Post``), how it is kept across a restart (JSON), how what it shows is fingerprinted
(a digest of text and buttons), and where the Telegram message behind each key is remembered (``MessageRefs``)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import InlineKeyboardMarkup


@dataclass
class Post:
    """A message to put in a chat. With a ``key`` it is created once and then edited in place; ``fresh`` asks for a
    new message even if one with that key exists (the old one is deleted first), so Telegram notifies."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    key: str | None = None
    thread_id: int | None = None
    fresh: bool = False
    reply_to: int | None = None
    table_id: str = ""  # the table it is about ("" for none)
    who: str = ""  # the person a private post is for (to name them if their chat refuses the bot)
    # Given again so that the chat converges to the table's state: sent only when the chat does not show it.
    restated: bool = False

    @property
    def is_reply(self) -> bool:
        """An answer to a command (it waits behind the table's messages, and a newer equal one replaces it)."""
        return self.reply_to is not None and self.key is None


def post_to_json(post: Post) -> dict[str, Any]:
    data = {f.name: getattr(post, f.name) for f in dataclasses.fields(post)}
    data["markup"] = post.markup.to_dict() if post.markup is not None else None
    return data


def post_from_json(data: dict[str, Any]) -> Post:
    fields = dict(data)
    markup = fields.pop("markup", None)
    return Post(**fields, markup=InlineKeyboardMarkup.de_json(markup, None) if markup else None)


def digest_of(post: Post) -> str:
    """A short fingerprint of what the post shows (text and buttons), to tell whether a chat shows it already."""
    markup = json.dumps(post.markup.to_dict(), sort_keys=True) if post.markup is not None else ""
    return hashlib.blake2b(f"{post.text}\0{markup}".encode(), digest_size=8).hexdigest()


class MessageRefs(Protocol):
    """Where the Telegram message behind each key is remembered (storage, so that edits survive restarts), with
    what it shows, and each chat's latest request times (so that the next process respects them)."""

    async def get(self, key: str) -> tuple[int, int] | None:
        """(chat id, message id) of the message with this key, if it was sent."""
        ...

    async def set(self, key: str, ref: tuple[int, int] | None, digest: str | None = None) -> None:
        """Remember the message of a key and, if known, the digest of what it shows now."""
        ...

    async def digest(self, key: str) -> str | None:
        """The digest of what the key's message shows, when it was recorded."""
        ...

    async def load_spent(self, chat_id: int) -> tuple[list[float], float | None]:
        """Wall-clock times of the answers to the chat's latest requests, and when the request in flight (if one
        was) was made, as ``save_spent`` left them."""
        ...

    async def save_spent(self, chat_id: int, answered: list[float], asking: float | None) -> None: ...


class MemoryRefs:
    def __init__(self) -> None:
        self.refs: dict[str, tuple[int, int]] = {}
        self.digests: dict[str, str] = {}
        self.spent: dict[int, tuple[list[float], float | None]] = {}

    async def get(self, key: str) -> tuple[int, int] | None:
        return self.refs.get(key)

    async def set(self, key: str, ref: tuple[int, int] | None, digest: str | None = None) -> None:
        self.digests.pop(key, None)
        if ref is None:
            self.refs.pop(key, None)
            return
        self.refs[key] = ref
        if digest is not None:
            self.digests[key] = digest

    async def digest(self, key: str) -> str | None:
        return self.digests.get(key)

    async def load_spent(self, chat_id: int) -> tuple[list[float], float | None]:
        answered, asking = self.spent.get(chat_id, ([], None))
        return list(answered), asking

    async def save_spent(self, chat_id: int, answered: list[float], asking: float | None) -> None:
        self.spent[chat_id] = (list(answered), asking)


