"""A fake Telegram Bot API server on 127.0.0.1 for tests and the benchmark.

It speaks the request and response shapes of the real Bot API for the methods the bot uses, so the real
python-telegram-bot stack (``Bot``, ``Application``, ``AIORateLimiter``, polling) runs against it unchanged through
``base_url``. Tests inject updates from simulated users (commands, private ``/start`` with a deep-link payload,
button presses), read every message each chat received, inject errors (400, 403, 429 with ``retry_after``), make
the server fail every message with a 5xx for a while (``outage``) and check the flood limits: every send or edit is
counted per chat, and a chat that exceeds its limit is answered 429 with the seconds until its window frees a slot
as ``retry_after`` (as Telegram does), and recorded as a violation. A basic group can be upgraded to a supergroup
(``migrate``): its old id is then answered 400 with ``migrate_to_chat_id`` and both chats get the service messages
Telegram sends.

Users send photos (``send_photo``: the sizes Telegram keeps of a photo, each within its limits) and images as files
(``send_document``); the bot gets a file's path with ``getFile`` (refused over the Bot API's 20 MB) and downloads it
from ``/file/bot<token>/<path>``, as from Telegram's file server.

PTB posts parameters form-encoded, each non-string value JSON-encoded; the response is ``{"ok": true, "result":
...}`` or ``{"ok": false, "error_code": ..., "description": ..., "parameters": {...}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

TOKEN = "123456:TEST-belote-token"
BOT_ID = 123456
BOT_USERNAME = "belote_test_bot"
# The sender Telegram puts on an anonymous admin's messages (GroupAnonymousBot), and on messages a member posts
# as a channel (Channel_Bot); the real author is in ``sender_chat``.
ANONYMOUS_ADMIN = 1087968824
CHANNEL_BOT = 136817688

# Parameters PTB sends JSON-encoded (everything else is a plain string or a number).
_JSON_PARAMS = frozenset(
    {"reply_markup", "commands", "scope", "allowed_updates", "entities", "link_preview_options", "reply_parameters"}
)
_INT_PARAMS = frozenset({"chat_id", "message_id", "offset", "limit", "timeout", "message_thread_id", "user_id"})
_BOOL_PARAMS = frozenset({"show_alert", "disable_notification", "drop_pending_updates", "protect_content"})
# Methods that put something in a chat and count toward its flood limits.
FLOOD_METHODS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
# Methods an outage fails by default: everything that changes a chat.
SEND_METHODS = FLOOD_METHODS | {"deleteMessage"}
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
MAX_TEXT = 4096
MAX_CALLBACK_DATA = 64
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
# Telegram's file limits: a bot downloads files of up to 20 MB; a photo is at most 10 MB, its sides together at most
# 10000 pixels (Telegram keeps it at most 2560 pixels on its longer side).
MAX_DOWNLOAD = 20 * 2**20
MAX_PHOTO_BYTES = 10 * 2**20
MAX_PHOTO_SIDES = 10_000


@dataclass(frozen=True)
class FloodLimits:
    """Telegram's flood limits: about one message a second in a chat (a short burst tolerated) and twenty a minute
    in a group. ``scale`` shrinks every window so tests keep the same shape in less time."""

    chat_messages: int = 3
    chat_window: float = 3.0
    group_messages: int = 20
    group_window: float = 60.0

    def scaled(self, factor: float) -> FloodLimits:
        return FloodLimits(
            self.chat_messages, self.chat_window * factor, self.group_messages, self.group_window * factor
        )


@dataclass
class Entry:
    """One request a chat received (a send, an edit, a deletion) as the server saw it."""

    method: str
    at: float
    message_id: int
    text: str | None
    reply_markup: dict[str, Any] | None
    thread_id: int | None
    ok: bool


@dataclass
class Sent:
    """The current state of a message the bot sent."""

    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None
    thread_id: int | None
    deleted: bool = False

    def buttons(self) -> list[tuple[str, str]]:
        """(label, callback data) of every inline button, row by row."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]

    def urls(self) -> list[str]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b["url"] for row in rows for b in row if "url" in b]


