"""Reading JSON text that anyone may have written: every problem is a located ``JsonTextError``, never a crash.

Python's ``json.loads`` raises more than ``JSONDecodeError`` on hostile text: ``ValueError`` for an integer of more
than 4,300 digits (the interpreter's integer-string limit), ``RecursionError`` for arrays or objects nested a few
thousand deep, and it returns strings holding lone surrogates (``"\\ud800"``), which are not text and break the
first print or encode. ``loads`` refuses all three, saying where.
"""

from __future__ import annotations

import json
import re
from typing import Final

# No belote format nests deeper than a few levels or needs a number longer than a few digits; these bounds leave
# room for anything honest and stop the hostile long before the interpreter's own limits.
MAX_DEPTH: Final = 64
MAX_DIGITS: Final = 30

# A JSON string (skipped: brackets and digits inside it mean nothing), a bracket, or a number.
_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')


class JsonTextError(ValueError):
    """Text that is not acceptable JSON: ``where`` (line and column, or a path inside the value) and ``why``.

    ``kind`` is ``syntax``, ``depth``, ``digits`` or ``surrogate``; ``line``/``column`` locate the first three,
    ``where`` is the value's path for the last; ``count`` is the number's digits for ``digits``."""

    def __init__(self, where: str, why: str, kind: str = "syntax", line: int = 0, column: int = 0, count: int = 0):
        self.where = where
        self.why = why
        self.kind = kind
        self.line = line
        self.column = column
        self.count = count
        super().__init__(f"{where}: {why}")


class _LongNumber(Exception):
    pass


def _error(text: str, offset: int, why: str, kind: str, count: int = 0) -> JsonTextError:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return JsonTextError(f"line {line}, column {column}", why, kind, line, column, count)


def _check_shape(text: str) -> None:
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _error(text, match.start(), f"nested more than {MAX_DEPTH} levels deep", "depth")
        elif token in "]}":
            depth -= 1
        elif token[0] != '"':
            digits = len(token.lstrip("-").split(".")[0].split("e")[0].split("E")[0])
            if digits > MAX_DIGITS:
                why = f"a number of {digits} digits; at most {MAX_DIGITS} are accepted"
                raise _error(text, match.start(), why, "digits", digits)


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber
    return int(digits)


def lone_surrogate(value: object, path: str = "") -> str | None:
    """The path (``seats[0]``, ``teams.A``) of the first string or key holding a lone surrogate, or None."""
    stack: list[tuple[object, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if not _encodes(item):
                return where or "the value"
        elif isinstance(item, dict):
            for key, sub in reversed(list(item.items())):
                inner = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and not _encodes(key):
                    return f"{where or 'the value'} (a key)"
                stack.append((sub, inner))
        elif isinstance(item, list | tuple):
            stack.extend((sub, f"{where}[{i}]") for i, sub in reversed(list(enumerate(item))))
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


SURROGATE_WHY: Final = "holds a lone surrogate (U+D800 to U+DFFF without its pair), which is not text"


def loads(text: str, allow_surrogates: bool = False) -> object:
    """Parse JSON text; raise JsonTextError naming the line and column (or the value's path) of the problem.

    ``allow_surrogates`` keeps strings with lone surrogates (for a reader that only compares them, never prints)."""
    if not _encodes(text):
        bad = next(i for i, ch in enumerate(text) if not _encodes(ch))
        raise _error(text, bad, "not UTF-8 text (a lone surrogate)", "surrogate")
    _check_shape(text)
    try:
        value = json.loads(text, parse_int=_int)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise JsonTextError(where, exc.msg, "syntax", exc.lineno, exc.colno) from None
    except (_LongNumber, RecursionError, ValueError):  # _check_shape should have caught these; never a traceback
        raise JsonTextError("line 1, column 1", "too deep or too long a number", "depth", 1, 1) from None
    path = None if allow_surrogates else lone_surrogate(value)
    if path is not None:
        raise JsonTextError(path, SURROGATE_WHY, "surrogate")
    return value
