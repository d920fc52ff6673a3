"""The storage a database setting names: a ``postgresql://`` (or ``postgres://``) URL is a PostgreSQL server,
anything else a SQLite file. The storage comes built, not yet opened; only the chosen backend's module is imported.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from .base import Storage

SCHEMES = ("postgresql", "postgres")


def is_postgres(database: str) -> bool:
    """Whether ``database`` is a PostgreSQL URL rather than a SQLite file."""
    scheme, sep, _ = database.strip().partition("://")
    return bool(sep) and scheme.lower() in SCHEMES


def open_storage(database: str) -> Storage:
    """The storage for ``database`` (BELOTE_DATABASE), built but not yet opened."""
    if is_postgres(database):
        from .postgres import PostgresStorage

        return PostgresStorage(database.strip())
    from .sqlite import SqliteStorage

    return SqliteStorage(database)


def database_password(database: str) -> str | None:
    """The password a PostgreSQL URL carries (to be kept out of every log line), or None."""
    if not is_postgres(database):
        return None
    try:
        parts = urlsplit(database.strip())
        password = unquote(parts.password) if parts.password else None
    except ValueError:
        return None
    in_query = parse_qs(parts.query).get("password")  # libpq and asyncpg take it there too
    return password or (in_query[0] if in_query else None)


def shown_database(database: str) -> str:
    """The database as messages may name it: a URL (of any scheme) without its password or query, which may hold
    one; a file as it is."""
    url = database.strip()
    if "://" not in url:
        return database
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is not a number
        return f"{url.partition('://')[0]}:// URL"
    user = f"{unquote(parts.username)}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"
