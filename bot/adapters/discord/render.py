"""The core's neutral ``OutMessage`` as Discord sees it: an embed, an optional mention, and persistent buttons."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.core.messages import DISCORD, OutMessage, UserRef

from .buttons import GameButton
from .text import CONTENT_LIMIT, EMBED_DESCRIPTION_LIMIT, clip, markup

# One colour per kind of message, so the table, results and notices read apart at a glance.
COLOURS: dict[str, int] = {
    "lobby": 0x2E7D32,
    "options": 0x546E7A,
    "table": 0x1B5E20,
    "result": 0xF9A825,
    "notice": 0x78909C,
    "hand": 0x1565C0,
    "ping": 0xC62828,
    "info": 0x546E7A,
}


@dataclass(frozen=True, slots=True)
class Rendered:
    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None  # None: no buttons (the edit removes any keyboard)
    mentions: discord.AllowedMentions


def mention_of(user: UserRef | None) -> str | None:
    if user is None or user.platform != DISCORD or not user.user_id.isdigit():
        return None
    return f"<@{user.user_id}>"


def buttons_view(msg: OutMessage) -> discord.ui.View | None:
    if not msg.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(msg.buttons[:5]):
        for button in row[:5]:
            view.add_item(GameButton(button.payload, button.label, row=row_index))
    return view


def render(msg: OutMessage, note: str = "") -> Rendered:
    """``note``: a short line shown above the embed (a refused press's reason on the hand it was pressed on)."""
    mention = mention_of(msg.mention)
    lines = [line for line in (mention, markup(note) if note else None) if line]
    embed = discord.Embed(
        description=clip(markup(msg.text), EMBED_DESCRIPTION_LIMIT) or "\u200b", colour=COLOURS.get(msg.kind)
    )
    mentions = (
        discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(msg.mention.user_id))])
        if mention and msg.mention
        else discord.AllowedMentions.none()
    )
    content = clip("\n".join(lines), CONTENT_LIMIT) if lines else None
    return Rendered(content, embed, buttons_view(msg), mentions)
