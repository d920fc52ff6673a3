"""Settings from the environment and a ``.env`` file, every key prefixed ``BELOTE_`` (see docs/hosting.md).

``load_settings()`` reads and validates them; invalid settings raise ``SettingsProblem`` with one line that names
the variable, what is wrong and what would be valid (``belote-bot`` prints it and exits with status 2).
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import LANGUAGES
from bot.storage.factory import SCHEMES, is_postgres, shown_database

AwayPolicy = Literal["bot_turn", "bot_seat", "wait"]
BotLevel = Literal["random", "easy", "medium", "hard"]
AWAY_POLICIES: tuple[AwayPolicy, ...] = ("bot_turn", "bot_seat", "wait")
BOT_LEVELS: tuple[BotLevel, ...] = ("random", "easy", "medium", "hard")
OFFICIAL_TELEGRAM_API = "https://api.telegram.org/bot"
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_AGENTS_HINT = 'must be a JSON object of name -> command, e.g. {"mybot": "python mybot.py"}'
_URL_FORM = "postgresql://user:password@host:5432/database"
_SHARDS = re.compile(r"([0-9]{1,6})(?:-([0-9]{1,6}))?/([0-9]{1,6})")
_SHARDS_HINT = 'must be "first-last/count" or "shard/count" with 0 <= first <= last < count, e.g. "0-3/8" or "5/8"'
MAX_SHARDS = 65536  # far beyond any bot: Discord wants a shard per 1,000 to 2,500 servers


@dataclass(frozen=True, slots=True)
class ShardRange:
    """The Discord shards one process runs: ``first``..``last`` (inclusive) of ``count``."""

    first: int
    last: int
    count: int

    @property
    def ids(self) -> list[int]:
        return list(range(self.first, self.last + 1))

    def guild_shard(self, guild_id: int) -> int:
        """The shard Discord sends a server's events to (its formula: the id's timestamp bits modulo the count)."""
        return (guild_id >> 22) % self.count

    def has_guild(self, guild_id: int) -> bool:
        return self.first <= self.guild_shard(guild_id) <= self.last

    def __str__(self) -> str:
        shards = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"{shards}/{self.count}"


def parse_shards(text: str) -> ShardRange:
    """``"0-3/8"`` (shards 0 to 3 of 8) or ``"5/8"`` (shard 5 of 8); ValueError saying what is wrong."""
    found = _SHARDS.fullmatch(text.strip().replace(" ", ""))
    if found is None:
        raise ValueError(_SHARDS_HINT)
    first, last, count = int(found[1]), int(found[2] if found[2] is not None else found[1]), int(found[3])
    if count < 1 or count > MAX_SHARDS:
        raise ValueError(f"the shard count (after the /) must be 1 to {MAX_SHARDS}")
    if first > last:
        raise ValueError(f'the first shard ({first}) comes after the last ({last}); write "{last}-{first}/{count}"')
    if last >= count:
        raise ValueError(f"there is no shard {last} of {count}: they are numbered 0 to {count - 1}")
    return ShardRange(first, last, count)


def user_data_dir() -> Path:
    """The platform's folder for this user's application data, with ours inside: ``$XDG_DATA_HOME/belote-bot``
    (``~/.local/share/belote-bot``) on Linux, ``~/Library/Application Support/belote-bot`` on macOS,
    ``%LOCALAPPDATA%\\belote-bot`` on Windows. Three rules do not justify a dependency (platformdirs)."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"  # the spec ignores a relative one
    return base / "belote-bot"


def default_database() -> str:
    """The database when BELOTE_DATABASE is not set: one per user, wherever the command is run from."""
    return str(user_data_dir() / "belote.sqlite3")


def prepare_database(path: str) -> None:
    """Create the default database's folder on first use (a folder named in BELOTE_DATABASE must exist)."""
    if path == default_database():
        Path(path).parent.mkdir(parents=True, exist_ok=True)


