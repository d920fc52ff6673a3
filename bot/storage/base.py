"""The storage protocol: everything the host (and the adapters, for message ids, score sheets and forms) keep durably.

A backend implements ``Storage``; ``bot.storage.sqlite.SqliteStorage`` (aiosqlite) is the embedded default. Every
value crossing this boundary is plain data (str, int, float, JSON-able dicts), so a second backend needs nothing
from the core.

Keys: ``platform`` is an adapter's name ("telegram", "discord", "terminal"); ``chat`` is ``ChatRef.key``
(``chat_id`` or ``chat_id/thread_id``); ``user_id`` is the platform's user id as a string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

JSON = dict[str, Any]


class StorageError(RuntimeError):
    """The database cannot be used (wrong file or server, newer schema, closed) or a write failed."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table as stored: identity, who opened it, its status and its timer deadline (epoch seconds)."""

    table_id: str
    platform: str
    chat: str
    creator: str  # user id of the person who opened it
    status: str  # "lobby", "playing", "finished", "stopped"
    deadline: float | None  # when the current turn's timer runs out (None: no timer running)
    created: float
    updated: float


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a table's append-only log: ``seq`` counts from 1 per table; ``data`` is the action."""

    table_id: str
    seq: int
    data: JSON
    at: float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Finished-match statistics of one player (per platform), or of one player within one chat."""

    platform: str
    user_id: str
    name: str
    matches: int
    wins: int
    points: int  # game points their team wrote, summed over matches
    deals: int


@dataclass(frozen=True, slots=True)
class OldSheet:
    """A chat's score sheet as it was before a new sheet, an undo, a correction or a restore replaced it."""

    number: int  # counts from 1 per chat
    data: JSON | None  # as the calculator serialised it (None: not even JSON)
    keeper: tuple[str, str] | None  # (user id, name) of who kept that sheet
    reason: str  # "new", "undo", "fix", "restore"
    by: str  # the name of who replaced it
    at: float  # when (epoch seconds)


