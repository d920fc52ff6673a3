"""Buttons that survive restarts: the ``custom_id`` carries everything (``b:`` + the core's payload).

The payload is the core's opaque code (table, nonce and action, at most 64 ASCII bytes); the core decodes and checks
it. No view is kept in memory: discord.py matches the ``custom_id`` against the template on every press.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from .text import LABEL_LIMIT, clip

if TYPE_CHECKING:
    from .adapter import DiscordAdapter

GAME_PREFIX = "b:"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"b:(?P<payload>[\x21-\x7e]{1,64})"):
    def __init__(self, payload: str, label: str = "", *, row: int | None = None) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(label, LABEL_LIMIT) or "·", custom_id=GAME_PREFIX + payload, style=discord.ButtonStyle.secondary
        )
        super().__init__(button, row=row)
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(match["payload"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        adapter: DiscordAdapter = interaction.client.adapter
        await adapter.on_press(interaction, self.payload)
