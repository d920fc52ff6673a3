"""The discord.py client of the bot, and ``serve``: run it (in the caller's event loop) until cancelled."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core.messages import DISCORD
from bot.ops import metrics

from .adapter import ACK_BUDGET, DiscordAdapter
from .buttons import GameButton
from .calculator import AddToSheet, Calculator
from .calculator import install as install_calculator
from .commands import CommandTexts, install
from .scan import PhotoScans, ScanButton
from .score_form import FormButton, on_points_submitted
from .small_form import SmallFormButton, on_small_points_submitted

if TYPE_CHECKING:
    from bot.config import Settings, ShardRange
    from bot.core.host import Host

log = logging.getLogger(__name__)


class BeloteClient(discord.AutoShardedClient):
    """Interactions only: no privileged intents, no message content. Buttons are dynamic items (no stored views).

    Sharded: ``shards`` None runs every shard, as many as Discord's gateway advises (``GET /gateway/bot``); a range
    runs those shards of its count only, and Discord sends this process the interactions of their servers alone."""

    def __init__(
        self,
        host: Host,
        *,
        sync_commands: bool = True,
        ack_budget: float | None = None,
        shards: ShardRange | None = None,
    ) -> None:
        intents = discord.Intents(guilds=True)
        if shards is None:
            super().__init__(intents=intents)
        else:
            super().__init__(intents=intents, shard_ids=shards.ids, shard_count=shards.count)
        self.tree: app_commands.CommandTree[BeloteClient] = app_commands.CommandTree(self)
        self.sync_commands = sync_commands
        self.adapter = DiscordAdapter(host, self, ack_budget=ACK_BUDGET if ack_budget is None else ack_budget,
                                      shards=shards)
        self.adapter.calculator = Calculator(self.adapter)
        self.adapter.scans = PhotoScans(self.adapter)
        install(self.tree)
        install_calculator(self.tree)
        self._logging_in = False

    async def login(self, token: str) -> None:
        self._logging_in = True  # from here on the sharded client has its event queue, which its close uses
        await super().login(token)

    async def setup_hook(self) -> None:
        self.adapter.lag.start()
        self.add_dynamic_items(GameButton, AddToSheet, FormButton, SmallFormButton, ScanButton)
        await self.tree.set_translator(CommandTexts())
        if self.sync_commands:
            # A bulk overwrite: unchanged commands stay as they are on Discord's side.
            await self.tree.sync()
        try:
            await self.adapter.alerts.sweep()
        except Exception:
            log.exception("could not remove the turn alerts of tables that ended while the bot was down")
        self.adapter.outbox.ready.set()

    async def on_ready(self) -> None:
        metrics.adapter_up(DISCORD)  # connected to the gateway: interactions reach the bot (``/readyz``)

    async def on_interaction(self, interaction: discord.Interaction[BeloteClient]) -> None:
        if interaction.type is discord.InteractionType.modal_submit and not await on_points_submitted(interaction):
            await on_small_points_submitted(interaction)

    async def close(self) -> None:
        metrics.adapter_down(DISCORD)
        await self.adapter.lag.stop()
        if self.adapter.outbox.ready.is_set():
            await self.adapter.outbox.drain()
        else:
            self.adapter.outbox.cancel()  # never logged in: nothing can be sent
        if not self._logging_in:
            # No shard was ever launched: the plain client's close frees what there is (the sharded one's would
            # fail on the event queue that only a login makes).
            await discord.Client.close(self)
            return
        await super().close()


async def serve(host: Host, settings: Settings, *, sync_commands: bool = True) -> None:
    """Run the Discord side of the bot until cancelled. The sink is registered before the first await, so a
    caller that starts this task and then ``host.start()`` gets every re-rendered table message delivered."""
    token = settings.discord_token
    if not token:
        raise ValueError("BELOTE_DISCORD_TOKEN is not set: put the bot token of your Discord application there")
    client = BeloteClient(host, sync_commands=sync_commands, shards=settings.discord_shard_range)
    host.add_sink(DISCORD, client.adapter.deliver)
    try:
        await client.start(token)
    except discord.LoginFailure:
        raise ValueError(
            "Discord refused BELOTE_DISCORD_TOKEN: copy the bot token again from the Developer Portal (Bot page)"
        ) from None
    finally:
        if not client.is_closed():
            await client.close()
