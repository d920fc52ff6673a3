"""The terminal table: one person (or nobody, with ``watch``) plays a match against bots through the same host,
views and storage as the chat adapters."""

from .table import TerminalTable, render_markup

__all__ = ["TerminalTable", "render_markup"]
