"""Shared helpers for the host's tests: a real SQLite file, a manual clock, and a sink that keeps every message."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai.simple import RandomAgent
from bot.config import Settings
from bot.core.clock import ManualClock
from bot.core.host import AgentFactory, Host
from bot.core.messages import ChatRef, OutMessage, UserRef
from bot.core.table import Table
from bot.engine import PASS, Action, Bid, Observation
from bot.engine.cards import SUIT_SYMBOLS
from bot.storage.sqlite import SqliteStorage

PLATFORM = "test"
CHAT = ChatRef(PLATFORM, "-100", title="Friday belote")
ANA = UserRef(PLATFORM, "1", "Ana", "en")
BORIS = UserRef(PLATFORM, "2", "Boris", "bg")
VERA = UserRef(PLATFORM, "3", "Vera", "en")
GEORGI = UserRef(PLATFORM, "4", "Georgi", "en")

_CARD = re.compile(r"(10|[789JQKA])([♣♦♥♠])")


def cards_in_text(text: str) -> set[int]:
    """Every card written as a symbol (J♥, 10♠) in a text."""
    out = set()
    for rank, suit in _CARD.findall(text):
        r = "789TJQKA".index("T" if rank == "10" else rank)
        out.add(SUIT_SYMBOLS.index(suit) * 8 + r)
    return out


@dataclass
class Outbox:
    messages: list[OutMessage] = field(default_factory=list)
    latest: dict[str, OutMessage] = field(default_factory=dict)

    async def __call__(self, msg: OutMessage) -> None:
        self.messages.append(msg)
        self.latest[msg.key] = msg

    def for_user(self, user: UserRef, kind: str = "hand") -> list[OutMessage]:
        return [m for m in self.messages if m.audience == user and m.kind == kind]

    def group(self, kind: str | None = None) -> list[OutMessage]:
        return [m for m in self.messages if isinstance(m.audience, ChatRef) and (kind is None or m.kind == kind)]


class Passer(RandomAgent):
    """Passes in every auction; plays a random legal card."""

    def act(self, observation: Observation) -> Action:
        if observation.legal_calls:
            return Bid(PASS)
        return super().act(observation)


async def make_host(
    path: Path, clock: ManualClock | None = None, agent_factory: AgentFactory | None = None, **settings: object
) -> tuple[Host, SqliteStorage, Outbox]:
    storage = SqliteStorage(path)
    await storage.open()
    values: dict[str, object] = {"turn_seconds": 0, "bot_level": "random", "language": "en"}
    values.update(settings)
    host = Host(
        storage,
        Settings(_env_file=None, **values),  # type: ignore[call-arg,arg-type]
        clock=clock or ManualClock(),
        agent_factory=agent_factory,
    )
    outbox = Outbox()
    host.add_sink(PLATFORM, outbox)
    await host.start()
    return host, storage, outbox


async def shut(host: Host, storage: SqliteStorage) -> None:
    await host.close()
    await storage.close()


async def anas_timed_turn(host: Host, policy: str) -> Table:
    """Ana and three bots at a table with a 30 s turn timer and the ``policy`` for an away player, at Ana's turn."""
    opened = await host.command(CHAT, ANA, "new", ["timer=30", f"away={policy}"])
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    table = host.table(opened.table_id)
    assert table is not None
    await host.idle()
    assert table.to_act == 0
    return table
