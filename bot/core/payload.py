"""Button payloads: ``v1:<table>:<nonce>:<action>``, at most 64 bytes, decoded only here.

The table id is a short base-36 string; the nonce is the table's version (the number of entries in its log) in
base 36, when the message was rendered, so a restart keeps the buttons that were current. A press with an older
nonce is judged against the table as it is now (``bot.core.stale``): a replay or a double tap never acts twice.

Actions: ``j`` join any seat, ``j0``..``j3`` a given seat, ``l`` leave, ``a`` add a bot, ``r`` remove a bot,
``s`` start, ``o`` the options menu, ``o:<key>`` cycle an option, ``od`` close the menu, ``c:<call>`` a call,
``p:<card>`` play a card, ``d:<i>`` switch declaration i, ``b`` switch the belote, ``back`` I'm back, ``h`` my hand,
``x`` vote to stop, ``k`` the card tracker, ``v:<deal number>`` the review of that deal (``bot.core.review``),
``dp:<card>`` / ``du:<card>`` pick a card to discard or put it back, ``dc:<card><card>`` confirm the discard,
``e:1`` / ``e:0`` exchange the seven or keep it (``bot.core.choices``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .messages import MAX_PAYLOAD_BYTES

VERSION: Final = "v1"
_TABLE_ID: Final = re.compile(r"[0-9a-z]{1,12}")
_NONCE: Final = re.compile(r"[0-9a-z]{1,8}")
_ACTION: Final = re.compile(r"[0-9a-zA-Z:_\-]{1,32}")
# Actions that change nothing, so a stale nonce does not matter for them.
READ_ONLY: Final = frozenset({"h", "k"})


class PayloadError(ValueError):
    """Not a payload of ours (forged, truncated, or from another bot)."""


@dataclass(frozen=True, slots=True)
class Payload:
    table_id: str
    nonce: int
    action: str

    def encode(self) -> str:
        return encode(self.table_id, self.nonce, self.action)


def to_base36(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def encode(table_id: str, nonce: int, action: str) -> str:
    text = f"{VERSION}:{table_id}:{to_base36(nonce)}:{action}"
    if len(text.encode()) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"payload longer than {MAX_PAYLOAD_BYTES} bytes: {text!r}")
    return text


def decode(text: str) -> Payload:
    if not isinstance(text, str) or len(text.encode("utf-8", "replace")) > MAX_PAYLOAD_BYTES:
        raise PayloadError("not a payload")
    parts = text.split(":", 3)
    if len(parts) != 4 or parts[0] != VERSION:
        raise PayloadError("not a payload")
    _, table_id, nonce, action = parts
    if not (_TABLE_ID.fullmatch(table_id) and _NONCE.fullmatch(nonce) and _ACTION.fullmatch(action)):
        raise PayloadError("not a payload")
    return Payload(table_id, int(nonce, 36), action)
