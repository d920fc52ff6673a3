"""The table commands typed in a chat (``/belot``, join, set, start, stop…) and joining by a link. Part of ``Host``.

A command takes the table's lock and changes the table only through ``Host._commit``; the lobby's own steps (seats,
bots, options) are in ``seating.py``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.i18n import Translator, translator
from bot.storage.base import Storage, TableRow

from . import views
from .chats import Chats
from .clock import Clock
from .games import game_at, games_list
from .live import LiveTable, NotStored
from .messages import Answer, ChatRef, OutMessage, UserRef
from .seating import Seating, house_note, seat_hint
from .table import EXTRA_KEYS, OptionError, Table, ascii_number, check_game, check_option

log = logging.getLogger(__name__)

COMMANDS = (
    "new",
    "join",
    "leave",
    "addbot",
    "removebot",
    "set",
    "options",
    "rules",
    "start",
    "stop",
    "view",
    "back",
    "stats",
    "top",
)


class Commands(Chats, Seating):
    if TYPE_CHECKING:  # provided by Host
        storage: Storage
        settings: Settings
        clock: Clock
        _tables: dict[str, LiveTable]
        _by_chat: dict[ChatRef, str]
        _open_lock: asyncio.Lock

        @staticmethod
        async def _store_quietly(write: Awaitable[None], table_id: str) -> None: ...

        def _hand(self, live: LiveTable, seat: int) -> OutMessage: ...

    # --- input: commands ---

    async def command(self, chat: ChatRef, user: UserRef, name: str, args: Sequence[str] = ()) -> Answer:
        """A text or slash command in ``chat`` (see the module docstring for names and arguments)."""
        tr = translator(await self.user_language(user))
        name = name.strip().lower().lstrip("/")
        if name == "new":
            return await self._new(chat, user, list(args), tr)
        if name == "stats":
            return await self._stats(chat, user, tr)
        if name == "top":
            return await self._top(chat, user, tr)
        if name not in COMMANDS:
            return Answer(tr.gettext("Unknown command {name}; commands: {list}.", name=name,
                                     list=", ".join(COMMANDS)), ok=False)
        table_id = self._by_chat.get(chat)
        live = self._tables.get(table_id) if table_id else None
        if live is None:
            return Answer(tr.gettext("There is no table here; open one with /belot."), ok=False)
        async with live.lock:
            if not live.table.open:
                return Answer(tr.gettext("This table is closed."), ok=False)
            try:
                return await self._command(live, user, name, list(args), tr)
            except NotStored:
                return Answer(self._not_stored(tr), ok=False, table_id=live.table.table_id)

    async def _command(self, live: LiveTable, user: UserRef, name: str, args: list[str], tr: Translator) -> Answer:
        table = live.table
        seat = table.seat_of(user.user_id)
        if name == "join":
            wanted: int | None = None
            if args:
                arg = " ".join(args).strip()
                number = ascii_number(arg)
                if number is not None and 1 <= number <= len(table.seats):
                    wanted = number - 1
                else:
                    partners = [i for i, s in enumerate(table.seats) if s.kind == "human"
                                and s.name.lower() == arg.lower().lstrip("@")]
                    if not partners or not table.teams:  # a game for three or two has no partners
                        return Answer(seat_hint(table, tr), ok=False)
                    wanted = (partners[0] + 2) % 4
            return await self._join(live, user, wanted, tr)
        if name == "leave":
            return await self._leave(live, user, tr)
        if name == "addbot":
            return await self._add_bot(live, user, seat, args, tr)
        if name == "removebot":
            return await self._remove_bot(live, user, seat, args, tr)
        if name == "set":
            if len(args) == 1 and "=" in args[0]:
                args = args[0].split("=", 1)
            if len(args) != 2:
                return Answer(tr.gettext("Use: set <option> <value>, e.g. set target_score 101."), ok=False)
            return await self._set(live, user, seat, args[0], args[1], tr)
        if name == "options":
            return await self._lobby_press(live, user, seat, "o", tr)
        if name == "rules":
            return Answer(views.rules_text(table, tr), table_id=table.table_id)
        if name == "start":
            return await self._lobby_press(live, user, seat, "s", tr)
        if name == "stop":
            return await self._stop(live, user, tr)
        if name == "back":
            return await self._back(live, user, tr)
        # view: show everything again
        for key in list(live.shown):
            if key.startswith(f"{table.table_id}:lobby") or key.startswith(f"{table.table_id}:d"):
                del live.shown[key]
            if seat is not None and key.startswith(f"{table.table_id}:h{seat}:"):
                del live.shown[key]
        await self._emit(live, self._current(live))
        return self._answer(live, user, "")

    async def _new(self, chat: ChatRef, user: UserRef, args: list[str], tr: Translator) -> Answer:
        async with self._open_lock:
            if chat in self._by_chat:
                return Answer(tr.gettext("A table is already open here."), ok=False, table_id=self._by_chat[chat])
            if refusal := self._too_many_here(chat, tr) or self._too_many_tables(user, tr):
                return Answer(refusal, ok=False)
            s = self.settings
            # The game: a word naming it ("/belot bela"), or game=..., else the one this chat chose last.
            game = await self.chat_game(chat)
            pairs: list[tuple[str, str]] = []
            i = 0
            while i < len(args):
                arg = args[i]
                key, eq, value = arg.partition("=")
                i += 1
                if not eq:
                    named = game_at(args, i - 1)
                    if named is None:
                        return Answer(tr.gettext("Unknown game {word}; games: {list}. Options are written "
                                                 "key=value, e.g. target_score=101.", word=arg,
                                                 list=games_list(tr)), ok=False)
                    game, used = named
                    i += used - 1
                elif key.strip() == "game":
                    try:
                        game = check_game(value)
                    except OptionError as exc:
                        return Answer(self._option_problem(exc, tr), ok=False)
                else:
                    pairs.append((key.strip(), value.strip()))
            options: dict[str, Any] = {
                "rules": {}, "timer": s.turn_seconds, "away": s.away_policy, "level": s.bot_level,
                "lang": await self.chat_language(chat), "game": game,
            }
            for key, value in pairs:
                try:
                    checked = check_option(key, value, tuple(s.agents), game)
                except OptionError as exc:
                    return Answer(self._option_problem(exc, tr, game), ok=False)
                if key in EXTRA_KEYS:
                    options[key] = checked
                else:
                    options["rules"][key] = checked
            table_id = await self._new_id()
            now = self.clock.now()
            try:
                await self.storage.create_table(TableRow(table_id, chat.platform, chat.key, user.user_id, "lobby",
                                                         None, now, now))
            except Exception:
                log.exception("a new table in chat %s could not be stored", chat.key)
                return Answer(self._not_stored(tr), ok=False)
            table = Table(table_id, chat, user.user_id)
            live = LiveTable(table, since=now)
            self._tables[table_id] = live
            self._by_chat[chat] = table_id
        async with live.lock:
            try:
                await self._commit(live, {"e": "open", "options": options, "user": user.user_id})
            except NotStored:
                # Nothing of the table is stored: let it go, so that the chat can open one when storage works.
                async with self._open_lock:
                    self._tables.pop(table_id, None)
                    if self._by_chat.get(chat) == table_id:
                        del self._by_chat[chat]
                await self._store_quietly(self.storage.set_table_status(table_id, "stopped"), table_id)
                return Answer(self._not_stored(tr), ok=False)
            try:
                answer = await self._join(live, user, None, tr)
            except NotStored:
                return Answer(tr.gettext("Table {table} is open.", table=table_id) + " " + self._not_stored(tr),
                              False, None, table_id)
        await self.remember_game(chat, game)
        text = tr.gettext("Table {table} is open.", table=table_id)
        if house := house_note(game, tr):
            text += " " + house
        return Answer(text, True, answer.view, table_id, True)

    async def _new_id(self) -> str:
        alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
        while True:
            table_id = "".join(secrets.choice(alphabet) for _ in range(6))
            if table_id not in self._tables and await self.storage.get_table(table_id) is None:
                return table_id

    async def join(self, table_id: str, user: UserRef, seat: int | None = None) -> Answer:
        """Seat ``user`` at a table by its id (e.g. from a Telegram deep link); ``seat`` 0-3 or any free seat.
        A player already seated there gets ``ok=True`` and their private view is sent again."""
        tr = translator(await self.user_language(user))
        live = self._tables.get(table_id)
        if live is None or live.table.chat.platform != user.platform:
            return Answer(tr.gettext("This table is closed."), ok=False, table_id=table_id)
        async with live.lock:
            if not live.table.open:
                return Answer(tr.gettext("This table is closed."), ok=False, table_id=table_id)
            mine = live.table.seat_of(user.user_id)
            if mine is not None:
                live.shown.pop(f"{table_id}:h{mine}:{user.user_id}", None)
                await self._emit(live, [self._hand(live, mine)])
                return self._answer(live, user, tr.gettext("You sit at seat {n}.", n=mine + 1))
            try:
                return await self._join(live, user, seat, tr)
            except NotStored:
                return Answer(self._not_stored(tr), ok=False, table_id=table_id)

