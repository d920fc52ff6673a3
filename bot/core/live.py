"""A table as a running host holds it: the state, plus its lock, bots, timer and what it last showed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.ai.base import Agent

from .messages import Keyboard, OutMessage
from .table import Table

# A stored deadline of WAITING: the turn's time ran out under the "wait" policy and the group was told once, so no
# timer runs (not even after a restart) until the turn changes.
WAITING = -1.0


class NotStored(RuntimeError):
    """An action could not be written to storage; the table was rebuilt from its log, so nothing changed."""


@dataclass(eq=False)
class LiveTable:
    """A table in memory, with what only a running host has: its lock, bots, timer and what it last showed."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    agents: dict[int, Agent] = field(default_factory=dict)
    shown: dict[str, tuple[str, Keyboard]] = field(default_factory=dict)
    langs: dict[str, str] = field(default_factory=dict)  # user id -> language of their private messages
    bot_task: asyncio.Task[None] | None = None
    timer_task: asyncio.Task[None] | None = None
    expiry_task: asyncio.Task[None] | None = None
    expires: float | None = None  # when the lobby closes or the idle match stops (``bot.core.expiry``)
    since: float = 0.0  # when this host took the table up: the idle time of a log that does not say
    deadline: float | None = None
    turn: tuple[int, int, int, str] | None = None  # (deal, actions in the deal, seat, phase) of the deadline
    options_open: bool = False
    lobby: tuple[object, OutMessage] | None = None
    pressed_at: float | None = None  # when the press being handled reached the host (``perf_counter``)


def turn_of(table: Table) -> tuple[int, int, int, str] | None:
    """The current turn: (deal, actions in the deal, seat, phase). The phase tells a discard or an exchange from the
    lead that follows it, which may be the same seat's after as many calls and cards."""
    seat = table.to_act
    if seat is None or table.match is None:
        return None
    deal = table.match.deal
    played = sum(len(t.cards) for t in deal.tricks) + len(deal.trick)
    return (len(table.match.deals), len(deal.calls) + played, seat, deal.phase)

