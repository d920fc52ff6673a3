"""Runs the real bot (storage, host, Telegram adapter on python-telegram-bot) against the fake Bot API server, and
plays simulated people who read their chats and press the buttons they were sent."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.adapters.telegram.adapter import TelegramAdapter
from bot.adapters.telegram.outbox import FloodPolicy
from bot.config import Settings, load_settings
from bot.core.host import AgentFactory, Host
from bot.core.payload import decode
from bot.core.table import Table, replay
from bot.engine import parse_card
from bot.storage.factory import open_storage
from tests.fake_telegram import TOKEN, Answer, FakeTelegram, FloodLimits, Sent

_CARD = re.compile(r"(10|[789JQKA])([♣♦♥♠])")
_HAND_GROUP = re.compile(r"([♣♦♥♠])((?: (?:10|[789JQKA])(?!\w))+)")  # not "♦ Karo", a suit's name


# The command limits a deployment has by default (tests/test_telegram_limits.py; bench/telegram.py's flood).
REAL_COMMAND_LIMITS: dict[str, Any] = {
    name: Settings.model_fields[name].default
    for name in ("telegram_user_commands", "telegram_chat_commands", "telegram_command_window")
}


def limits_of(policy: FloodPolicy) -> FloodLimits:
    """The fake server enforces exactly the limits the adapter paces itself by."""
    return FloodLimits(policy.chat_messages, policy.chat_window, policy.group_messages, policy.group_window)


def cards_in(text: str) -> set[int]:
    """Every card a text shows, written "J♥" (tricks, buttons) or grouped by suit ("♥ A K 10", a hand)."""
    found = {parse_card(rank.replace("10", "T") + "CDHS"["♣♦♥♠".index(suit)]) for rank, suit in _CARD.findall(text)}
    for suit, ranks in _HAND_GROUP.findall(text):
        for rank in ranks.split():
            found.add(parse_card(rank.replace("10", "T") + "CDHS"["♣♦♥♠".index(suit)]))
    return found


def action_of(data: str) -> str:
    """The action a button's payload carries ("" for a button that is not the game's, e.g. a link)."""
    try:
        return decode(data).action
    except ValueError:
        return ""


@dataclass
class Person:
    user_id: int
    name: str
    language: str


class Harness:
    def __init__(
        self,
        tg: FakeTelegram,
        database: Path | str,  # a SQLite file or a PostgreSQL URL
        policy: FloodPolicy,
        agent_factory: AgentFactory | None = None,
        bot_pause: float = 0.0,
        **settings: Any,
    ) -> None:
        self.bot_pause = bot_pause
        self.tg = tg
        self.database = database
        self.policy = policy
        self.agent_factory = agent_factory
        defaults: dict[str, Any] = {"turn_seconds": 0, "language": "bg", "bot_level": "random"}
        # Tests compress minutes of use into a second: the command limits are off unless a test sets them
        # (``REAL_COMMAND_LIMITS``); they have tests of their own.
        defaults.update(telegram_user_commands=1000, telegram_chat_commands=10000)
        defaults.update(settings)
        self.settings: Settings = load_settings(
            env_file=None,
            telegram_token=TOKEN,
            telegram_base_url=tg.root_url,
            database=str(database),
            **defaults,
        )

    async def start(self) -> None:
        self.storage = open_storage(str(self.database))
        await self.storage.open()
        self.host = Host(self.storage, self.settings, agent_factory=self.agent_factory, bot_pause=self.bot_pause)
        self.adapter = TelegramAdapter(self.host, self.settings, self.policy)
        await self.adapter.start()
        await self.host.start()

    async def stop(self) -> None:
        await self.adapter.stop()
        await self.host.close()
        await self.storage.close()

    async def settle(self, rounds: int = 3) -> None:
        """Wait until every injected update was handled, the host is idle and every queued message delivered."""
        quiet = 0
        while quiet < rounds:
            before = len(self.tg.calls)
            await self.host.idle()
            await self.adapter.outbox.drain()
            await asyncio.sleep(0.01)
            app = self.adapter.app
            # An update the bot acknowledged may still wait in the application's queue or be in a handler.
            handling = app.update_queue.qsize() or app.update_processor.current_concurrent_updates
            busy = (self.tg.pending_updates() or handling or self.adapter.outbox.pending()
                    or len(self.tg.calls) != before)
            quiet = 0 if busy else quiet + 1

    async def delivered(self) -> None:
        """After a press was answered: wait for the bots and for every private message it caused to be delivered
        (the group's table may lag behind, its edits coalescing, as it would in a busy group)."""
        await self.host.idle()
        await self.adapter.outbox.drain(private_only=True)

    async def press(self, person: Person, message: Sent, data: str) -> Answer:
        return await self.tg.answer_of(self.tg.press(person.user_id, message, data))

    async def oracle(self, table_id: str) -> Table:
        """The table as its stored log says it is now (what the bot must show, and nothing more)."""
        row = await self.storage.get_table(table_id)
        assert row is not None
        events = [e.data for e in await self.storage.events(table_id)]
        from bot.core.messages import TELEGRAM, ChatRef

        return replay(table_id, ChatRef.from_key(TELEGRAM, row.chat), row.creator, events)

    async def version(self, table_id: str) -> int:
        return len(await self.storage.events(table_id))


@asynccontextmanager
async def telegram_with(
    policy: FloodPolicy, people: Iterable[Person], group: int, title: str, admins: set[int]
) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API with these people and one group of theirs (a test file's ``tg`` fixture)."""
    async with FakeTelegram(limits_of(policy)) as server:
        for p in people:
            server.add_user(p.user_id, p.name, p.language)
        server.add_group(group, title, admins=admins)
        yield server


@asynccontextmanager
async def harness_on(tg: FakeTelegram, database: Path, policy: FloodPolicy) -> AsyncIterator[Harness]:
    """The bot started against ``tg`` on a SQLite file, stopped after (a test file's ``h`` fixture)."""
    harness = Harness(tg, database, policy)
    await harness.start()
    yield harness
    await harness.stop()


async def say(h: Harness, person: Person, chat: int, text: str) -> Sent:
    """Send a line and return the bot's newest message in that chat after it."""
    before = {m.message_id for m in h.tg.in_chat(chat)}
    h.tg.send_text(person.user_id, chat, text)
    await h.settle()
    new = [m for m in h.tg.in_chat(chat) if m.message_id not in before]
    assert new, f"no answer to {text!r}"
    return new[-1]


def buttons_with(message: Sent | None, prefix: str) -> list[tuple[str, str]]:
    """(label, data) of the message's buttons whose action starts with ``prefix``."""
    if message is None:
        return []
    return [(label, data) for label, data in message.buttons() if data and action_of(data).startswith(prefix)]
