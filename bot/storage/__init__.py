"""Durable state behind the ``Storage`` protocol (``bot.storage.base``); SQLite via aiosqlite is the default."""

from .base import Event, PlayerStats, Storage, TableRow

__all__ = ["Event", "PlayerStats", "Storage", "TableRow"]
