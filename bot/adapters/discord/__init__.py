"""The Discord adapter: slash commands, persistent buttons, public tables and ephemeral private hands.

``serve(host, settings)`` runs it in the caller's event loop (beside Telegram when both tokens are set).
"""

from .client import BeloteClient, serve

__all__ = ["BeloteClient", "serve"]
