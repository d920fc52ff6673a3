"""`belote-bot run`: start every chat adapter whose token is set, in one asyncio loop, until SIGTERM or SIGINT.

With no token set it says how to set one and runs the terminal table instead (interactive on a terminal, otherwise
four bots play one match), so `make run` shows the game on any machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from bot.config import Settings, SettingsProblem, load_settings, prepare_database
from bot.logsafe import configure_logging, redact
from bot.ops import metrics
from bot.storage.base import StorageError
from bot.storage.factory import database_password, open_storage

from .owned import tables_owned

if TYPE_CHECKING:
    from bot.ops.health import Readiness
    from bot.ops.lease import Lease

log = logging.getLogger("belote-bot")
SWITCH_INTERVAL = 0.0005  # seconds
LEASE_LOST = 3  # exit status after the lease was lost: the platform restarts the process, which waits as a standby
LOST_GRACE = 1.0  # seconds the adapters and the host get to stop once the lease is lost

NO_TOKEN_HELP = (
    "belote-bot: no chat platform configured. To run the chat bots, set BELOTE_TELEGRAM_TOKEN (from @BotFather) "
    "and/or BELOTE_DISCORD_TOKEN (from the Discord developer portal) in the environment or in a .env file; "
    "`belote-bot run --help` lists the settings (the hosting guide, docs/hosting.md in the source, has more). "
    "Meanwhile, here is the terminal table."
)

SETTINGS_HELP = """\
settings (environment variables, or a .env file in the working directory):
  BELOTE_TELEGRAM_TOKEN     the Telegram bot's token (from @BotFather)
  BELOTE_DISCORD_TOKEN      the Discord bot's token (from the Discord developer portal)
  BELOTE_DATABASE           the SQLite file (default: belote.sqlite3 in the user's data folder:
                            $XDG_DATA_HOME/belote-bot or ~/.local/share/belote-bot on Linux,
                            ~/Library/Application Support/belote-bot on macOS, %LOCALAPPDATA%\\belote-bot on Windows),
                            or a PostgreSQL server: postgresql://user:password@host:5432/database
                            (unset: DATABASE_URL when that is set)
  BELOTE_LANGUAGE           bg, en, hr or fr (default: bg)
  BELOTE_TURN_SECONDS       the turn timer of new tables (default: 60; 0 for none)
  BELOTE_BOT_LEVEL          random, easy, medium or hard (default: medium)
  BELOTE_HEALTH_PORT        serve /healthz, /readyz and /metrics on this port (default: off)
  BELOTE_HEALTH_LISTEN      the address they listen on (default: 127.0.0.1)
  BELOTE_DISCORD_SHARDS     the Discord shards this process runs, e.g. 0-3/8 (default: all, count from Discord)
Every setting, webhooks and backups: docs/hosting.md in the belote-bot source.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the chat bots (or the terminal table when no token is set)",
        description="Start the Telegram and Discord bots whose tokens are set (BELOTE_TELEGRAM_TOKEN, "
        "BELOTE_DISCORD_TOKEN) in one process; stop cleanly on SIGTERM or Ctrl-C.",
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--bot-pause", type=float, default=1.0, metavar="SECONDS",
                        help="pause before each bot move, so people can follow (default 1)")
    parser.set_defaults(func=main)


def _adapter(platform: str) -> Callable[..., Coroutine[Any, Any, None]]:
    module = importlib.import_module(f"bot.adapters.{platform}")
    serve: Callable[..., Coroutine[Any, Any, None]] = module.serve
    return serve


async def serve_all(
    settings: Settings, bot_pause: float = 1.0, stop: asyncio.Event | None = None, *, lease: Lease | None = None
) -> int:
    """Run until ``stop`` is set (by SIGTERM/SIGINT when not given): wait for the lease (a standby touches nothing),
    then serve every adapter whose token is set. 0 on a clean stop, 1 when an adapter stopped, 2 when the health
    port cannot be opened, ``LEASE_LOST`` when the lease was lost while serving."""
    from bot.ops.health import HealthServer, Readiness
    from bot.ops.lease import acquire, lease_for

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    readiness = Readiness()
    health = None
    if settings.health_port is not None:
        health = HealthServer(readiness, settings.health_listen, settings.health_port)
        try:
            await health.start()
        except OSError as exc:
            print(f"belote-bot: {exc.strerror} (BELOTE_HEALTH_LISTEN, BELOTE_HEALTH_PORT)", file=sys.stderr)
            return 2
    prepare_database(settings.database)
    lease = lease if lease is not None else lease_for(settings)
    try:
        if not await acquire(lease, stop, standby=readiness.standby):
            return 0
        metrics.set_lease(True)
        readiness.role = "starting"
        return await _serve_active(settings, bot_pause, stop, lease, readiness)
    finally:
        readiness.role = "stopping"
        metrics.set_lease(False)
        await lease.release()
        if health is not None:
            await health.stop()


