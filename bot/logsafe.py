"""No secret in the log: the bot tokens and the webhook secret never reach a log line or a printed error.

Two lines of defence. The HTTP libraries' request logging, which writes every URL (and the Bot API puts the token
in the URL), is turned down to warnings. And every handler of the root logger gets a filter that replaces each known
secret, as it is and URL-encoded, in the message, its arguments and its traceback. Adapters register a secret
they make themselves (a generated webhook secret) with ``keep_secret``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import TextIO
from urllib.parse import quote

MASK = "[secret]"
# Libraries that log each request with its URL (httpx at INFO, httpcore at DEBUG).
CHATTY_LOGGERS = ("httpx", "httpcore", "hpack")
_MIN_LENGTH = 6  # shorter "secrets" would mask ordinary words
_secrets: set[str] = set()


def keep_secret(secret: str | None) -> None:
    """Never log ``secret``. A bot token's part after the colon is masked on its own too (it is the secret part)."""
    if not secret:
        return
    for value in (secret, secret.partition(":")[2]):
        if len(value) >= _MIN_LENGTH:
            _secrets.update({value, quote(value, safe="")})


def redact(text: str) -> str:
    """``text`` with every registered secret masked."""
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class RedactSecrets(logging.Filter):
    """Masks the registered secrets in a record before a handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the format: the handler reports it; show the raw parts
            message = f"{record.msg} {record.args}"
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def protect(root: logging.Logger | None = None) -> None:
    """Quiet the HTTP libraries' request logs and put the redacting filter on every handler of ``root``."""
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    for handler in (root or logging.getLogger()).handlers:
        if not any(isinstance(f, RedactSecrets) for f in handler.filters):
            handler.addFilter(RedactSecrets())


def configure_logging(level: str, secrets: Iterable[str | None] = (), stream: TextIO | None = None) -> None:
    """The program's logging: ``level`` for our messages, the given secrets masked everywhere."""
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=stream or sys.stderr
    )
    for secret in secrets:
        keep_secret(secret)
    protect()