@dataclass
class Injected:
    """An error the server returns to the next matching request."""

    method: str
    chat_id: int | None
    code: int
    description: str
    retry_after: int | None = None


@dataclass
class Late:
    """A request the server takes as usual but answers ``seconds`` later (the next matching one)."""

    method: str
    chat_id: int | None
    seconds: float


Pending = TypeVar("Pending", Injected, Late)


def _take_next(pending: list[Pending], method: str, params: dict[str, Any]) -> Pending | None:
    """The first of ``pending`` that matches the request (its method, and its chat if it names one), taken off."""
    for i, item in enumerate(pending):
        if item.method == method and (item.chat_id is None or item.chat_id == params.get("chat_id")):
            return pending.pop(i)
    return None


@dataclass
class Answer:
    text: str | None
    show_alert: bool
    latency: float
    url: str | None = None


class ApiError(Exception):
    def __init__(
        self, code: int, description: str, retry_after: int | None = None, migrate_to: int | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to = migrate_to


@dataclass
class _Chat:
    id: int
    type: str
    title: str | None = None
    is_forum: bool = False
    admins: set[int] = field(default_factory=set)
    migrated_to: int | None = None  # a basic group upgraded to this supergroup
    # user id -> "member", "left", "kicked", "restricted" or "restricted-left" (restricted, no longer a member).
    # Users not listed are members, unless ``members_only``: then they are "left", as Telegram answers for
    # someone who never joined.
    statuses: dict[int, str] = field(default_factory=dict)
    members_only: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.title is not None:
            data["title"] = self.title
        if self.is_forum:
            data["is_forum"] = True
        return data


class FakeTelegram:
    """The server. ``async with FakeTelegram() as tg:`` starts it; ``tg.base_url`` goes to ``Bot(base_url=...)``."""

    def __init__(self, limits: FloodLimits | None = None, enforce_limits: bool = True) -> None:
        self.limits = limits or FloodLimits()
        self.enforce_limits = enforce_limits
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._users: dict[int, dict[str, Any]] = {}
        self._chats: dict[int, _Chat] = {}
        self.started: set[int] = set()  # users who opened a private chat with the bot
        self.messages: dict[tuple[int, int], Sent] = {}
        self.log: dict[int, list[Entry]] = defaultdict(list)
        # Called with (chat id, entry) for every request a chat receives, as it is received.
        self.watchers: list[Callable[[int, Entry], None]] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.violations: list[str] = []
        self.errors_served: list[tuple[str, int, str]] = []
        self._flood: dict[int, deque[float]] = defaultdict(deque)
        self._group_flood: dict[int, deque[float]] = defaultdict(deque)
        self._injected: list[Injected] = []
        self._next_message_id: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._update_ids = itertools.count(1)
        self._last_update_id = 0
        self._query_ids = itertools.count(1)
        self._updates: list[dict[str, Any]] = []
        self._update_event = asyncio.Event()
        self._answers: dict[str, asyncio.Future[Answer]] = {}
        self._pressed_at: dict[str, float] = {}
        self._changed = asyncio.Condition()
        self._closing = False
        self.webhook: tuple[str, str | None] | None = None  # (url, secret token) set by setWebhook
        self._chat_events: dict[int, asyncio.Event] = {}
        self._outage: tuple[float, int, frozenset[str]] | None = None  # (until, status, methods)
        self._outage_left: int | None = None  # requests the outage still fails, when counted
        # Seconds each request travels before Telegram counts it (a slow network, a loaded machine).
        self.latency = 0.0
        # The next matching request is taken, and answered that much later.
        self._late: list[Late] = []
        self.files: dict[str, bytes] = {}  # file_id -> content
        self._file_paths: dict[str, str] = {}  # file path (from getFile) -> file_id
        self._file_ids = itertools.count(1)
        self.downloads: list[str] = []  # file ids downloaded, in order

    # --- lifecycle ---

    async def __aenter__(self) -> FakeTelegram:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("GET", "/file/bot{token}/{path:.*}", self._download)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closing = True
        self._update_event.set()  # wake any long poll so the server stops at once
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- the world: users and chats ---

    def add_user(self, user_id: int, first_name: str, language_code: str | None = "en", started: bool = True) -> None:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if language_code:
            user["language_code"] = language_code
        self._users[user_id] = user
        self._chats[user_id] = _Chat(user_id, "private")
        if started:
            self.started.add(user_id)

    def add_group(
        self,
        chat_id: int,
        title: str,
        forum: bool = False,
        admins: set[int] | None = None,
        basic: bool = False,
        members: set[int] | None = None,
    ) -> None:
        """A supergroup, or with ``basic`` a basic group (the kind Telegram creates first, with a small positive
        id made negative; it can be upgraded to a supergroup with ``migrate``). With ``members``, only those
        users (and the admins) are in it; everyone else is "left"."""
        self._chats[chat_id] = _Chat(chat_id, "group" if basic else "supergroup", title, forum, set(admins or ()))
        if members is not None:
            self._chats[chat_id].members_only = True
            self._chats[chat_id].statuses.update(dict.fromkeys(members, "member"))

    def migrate(self, chat_id: int, new_chat_id: int, by: int, announce: bool = True) -> None:
        """User ``by`` upgrades the basic group ``chat_id`` to the supergroup ``new_chat_id``, as Telegram does when
        a group turns on a supergroup feature. From then on every request naming the old id is answered 400 with
        ``parameters.migrate_to_chat_id``; with ``announce`` both chats also get their service message at once
        (``announce_migration`` sends them later, or again)."""
        old = self._chats[chat_id]
        assert old.type == "group", "only a basic group can be upgraded"
        self._chats[new_chat_id] = _Chat(new_chat_id, "supergroup", old.title, False, set(old.admins))
        old.migrated_to = new_chat_id
        if announce:
            self.announce_migration(chat_id, by)

    def announce_migration(self, chat_id: int, by: int) -> None:
        """The service messages of an upgrade: ``migrate_to_chat_id`` in the old group, ``migrate_from_chat_id``
        in the new supergroup (each an ordinary ``message`` update, which bots get even in privacy mode)."""
        new_chat_id = self._chats[chat_id].migrated_to
        assert new_chat_id is not None, "the group was not upgraded"
        for where, field_name, value in ((chat_id, "migrate_to_chat_id", new_chat_id),
                                         (new_chat_id, "migrate_from_chat_id", chat_id)):  # fmt: skip
            self._push(
                "message",
                {
                    "message_id": next(self._next_message_id[where]),
                    "date": int(time.time()),
                    "chat": self._chats[where].to_json(),
                    "from": self._users[by],
                    field_name: value,
                },
            )

    # --- injecting updates ---

    def _push(self, kind: str, payload: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self._last_update_id = update_id
        self._updates.append({"update_id": update_id, kind: payload})
        self._update_event.set()
        return update_id

    def send_text(self, user_id: int, chat_id: int, text: str, thread_id: int | None = None) -> int:
        """A user writes ``text`` in a chat (a command if it starts with ``/``)."""
        return self._push("message", self.message_of(user_id, chat_id, text, thread_id))

    def message_of(self, user_id: int, chat_id: int, text: str, thread_id: int | None = None) -> dict[str, Any]:
        """The ``Message`` object of a user's text, as an update carries it."""
        message: dict[str, Any] = {
            "message_id": next(self._next_message_id[chat_id]),
            "date": int(time.time()),
            "chat": self._chats[chat_id].to_json(),
            "from": self._users[user_id],
            "text": text,
        }
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        if text.startswith("/"):
            length = len(text.split()[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        return message

    def _file(self, data: bytes) -> dict[str, Any]:
        n = next(self._file_ids)
        self.files[f"file-{n}"] = data
        return {"file_id": f"file-{n}", "file_unique_id": f"u{n}", "file_size": len(data)}

    def send_photo(
        self,
        user_id: int,
        chat_id: int,
        sizes: list[tuple[bytes, int, int]],
        caption: str | None = None,
        thread_id: int | None = None,
    ) -> dict[str, Any]:
        """A user sends a photo: ``sizes`` are the versions Telegram keeps of it, (content, width, height), smallest
        first. Returns the message, to reply to."""
        for data, width, height in sizes:
            if len(data) > MAX_PHOTO_BYTES or width + height > MAX_PHOTO_SIDES:
                raise ValueError("Telegram does not take this photo (over 10 MB, or sides over 10000 pixels)")
        message = self.message_of(user_id, chat_id, caption or "", thread_id)
        del message["text"]
        message.pop("entities", None)
        message["photo"] = [{**self._file(data), "width": w, "height": h} for data, w, h in sizes]
        if caption:
            message["caption"] = caption
            if caption.startswith("/"):
                message["caption_entities"] = [{"type": "bot_command", "offset": 0, "length": len(caption.split()[0])}]
        self._push("message", message)
        return message

    def send_document(
        self, user_id: int, chat_id: int, data: bytes, mime_type: str, file_name: str, caption: str | None = None
    ) -> dict[str, Any]:
        """A user sends a file (a photo sent uncompressed, as a document)."""
        message = self.message_of(user_id, chat_id, caption or "")
        del message["text"]
        message.pop("entities", None)
        message["document"] = {**self._file(data), "mime_type": mime_type, "file_name": file_name}
        if caption:
            message["caption"] = caption
        self._push("message", message)
        return message

    def send_reply(self, user_id: int, chat_id: int, text: str, to: dict[str, Any]) -> int:
        """A user answers the message ``to`` with ``text``."""
        message = self.message_of(user_id, chat_id, text)
        message["reply_to_message"] = to
        return self._push("message", message)

    def set_member(self, chat_id: int, user_id: int, status: str) -> None:
        """The user's standing in a group: "member", "left", "kicked", "restricted" (still a member) or
        "restricted-left" (restricted, not a member any more)."""
        self._chats[chat_id].statuses[user_id] = status

    def send_as_chat(self, chat_id: int, text: str, as_chat: int | None = None, title: str = "") -> int:
        """A message posted in a group on behalf of a chat: the group itself (an anonymous admin, ``as_chat``
        None) or a channel (``as_chat`` its id). The sender is Telegram's shared bot account; the chat posting it
        is ``sender_chat``."""
        message = self.message_of_sender(chat_id, text)
        if as_chat is None:
            message["from"] = {"id": ANONYMOUS_ADMIN, "is_bot": True, "first_name": "Group",
                               "username": "GroupAnonymousBot"}
            message["sender_chat"] = self._chats[chat_id].to_json()
        else:
            message["from"] = {"id": CHANNEL_BOT, "is_bot": True, "first_name": "Channel",
                               "username": "Channel_Bot"}
            message["sender_chat"] = {"id": as_chat, "type": "channel", "title": title or "A channel"}
        return self._push("message", message)

    def message_of_sender(self, chat_id: int, text: str) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": next(self._next_message_id[chat_id]),
            "date": int(time.time()),
            "chat": self._chats[chat_id].to_json(),
            "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return message

    def start_private(self, user_id: int, payload: str | None = None) -> int:
        """The user opens the bot's private chat (through a deep link when ``payload`` is given)."""
        self.started.add(user_id)
        return self.send_text(user_id, user_id, "/start" + (f" {payload}" if payload else ""))

    def press(self, user_id: int, message: Sent, data: str) -> str:
        """The user presses a button with callback ``data`` under ``message``; returns the callback query id."""
        query_id = str(next(self._query_ids))
        loop = asyncio.get_running_loop()
        self._answers[query_id] = loop.create_future()
        self._pressed_at[query_id] = time.perf_counter()
        shown: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": self._chats[message.chat_id].to_json(),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Belote", "username": BOT_USERNAME},
            "text": message.text,
        }
        if message.reply_markup:
            shown["reply_markup"] = message.reply_markup
        if message.thread_id is not None:
            shown["message_thread_id"] = message.thread_id
        self._push(
            "callback_query",
            {
                "id": query_id,
                "from": self._users[user_id],
                "message": shown,
                "chat_instance": f"ci{message.chat_id}",
                "data": data,
            },
        )
        return query_id

    def acknowledged_updates(self) -> int:
        """How many injected updates the bot has fetched and acknowledged so far."""
        return next(iter(self._updates), {"update_id": self._last_update_id + 1})["update_id"] - 1

    def pending_updates(self) -> int:
        """Injected updates the bot has not acknowledged yet (by polling past them)."""
        return len(self._updates)

    async def answer_of(self, query_id: str, timeout: float = 10.0) -> Answer:
        """The bot's ``answerCallbackQuery`` for a press (waits for it)."""
        return await asyncio.wait_for(asyncio.shield(self._answers[query_id]), timeout)

    # --- injecting errors ---

    def fail_next(
        self,
        method: str,
        chat_id: int | None = None,
        code: int = 429,
        description: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        """The next ``method`` request (for ``chat_id`` if given) fails with this error."""
        if code == 429 and retry_after is None:
            retry_after = 1
        if description is None:
            description = {
                400: "Bad Request: injected",
                403: "Forbidden: bot was blocked by the user",
                429: f"Too Many Requests: retry after {retry_after}",
            }.get(code, "injected")
        self._injected.append(Injected(method, chat_id, code, description, retry_after))

    def answer_late(self, method: str, chat_id: int | None = None, seconds: float = 1.0) -> None:
        """The next ``method`` request (for ``chat_id`` if given) is taken as usual (it counts, its message reaches
        the chat) but answered ``seconds`` later: a client with a shorter timeout never learns that it was taken."""
        self._late.append(Late(method, chat_id, seconds))

    def outage(
        self,
        seconds: float = float("inf"),
        code: int = 502,
        methods: frozenset[str] = SEND_METHODS,
        requests: int | None = None,
    ) -> None:
        """For the next ``seconds`` (or the next ``requests`` of them, whichever ends first), every request of
        ``methods`` is answered ``code`` (a 5xx: Telegram's servers are in trouble) and nothing reaches the chat.
        ``outage(0)`` ends it."""
        self._outage = (time.monotonic() + seconds, code, methods)
        self._outage_left = requests

    def _raise_outage(self, method: str) -> None:
        if self._outage is None:
            return
        until, code, methods = self._outage
        if time.monotonic() >= until or self._outage_left == 0:
            self._outage = None
        elif method in methods:
            if self._outage_left is not None:
                self._outage_left -= 1
            raise ApiError(code, {500: "Internal Server Error", 502: "Bad Gateway"}.get(code, "Server Error"))

    # --- reading what chats received ---

    def in_chat(self, chat_id: int, thread_id: int | None = None, include_deleted: bool = False) -> list[Sent]:
        """Every message the bot has in a chat (current state), oldest first."""
        found = [
            m
            for (c, _), m in self.messages.items()
            if c == chat_id and (include_deleted or not m.deleted) and (thread_id is None or m.thread_id == thread_id)
        ]
        return sorted(found, key=lambda m: m.message_id)

    def last(self, chat_id: int) -> Sent | None:
        found = self.in_chat(chat_id)
        return found[-1] if found else None

    def texts_seen(self, chat_id: int) -> list[str]:
        """Every text a chat ever showed: each send and each edit, in order."""
        return [e.text for e in self.log[chat_id] if e.ok and e.text is not None]

    async def wait_for(self, predicate: Any, timeout: float = 10.0) -> None:
        """Wait until ``predicate()`` is true; it is checked after every request the server answers."""

        async def check() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)

        await asyncio.wait_for(check(), timeout)

    async def next_change(self, chat_id: int, timeout: float | None = None) -> None:
        """Wait until the bot sends, edits or deletes something in this chat (or ``timeout`` passes)."""
        event = self._chat_events.setdefault(chat_id, asyncio.Event())
        event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def assert_within_limits(self, context: str = "") -> None:
        """No request went over a flood limit; ``context`` (the bot's log, say) is shown when one did."""
        assert not self.violations, "flood limits exceeded:\n" + "\n".join(self.violations[:10]) + context

    # --- the HTTP side ---

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return web.Response(status=401)
        file_id = self._file_paths.get(request.match_info["path"])
        if file_id is None:
            return web.Response(status=404, text="Not Found")
        self.downloads.append(file_id)
        return web.Response(body=self.files[file_id], content_type="application/octet-stream")

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        if self.latency:
            await asyncio.sleep(self.latency)
        params = _decode(dict(await request.post()) if request.can_read_body else {})
        params.update(_decode(dict(request.query)))
        self.calls.append((method, params))
        handler = getattr(self, f"_api_{method}", None)
        try:
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            self._raise_injected(method, params)
            self._raise_outage(method)
            self._refuse_upgraded(params)
            self._check_flood(method, params)
            result = await handler(params)
        except ApiError as err:
            self.errors_served.append((method, err.code, err.description))
            chat = params.get("chat_id")
            if isinstance(chat, int) and method in FLOOD_METHODS:
                self._record(method, chat, params, None, ok=False)
            response = _error(err.code, err.description, err.retry_after, err.migrate_to)
        else:
            response = web.json_response({"ok": True, "result": result})
        async with self._changed:
            self._changed.notify_all()
        late = _take_next(self._late, method, params)
        if late is not None:
            await asyncio.sleep(late.seconds)
        return response

    def _raise_injected(self, method: str, params: dict[str, Any]) -> None:
        inj = _take_next(self._injected, method, params)
        if inj is not None:
            raise ApiError(inj.code, inj.description, inj.retry_after)

    def _refuse_upgraded(self, params: dict[str, Any]) -> None:
        chat_id = params.get("chat_id")
        chat = self._chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is not None and chat.migrated_to is not None:
            raise ApiError(400, UPGRADED, migrate_to=chat.migrated_to)

    def _check_flood(self, method: str, params: dict[str, Any]) -> None:
        if method not in FLOOD_METHODS:
            return
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int):
            return
        now = time.monotonic()
        lim = self.limits
        checks = [(self._flood[chat_id], lim.chat_messages, lim.chat_window, "per chat")]
        if chat_id < 0:
            checks.append((self._group_flood[chat_id], lim.group_messages, lim.group_window, "per group"))
        for stamps, count, window, what in checks:
            while stamps and stamps[0] <= now - window:
                stamps.popleft()
            if len(stamps) >= count:
                self.violations.append(
                    f"chat {chat_id}: {method} would be message {len(stamps) + 1} within {window:.2f}s ({what}); the"
                    f" others came {', '.join(f'{now - s:.3f}' for s in stamps)} s before"
                )
                if self.enforce_limits:
                    # Telegram names the whole seconds until the window lets the next message through.
                    wait = max(1, math.ceil(stamps[len(stamps) - count] + window - now))
                    raise ApiError(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
        for stamps, *_ in checks:
            stamps.append(now)

    def _record(self, method: str, chat_id: int, params: dict[str, Any], sent: Sent | None, ok: bool = True) -> None:
        if chat_id in self._chat_events:
            self._chat_events[chat_id].set()
        entry = Entry(
            method=method,
            at=time.monotonic(),
            message_id=sent.message_id if sent else int(params.get("message_id") or 0),
            text=sent.text if sent else params.get("text"),
            reply_markup=sent.reply_markup if sent else params.get("reply_markup"),
            thread_id=sent.thread_id if sent else params.get("message_thread_id"),
            ok=ok,
        )
        self.log[chat_id].append(entry)
        for watch in self.watchers:  # a test that judges each message at the instant the bot sends it
            watch(chat_id, entry)

    def _chat(self, params: dict[str, Any]) -> _Chat:
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int) or chat_id not in self._chats:
            raise ApiError(400, "Bad Request: chat not found")
        return self._chats[chat_id]

    def _message_json(self, sent: Sent) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": sent.message_id,
            "date": int(time.time()),
            "chat": self._chats[sent.chat_id].to_json(),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Belote", "username": BOT_USERNAME},
            "text": sent.text,
        }
        if sent.reply_markup:
            data["reply_markup"] = sent.reply_markup
        if sent.thread_id is not None:
            data["message_thread_id"] = sent.thread_id
            data["is_topic_message"] = True
        return data

    @staticmethod
    def _check_text(params: dict[str, Any]) -> str:
        text = params.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if len(text) > MAX_TEXT:
            raise ApiError(400, "Bad Request: message is too long")
        return text

    @staticmethod
    def _check_markup(params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        for row in markup["inline_keyboard"]:
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if data is None and "url" not in button:
                    raise ApiError(400, "Bad Request: can't find field callback_data or url")
        return markup

    # --- methods ---

    async def _api_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Belote",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = None
        return True

    async def _api_setWebhook(self, params: dict[str, Any]) -> bool:
        url = params.get("url", "")
        if not url.startswith("https://"):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = (url, params.get("secret_token"))
        return True

    async def _api_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and timeout > 0 and not self._closing:
            self._update_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._update_event.wait(), timeout)
        limit = int(params.get("limit") or 100)
        return self._updates[:limit]

    async def _api_setMyCommands(self, params: dict[str, Any]) -> bool:
        scope = (params.get("scope") or {}).get("type", "default")
        lang = params.get("language_code") or ""
        commands = params.get("commands")
        if not isinstance(commands, list) or not commands:
            raise ApiError(400, "Bad Request: commands must be non-empty")
        for c in commands:
            name, desc = c.get("command", ""), c.get("description", "")
            if not (1 <= len(name) <= 32 and name.islower() and name.replace("_", "").isalnum()):
                raise ApiError(400, f"Bad Request: BOT_COMMAND_INVALID ({name!r})")
            if not 1 <= len(desc) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[(scope, lang)] = commands
        return True

    async def _api_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params)
        if chat.type == "private" and chat.id not in self.started:
            raise ApiError(403, CANT_INITIATE)
        text = self._check_text(params)
        markup = self._check_markup(params)
        thread = params.get("message_thread_id")
        if thread is not None and not chat.is_forum:
            raise ApiError(400, "Bad Request: message thread not found")
        sent = Sent(chat.id, next(self._next_message_id[chat.id]), text, markup, thread)
        self.messages[(chat.id, sent.message_id)] = sent
        self._record("sendMessage", chat.id, params, sent)
        return self._message_json(sent)

    def _existing(self, params: dict[str, Any]) -> Sent:
        chat = self._chat(params)
        sent = self.messages.get((chat.id, int(params.get("message_id") or 0)))
        if sent is None or sent.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        return sent

    async def _api_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        sent = self._existing(params)
        text = self._check_text(params)
        markup = self._check_markup(params)
        if text == sent.text and markup == sent.reply_markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message",
            )
        sent.text, sent.reply_markup = text, markup
        self._record("editMessageText", sent.chat_id, params, sent)
        return self._message_json(sent)

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        sent = self._existing(params)
        markup = self._check_markup(params)
        if markup == sent.reply_markup:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.reply_markup = markup
        self._record("editMessageReplyMarkup", sent.chat_id, params, sent)
        return self._message_json(sent)

    async def _api_deleteMessage(self, params: dict[str, Any]) -> bool:
        sent = self._existing(params)
        sent.deleted = True
        self._record("deleteMessage", sent.chat_id, params, sent)
        return True

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params.get("callback_query_id"))
        future = self._answers.get(query_id)
        if future is None or future.done():
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        text = params.get("text")
        if text is not None and len(text) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        latency = time.perf_counter() - self._pressed_at[query_id]
        url = params.get("url")
        if url is not None and not url.startswith(f"https://t.me/{BOT_USERNAME}?start="):
            raise ApiError(400, "Bad Request: URL_INVALID")
        future.set_result(Answer(text, bool(params.get("show_alert")), latency, url))
        return True

    async def _api_sendChatAction(self, params: dict[str, Any]) -> bool:
        chat = self._chat(params)
        if chat.type == "private" and chat.id not in self.started:
            raise ApiError(403, CANT_INITIATE)
        return True

    async def _api_getFile(self, params: dict[str, Any]) -> dict[str, Any]:
        file_id = params.get("file_id")
        data = self.files.get(file_id) if isinstance(file_id, str) else None
        if data is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        if len(data) > MAX_DOWNLOAD:
            raise ApiError(400, "Bad Request: file is too big")
        path = f"photos/{file_id}.jpg"
        self._file_paths[path] = str(file_id)
        return {"file_id": file_id, "file_unique_id": "u" + str(file_id), "file_size": len(data), "file_path": path}

    async def _api_getChat(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._chat(params).to_json()

    async def _api_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params)
        user_id = params.get("user_id")
        if user_id not in self._users:
            raise ApiError(400, "Bad Request: user not found")
        if isinstance(user_id, int) and user_id not in chat.admins:
            status = chat.statuses.get(user_id, "left" if chat.members_only else "member")
            if status != "member":
                return _member_with_status(status, self._users[user_id])
        status = "administrator" if user_id in chat.admins else "member"
        member: dict[str, Any] = {"status": status, "user": self._users[user_id]}
        if status == "administrator":
            member.update(
                {
                    "can_be_edited": False,
                    "is_anonymous": False,
                    "can_manage_chat": True,
                    "can_delete_messages": True,
                    "can_manage_video_chats": True,
                    "can_restrict_members": True,
                    "can_promote_members": False,
                    "can_change_info": True,
                    "can_invite_users": True,
                    "can_post_stories": False,
                    "can_edit_stories": False,
                    "can_delete_stories": False,
                }
            )
        return member


