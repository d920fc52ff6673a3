"""`belote-bot migrate`: move a SQLite database into PostgreSQL (tables and their logs, sheets and their history,
forms, statistics, finished matches, chat settings, message references); run again, it moves nothing."""

from __future__ import annotations

import argparse
import asyncio
import sys

HELP = "move a SQLite database into PostgreSQL (run again, it moves nothing)"
URL_FORM = "postgresql://user:password@host:5432/database"

EPILOG = f"""\
example:
  belote-bot migrate --from ~/.local/share/belote-bot/belote.sqlite3 --to {URL_FORM}

Stop the bot that uses the SQLite file first, so nothing is written to it during the copy; then start it with
BELOTE_DATABASE set to the URL. Rows PostgreSQL already has (same table, same key) are kept as they are, so a second
run, or a run after an interrupted one, moves only what is missing. The copy is one transaction.
Exit status: 0 done (or nothing left to move), 2 wrong usage or a database that cannot be used.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help=HELP,
        description="Copy every table, log, score sheet (and its history), form, statistic, finished match, chat "
        "setting and message reference of a SQLite database into a PostgreSQL database, then say what moved.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--from", dest="source", metavar="FILE",
                        help="the SQLite file (default: the default database file, belote.sqlite3 in the user's "
                        "data folder)")
    parser.add_argument("--to", dest="target", metavar="URL",
                        help="the PostgreSQL database (default: BELOTE_DATABASE, or DATABASE_URL, when it is a URL)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from bot.config import SettingsProblem, default_database, load_settings
    from bot.storage.base import StorageError
    from bot.storage.factory import is_postgres, shown_database

    def fail(text: str) -> int:
        print(f"belote-bot migrate: {text}", file=sys.stderr)
        return 2

    target = args.target
    if target is None:
        try:
            configured = load_settings().database
        except SettingsProblem as exc:
            return fail(str(exc))
        if not is_postgres(configured):
            return fail(f"name the PostgreSQL database: --to {URL_FORM} (BELOTE_DATABASE is not a URL)")
        target = configured
    elif not is_postgres(target):
        return fail(f"--to must be a PostgreSQL URL, {URL_FORM} (got {shown_database(target)!r})")
    source = args.source or default_database()
    if is_postgres(source):
        return fail("--from must be a SQLite file; the copy goes from SQLite into PostgreSQL")

    from bot.storage.transfer import copy_sqlite_to_postgres

    print(f"moving {source} into {shown_database(target)}")
    try:
        report = asyncio.run(copy_sqlite_to_postgres(source, target))
    except StorageError as exc:
        return fail(str(exc))
    width = max(len(m.kind) for m in report)
    for m in report:
        kept = f" ({m.found - m.moved} already there)" if m.found != m.moved else ""
        print(f"  {m.kind:<{width}}  {m.moved:>8} moved{kept}")
    found, moved = sum(m.found for m in report), sum(m.moved for m in report)
    if moved == 0:
        print(f"nothing to move: all {found} rows of {source} are already there")
    else:
        print(f"moved {moved} rows; {found - moved} were already there")
    return 0
