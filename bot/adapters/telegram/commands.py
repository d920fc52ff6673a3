"""The bot's commands: which core command each one is, and the menus Telegram shows (``setMyCommands``)."""

from __future__ import annotations

from typing import Final

from bot.i18n import LANGUAGES, _, translator

# Telegram command -> the core's command name (``Host.command``).
TABLE_COMMANDS: Final[dict[str, str]] = {
    "belot": "new",
    "newgame": "new",
    "join": "join",
    "leave": "leave",
    "addbot": "addbot",
    "removebot": "removebot",
    "startgame": "start",
    "stop": "stop",
    "settings": "options",
    "set": "set",
    "rules": "rules",
    "view": "view",
    "back": "back",
    "stats": "stats",
    "top": "top",
}

DESCRIPTIONS: Final[dict[str, str]] = {
    "belot": _("Open a table in this group"),
    "newgame": _("Open a table in this group"),
    "join": _("Take a seat at the table"),
    "leave": _("Leave your seat"),
    "addbot": _("Seat a bot in an empty seat"),
    "removebot": _("Remove a bot from its seat"),
    "startgame": _("Start the match"),
    "stop": _("Stop the table"),
    "settings": _("The table's options"),
    "set": _("Set an option: /set key value"),
    "rules": _("The rules this table plays by"),
    "view": _("Show the table and your hand again"),
    "back": _("I'm back: take my seat from the bot"),
    "stats": _("Your statistics"),
    "top": _("The group's best players"),
    "lang": _("Language: /lang and its code: {codes}"),
    "help": _("How to play with this bot"),
    "score": _("Score a real-life deal"),
    "sheet": _("The group's score sheet"),
    "start": _("Start talking to the bot"),
}

GROUP_COMMANDS: Final = (
    "belot",
    "join",
    "leave",
    "addbot",
    "startgame",
    "stop",
    "settings",
    "rules",
    "view",
    "back",
    "score",
    "sheet",
    "stats",
    "top",
    "lang",
    "help",
)
PRIVATE_COMMANDS: Final = ("start", "score", "stats", "lang", "help")
# What /lang accepts, as its menu line and help name them.
LANGUAGE_CODES: Final = ", ".join(LANGUAGES)
# Every command the bot answers (what the command limits count).
ALL_COMMANDS: Final = frozenset(DESCRIPTIONS)
# Table commands that a message posted on behalf of a chat (an anonymous admin, a channel) may use: they read only.
OPEN_TO_CHATS: Final = frozenset({"rules", "top"})


def command_menu(names: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """(command, description in ``lang``) for each command of a menu."""
    t = translator(lang)
    return [(name, t.gettext(DESCRIPTIONS[name], codes=LANGUAGE_CODES)) for name in names]
