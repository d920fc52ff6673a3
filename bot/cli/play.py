"""`belote-bot play`: a match in the terminal against three bots (`--watch`: four bots play)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.config import SettingsProblem, load_settings
from bot.core.messages import TERMINAL, UserRef
from bot.storage.sqlite import StorageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a match in the terminal against three bots",
        description="Play Bulgarian Bridge-Belote in the terminal against three bots, through the same host, views "
        "and storage as the chat bots. An unfinished terminal match is resumed.",
    )
    parser.add_argument("--watch", action="store_true", help="watch four bots play one match")
    parser.add_argument("--delay", type=float, default=0.3, metavar="SECONDS", help="pause before each bot move")
    parser.add_argument("--database", help="SQLite file (default: BELOTE_DATABASE, else belote.sqlite3)")
    parser.add_argument("--lang", choices=("bg", "en"), help="language (default: BELOTE_LANGUAGE)")
    parser.add_argument("--level", choices=("random", "easy", "medium", "hard"), help="the bots' level")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.set_defaults(func=main)


async def play_terminal(
    database: str,
    *,
    watch: bool,
    delay: float,
    language: str,
    level: str | None = None,
    name: str = "You",
    settings_overrides: dict[str, object] | None = None,
) -> int:
    from bot.adapters.terminal import TerminalTable
    from bot.core.host import Host
    from bot.storage.sqlite import SqliteStorage

    overrides: dict[str, object] = {"database": database, "language": language, "turn_seconds": 0}
    if level:
        overrides["bot_level"] = level
    overrides.update(settings_overrides or {})
    settings = load_settings(None, **overrides)
    storage = SqliteStorage(database)
    await storage.open()
    host = Host(storage, settings, bot_pause=delay)
    user = None if watch else UserRef(TERMINAL, "player", name, language)
    terminal = TerminalTable(host, user=user, chat_id="watch" if watch else "local", language=language)
    try:
        await host.start()
        return await (terminal.watch() if watch else terminal.play())
    finally:
        await host.close()
        await storage.close()


def main(args: argparse.Namespace) -> int:
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
            )
        )
    except KeyboardInterrupt:
        print("\nThe table is saved; run the same command to resume it.", file=sys.stderr)
        return 130
    except StorageError as exc:
        print(f"belote-bot: {exc}", file=sys.stderr)
        return 2