class Settings(BaseSettings):
    """Every setting of the bot. Field ``x`` is read from ``BELOTE_X``."""

    model_config = SettingsConfigDict(
        env_prefix="BELOTE_", env_file=".env", env_file_encoding="utf-8", extra="ignore", validate_default=True,
        populate_by_name=True,  # database=... by its name, though the environment names it by its aliases
    )

    telegram_token: str | None = None
    # A self-hosted Bot API server's base, as python-telegram-bot takes it: "<url>/bot" (the token follows).
    telegram_base_url: str = OFFICIAL_TELEGRAM_API
    telegram_webhook_url: str | None = None
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    # Telegram sends it with every webhook update; unset, the bot makes one at each start (see docs/telegram.md).
    telegram_webhook_secret: str | None = None
    # Where the webhook server listens: the loopback address, behind a reverse proxy that terminates HTTPS.
    telegram_webhook_listen: str = "127.0.0.1"
    # Commands each person, and each chat, may send in a window of seconds; one more gets a short answer, the rest
    # silence until the window has room again.
    telegram_user_commands: int = Field(default=5, ge=1, le=1000)
    telegram_chat_commands: int = Field(default=15, ge=1, le=10000)
    telegram_command_window: float = Field(default=60.0, gt=0, le=3600)
    discord_token: str | None = None
    # The Discord shards this process runs, "first-last/count" (e.g. "0-3/8"); unset: every shard, as many as
    # Discord's gateway advises. Each process then serves the tables of its shards' servers (docs/discord.md).
    discord_shards: str | None = None
    # What the log shows: DEBUG, INFO, WARNING or ERROR (tokens and secrets are masked at every level).
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # A SQLite file, or a PostgreSQL server's URL; the platforms' conventional DATABASE_URL when this is unset.
    database: str = Field(
        default_factory=default_database, validation_alias=AliasChoices("BELOTE_DATABASE", "DATABASE_URL")
    )
    # PostgreSQL only: connections this process keeps open (a small hosted plan allows about 20 in all).
    database_connections: int = Field(default=16, ge=1, le=500)
    language: str = "bg"  # one of bot.i18n.LANGUAGES
    turn_seconds: int = Field(default=60, ge=0, le=86400)  # 0: no turn timer
    away_policy: AwayPolicy = "bot_turn"
    bot_level: BotLevel = "medium"
    bot_move_seconds: float = Field(default=1.0, gt=0, le=60)
    # Threads bots think on: searching bots (hard, external agents) and the quick rule-based levels apart.
    bot_threads: int = Field(default=2, ge=1, le=64)
    quick_bot_threads: int = Field(default=4, ge=1, le=64)
    # Tables of four bots and no person may be started in chats (a load test's tables; the terminal always may).
    bot_only_tables: bool = False
    # A lobby nobody started closes after this many minutes; a match in which no person acted for this many
    # minutes stops. Open tables a chat (all its topics) and one person (opened or seated at) may have.
    lobby_minutes: int = Field(default=180, ge=1, le=10080)
    idle_minutes: int = Field(default=360, ge=1, le=10080)
    max_tables_per_chat: int = Field(default=5, ge=1, le=1000)
    max_tables_per_user: int = Field(default=3, ge=1, le=1000)
    # The health and metrics server of `belote-bot run` (bot.ops.health): off unless a port is given; loopback only
    # unless told otherwise (a container publishes it with 0.0.0.0).
    health_port: int | None = Field(default=None, ge=1, le=65535)
    health_listen: str = "127.0.0.1"
    # Named external agents: a JSON object, name -> command line (seated by name with "addbot <name>").
    agents: dict[str, str] = Field(default_factory=dict)

    @field_validator("telegram_token", "discord_token", "telegram_webhook_url", "telegram_webhook_secret")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value.strip() or None if isinstance(value, str) else value

    @field_validator("discord_shards")
    @classmethod
    def _shards_range(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return str(parse_shards(value))

    @property
    def discord_shard_range(self) -> ShardRange | None:
        """The shards of ``discord_shards`` (None: every shard, the count from the gateway)."""
        return None if self.discord_shards is None else parse_shards(self.discord_shards)

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_in_capitals(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("language", mode="before")
    @classmethod
    def _language_offered(cls, value: Any) -> Any:
        text = value.strip().lower() if isinstance(value, str) else value
        if text not in LANGUAGES:
            raise ValueError(f"must be one of {', '.join(LANGUAGES)}")
        return text

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _secret_telegram_accepts(cls, value: str | None) -> str | None:
        if value is not None and not _WEBHOOK_SECRET.fullmatch(value):
            raise ValueError("must be 1-256 characters A-Z a-z 0-9 _ - (Telegram accepts no others)")
        return value

    @field_validator("health_port", mode="before")
    @classmethod
    def _blank_port_is_off(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("telegram_webhook_listen", "health_listen")
    @classmethod
    def _listen_named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must be an address to listen on, e.g. 127.0.0.1 (or 0.0.0.0 for every interface)")
        return value.strip()

    @field_validator("database")
    @classmethod
    def _database_named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError(f"must name a database file, e.g. belote.sqlite3, or a server: {_URL_FORM}")
        scheme, sep, _ = value.strip().partition("://")
        if sep and not is_postgres(value):
            raise ValueError(f"{scheme}:// is not a database this bot keeps: give a SQLite file, e.g. belote.sqlite3, "
                             f"or a PostgreSQL URL ({' or '.join(s + '://' for s in SCHEMES)}), e.g. {_URL_FORM}")
        if sep:
            _check_url(value.strip())
            return value.strip()
        return value

    @field_validator("agents", mode="before")
    @classmethod
    def _agents_object(cls, value: Any) -> Any:
        if isinstance(value, str):
            if not value.strip():
                return {}
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise ValueError(_AGENTS_HINT) from None
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise ValueError(_AGENTS_HINT)
        return value


def _check_url(url: str) -> None:
    """A PostgreSQL URL's parts that can be checked without the server: a host, a port number."""
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise ValueError(f"has a port that is not a number from 1 to 65535: write it as {_URL_FORM}") from None
    if not parts.hostname and "host=" not in parts.query:
        raise ValueError(f"names no server: write it as {_URL_FORM}")


class SettingsProblem(ValueError):
    """Settings that cannot be used; the message is one line for a person."""


def _explain(err: dict[str, Any]) -> str:
    loc = err.get("loc", ())
    name = str(loc[0]).upper() if loc else "a setting"
    name = name if name.startswith("BELOTE_") or not loc else "BELOTE_" + name
    if name == "BELOTE_DATABASE" and "BELOTE_DATABASE" not in os.environ and "DATABASE_URL" in os.environ:
        name = "DATABASE_URL (read as BELOTE_DATABASE is unset)"
    msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
    msg = msg.replace("Input should be", "must be")
    value = err.get("input")
    secret = any(word in name for word in ("TOKEN", "SECRET"))  # never echoed: the message may reach a log
    if "DATABASE" in name and isinstance(value, str):
        value = shown_database(value)  # a URL's password never reaches a message
    shown = f" (got {value!r})" if isinstance(value, str | int | float) and len(str(value)) < 60 and not secret else ""
    return f"{name}: {msg}{shown}"


def load_settings(env_file: str | None = ".env", **overrides: Any) -> Settings:
    """Read the settings; raise SettingsProblem with one line per the first problem found."""
    try:
        return Settings(_env_file=env_file, **overrides)
    except ValidationError as exc:
        errors = exc.errors()
        first = _explain(dict(errors[0]))
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise SettingsProblem(f"invalid setting {first}{more}") from None
