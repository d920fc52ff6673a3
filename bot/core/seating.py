"""The lobby's commands: seats, bots, table options, "I'm back", stopping, and statistics. Part of ``Host``.

Every method is called with the table's lock held and changes the table only through ``Host._commit``.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.engine.game import variant
from bot.engine.shuffle import SCHEME
from bot.i18n import Translator
from bot.storage.base import Storage

from . import names, views
from .games import next_game
from .live import LiveTable, NotStored
from .messages import TERMINAL, Answer, ChatRef, OutMessage, UserRef
from .table import DEFAULT_GAME, EXTRA_KEYS, GAMES, OptionError, Table, ascii_number, check_option, rule_keys

log = logging.getLogger(__name__)


def house_note(game: str, tr: Translator) -> str:
    """What a player choosing a house game (``Variant.house_rules``) is told; "" for the other games."""
    if not variant(game).house_rules:
        return ""
    return tr.gettext("{game} is played by house rules: no rulebook settles it; the bot's rules page says how it "
                      "is played here.", game=names.game_name(game, tr))


def seat_hint(table: Table, tr: Translator) -> str:
    """What a join may name: a seat number, or at a team game a seated player to partner."""
    if table.teams:
        return tr.gettext("Name a seat 1-4 or a seated player to partner.")
    return tr.gettext("Name a seat 1-{n}.", n=len(table.seats))


class Seating:
    if TYPE_CHECKING:  # provided by Host
        storage: Storage
        settings: Settings
        _tables: dict[str, LiveTable]

        async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None: ...

        def _answer(self, live: LiveTable, user: UserRef, text: str, ok: bool = True, joined: bool = False) -> Answer:
            ...

        async def _emit(self, live: LiveTable, messages: list[OutMessage]) -> None: ...

        def _current(self, live: LiveTable) -> list[OutMessage]: ...

        def _group_tr(self, live: LiveTable) -> Translator: ...

        async def _lang_for(self, table: Table, user_id: str, hint: str | None = None) -> str: ...

        async def remember_game(self, chat: ChatRef, game: str) -> None: ...

    # --- seats ---

    async def _join(self, live: LiveTable, user: UserRef, wanted: int | None, tr: Translator) -> Answer:
        table = live.table
        if table.status != "lobby":
            return self._answer(live, user, tr.gettext("The match has started; wait for the next one."), ok=False)
        mine = table.seat_of(user.user_id)
        free = table.free_seats()
        if wanted is not None and not 0 <= wanted < len(table.seats):
            return self._answer(live, user, seat_hint(table, tr), ok=False)
        if wanted is not None and wanted not in free:
            return self._answer(live, user, tr.gettext("Seat {n} is taken.", n=wanted + 1), ok=False)
        if mine is not None and wanted is None:
            return self._answer(live, user, tr.gettext("You sit at seat {n}.", n=mine + 1))
        if not free:
            return self._answer(live, user, tr.gettext("The table is full."), ok=False)
        if mine is None and (refusal := self._too_many_tables(user, tr, but=table.table_id)):
            return self._answer(live, user, refusal, ok=False)
        seat = wanted if wanted is not None else free[0]
        name = user.name or user.user_id
        try:
            await self.storage.save_player(user.platform, user.user_id, name)
        except Exception as exc:
            log.exception("player %s could not be stored; not seated", user.user_id)
            raise NotStored from exc
        if mine is not None:
            await self._commit(live, {"e": "leave", "seat": mine})
        live.langs[user.user_id] = await self._lang_for(table, user.user_id, user.language)
        event: dict[str, Any] = {"e": "sit", "seat": seat, "user": user.user_id, "name": name}
        if user.language:
            event["lang"] = user.language
        await self._commit(live, event)
        return self._answer(live, user, tr.gettext("You sit at seat {n}.", n=seat + 1), joined=True)

    def _too_many_tables(self, user: UserRef, tr: Translator, but: str = "") -> str:
        """Why this person may not open or join one more table ("" if they may): the open tables they opened or sit
        at, besides ``but``, are as many as one person may have (``max_tables_per_user``)."""
        cap = self.settings.max_tables_per_user
        theirs = sum(1 for lv in self._tables.values() if lv.table.open and lv.table.table_id != but
                     and lv.table.chat.platform == user.platform
                     and (lv.table.creator == user.user_id or lv.table.seat_of(user.user_id) is not None))
        if theirs < cap:
            return ""
        return tr.ngettext("You have {n} open table, the most one person may have; finish or stop it first.",
                           "You have {n} open tables, the most one person may have; finish or stop one first.", cap)

    def _too_many_here(self, chat: ChatRef, tr: Translator) -> str:
        """Why the chat may not open one more table ("" if it may): its open tables, in all its topics, are as many
        as one chat may have (``max_tables_per_chat``)."""
        cap = self.settings.max_tables_per_chat
        here = sum(1 for lv in self._tables.values() if lv.table.open and lv.table.chat.platform == chat.platform
                   and lv.table.chat.chat_id == chat.chat_id)
        if here < cap:
            return ""
        return tr.ngettext("This chat has {n} open table, the most it may have; finish or stop it first.",
                           "This chat has {n} open tables, the most it may have; finish or stop one first.", cap)

    async def _leave(self, live: LiveTable, user: UserRef, tr: Translator) -> Answer:
        seat = live.table.seat_of(user.user_id)
        if seat is None:
            return Answer(tr.gettext("You do not sit at this table."), ok=False, table_id=live.table.table_id)
        await self._commit(live, {"e": "leave", "seat": seat})
        if live.table.status == "playing":
            return Answer(tr.gettext("You left; a bot plays your seat."), table_id=live.table.table_id)
        return Answer(tr.gettext("You left the table."), table_id=live.table.table_id)

    @staticmethod
    def _option_problem(exc: OptionError, tr: Translator, game: str = DEFAULT_GAME) -> str:
        if not exc.allowed:
            return tr.gettext("Unknown option {key}; options: {list}.", key=exc.key,
                              list=", ".join((*rule_keys(game), *EXTRA_KEYS, "game")))
        return tr.gettext("{key} takes one of: {allowed}.", key=exc.key, allowed=exc.allowed)

    def _may_manage(self, live: LiveTable, user: UserRef, seat: int | None) -> bool:
        return seat is not None or user.user_id == live.table.creator

    async def _add_bot(
        self, live: LiveTable, user: UserRef, seat: int | None, args: list[str], tr: Translator
    ) -> Answer:
        table = live.table
        if table.status != "lobby":
            return self._answer(live, user, tr.gettext("Bots are added before the start."), ok=False)
        if not self._may_manage(live, user, seat):
            return self._answer(live, user, tr.gettext("Only seated players manage the table."), ok=False)
        free = table.free_seats()
        if not free:
            return self._answer(live, user, tr.gettext("The table is full."), ok=False)
        where, level = free[0], table.options.level
        for arg in args:
            number = ascii_number(arg)
            if number is not None and not 1 <= number <= len(table.seats):
                return self._answer(live, user, tr.gettext("Name a seat 1-{n} or a bot level.", n=len(table.seats)),
                                    ok=False)
            if number is not None:
                if number - 1 not in free:
                    return self._answer(live, user, tr.gettext("Seat {n} is taken.", n=number), ok=False)
                where = number - 1
            else:
                try:
                    level = check_option("level", arg, tuple(self.settings.agents))
                except OptionError as exc:
                    return self._answer(live, user, self._option_problem(exc, tr), ok=False)
        await self._commit(live, {"e": "bot", "seat": where, "level": level, "user": user.user_id})
        return self._answer(live, user, "")

    async def _remove_bot(
        self, live: LiveTable, user: UserRef, seat: int | None, args: list[str], tr: Translator
    ) -> Answer:
        table = live.table
        if table.status != "lobby":
            return self._answer(live, user, tr.gettext("Bots are removed before the start."), ok=False)
        if not self._may_manage(live, user, seat):
            return self._answer(live, user, tr.gettext("Only seated players manage the table."), ok=False)
        bots = [i for i, s in enumerate(table.seats) if s.is_bot]
        if args:
            number = ascii_number(args[0])
            if number is None or not 1 <= number <= len(table.seats):
                return self._answer(live, user, tr.gettext("Name a seat 1-{n}.", n=len(table.seats)), ok=False)
            bots = [i for i in bots if i == number - 1]
        if not bots:
            return self._answer(live, user, tr.gettext("There is no bot to remove."), ok=False)
        await self._commit(live, {"e": "unbot", "seat": bots[-1], "user": user.user_id})
        return self._answer(live, user, "")

    async def _set(
        self, live: LiveTable, user: UserRef, seat: int | None, key: str, value: Any, tr: Translator
    ) -> Answer:
        table = live.table
        if table.status != "lobby":
            return self._answer(live, user, tr.gettext("Options are set before the start."), ok=False)
        if not self._may_manage(live, user, seat):
            return self._answer(live, user, tr.gettext("Only seated players manage the table."), ok=False)
        key = key.strip()
        game = table.game
        if key not in rule_keys(game) and key not in EXTRA_KEYS and key != "game":
            return self._answer(
                live, user, tr.gettext("Unknown option {key}; options: {list}.", key=key,
                                       list=", ".join((*rule_keys(game), *EXTRA_KEYS, "game"))), ok=False,
            )
        try:
            checked = check_option(key, value, tuple(self.settings.agents), game)
        except OptionError as exc:
            return self._answer(live, user, self._option_problem(exc, tr, game), ok=False)
        taken = sum(1 for s in table.seats if s.kind != "empty")
        if key == "game" and variant(checked).seats < taken:
            return self._answer(live, user, tr.gettext(
                "{game} is played by {n}; {taken} seats are taken. Free a seat first.",
                game=names.game_label(checked, tr), n=variant(checked).seats, taken=taken), ok=False)
        await self._commit(live, {"e": "set", "key": key, "value": checked, "user": user.user_id})
        if key == "game":
            await self.remember_game(table.chat, checked)
            return self._answer(live, user, house_note(checked, tr))
        return self._answer(live, user, "")

    async def _lobby_press(
        self, live: LiveTable, user: UserRef, seat: int | None, action: str, tr: Translator
    ) -> Answer:
        table = live.table
        if action == "a":
            return await self._add_bot(live, user, seat, [], tr)
        if action == "r":
            return await self._remove_bot(live, user, seat, [], tr)
        if table.status != "lobby":
            return self._answer(live, user, tr.gettext("The match has started."), ok=False)
        if not self._may_manage(live, user, seat):
            return self._answer(live, user, tr.gettext("Only seated players manage the table."), ok=False)
        if action == "o":
            live.options_open = True
            live.shown.pop(f"{table.table_id}:opts", None)
            await self._emit(live, self._current(live))
            return self._answer(live, user, "")
        if action == "od":
            live.options_open = False
            await self._emit(live, [views.options_closed(table, self._group_tr(live))])
            return self._answer(live, user, "")
        if action == "g":  # the lobby's game button: the next game of the family
            taken = sum(1 for s in table.seats if s.kind != "empty")
            return await self._set(live, user, seat, "game", next_game(table.game, taken), tr)
        if action.startswith("o:"):
            code = action[2:]
            keys = [k for k, c in views.MENU_CODES.items() if c == code and k in views.menu_options(table)]
            if not keys:
                return self._answer(live, user, tr.gettext("That is not possible now."), ok=False)
            key = keys[0]
            values = views.menu_options(table)[key]
            current = views.option_value(table, key)
            nxt = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
            return await self._set(live, user, seat, key, nxt, tr)
        # start
        free = table.free_seats()
        humans = table.humans()
        if not humans and not (table.chat.platform == TERMINAL or self.settings.bot_only_tables):
            # Four bots and nobody to watch for them would only spend the processor.
            return self._answer(live, user, tr.gettext("Someone must sit at the table to start it."), ok=False)
        for empty in free:
            await self._commit(live, {"e": "bot", "seat": empty, "level": table.options.level,
                                      "user": user.user_id})
        # 256 secret bits; the group sees only their commitment until the match ends (docs/fairness.md).
        seed = secrets.token_hex(32)
        dealer = secrets.randbelow(len(table.seats))
        await self._commit(live, {"e": "start", "seed": seed, "scheme": SCHEME, "dealer": dealer, "user": user.user_id})
        return self._answer(live, user, tr.gettext("The match begins."))

    async def _back(self, live: LiveTable, user: UserRef, tr: Translator) -> Answer:
        seat = live.table.seat_of(user.user_id)
        if seat is None:
            return Answer(tr.gettext("You do not sit at this table."), ok=False, table_id=live.table.table_id)
        if not live.table.seats[seat].away:
            return self._answer(live, user, tr.gettext("You are playing your seat already."))
        await self._commit(live, {"e": "back", "seat": seat})
        return self._answer(live, user, tr.gettext("Welcome back."))

    async def _stop(self, live: LiveTable, user: UserRef, tr: Translator) -> Answer:
        table = live.table
        seat = table.seat_of(user.user_id)
        if user.user_id == table.creator:
            await self._commit(live, {"e": "stop", "by": user.user_id})
            return Answer(tr.gettext("The table was stopped."), table_id=table.table_id)
        if seat is None:
            return Answer(tr.gettext("Only the table's creator or its players can stop it."), ok=False,
                          table_id=table.table_id)
        if user.user_id not in table.votes:
            await self._commit(live, {"e": "vote", "user": user.user_id})
        humans = [table.seats[i].user_id for i in table.humans()]
        votes = sum(1 for h in humans if h in table.votes)
        if votes * 2 > len(humans):
            await self._commit(live, {"e": "stop", "by": "vote"})
            return Answer(tr.gettext("The table was stopped."), table_id=table.table_id)
        return Answer(tr.gettext("Your vote to stop counts ({votes} of {needed}).", votes=votes,
                                 needed=len(humans) // 2 + 1), table_id=table.table_id)

    # --- statistics ---

    async def _stats(self, chat: ChatRef, user: UserRef, tr: Translator) -> Answer:
        stats = await self.storage.player_stats(user.platform, user.user_id)
        if stats is None:
            return Answer(tr.gettext("No finished matches yet."))
        lines = [tr.gettext("{name}: {matches} matches, {wins} won, {points} points.", name=stats.name,
                            matches=stats.matches, wins=stats.wins, points=stats.points)]
        per_game = [(g, await self.storage.player_stats(user.platform, user.user_id, game=g)) for g in GAMES]
        played = [(g, s) for g, s in per_game if s is not None]
        if [g for g, _ in played] != [DEFAULT_GAME]:  # more than the one game every older match was: say which
            for game, s in played:
                assert s is not None
                lines.append(tr.gettext("{game}: {matches} matches, {wins} won, {points} points.",
                                        game=names.game_name(game, tr), matches=s.matches, wins=s.wins,
                                        points=s.points))
        return Answer("\n".join(lines))

    async def _top(self, chat: ChatRef, user: UserRef, tr: Translator) -> Answer:
        per_game = [(g, await self.storage.top_players(chat.platform, chat.key, game=g)) for g in GAMES]
        played = [(g, rows) for g, rows in per_game if rows]
        if not played:
            return Answer(tr.gettext("No finished matches yet."))
        lines = [tr.gettext("**Best players here**")]
        for game, rows in played:
            if [g for g, _ in played] != [DEFAULT_GAME]:
                lines.append(names.game_name(game, tr))
            for i, r in enumerate(rows, 1):
                lines.append(tr.gettext("{i}. {name}: {wins} of {matches} won", i=i, name=r.name, wins=r.wins,
                                        matches=r.matches))
        return Answer("\n".join(lines))
