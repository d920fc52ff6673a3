"""The Telegram adapter: ``serve(host, settings)`` runs the bot (polling, or a webhook when configured).

See docs/telegram.md for the BotFather setup (privacy mode, commands, deep links) and webhook vs polling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.core.host import Host

    from .outbox import FloodPolicy


async def serve(host: Host, settings: Settings, *, policy: FloodPolicy | None = None) -> None:
    """Run the Telegram bot until cancelled (``belote-bot run`` awaits this)."""
    from .adapter import serve as run

    await run(host, settings, policy=policy)


__all__ = ["serve"]
