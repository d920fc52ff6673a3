"""A chat's and a person's language, and a chat that got a new id (its tables go along). Part of ``Host``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.i18n import LANGUAGES, Translator, normalize_language, translator
from bot.storage.base import Storage

from . import names
from .live import LiveTable, NotStored
from .messages import Answer, ChatRef, OutMessage, UserRef
from .table import DEFAULT_GAME, GAMES, Table

log = logging.getLogger(__name__)


class Chats:
    if TYPE_CHECKING:  # provided by Host
        storage: Storage
        settings: Settings
        _tables: dict[str, LiveTable]
        _by_chat: dict[ChatRef, str]
        _open_lock: asyncio.Lock
        _user_langs: dict[tuple[str, str], str | None]
        _chat_langs: dict[tuple[str, str], str]

        async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None: ...

        async def _emit(self, live: LiveTable, messages: list[OutMessage]) -> None: ...

        def _current(self, live: LiveTable) -> list[OutMessage]: ...

        @staticmethod
        def _not_stored(tr: Translator) -> str: ...

    # --- languages ---

    async def user_language(self, user: UserRef) -> str:
        """The language of a person's private messages: their choice, else their platform's hint, else the
        configured default (``BELOTE_LANGUAGE``)."""
        key = (user.platform, user.user_id)
        if key not in self._user_langs:
            self._user_langs[key] = await self.storage.get_player_language(user.platform, user.user_id)
        chosen = self._user_langs[key]
        if chosen:
            return chosen
        if user.language:
            return normalize_language(user.language)
        return self.settings.language

    async def chat_language(self, chat: ChatRef) -> str:
        """The language of a chat's group messages."""
        key = (chat.platform, chat.key)
        if key not in self._chat_langs:
            stored = await self.storage.get_chat_language(chat.platform, chat.key)
            self._chat_langs[key] = stored or self.settings.language
        return self._chat_langs[key]

    async def set_chat_language(self, chat: ChatRef, language: str) -> Answer:
        """The chat's language (one of LANGUAGES) for its group messages; the adapter checks who may change it."""
        current = translator(await self.chat_language(chat))
        if language not in LANGUAGES:
            return Answer(current.gettext("Languages: {list}.", list=", ".join(LANGUAGES)), ok=False)
        try:
            await self.storage.set_chat_language(chat.platform, chat.key, language)
        except Exception:
            log.exception("the language of chat %s could not be stored", chat.key)
            return Answer(self._not_stored(current), ok=False)
        self._chat_langs[(chat.platform, chat.key)] = language
        tr = translator(language)
        # Chats that follow this one (a Discord server's channels without a language of their own) follow it now.
        followers = await self.storage.chats_following(chat.platform, chat.key)
        for key in followers:
            self._chat_langs[(chat.platform, key)] = language
        for place in [chat, *(ChatRef.from_key(chat.platform, key) for key in followers)]:
            table_id = self._by_chat.get(place)
            if table_id is None:
                continue
            live = self._tables[table_id]
            async with live.lock:
                if live.table.open and live.table.options.lang != language:
                    with contextlib.suppress(NotStored):  # logged; the table keeps its language
                        await self._commit(live, {"e": "set", "key": "lang", "value": language})
        return Answer(tr.gettext("The chat's language is now {lang}.", lang=names.language_name(language, tr)))

    async def set_user_language(self, user: UserRef, language: str) -> Answer:
        """The language of this person's private messages, overriding their platform's hint."""
        if language not in LANGUAGES:
            tr = translator(await self.user_language(user))
            return Answer(tr.gettext("Languages: {list}.", list=", ".join(LANGUAGES)), ok=False)
        try:
            await self.storage.set_player_language(user.platform, user.user_id, language)
        except Exception:
            log.exception("the language of player %s could not be stored", user.user_id)
            return Answer(self._not_stored(translator(await self.user_language(user))), ok=False)
        self._user_langs[(user.platform, user.user_id)] = language
        for live in list(self._tables.values()):
            if user.platform == live.table.chat.platform and live.table.seat_of(user.user_id) is not None:
                async with live.lock:
                    live.langs[user.user_id] = language
                    await self._emit(live, self._current(live))
        tr = translator(language)
        return Answer(tr.gettext("Your language is now {lang}.", lang=names.language_name(language, tr)))

    # --- the game a chat plays ---

    async def chat_game(self, chat: ChatRef) -> str:
        """The game this chat chose last (its next table offers it), else the Bulgarian game."""
        try:
            stored = await self.storage.get_chat_game(chat.platform, chat.key)
        except Exception:
            log.exception("the game of chat %s could not be read", chat.key)
            stored = None
        return stored if stored in GAMES else DEFAULT_GAME

    async def remember_game(self, chat: ChatRef, game: str) -> None:
        """Remember the chat's choice; a chat that cannot store it only loses the suggestion."""
        try:
            await self.storage.set_chat_game(chat.platform, chat.key, game)
        except Exception:
            log.exception("the game of chat %s could not be stored", chat.key)

    # --- a chat that got a new id ---

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str, title: str = "") -> list[str]:
        """The platform gave a chat a new id (a Telegram group upgraded to a supergroup). Its tables (any topic),
        language, score sheet and statistics move to the new id, and each moved table's group messages are posted
        again there (the old chat's messages cannot be edited any more). Returns the ids of the tables moved; a
        second call for the same move finds nothing left to move."""
        if old_chat_id == new_chat_id:
            return []
        await self.storage.move_chat(platform, old_chat_id, new_chat_id)
        stale = (old_chat_id, new_chat_id)
        for key in [k for k in self._chat_langs if k[0] == platform and k[1].partition("/")[0] in stale]:
            del self._chat_langs[key]  # the new chat's language is the old one's now: read it again
        moved: list[str] = []
        for live in list(self._tables.values()):
            if live.table.chat.platform != platform or live.table.chat.chat_id != old_chat_id:
                continue
            async with live.lock:
                table = live.table  # read under the lock: a refused write may have rebuilt it
                old = table.chat
                if old.chat_id != old_chat_id:
                    continue
                new = ChatRef(platform, new_chat_id, old.thread_id, title or old.title)
                async with self._open_lock:
                    if self._by_chat.get(old) == table.table_id:
                        del self._by_chat[old]
                        if new in self._by_chat:  # a table was opened there before the move was known
                            log.warning("table %s moved to chat %s, which has table %s open; its buttons still work",
                                        table.table_id, new.key, self._by_chat[new])
                        else:
                            self._by_chat[new] = table.table_id
                    table.chat = new
                live.lobby = None  # rendered for the old chat
                private = (f"{table.table_id}:h", f"{table.table_id}:p")
                for shown in [k for k in live.shown if not k.startswith(private)]:
                    del live.shown[shown]  # shown in the old chat only: post it again
                await self._emit(live, self._current(live))
            moved.append(table.table_id)
        return moved

    async def _lang_for(self, table: Table, user_id: str, hint: str | None = None) -> str:
        """A seated person's own language (chosen, else their platform's); "" when they have none, so their
        messages follow the table's language, also when it changes."""
        key = (table.chat.platform, user_id)
        if key not in self._user_langs:
            self._user_langs[key] = await self.storage.get_player_language(*key)
        chosen = self._user_langs[key]
        if chosen:
            return chosen
        hint = hint or table.hints.get(user_id)
        if hint:
            return normalize_language(hint)
        return ""
