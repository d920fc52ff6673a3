"""Telegram message ids per core message key, kept in the host's storage so edits survive restarts.

A ref is stored as ``"<chat id>:<message id>"``. The same store remembers which people opened a private chat with
the bot (key ``private:<user id>``), because the bot may write to nobody else, and, at shutdown, the messages the
flood limits had not let out yet (key ``outbox:pending``, a JSON list), so the next run sends them, and the new id
of each group upgraded to a supergroup (key ``moved:<old chat id>``), for buttons still pressed under the old one.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Final

from bot.core.messages import TELEGRAM
from bot.storage.base import Storage

from .outbox import Post, post_from_json, post_to_json

log = logging.getLogger(__name__)

_PRIVATE = "private:"
_PENDING = "outbox:pending"
_MOVED = "moved:"
# Refs kept in memory (the most recently used); older ones are read from storage again when needed.
CACHED_REFS: Final = 20_000


class StorageRefs:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # Reads and writes go through this cache, so a busy table's edits do not read storage every time.
        self._cache: OrderedDict[str, tuple[int, int] | None] = OrderedDict()
        # Group id -> the supergroup it was upgraded to (None: not upgraded), for the groups asked about so far.
        self._moves: dict[int, int | None] = {}

    def _remember(self, key: str, ref: tuple[int, int] | None) -> None:
        self._cache[key] = ref
        self._cache.move_to_end(key)
        if len(self._cache) > CACHED_REFS:
            self._cache.popitem(last=False)

    async def get(self, key: str) -> tuple[int, int] | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        ref = parse_ref(await self.storage.get_message_ref(TELEGRAM, key))
        self._remember(key, ref)
        return ref

    async def set(self, key: str, ref: tuple[int, int] | None) -> None:
        self._remember(key, ref)
        await self.storage.set_message_ref(TELEGRAM, key, None if ref is None else f"{ref[0]}:{ref[1]}")

    async def private_open(self, user_id: str) -> bool:
        return await self.storage.get_message_ref(TELEGRAM, _PRIVATE + user_id) is not None

    async def remember_private(self, user_id: str) -> None:
        await self.storage.set_message_ref(TELEGRAM, _PRIVATE + user_id, user_id)

    async def forget_private(self, user_id: str) -> None:
        await self.storage.set_message_ref(TELEGRAM, _PRIVATE + user_id, None)

    async def remember_move(self, old_chat_id: int, new_chat_id: int) -> None:
        self._moves[old_chat_id] = new_chat_id
        await self.storage.set_message_ref(TELEGRAM, f"{_MOVED}{old_chat_id}", str(new_chat_id))

    async def moved_to(self, chat_id: int) -> int | None:
        """The supergroup a group was upgraded to, if it was."""
        if chat_id not in self._moves:
            stored = await self.storage.get_message_ref(TELEGRAM, f"{_MOVED}{chat_id}")
            self._moves[chat_id] = int(stored) if stored and stored.lstrip("-").isdigit() else None
        return self._moves[chat_id]

    async def save_pending(self, posts: list[Post]) -> None:
        text = json.dumps([post_to_json(p) for p in posts], ensure_ascii=False) if posts else None
        await self.storage.set_message_ref(TELEGRAM, _PENDING, text)

    async def load_pending(self) -> list[Post]:
        """The posts the previous run left unsent (and forget them: they are about to be queued again)."""
        stored = await self.storage.get_message_ref(TELEGRAM, _PENDING)
        if not stored:
            return []
        await self.storage.set_message_ref(TELEGRAM, _PENDING, None)
        try:
            return [post_from_json(item) for item in json.loads(stored)]
        except (ValueError, TypeError) as err:  # written by another version: better lost than sent wrong
            log.warning("could not read the messages left unsent by the previous run: %s", err)
            return []


def parse_ref(stored: str | None) -> tuple[int, int] | None:
    if not stored:
        return None
    chat, _, message = stored.partition(":")
    try:
        return int(chat), int(message)
    except ValueError:
        return None  # not ours: send a new message rather than edit a wrong one
