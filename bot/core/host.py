"""The game host: many tables at once, each applying one action at a time, over any chat platform.

How an adapter uses it::

    host = Host(storage, settings)
    host.add_sink("telegram", deliver)           # async deliver(msg: OutMessage) -> None
    await host.start()                            # recovers unfinished tables, re-renders them, resumes timers
    answer = await host.press(user, payload)      # a button press; answer.text is the private reply
    answer = await host.command(chat, user, "new")
    ...
    await host.close()                            # stops timers and bots, flushes storage

Output goes to the sink registered for the table's platform, in order, per table. A sink should enqueue and return
quickly (it is awaited inside the table's turn); it maps ``OutMessage.key`` to its own message ids with
``host.storage.get_message_ref`` / ``set_message_ref``.

Commands (``Host.command`` names; ``args`` as a user typed them, already split):

- ``new [game] [key=value ...]``: open a table in this chat (the opener takes a seat); ``game`` a word naming a game
  of ``bot.engine.game.VARIANTS`` (``bela``, ``french``, ``бела``, ``belote``..., ``core.games``) or ``game=...``,
  else the game the chat played last; options as for ``set``, of that game.
- ``join [seat|partner]``: take a seat: a seat number 1-4, or a seated player's name to sit opposite them.
- ``leave``: leave your seat (before the match; during it, a bot takes over the seat).
- ``addbot [seat] [level|agent name]``, ``removebot [seat]``: seat or remove a bot.
- ``set <key> <value>``: a table option before the start: every key of the game's rules (formats.md §2, §7.2;
  ``target_score`` 1-3000), ``game`` (switching drops the options the new game lacks),
  plus ``timer`` (seconds, 0-3600, 0 = none), ``away`` (``bot_turn``: a bot plays that turn; ``bot_seat``: a bot
  takes the seat until the player presses "I'm back"; ``wait``), ``level`` (random, easy, medium, hard) and ``lang``
  (one of ``bot.i18n.LANGUAGES``).
- ``options``: show the options menu; ``rules``: the table's options as text.
- ``start``: start the match (empty seats are filled with bots; someone must sit at the table, unless the
  platform is the terminal or ``bot_only_tables`` is set).
- ``stop``: stop the table (its creator at once; anyone seated votes, a majority of the seated people stops it).
- ``view``: show the table again (the group message, and the caller's hand).
- ``back``: "I'm back" (take your seat back from the bot).
- ``stats``: the caller's statistics; ``top``: the chat's best players.
Unknown commands and bad arguments get an ``Answer(ok=False)`` that says what would be right.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.ai.base import Agent
from bot.config import Settings
from bot.engine import Bid, IllegalAction, parse_card
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_to_record
from bot.engine.record import match_to_record
from bot.i18n import Translator, translator
from bot.ops import metrics
from bot.storage.base import Storage, TableRow

from . import views
from .agents import make_agent_factory
from .choices import Choices
from .clock import Clock, SystemClock
from .commands import Commands
from .expiry import Expiry
from .live import LiveTable, NotStored, turn_of
from .messages import Answer, ChatRef, OutMessage, UserRef
from .payload import PayloadError, decode
from .review import Reviews, is_review
from .stale import CHOICES, stale_refusal
from .table import Table, TableError, ascii_number, replay
from .thinking import ThinkPool
from .tracker import TRACKER_ACTION, tracker_text
from .turns import Turns

log = logging.getLogger(__name__)

Sink = Callable[[OutMessage], Awaitable[None]]
# A chat's name by its id, from the platform's adapter ("" when unknown).
TitleSource = Callable[[str], Awaitable[str]]
# Makes the agent for a bot seat: (level or agent name, seed) -> Agent.
AgentFactory = Callable[[str, int], Agent]
# Whether this process serves a stored table: several processes may share one database, each serving its own tables
# (a Discord shard range's servers, or Telegram's chats).
Owns = Callable[[TableRow], Awaitable[bool]]




class Host(Commands, Turns, Expiry, Choices):
    """Hosts every table of every platform in one asyncio loop."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        *,
        clock: Clock | None = None,
        agent_factory: AgentFactory | None = None,
        bot_pause: float = 0.0,
        owns: Owns | None = None,
    ) -> None:
        """``storage`` must be opened by the caller. ``settings`` give the defaults of new tables (turn timer, away
        policy, bot level, language, named agents); ``clock`` drives the turn timers; ``agent_factory`` makes bots;
        ``bot_pause`` is a pause before each bot move (seconds) so people can follow the play; ``owns`` picks the
        stored tables ``start`` resumes (None: every one)."""
        self.storage = storage
        self.settings = settings if settings is not None else Settings(_env_file=None)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.agent_factory: AgentFactory = agent_factory or make_agent_factory(
            self.settings.agents, self.settings.bot_move_seconds
        )
        self.bot_pause = bot_pause
        self.owns = owns
        self.thinking = ThinkPool(self.settings.bot_threads, self.settings.quick_bot_threads)
        self.reviews = Reviews(self)
        self._sinks: dict[str, Sink] = {}
        self._titles: dict[str, TitleSource] = {}
        self._tables: dict[str, LiveTable] = {}
        self._by_chat: dict[ChatRef, str] = {}
        self._open_lock = asyncio.Lock()
        self._user_langs: dict[tuple[str, str], str | None] = {}
        self._chat_langs: dict[tuple[str, str], str] = {}
        self._closing = False
        self._started = False
        self._background: set[asyncio.Task[None]] = set()
        # (seconds) of every action: apply + store + render; bot thinking excluded. Read by the benchmark.
        self.latencies: list[float] | None = None
        # (table, seconds) each bot decision waited before its thinking began. Read by the benchmark.
        self.think_waits: list[tuple[str, float]] | None = None

    # --- lifecycle ---

    async def start(self) -> None:
        """Rebuild every unfinished table this process owns from its log, re-render its messages in place, resume
        its timer. Another process's tables are left alone: it plays them, and their messages are its own."""
        self._started = True
        for row in await self.storage.unfinished_tables():
            if row.table_id in self._tables:
                continue  # opened by a chat's command while this start was reading: already live, and in play
            if self.owns is not None and not await self.owns(row):
                continue
            events = [e.data for e in await self.storage.events(row.table_id)]
            chat = ChatRef.from_key(row.platform, row.chat)
            if row.platform in self._titles:  # storage keeps the chat's id only; private views name the chat
                chat = dataclasses.replace(chat, title=await self._titles[row.platform](chat.chat_id))
            try:
                table = replay(row.table_id, chat, row.creator, events)
            except (TableError, IllegalAction, KeyError, ValueError) as exc:
                log.error("table %s cannot be rebuilt from its log (%s); marking it stopped", row.table_id, exc)
                await self.storage.set_table_status(row.table_id, "stopped")
                continue
            live = LiveTable(table, deadline=row.deadline, since=self.clock.now())
            for seat in table.seats:
                if seat.kind == "human":
                    live.langs[seat.user_id] = await self._lang_for(table, seat.user_id)
            live.turn = turn_of(table)
            self._tables[table.table_id] = live
            if table.open:
                self._by_chat[table.chat] = table.table_id
            async with live.lock:
                if table.status in ("finished", "stopped"):
                    # The process stopped between the table's last action and what follows it: do that now.
                    await self._emit(live, self._current(live) + self._ending(live))
                    await self._finish(live)
                else:
                    await self._emit(live, self._current(live))
                    if table.status == "lobby" and await self.storage.get_message_ref(
                        table.chat.platform, f"{table.table_id}:opts"
                    ) is not None:
                        # An options menu shown before the stop would keep buttons that the next change makes out
                        # of date, and nothing would render it again: close it (Options opens it anew).
                        await self._emit(live, [views.options_closed(table, self._group_tr(live))])
                    self._schedule(live, resume=True)
                    self._schedule_expiry(live)

    def _ending(self, live: LiveTable) -> list[OutMessage]:
        """The messages of a table that has just ended: the last deal and its result (a finished match), the end."""
        table = live.table
        match = table.match
        out = self._deal_done(live, len(match.deals) - 1) if table.status == "finished" and match is not None else []
        return [*out, views.end_view(table, self._group_tr(live))]

    def _deal_done(self, live: LiveTable, index: int) -> list[OutMessage]:
        """A finished deal as the group sees it: its last state and, unless it was passed out, its result."""
        gtr = self._group_tr(live)
        result = views.result_view(live.table, index, gtr)
        return [views.finished_deal_view(live.table, index, gtr), *([result] if result is not None else [])]

    def settled_messages(self, table_id: str) -> list[list[OutMessage]]:
        """The table's group messages that never change again, in the order they were posted: each finished deal's
        last state and its result (one list per deal), then the end once the table has ended. An adapter that may
        have lost posts (a killed process) compares them with what its chat shows and sends what is missing."""
        live = self._tables.get(table_id)
        match = live.table.match if live is not None else None
        if live is None or match is None:
            return []
        done = len(match.deals) if live.table.status == "finished" else len(match.deals) - 1
        out = [self._deal_done(live, index) for index in range(done)]
        if live.table.status in ("finished", "stopped"):
            out.append([views.end_view(live.table, self._group_tr(live))])
        return out

    async def close(self) -> None:
        """Stop timers and bots, wait for actions in progress, flush storage. Storage stays open."""
        self._closing = True
        tasks = []
        for live in self._tables.values():
            for task in (live.bot_task, live.timer_task, live.expiry_task):
                if task is not None and not task.done():
                    task.cancel()
                    tasks.append(task)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in self._tables.values():
            async with live.lock:
                self._close_agents(live)
        self.thinking.close()
        await self.storage.flush()

    def add_sink(self, platform: str, sink: Sink) -> None:
        """Deliver every message of this platform's tables to ``sink`` (one sink per platform). A sink added
        after ``start`` gets the current messages of that platform's tables at once."""
        self._sinks[platform] = sink
        if self._started:
            task = asyncio.create_task(self._rerender(platform))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def add_titles(self, platform: str, titles: TitleSource) -> None:
        """Where ``start`` gets the names of this platform's chats (``await titles(chat_id)``): storage keeps ids."""
        self._titles[platform] = titles

    async def _rerender(self, platform: str) -> None:
        for live in list(self._tables.values()):
            if live.table.chat.platform == platform:
                async with live.lock:
                    live.shown.clear()
                    await self._emit(live, self._current(live))

    async def idle(self) -> None:
        """Wait until no table has a bot move or an action in progress (for tests and clean shutdown)."""
        while True:
            busy = [lv.bot_task for lv in self._tables.values() if lv.bot_task is not None and not lv.bot_task.done()]
            if busy:
                await asyncio.gather(*busy, return_exceptions=True)
                continue
            await asyncio.sleep(0)  # a move that just finished may have scheduled the next one
            if all(lv.bot_task is None or lv.bot_task.done() for lv in self._tables.values()):
                return

    # --- queries ---

    def table_for_chat(self, chat: ChatRef) -> str | None:
        """The id of the open (lobby or playing) table in this chat, if any."""
        return self._by_chat.get(chat)

    def table_chat(self, table_id: str) -> ChatRef | None:
        """The chat a table lives in."""
        live = self._tables.get(table_id)
        return live.table.chat if live is not None else None

    def statuses(self) -> list[str]:
        """The status of every table held now (for the metrics)."""
        return [live.table.status for live in self._tables.values()]

    def table(self, table_id: str) -> Table | None:
        """The table's state (read only: change it only through presses and commands)."""
        live = self._tables.get(table_id)
        return live.table if live is not None else None

    async def private_view(self, table_id: str, user: UserRef) -> OutMessage | None:
        """The person's current ``hand`` message at that table (None if they hold no seat there)."""
        live = self._tables.get(table_id)
        if live is None or user.platform != live.table.chat.platform:
            return None
        seat = live.table.seat_of(user.user_id)
        if seat is None:
            return None
        return self._hand(live, seat)

    # --- input: presses ---

    async def press(self, user: UserRef, payload: str) -> Answer:
        """A button press. Stale, forged, foreign or out-of-turn presses change nothing and get ``ok=False``."""
        arrived = time.perf_counter()  # the action's latency counts its wait for the table's turn
        tr = translator(await self.user_language(user))
        try:
            p = decode(payload)
        except PayloadError:
            return Answer(tr.gettext("This button does not belong to any table."), ok=False)
        if is_review(p.action):  # any deal of the table, ended or not, as long as its log is stored
            return await self.reviews.press(user, p, tr)
        live = self._tables.get(p.table_id)
        if live is None or live.table.chat.platform != user.platform:
            return Answer(tr.gettext("This table is closed."), ok=False, table_id=p.table_id)
        async with live.lock:
            table = live.table
            seat = table.seat_of(user.user_id)
            if not table.open:
                return Answer(tr.gettext("This table is closed."), ok=False, table_id=p.table_id)
            # Judged against the table as it is now, not the version the message showed (``stale``).
            refusal = stale_refusal(table, user.user_id, p.nonce, p.action, tr)
            if refusal is not None:
                return self._answer(live, user, refusal, ok=False)
            live.pressed_at = arrived
            try:
                return await self._press(live, user, seat, p.action, tr)
            except NotStored:
                return Answer(self._not_stored(tr), ok=False, table_id=p.table_id)
            finally:
                live.pressed_at = None

    @staticmethod
    def _not_stored(tr: Translator) -> str:
        return tr.gettext("That could not be saved, so nothing changed. Please try again.")

    def _answer(self, live: LiveTable, user: UserRef, text: str, ok: bool = True, joined: bool = False) -> Answer:
        seat = live.table.seat_of(user.user_id)
        view = self._hand(live, seat) if seat is not None else None
        return Answer(text, ok, view, live.table.table_id, joined)

    async def _press(self, live: LiveTable, user: UserRef, seat: int | None, action: str, tr: Translator) -> Answer:
        table = live.table
        if action == "h":
            if seat is None:
                return Answer(tr.gettext("You do not sit at this table."), ok=False, table_id=table.table_id)
            return self._answer(live, user, "")
        if action == TRACKER_ACTION:
            return self._tracker(live, user, seat, tr)
        if action == "j" or (len(action) == 2 and action[0] == "j" and action[1] in "0123"):
            return await self._join(live, user, int(action[1]) if len(action) == 2 else None, tr)
        if action == "l":
            return await self._leave(live, user, tr)
        if action in ("a", "r", "s", "o", "od", "g") or action.startswith("o:"):
            return await self._lobby_press(live, user, seat, action, tr)
        if action == "back":
            return await self._back(live, user, tr)
        if action == "x":
            return await self._stop(live, user, tr)
        if seat is None:
            return Answer(tr.gettext("You do not sit at this table."), ok=False, table_id=table.table_id)
        return await self._game_press(live, user, seat, action, tr)

    def _tracker(self, live: LiveTable, user: UserRef, seat: int | None, tr: Translator) -> Answer:
        """The card tracker's answer, to the presser alone: what has been played, as anyone at the table saw it."""
        table = live.table
        if seat is None:
            return Answer(tr.gettext("You do not sit at this table."), ok=False, table_id=table.table_id)
        if not table.options.tracker:
            return self._answer(live, user, tr.gettext("The card tracker is off at this table."), ok=False)
        if table.deal is None or table.match is None:
            return self._answer(live, user, tr.gettext("That is not possible now."), ok=False)
        return self._answer(live, user, tracker_text(table.match.observe(seat), tr))

    async def _game_press(self, live: LiveTable, user: UserRef, seat: int, action: str, tr: Translator) -> Answer:
        table = live.table
        deal = table.deal
        if table.status != "playing" or deal is None or table.to_act != seat:
            return self._answer(live, user, tr.gettext("It is not your turn."), ok=False)
        if table.seats[seat].away:
            return self._answer(live, user, tr.gettext("A bot is playing for you; press “I'm back” first."), False)
        kind, _, arg = action.partition(":")
        if kind == "c" and arg in views.CALL_BY_CODE:
            event = table.action_event(seat, Bid(views.CALL_BY_CODE[arg]), "human")
        elif kind == "p":
            try:
                card = parse_card(arg)
            except ValueError:
                return self._answer(live, user, tr.gettext("That is not a card."), ok=False)
            event = table.action_event(seat, table.chosen_play(seat, card), "human")
        elif kind == "d" and (index := ascii_number(arg, 2)) is not None and index < len(deal.declarable(seat)):
            await self._commit(live, {"e": "toggle", "seat": seat, "what": f"d{arg}"})
            return self._answer(live, user, "")
        elif kind == "b" and deal.belote_cards():
            await self._commit(live, {"e": "toggle", "seat": seat, "what": "b"})
            return self._answer(live, user, "")
        elif kind in CHOICES:
            return await self._choice_press(live, user, seat, kind, arg, tr)
        else:
            return self._answer(live, user, tr.gettext("That is not possible now."), ok=False)
        try:
            await self._commit(live, event)
        except IllegalAction as exc:
            # Only a forged payload gets here (buttons offer legal moves only); the engine's reason is for the log.
            log.info("table %s: refused %s (%s)", live.table.table_id, exc.action, exc.rule)
            return self._answer(live, user, tr.gettext("That move is against the rules."), ok=False)
        return self._answer(live, user, "")

    # --- the one path that changes a table ---

    async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None:
        """Apply an event, log it, render what changed. Call with the table's lock held. Raises IllegalAction (and
        changes nothing) if the engine refuses the action."""
        table = live.table
        started = time.perf_counter()
        before_status = table.status
        deals_before = len(table.match.deals) if table.match is not None else 0
        was_to_act = live.turn
        if "at" not in event and table.actor_of(event):
            event["at"] = self.clock.now()  # a person acted: the table is not idle (``expiry``)
        table.apply(event)
        try:
            await self.storage.append_event(table.table_id, table.version, event)
        except Exception as exc:
            # The log is the table's truth: memory must never run ahead of it. Rebuild from what was stored.
            log.exception("table %s: the action could not be stored; rebuilding the table from its log", table.table_id)
            events = [e.data for e in await self.storage.events(table.table_id)]
            live.table = replay(table.table_id, table.chat, table.creator, events)
            live.lobby = None
            raise NotStored from exc
        metrics.action_stored(event["e"], live.pressed_at or started)
        live.pressed_at = None
        if table.status != before_status and table.open:  # an ended table's status is stored by _finish
            # The log is stored, and it alone rebuilds the table: a status that cannot be written is only logged.
            await self._store_quietly(self.storage.set_table_status(table.table_id, table.status), table.table_id)
        done: list[OutMessage] = []  # a finished deal's last trick and result go before the next deal's view
        extras: list[OutMessage] = []
        gtr = self._group_tr(live)
        match = table.match
        if match is not None and deals_before >= 1 and (
            len(match.deals) > deals_before or (match.over and before_status == "playing")
        ):
            index = deals_before - 1  # the deal this action finished
            done = self._deal_done(live, index)
            self._deal_end(live, index)
        if notice:
            extras.append(views.notice(table, notice))
        if table.status in ("finished", "stopped") and before_status != table.status:
            extras.append(views.end_view(table, gtr))
        await self._emit(live, done + self._current(live) + extras)
        if self.latencies is not None:
            self.latencies.append(time.perf_counter() - started)
        now_turn = turn_of(table)
        # A person taking the seat to act back from a bot (or handing it over) starts its deadline anew, as a new
        # turn does: the stored deadline must follow, or a restart finds the old one and times the turn out.
        handed = event.get("e") in ("away", "back", "leave") and event.get("seat") == table.to_act
        if now_turn != was_to_act or handed:
            live.turn = now_turn
            await self._new_turn(live)
        if table.status in ("finished", "stopped") and before_status != table.status:
            await self._finish(live)
        else:
            self._schedule(live)
            self._schedule_expiry(live)

    @staticmethod
    async def _store_quietly(write: Awaitable[None], table_id: str) -> None:
        """A write whose loss the table's log makes good at the next start (a status, a deadline): log a failure
        instead of failing the action that is already stored."""
        try:
            await write
        except Exception:
            log.exception("table %s: a status or deadline could not be stored", table_id)

    def _group_tr(self, live: LiveTable) -> Translator:
        return translator(live.table.options.lang)

    def _user_tr(self, live: LiveTable, user_id: str) -> Translator:
        return translator(live.langs.get(user_id) or live.table.options.lang)

    def _hand(self, live: LiveTable, seat: int) -> OutMessage:
        s = live.table.seats[seat]
        user = UserRef(live.table.chat.platform, s.user_id, s.name)
        return views.hand_view(live.table, seat, user, self._user_tr(live, s.user_id))

    def _current(self, live: LiveTable) -> list[OutMessage]:
        table = live.table
        gtr = self._group_tr(live)
        timer = table.options.timer if self._timed(live) else None
        # The lobby changes only with seats, options or status: reuse it instead of rendering it every action.
        lobby_key = (
            table.status,
            table.version if table.status == "lobby" else 0,  # lobby buttons carry the nonce
            tuple((x.kind, x.name, x.level) for x in table.seats),
            repr(table.options),
        )
        if live.lobby is None or live.lobby[0] != lobby_key:
            live.lobby = (lobby_key, views.lobby(table, gtr))
        out = [live.lobby[1]]
        view = views.table_view(table, gtr, timer)
        if view is not None:
            out.append(view)
        if live.options_open and table.status == "lobby":
            out.append(views.options_menu(table, gtr))
        elif live.options_open:
            live.options_open = False
            out.append(views.options_closed(table, gtr))
        out.extend(self._hand(live, seat) for seat in table.humans())
        return out

    async def _emit(self, live: LiveTable, messages: list[OutMessage]) -> None:
        sink = self._sinks.get(live.table.chat.platform)
        if sink is None:
            return  # nothing is shown yet: a sink added later gets the current messages
        for msg in messages:
            state = (msg.text, msg.buttons)
            if not msg.notify and live.shown.get(msg.key) == state:
                continue
            live.shown[msg.key] = state
            try:
                await sink(msg)
            except Exception:
                log.exception("the %s sink failed on message %s", live.table.chat.platform, msg.key)
        # Forget old deals' messages: they never change again.
        match = live.table.match
        if match is not None and len(live.shown) > 16:
            keep = f"{live.table.table_id}:d{len(match.deals)}"
            for key in [k for k in live.shown if ":d" in k and k != keep]:
                del live.shown[key]

    async def _finish(self, live: LiveTable) -> None:
        """The match is over or the table stopped: store the record and statistics, close the bots."""
        table = live.table
        for task in (live.timer_task, live.expiry_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if live.deadline is not None:
            live.deadline = None
            await self._store_quietly(self.storage.set_deadline(table.table_id, None), table.table_id)
        match = table.match
        if table.status == "finished" and match is not None and await self.storage.match_record(
            table.table_id
        ) is None:
            seat_names = [views.seat_name(table, i, translator("en")) for i in range(len(table.seats))]
            # Each person's side: the team (seat % 2) of a four-seat game, the seat itself in a game for three or two.
            sides = len(match.totals)
            players = [(table.seats[i].user_id, table.seats[i].name, i % sides) for i in table.humans()]
            # The match is over: its seed is public now.
            if isinstance(match, FamilyMatch):
                record = family_match_to_record(match, seat_names, reveal=True)
            else:
                record = match_to_record(match, seat_names, reveal=True)
            await self.storage.save_match(
                table.table_id, table.chat.platform, table.chat.key, record, players,
                tuple(match.totals), match.winner, len(match.deals), table.game,
            )
        # Stored last: a stop before this point leaves the table "playing" in storage, so the next start replays
        # its log, finds it ended and comes back here to store what is missing, instead of losing the match.
        await self._store_quietly(self.storage.set_table_status(table.table_id, table.status), table.table_id)
        self._close_agents(live)
        if self._by_chat.get(table.chat) == table.table_id:
            del self._by_chat[table.chat]
        self._tables.pop(table.table_id, None)