async def _serve_active(
    settings: Settings, bot_pause: float, stop: asyncio.Event, lease: Lease, readiness: Readiness
) -> int:
    """The active process: open the storage, build the host, run the adapters until stopped or the lease is lost."""
    from bot.core.host import Host
    from bot.ops.lease import keep

    platforms = [p for p, token in (("telegram", settings.telegram_token), ("discord", settings.discord_token))
                 if token]
    storage = open_storage(settings.database, connections=settings.database_connections)
    await storage.open()
    host = Host(storage, settings, bot_pause=bot_pause, owns=tables_owned(settings, storage, platforms))
    metrics.watch_tables(host.statuses)
    tasks: dict[asyncio.Task[Any], str] = {}
    status = 0
    lost = False
    try:
        for platform in platforms:
            try:
                serve = _adapter(platform)
            except (ImportError, AttributeError) as exc:
                print(f"belote-bot: the {platform} adapter cannot be loaded: {exc}", file=sys.stderr)
                return 1
            tasks[asyncio.create_task(serve(host, settings), name=platform)] = platform
        await asyncio.sleep(0)  # let each adapter register its sink before the tables are re-rendered
        await host.start()
        readiness.storage = storage
        readiness.role = "active"
        log.info("running: %s", ", ".join(platforms))
        stopper = asyncio.create_task(stop.wait())
        keeper = asyncio.create_task(keep(lease))
        done, _ = await asyncio.wait([stopper, keeper, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is keeper:
                lost = True
                status = LEASE_LOST
                log.error("the lease is lost (%s): stopping at once, so that the standby can take over",
                          keeper.result())
            elif task is not stopper and not task.cancelled() and task.exception() is not None:
                print(f"belote-bot: the {tasks[task]} adapter stopped: {redact(str(task.exception()))}",
                      file=sys.stderr)
                status = 1
        stopper.cancel()
        keeper.cancel()
    finally:
        readiness.role = "stopping"
        readiness.storage = None
        metrics.watch_tables(None)
        for task in tasks:
            task.cancel()
        # After a lost lease nothing more may reach the chats: what adapters still had queued is left to the
        # process that takes over (it re-renders every table), and a closing step that hangs is cut short.
        grace = LOST_GRACE if lost else None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_quietly(*tasks), grace)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(host.close(), grace)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(storage.close(), grace)
    return status


async def _quietly(*tasks: asyncio.Task[Any]) -> None:
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def main(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
    except SettingsProblem as exc:
        print(f"belote-bot: {exc}", file=sys.stderr)
        return 2
    configure_logging(
        settings.log_level,
        (settings.telegram_token, settings.discord_token, settings.telegram_webhook_secret,
         database_password(settings.database)),
    )
    if not settings.telegram_token and not settings.discord_token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        from .play import play_terminal

        interactive = sys.stdin.isatty()
        try:
            return asyncio.run(
                play_terminal(settings.database, watch=not interactive, delay=0.3 if interactive else 0.0,
                              language=settings.language)
            )
        except KeyboardInterrupt:
            return 0
        except StorageError as exc:
            print(f"belote-bot: {exc} (BELOTE_DATABASE)", file=sys.stderr)
            return 2
    # Bot threads and the database thread hand the interpreter back to the event loop sooner: with hundreds of
    # tables this halves the time an action waits (bench/host.py --switch-interval).
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        status = asyncio.run(serve_all(settings, max(0.0, args.bot_pause)))
        if status == LEASE_LOST:
            print("belote-bot: the lease was lost, so this process stopped acting; start it again (it waits as a "
                  "standby while another process acts)", file=sys.stderr)
        return status
    except KeyboardInterrupt:
        return 0
    except StorageError as exc:
        print(f"belote-bot: {exc} (BELOTE_DATABASE)", file=sys.stderr)
        return 2
