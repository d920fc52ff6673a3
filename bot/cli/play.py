"""`belote-bot play`: a match in the terminal against bots in the other seats (`--watch`: bots only)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.engine.game import VARIANTS
from bot.i18n import LANGUAGES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a match in the terminal against bots",
        description="Play Bulgarian Bridge-Belote, Croatian Bela, French belote or a game for three or two (--game) "
        "in the terminal against bots in the other seats, through the same host, views "
        "and storage as the chat bots. An unfinished terminal match is resumed (--new starts another). At the "
        "prompt: a number presses that button, Enter takes the only choice (a pass), t shows the cards played "
        "and still out, q or Ctrl-D leaves (the match is saved).",
    )
    parser.add_argument("--watch", action="store_true", help="watch four bots play one match")
    parser.add_argument("--game", choices=tuple(VARIANTS),
                        help="the game of a new table: bulgarian (Bridge-Belote), bela (Croatian Bela), french "
                        "(French belote), bela-3 (Bela for three), bela-2 (Bela for two) or bela-open (open Bela "
                        "for two), and any other game the engine lists; the other seats are bots; default: the one "
                        "played last here, else bulgarian")
    parser.add_argument("--delay", type=float, default=0.3, metavar="SECONDS",
                        help="pause before each bot move (default: 0.3)")
    parser.add_argument("--new", action="store_true", help="stop the unfinished match, if any, and start a new one")
    parser.add_argument("--database", help="SQLite file or postgresql:// URL (default: BELOTE_DATABASE, else "
                        "belote.sqlite3 in the user's data folder, e.g. ~/.local/share/belote-bot)")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="language (default: a resumed match keeps its own, a new one BELOTE_LANGUAGE)")
    parser.add_argument("--level", choices=("random", "easy", "medium", "hard"), help="the bots' level")
    parser.add_argument("--name", help="your name at the table (default: You, in the table's language)")
    parser.set_defaults(func=main)


async def play_terminal(
    database: str,
    *,
    watch: bool,
    delay: float,
    language: str,
    level: str | None = None,
    name: str | None = None,
    settings_overrides: dict[str, object] | None = None,
    keep_language: bool = False,
    new: bool = False,
    game: str | None = None,
) -> int:
    """Play (or watch) the terminal's match. ``language``: of a new match, and of a resumed one unless
    ``keep_language`` (then the match keeps the language it has)."""
    from bot.adapters.terminal import TerminalTable
    from bot.config import load_settings, prepare_database
    from bot.core.host import Host
    from bot.core.messages import TERMINAL, UserRef
    from bot.i18n import translator
    from bot.storage.factory import open_storage

    overrides: dict[str, object] = {"database": database, "language": language, "turn_seconds": 0}
    if level:
        overrides["bot_level"] = level
    overrides.update(settings_overrides or {})
    settings = load_settings(None, **overrides)
    prepare_database(database)
    storage = open_storage(database)
    await storage.open()
    host = Host(storage, settings, bot_pause=delay)
    player = name or translator(language).gettext("You")
    user = None if watch else UserRef(TERMINAL, "player", player, language)
    terminal = TerminalTable(host, user=user, chat_id="watch" if watch else "local", language=language,
                             keep_language=keep_language, fresh=new, game=game)
    try:
        await host.start()
        return await (terminal.watch() if watch else terminal.play())
    finally:
        await host.close()
        await storage.close()


def main(args: argparse.Namespace) -> int:
    from bot.config import SettingsProblem, load_settings
    from bot.storage.base import StorageError

    try:
        settings = load_settings()
    except SettingsProblem as exc:
        print(f"belote-bot: {exc}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(
            play_terminal(
                args.database or settings.database,
                watch=args.watch,
                delay=max(0.0, args.delay),
                language=args.lang or settings.language,
                level=args.level,
                name=args.name,
                keep_language=args.lang is None,
                new=args.new,
                game=args.game,
            )
        )
    except KeyboardInterrupt:
        return 130  # the table said, in its language, that it is saved
    except (StorageError, SettingsProblem) as exc:  # e.g. a --database that is neither a file nor a URL
        print(f"belote-bot: {exc}", file=sys.stderr)
        return 2
