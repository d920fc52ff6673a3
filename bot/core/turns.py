"""Whose turn it is and what happens then: the "your turn" ping, the stored deadline, the timer and its away
policy, and bots thinking off the event loop. Part of ``Host``.

A bot's move and a timer's move go through ``Host._commit`` like a press, under the table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.ai.base import Agent, View
from bot.ai.simple import RandomAgent
from bot.engine import Action, IllegalAction, Play, card_str
from bot.engine.familyrecord import family_deal_report
from bot.engine.record import deal_report
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import TrumpDeal
from bot.i18n import Translator
from bot.storage.base import Storage

from . import views
from .clock import Clock
from .live import WAITING, LiveTable, NotStored, turn_of
from .messages import OutMessage, UserRef
from .thinking import ThinkPool

log = logging.getLogger(__name__)


class Turns:
    if TYPE_CHECKING:  # provided by Host
        storage: Storage
        clock: Clock
        bot_pause: float
        agent_factory: Callable[[str, int], Agent]
        _closing: bool
        think_waits: list[tuple[str, float]] | None
        thinking: ThinkPool

        async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None: ...

        async def _emit(self, live: LiveTable, messages: list[OutMessage]) -> None: ...

        def _group_tr(self, live: LiveTable) -> Translator: ...

        @staticmethod
        async def _store_quietly(write: Awaitable[None], table_id: str) -> None: ...

        def _user_tr(self, live: LiveTable, user_id: str) -> Translator: ...

    # --- turns, timers and bots ---

    def _timed(self, live: LiveTable) -> bool:
        table = live.table
        seat = table.to_act
        return (
            seat is not None
            and table.options.timer > 0
            and table.seats[seat].kind == "human"
            and not table.seats[seat].bot_plays
        )

    async def _new_turn(self, live: LiveTable) -> None:
        """A new turn began: ping the person whose turn it is, and set (and store) the turn's deadline."""
        table = live.table
        seat = table.to_act
        if seat is not None and table.seats[seat].kind == "human" and not table.seats[seat].away:
            s = table.seats[seat]
            user = UserRef(table.chat.platform, s.user_id, s.name)
            await self._emit(live, [views.ping(table, seat, user, self._user_tr(live, s.user_id))])
        deadline = self.clock.now() + table.options.timer if self._timed(live) else None
        if deadline != live.deadline:
            live.deadline = deadline
            await self._store_quietly(self.storage.set_deadline(table.table_id, deadline), table.table_id)

    def _schedule(self, live: LiveTable, resume: bool = False) -> None:
        """Start the bot's move or the turn timer, whichever the current turn needs."""
        if self._closing:
            return
        table = live.table
        seat = table.to_act
        if live.timer_task is not None and not live.timer_task.done():
            if live.timer_task is not asyncio.current_task():
                live.timer_task.cancel()
            live.timer_task = None
        if seat is None:
            return
        if table.seats[seat].bot_plays:
            if live.bot_task is None or live.bot_task.done() or live.bot_task is asyncio.current_task():
                live.bot_task = asyncio.create_task(self._bot_move(live))
            return
        if self._timed(live):
            if live.deadline == WAITING:
                return
            if live.deadline is None:
                live.deadline = self.clock.now() + table.options.timer
            live.timer_task = asyncio.create_task(self._timer(live, live.deadline, turn_of(table)))

    async def _agent(self, live: LiveTable, seat: int) -> Agent:
        agent = live.agents.get(seat)
        if agent is None:
            s = live.table.seats[seat]
            level = s.level if s.is_bot else live.table.options.level
            seed = live.table.seed * 4 + seat
            try:
                agent = await asyncio.to_thread(self.agent_factory, level, seed)
            except Exception:
                # An external program that cannot start would be retried (and waited for) on every turn: seat the
                # table's own level instead, once.
                fallback = live.table.options.level if live.table.options.level != level else "random"
                log.exception("bot %r at table %s cannot start; %s plays instead", level, live.table.table_id, fallback)
                agent = await asyncio.to_thread(self.agent_factory, fallback, seed)
            live.agents[seat] = agent
        return agent

    async def _think(self, live: LiveTable, seat: int) -> Action:
        table = live.table
        match = table.match
        assert match is not None
        obs: View = match.observe(seat)  # what that seat may know, in any game
        try:
            agent = await self._agent(live, seat)
            asked = time.perf_counter()
            waits = self.think_waits

            def act() -> Action:
                if waits is not None:
                    waits.append((table.table_id, time.perf_counter() - asked))
                return agent.act(obs)

            s = table.seats[seat]
            level = s.level if s.is_bot else table.options.level
            action = await self.thinking.think(table.table_id, level, act)
        except asyncio.CancelledError:
            raise
        except TypeError:
            if not isinstance(obs, SeatView) or isinstance(live.agents.get(seat), RandomAgent):
                log.exception("the bot at table %s seat %d failed; playing a legal move for it", table.table_id, seat)
                return match.legal_actions()[0]
            # A level that does not play this game yet refuses its view: the random bot takes the seat, once, rather
            # than a first legal move on every turn.
            log.warning("the %s bot does not play %s; a random bot plays seat %d of table %s", table.seats[seat].level
                        or table.options.level, table.game, seat, table.table_id)
            substitute = RandomAgent(table.seed * 4 + seat)
            live.agents[seat] = substitute
            action = substitute.act(obs)
        except Exception:
            log.exception("the bot at table %s seat %d failed; playing a legal move for it", table.table_id, seat)
            action = match.legal_actions()[0]
        return action

    async def _bot_move(self, live: LiveTable) -> None:
        if self.bot_pause:
            await asyncio.sleep(self.bot_pause)
        table = live.table
        seat = table.to_act
        if seat is None or not table.seats[seat].bot_plays:
            return  # the turn went to a person meanwhile: their timer was set by the commit that gave it
        version = table.version  # think about the table as it is now, whatever changed during the pause
        action = await self._think(live, seat)
        async with live.lock:
            table = live.table
            if table.version != version or table.to_act != seat:
                # Something was committed while the bot thought (a switch, a setting, a seat handed over). That
                # commit left this turn to this task, so look at the table again instead of leaving it waiting.
                self._schedule(live)
                return
            try:
                await self._commit_bot(live, seat, action, "bot")
                return
            except NotStored:
                pass
        await asyncio.sleep(1.0)  # storage refused the move: try again shortly, from the table as stored
        self._schedule(live)

    async def _commit_bot(self, live: LiveTable, seat: int, action: Action, by: str, notice: str = "") -> None:
        table = live.table
        try:
            await self._commit(live, table.action_event(seat, action, by), notice)
        except IllegalAction:
            match = table.match
            assert match is not None
            fallback = match.legal_actions()[0]
            if isinstance(fallback, Play):
                fallback = table.chosen_play(seat, fallback.card)
            await self._commit(live, table.action_event(seat, fallback, by), notice)

    async def _timer(self, live: LiveTable, deadline: float, turn: tuple[int, int, int, str] | None) -> None:
        await self.clock.sleep_until(deadline)
        table = live.table
        seat = table.to_act
        if seat is None or turn_of(table) != turn:
            return
        policy = table.options.away
        name = table.seats[seat].name
        gtr = self._group_tr(live)
        if policy == "bot_turn":
            action = await self._think(live, seat)
            async with live.lock:
                if turn_of(table) != turn:
                    return
                text = gtr.gettext("Time is up for {name}: a bot played this turn.", name=name)
                await self._commit_bot(live, seat, action, "timer", text)
        elif policy == "bot_seat":
            async with live.lock:
                if turn_of(table) != turn:
                    return
                text = gtr.gettext("Time is up for {name}: a bot plays the seat until they press “I'm back”.",
                                   name=name)
                await self._commit(live, {"e": "away", "seat": seat}, text)
        else:
            async with live.lock:
                if turn_of(table) != turn:
                    return
                live.deadline = WAITING
                await self._store_quietly(self.storage.set_deadline(table.table_id, WAITING), table.table_id)
                await self._emit(live, [views.notice(table, gtr.gettext("Time is up for {name}; the table waits.",
                                                                        name=name))])

    def _deal_end(self, live: LiveTable, index: int) -> None:
        match = live.table.match
        assert match is not None
        deal = match.deals[index]
        report = family_deal_report(deal) if isinstance(deal, TrumpDeal) else deal_report(deal)
        hands = [[card_str(c) for c in h] for h in deal.hands]
        for agent in live.agents.values():
            try:
                agent.deal_end(report, hands)
            except Exception:
                log.exception("a bot failed at the end of a deal")

    def _close_agents(self, live: LiveTable) -> None:
        for agent in live.agents.values():
            with contextlib.suppress(Exception):
                agent.close()
        live.agents.clear()

