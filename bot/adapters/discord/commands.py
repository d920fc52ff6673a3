"""Slash commands: ``/belot <subcommand>`` for tables, each a thin call into the core.

Command and option names stay English (they are typed); descriptions are translated through ``CommandTexts`` for
every Discord locale we have a catalog for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.core import names
from bot.core.messages import Answer, ChatRef, UserRef
from bot.engine.game import VARIANTS
from bot.i18n import ENDONYMS, LANGUAGES, translator

if TYPE_CHECKING:
    from .adapter import DiscordAdapter


class CommandTexts(app_commands.Translator):
    """Descriptions and choice names from the ``discord`` catalogs (Discord calls Bulgarian ``bg``)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = str(locale).split("-")[0]
        if language not in LANGUAGES or language == "en":
            return None
        texts = translator(language)
        return texts.gettext(string.message) if texts.has(string.message) else None


# The games of the family (bot.engine.game.VARIANTS), by their names in each language (the core's catalog); a
# house game (Variant.house_rules) says so in its choice. Only the games the engine has are offered.
_GAME_CHOICES = {
    "bulgarian": _("Bridge-Belote"),
    "bela": _("Bela (Croatian)"),
    "french": _("French belote"),
    "bela-3": _("Bela for three (utroje)"),
    "bela-2": _("Bela for two (udvoje)"),
    "bela-open": _("Open Bela for two (otvorena)"),
    "bulgarian-3": _("Bridge-Belote for three, house rules"),
    "bulgarian-2": _("Bridge-Belote for two, house rules"),
}
GAMES = [app_commands.Choice(name=_GAME_CHOICES[g], value=g) for g in VARIANTS if g in _GAME_CHOICES]
LEVELS = [app_commands.Choice(name=_(level), value=level) for level in ("random", "easy", "medium", "hard")]
LANGUAGE_CHOICES = [app_commands.Choice(name=ENDONYMS[code], value=code) for code in LANGUAGES]
SCOPES = [
    app_commands.Choice(name=_("me (private messages)"), value="me"),
    app_commands.Choice(name=_("this server (public messages)"), value="server"),
    app_commands.Choice(name=_("this channel (public messages)"), value="channel"),
]


def adapter_of(interaction: discord.Interaction[Any]) -> DiscordAdapter:
    adapter: DiscordAdapter = interaction.client.adapter
    return adapter


