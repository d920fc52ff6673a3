"""Text for Discord: the core's one mark (``**bold**``) kept, everything else escaped; the adapter's own catalog."""

from __future__ import annotations

import discord

from bot.i18n import Translator, translator

EMBED_DESCRIPTION_LIMIT = 4096
CONTENT_LIMIT = 2000
LABEL_LIMIT = 80


def markup(text: str) -> str:
    """Discord Markdown for core text: ``**bold**`` stays bold, every other Markdown character is shown as is."""
    parts = text.split("**")
    if len(parts) % 2 == 0:  # an unpaired mark: show it literally rather than bolding the rest
        parts[-2:] = ["**".join(parts[-2:])]
    escaped = [discord.utils.escape_markdown(p, ignore_links=False) for p in parts]
    return "**".join(escaped)


def clip(text: str, limit: int) -> str:
    """Text cut to Discord's limit (cut texts end with an ellipsis), never splitting an escape."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if cut.endswith("\\"):
        cut = cut[:-1]
    return cut + "…"


def locale_language(locale: discord.Locale | str | None) -> str | None:
    """The platform hint for ``UserRef.language`` from a Discord locale ("bg", "en-US", ...)."""
    return None if locale is None else str(locale)


def tr(language: str | None) -> Translator:
    return translator(language)
