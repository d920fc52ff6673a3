"""Telegram message ids per core message key, kept in the host's storage so edits survive restarts.

A ref is stored as ``"<chat id>:<message id>"``, for a group's message followed by ``":<digest>"`` of what it shows
(so a restart knows what the group sees already). The same store remembers which people opened a private chat with
the bot (key ``private:<user id>``), because the bot may write to nobody else, and, at shutdown, the messages the
flood limits had not let out yet (key ``outbox:pending``, a JSON list), so the next run sends them, and the new id
of each group upgraded to a supergroup (key ``moved:<old chat id>``), for buttons still pressed under the old one,
and the times of each chat's latest requests (key ``spent:<chat id>``, JSON: the Unix times Telegram answered them,
and when the request in flight was made), so that the next process spends only what is left of the chat's budget.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Final

from bot.core.messages import TELEGRAM
from bot.storage.base import Storage

from .posts import Post, post_from_json, post_to_json

log = logging.getLogger(__name__)

_PRIVATE = "private:"
_PENDING = "outbox:pending"
_MOVED = "moved:"
_SPENT = "spent:"
# Refs kept in memory (the most recently used); older ones are read from storage again when needed.
CACHED_REFS: Final = 20_000


class StorageRefs:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # Reads and writes go through this cache, so a busy table's edits do not read storage every time.
        self._cache: OrderedDict[str, tuple[tuple[int, int], str | None] | None] = OrderedDict()
        # Group id -> the supergroup it was upgraded to (None: not upgraded), for the groups asked about so far.
        self._moves: dict[int, int | None] = {}

    def _remember(self, key: str, ref: tuple[tuple[int, int], str | None] | None) -> None:
        self._cache[key] = ref
        self._cache.move_to_end(key)
        if len(self._cache) > CACHED_REFS:
            self._cache.popitem(last=False)

    async def _load(self, key: str) -> tuple[tuple[int, int], str | None] | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        stored = await self.storage.get_message_ref(TELEGRAM, key)
        ref = parse_ref(stored)
        found = None if ref is None else (ref, digest_in(stored))
        self._remember(key, found)
        return found

    async def get(self, key: str) -> tuple[int, int] | None:
        found = await self._load(key)
        return None if found is None else found[0]

    async def digest(self, key: str) -> str | None:
        found = await self._load(key)
        return None if found is None else found[1]

    async def set(self, key: str, ref: tuple[int, int] | None, digest: str | None = None) -> None:
        self._remember(key, None if ref is None else (ref, digest))
        stored = None if ref is None else f"{ref[0]}:{ref[1]}" + (f":{digest}" if digest else "")
        await self.storage.set_message_ref(TELEGRAM, key, stored)

    async def load_spent(self, chat_id: int) -> tuple[list[float], float | None]:
        stored = await self.storage.get_message_ref(TELEGRAM, f"{_SPENT}{chat_id}")
        try:
            data = json.loads(stored) if stored else []
        except ValueError:
            return [], None
        if isinstance(data, list):  # written before the request in flight was stored apart
            return _times(data), None
        if not isinstance(data, dict):
            return [], None
        asking = data.get("asking")
        return _times(data.get("answered")), float(asking) if isinstance(asking, int | float) else None

    async def save_spent(self, chat_id: int, answered: list[float], asking: float | None) -> None:
        text = None
        if answered or asking is not None:
            text = json.dumps({"answered": [round(t, 3) for t in answered],
                               "asking": None if asking is None else round(asking, 3)})
        await self.storage.set_message_ref(TELEGRAM, f"{_SPENT}{chat_id}", text)

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


def _times(stamps: object) -> list[float]:
    return [float(t) for t in stamps if isinstance(t, int | float)] if isinstance(stamps, list) else []


def parse_ref(stored: str | None) -> tuple[int, int] | None:
    if not stored:
        return None
    chat, _, rest = stored.partition(":")
    message = rest.partition(":")[0]
    try:
        return int(chat), int(message)
    except ValueError:
        return None  # not ours: send a new message rather than edit a wrong one


def digest_in(stored: str | None) -> str | None:
    """The digest of what the message shows, when the ref has one (refs stored before digests have none)."""
    parts = (stored or "").split(":")
    return parts[2] if len(parts) == 3 and parts[2] else None