class BelotGroup(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="belot", description=_("Bridge-Belote at this channel's table"), guild_only=True)

    @app_commands.command(name="new", description=_("Open a table in this channel or thread"))
    @app_commands.describe(
        options=_("Table options as key=value, e.g. target_score=101 timer=30"),
        game=_("The game (default: the one this channel played last)"),
    )
    @app_commands.choices(game=GAMES)
    async def new(
        self, interaction: discord.Interaction[Any], options: str = "", game: app_commands.Choice[str] | None = None
    ) -> None:
        args = ([f"game={game.value}"] if game is not None else []) + options.split()
        await adapter_of(interaction).command(interaction, "new", args)

    @app_commands.command(name="join", description=_("Take a seat at this channel's table"))
    @app_commands.describe(seat=_("Seat 1 to 4 (any free seat if omitted)"))
    async def join(
        self, interaction: discord.Interaction[Any], seat: app_commands.Range[int, 1, 4] | None = None
    ) -> None:
        await adapter_of(interaction).command(interaction, "join", [str(seat)] if seat else [])

    @app_commands.command(name="leave", description=_("Leave your seat (a bot takes it during a match)"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "leave")

    @app_commands.command(name="addbot", description=_("Seat a bot"))
    @app_commands.describe(seat=_("Seat 1 to 4 (any free seat if omitted)"), level=_("How well the bot plays"))
    @app_commands.choices(level=LEVELS)
    async def addbot(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[int, 1, 4] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        args = ([str(seat)] if seat else []) + ([level.value] if level else [])
        await adapter_of(interaction).command(interaction, "addbot", args)

    @app_commands.command(name="start", description=_("Start the match (bots fill the empty seats)"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "start")

    @app_commands.command(name="stop", description=_("Stop this table (the creator at once, or by a vote)"))
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "stop")

    @app_commands.command(name="settings", description=_("Show the table options, or set one before the start"))
    @app_commands.describe(key=_("An option, e.g. target_score"), value=_("Its new value, e.g. 101"))
    async def settings(self, interaction: discord.Interaction[Any], key: str = "", value: str = "") -> None:
        if key:
            await adapter_of(interaction).command(interaction, "set", [key, value] if value else [key])
        else:
            await adapter_of(interaction).command(interaction, "options")

    @app_commands.command(name="rules", description=_("This table's rules and options"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "rules")

    @app_commands.command(name="hand", description=_("Show the table again and your hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "view")

    @app_commands.command(name="stats", description=_("Your statistics"))
    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "stats")

    @app_commands.command(name="top", description=_("The best players of this server"))
    async def top(self, interaction: discord.Interaction[Any]) -> None:
        await adapter_of(interaction).command(interaction, "top")

    @app_commands.command(name="lang", description=_("Choose the language: yours, or this server's"))
    @app_commands.describe(language=_("The language"), scope=_("Whose language to set"))
    @app_commands.choices(language=LANGUAGE_CHOICES, scope=SCOPES)
    async def lang(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        adapter = adapter_of(interaction)
        chosen = language.value
        where = scope.value if scope is not None else "me"
        if where in ("server", "channel"):
            permissions = interaction.permissions
            allowed = permissions.administrator or permissions.manage_guild
            if where == "channel":
                allowed = allowed or permissions.manage_channels
            if not allowed:
                t = translator(await adapter.host.user_language(adapter.user_ref(interaction)))
                text = (
                    t.gettext("Only someone who may manage this server can change its language.")
                    if where == "server"
                    else t.gettext("Only someone who may manage this server or its channels can change its language.")
                )
                await interaction.response.send_message(text, ephemeral=True)
                return
            server = adapter.server_ref(interaction)

            async def set_place(chat: ChatRef, user: UserRef) -> Answer:
                if where == "channel" or server is None:
                    return await adapter.host.set_chat_language(chat, chosen)
                answer = await adapter.host.set_chat_language(server, chosen)
                if not answer.ok:
                    return answer
                t = translator(chosen)
                return Answer(t.gettext(
                    "This server's language is now {lang}; its channels without a language of their own follow it.",
                    lang=names.language_name(chosen, t)))

            await adapter.on_command(interaction, set_place)
            return

        async def set_user(chat: ChatRef, user: UserRef) -> Answer:
            return await adapter.host.set_user_language(user, chosen)

        await adapter.on_command(interaction, set_user)


def help_text(language: str) -> str:
    """What the bot does and the commands that do it, in ``language``: the lobby's buttons by their own labels."""
    t = translator(language)
    lines = [
        t.gettext("Bulgarian Bridge-Belote for four, in this server's channels."),
        t.gettext(
            "/belot new opens a table in this channel or thread; everyone presses {join}, or {add_bot} for empty "
            "seats, then {start}. The table's {hand} button shows your cards as buttons only you can see: press a "
            "card to play it.",
            join=t.gettext("Join"), add_bot=t.gettext("Add bot"), start=t.gettext("Start"), hand=t.gettext("My hand"),
        ),
        t.gettext(
            "/belot new game: chooses Croatian Bela, French belote, Bela for three or two, or the Bulgarian "
            "house games for three or two; left out, the game this channel played last."
        ),
        t.gettext(
            "/score line: scores a real-life deal, and /score photo: reads a photo of the won cards card by card "
            "(packs lettered J Q K A or B D K, or В Д П with letters: В Д П, which the channel keeps; not V D R); "
            "/sheet keeps the channel's score sheet (/sheet help)."
        ),
        t.gettext("/belot lang: your language, or the server's or a channel's for those who may manage them."),
    ]
    return "\n\n".join(lines)


@app_commands.command(name="help", description=_("How to play with this bot"))
async def help_command(interaction: discord.Interaction[Any]) -> None:
    """Answered privately, in the asker's language, anywhere: a server's channel or a direct message."""
    adapter = adapter_of(interaction)
    language = await adapter.host.user_language(adapter.user_ref(interaction))
    await interaction.response.send_message(help_text(language), ephemeral=True)


def install(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(BelotGroup())
    tree.add_command(help_command)
