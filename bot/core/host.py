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

- ``new [key=value ...]``: open a table in this chat (the opener takes a seat); options as for ``set``.
- ``join [seat|partner]``: take a seat: a seat number 1-4, or a seated player's name to sit opposite them.
- ``leave``: leave your seat (before the match; during it, a bot takes over the seat).
- ``addbot [seat] [level|agent name]``, ``removebot [seat]``: seat or remove a bot.
- ``set <key> <value>``: a table option before the start: every key of formats.md §2, plus ``timer`` (seconds,
  0 = none), ``away`` (``bot_turn``: a bot plays that turn; ``bot_seat``: a bot takes the seat until the player
  presses "I'm back"; ``wait``), ``level`` (random, easy, medium, hard) and ``lang`` (bg, en).
- ``options``: show the options menu; ``rules``: the table's options as text.
- ``start``: start the match (empty seats are filled with bots).
- ``stop``: stop the table (its creator at once; anyone seated votes, a majority of the seated people stops it).
- ``view``: show the table again (the group message, and the caller's hand).
- ``back``: "I'm back" (take your seat back from the bot).
- ``stats``: the caller's statistics; ``top``: the chat's best players.
Unknown commands and bad arguments get an ``Answer(ok=False)`` that says what would be right.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.ai.base import Agent
from bot.config import Settings
from bot.storage.base import Storage

from .clock import Clock
from .messages import Answer, ChatRef, OutMessage, UserRef

Sink = Callable[[OutMessage], Awaitable[None]]
# Makes the agent for a bot seat: (level or agent name, seed) -> Agent.
AgentFactory = Callable[[str, int], Agent]

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


class Host:
    """Hosts every table of every platform in one asyncio loop."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        *,
        clock: Clock | None = None,
        agent_factory: AgentFactory | None = None,
    ) -> None:
        """``storage`` must be opened by the caller. ``settings`` give the defaults of new tables (turn timer, away
        policy, bot level, language, named agents); ``clock`` drives the turn timers; ``agent_factory`` makes bots."""
        self.storage = storage
        raise NotImplementedError

    # --- lifecycle ---

    async def start(self) -> None:
        """Rebuild every unfinished table from its log, re-render its messages in place, resume its timer."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop timers and bots, wait for actions in progress, flush storage. Storage stays open."""
        raise NotImplementedError

    def add_sink(self, platform: str, sink: Sink) -> None:
        """Deliver every message of this platform's tables to ``sink`` (one sink per platform)."""
        raise NotImplementedError

    # --- input from adapters ---

    async def press(self, user: UserRef, payload: str) -> Answer:
        """A button press. Stale, forged, foreign or out-of-turn presses change nothing and get ``ok=False``."""
        raise NotImplementedError

    async def command(self, chat: ChatRef, user: UserRef, name: str, args: Sequence[str] = ()) -> Answer:
        """A text or slash command in ``chat`` (see the module docstring for names and arguments)."""
        raise NotImplementedError

    async def join(self, table_id: str, user: UserRef, seat: int | None = None) -> Answer:
        """Seat ``user`` at a table by its id (e.g. from a Telegram deep link); ``seat`` 0-3 or any free seat.
        A player already seated there gets ``ok=True`` and their private view is sent again."""
        raise NotImplementedError

    async def set_chat_language(self, chat: ChatRef, language: str) -> Answer:
        """The chat's language (bg or en) for its group messages; the adapter checks who may change it."""
        raise NotImplementedError

    async def set_user_language(self, user: UserRef, language: str) -> Answer:
        """The language of this person's private messages, overriding their platform's hint."""
        raise NotImplementedError

    # --- queries ---

    def table_for_chat(self, chat: ChatRef) -> str | None:
        """The id of the open (lobby or playing) table in this chat, if any."""
        raise NotImplementedError

    def table_chat(self, table_id: str) -> ChatRef | None:
        """The chat a table lives in."""
        raise NotImplementedError

    async def private_view(self, table_id: str, user: UserRef) -> OutMessage | None:
        """The person's current ``hand`` message at that table (None if they hold no seat there)."""
        raise NotImplementedError

    async def chat_language(self, chat: ChatRef) -> str:
        """The language of a chat's group messages."""
        raise NotImplementedError

    async def user_language(self, user: UserRef) -> str:
        """The language of a person's private messages: their choice, else their platform's hint, else the
        configured default (``BELOTE_LANGUAGE``)."""
        raise NotImplementedError

    async def idle(self) -> None:
        """Wait until no table has a bot move or an action in progress (for tests and clean shutdown)."""
        raise NotImplementedError