def _member_with_status(status: str, user: dict[str, Any]) -> dict[str, Any]:
    """A ``ChatMember`` that is not a plain member, as the Bot API shapes it."""
    if status == "left":
        return {"status": "left", "user": user}
    if status == "kicked":
        return {"status": "kicked", "user": user, "until_date": 0}
    assert status in ("restricted", "restricted-left"), status
    rights = [
        "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos",
        "can_send_video_notes", "can_send_voice_notes", "can_send_polls", "can_send_other_messages",
        "can_add_web_page_previews", "can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics",
        "can_edit_tag", "can_react_to_messages",
    ]  # fmt: skip
    return {"status": "restricted", "user": user, "is_member": status == "restricted", "until_date": 0,
            **dict.fromkeys(rights, False)}


def _decode(raw: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if not isinstance(value, str):
            continue
        if key in _JSON_PARAMS:
            params[key] = json.loads(value)
        elif key in _INT_PARAMS:
            params[key] = int(value)
        elif key in _BOOL_PARAMS:
            params[key] = value == "true"
        else:
            params[key] = value
    return params


def _error(
    code: int, description: str, retry_after: int | None = None, migrate_to: int | None = None
) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    if migrate_to is not None:
        body["parameters"] = {"migrate_to_chat_id": migrate_to}
    return web.json_response(body, status=code)