class Storage(Protocol):
    # --- lifecycle ---

    async def open(self) -> None:
        """Connect and bring the schema up to date (migrations by version)."""
        ...

    async def close(self) -> None:
        """Write everything pending and disconnect."""
        ...

    async def flush(self) -> None:
        """Wait until everything accepted so far is durably written."""
        ...

    # --- players and chats ---

    async def save_player(self, platform: str, user_id: str, name: str) -> None:
        """Remember (or update) a player's display name."""
        ...

    async def get_player_language(self, platform: str, user_id: str) -> str | None:
        """The language the player chose, or None if they never chose one."""
        ...

    async def set_player_language(self, platform: str, user_id: str, language: str) -> None: ...

    async def get_chat_language(self, platform: str, chat: str) -> str | None: ...

    async def set_chat_language(self, platform: str, chat: str, language: str) -> None: ...

    async def get_chat_game(self, platform: str, chat: str) -> str | None:
        """The game the chat chose last (a name of ``bot.engine.game.VARIANTS``), or None."""
        ...

    async def set_chat_game(self, platform: str, chat: str, game: str) -> None: ...

    async def get_chat_letters(self, platform: str, chat: str) -> str | None:
        """The letters of the pack the chat's photos show, as last said there (one of ``bot.core.scanflow.LETTERS``),
        or None."""
        ...

    async def set_chat_letters(self, platform: str, chat: str, letters: str) -> None: ...

    async def set_chat_parent(self, platform: str, chat: str, parent: str) -> None:
        """The place a chat belongs to (a Discord channel's server, as a chat key of its own): while the chat has
        no language of its own, ``get_chat_language`` answers with the parent's."""
        ...

    async def get_chat_parent(self, platform: str, chat: str) -> str | None:
        """The place ``set_chat_parent`` gave the chat, or None (the Discord adapter learns a table's server so)."""
        ...

    async def chats_following(self, platform: str, parent: str) -> list[str]:
        """The chats of that parent without a language of their own."""
        ...

    # --- tables and their logs ---

    async def create_table(self, row: TableRow) -> None: ...

    async def set_table_status(self, table_id: str, status: str) -> None: ...

    async def set_deadline(self, table_id: str, deadline: float | None) -> None: ...

    async def get_table(self, table_id: str) -> TableRow | None: ...

    async def unfinished_tables(self) -> list[TableRow]:
        """Tables in status "lobby" or "playing", oldest first."""
        ...

    async def append_event(self, table_id: str, seq: int, data: JSON) -> None:
        """Append one action to the table's log; ``seq`` must be the next number (1 for the first)."""
        ...

    async def events(self, table_id: str) -> list[Event]:
        """The table's whole log, in order."""
        ...

    # --- chat message ids per message key (kept by the adapters) ---

    async def get_message_ref(self, platform: str, key: str) -> str | None:
        """The platform's id for the message with this ``OutMessage.key`` (whatever the adapter stored), or None."""
        ...

    async def set_message_ref(self, platform: str, key: str, ref: str | None) -> None:
        """Store (or, with None, forget) the platform's id for the message with this key."""
        ...

    # --- score sheets (real-life games kept by a chat) ---

    async def get_sheet(self, platform: str, chat: str) -> JSON | None:
        """The chat's current score sheet as the calculator serialised it, or None."""
        ...

    async def set_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None = None
    ) -> None:
        """Write (or, with None, delete) the chat's score sheet; ``keeper`` (user id, name) is who keeps it from
        now on (None: whoever kept it before, nobody for a new sheet). Nothing goes into the history."""
        ...

    async def get_sheet_keeper(self, platform: str, chat: str) -> tuple[str, str] | None:
        """(user id, name) of who keeps the chat's sheet; None when nobody does (no sheet, or an old one)."""
        ...

    async def replace_sheet(
        self, platform: str, chat: str, sheet: JSON | None, keeper: tuple[str, str] | None, reason: str, by: str
    ) -> int | None:
        """Put the chat's current sheet into its history (``reason``, ``by``: what replaced it, and who) and write
        ``sheet`` with ``keeper`` in its place, together. The old sheet's number in the history, or None if the
        chat had no sheet."""
        ...

    async def old_sheets(self, platform: str, chat: str, limit: int = 10) -> list[OldSheet]:
        """The chat's replaced sheets, newest first."""
        ...

    async def old_sheet(self, platform: str, chat: str, number: int) -> OldSheet | None: ...

    # --- forms in progress (a person's step-by-step answers, e.g. the calculator's button form) ---

    async def get_form(self, platform: str, form_id: str) -> JSON | None:
        """The form's state as the adapter stored it, or None (never stored, finished, or forgotten)."""
        ...

    async def set_form(self, platform: str, form_id: str, data: JSON | None) -> None:
        """Store (or, with None, forget) a form's state; the time of this write is its age."""
        ...

    async def forget_forms(self, platform: str, before: float) -> int:
        """Forget the platform's forms last written before ``before`` (epoch seconds); how many were forgotten."""
        ...

    # --- a chat that got a new id on its platform (a Telegram group upgraded to a supergroup) ---

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        """Move everything kept under chat id ``old_chat`` (and its threads) to ``new_chat``: its tables, language,
        score sheet, finished matches and statistics. Moving again, or a chat with nothing stored, changes nothing."""
        ...

    # --- finished matches and statistics ---

    async def save_match(
        self,
        table_id: str,
        platform: str,
        chat: str,
        record: JSON,
        players: list[tuple[str, str, int]],
        totals: tuple[int, ...],
        winner: int | None,
        deals: int,
        game: str = "bulgarian",
    ) -> None:
        """Store a finished match of ``game``: its ``belote-record/1``, and for each human ``(user_id, name, team)``
        a line of statistics (``winner``: team 0 or 1, None for a drawn French match; ``totals``: game points of
        teams A and B). In a game for three or two ``team`` is the player's own side (his seat) and ``totals`` has
        one entry per player."""
        ...

    async def match_record(self, table_id: str) -> JSON | None:
        """The stored record of a finished match."""
        ...

    async def player_stats(
        self, platform: str, user_id: str, chat: str | None = None, game: str | None = None
    ) -> PlayerStats | None:
        """A player's statistics over every chat of the platform, or within one chat; of every game, or of one."""
        ...

    async def top_players(
        self, platform: str, chat: str, limit: int = 10, game: str | None = None
    ) -> list[PlayerStats]:
        """The chat's players by wins, then by win rate (in every game, or in one)."""
        ...
