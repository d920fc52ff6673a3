"""A fake Discord on 127.0.0.1: the REST API and the gateway, as far as the bot uses them.

discord.py builds every REST URL from ``discord.http.Route.BASE`` (interaction callbacks and webhook edits
included) and opens the gateway at ``DiscordWebSocket.DEFAULT_GATEWAY``; pointing both at this server lets the real
client log in, sync its commands, receive ``INTERACTION_CREATE`` over a real websocket (so every interaction goes
through ``ConnectionState.parse_interaction_create``) and answer through its own HTTP code. The server keeps the
messages the bot created, as Discord would return them, so a test presses exactly the buttons a user is shown.

Discord's limits are enforced here, so a bot that breaks one fails its test: 5 action rows of 5 buttons,
custom_id at most 100 characters and unique in a message, embed sizes, the 3-second window to acknowledge an
interaction, one acknowledgement per interaction, and interaction tokens that expire after 15 minutes.

A command may carry a file (``upload``): as Discord does, the upload is refused over the server's attachment size
limit (10 MB unless boosted; the interaction says it as ``attachment_size_limit``), and the bot gets it as a
resolved attachment whose ``url`` this server serves, as Discord's CDN would.

Sharding as Discord does it: ``GET /gateway/bot`` advises ``shard_count`` shards; each IDENTIFY names its shard
``[id, count]`` and gets a READY listing only the servers of that shard (``(server_id >> 22) % count == id``),
then a GUILD_CREATE for each; an interaction goes over the websocket of its server's shard alone, so a client that
does not run that shard never hears of it. ``add_guild(shard=...)`` makes a server that falls in a given shard.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

API = "/api/v10"
EPHEMERAL = 1 << 6
ACK_WINDOW = 3.0
MEMBER_PERMISSIONS = 2248473465835073  # view, send, embed, history, use application commands, ...
MANAGE_GUILD = 1 << 5
TOKEN_LIFETIME = 15 * 60.0

# Interaction callback types (Discord's numbering).
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
MODAL = 9


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors or {}

    def response(self) -> web.Response:
        body = {"code": self.code, "message": self.message, "errors": self.errors}
        return _json(body, self.status)


def invalid_form(where: str, why: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {where: {"_errors": [{"code": "BASE_TYPE", "message": why}]}})


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    manager: bool = False  # may manage the server (MANAGE_GUILD)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }


@dataclass
class Upload:
    """A file a user attached to a slash command option."""

    id: int
    filename: str
    content_type: str | None
    data: bytes

    def payload(self, base: str, channel_id: int) -> dict[str, Any]:
        url = f"{base}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": url,
                                "proxy_url": url}
        if self.content_type is not None:
            data["content_type"] = self.content_type
        return data


@dataclass
class Request:
    method: str
    path: str
    body: Any
    at: float


@dataclass
class InteractionRecord:
    id: int
    token: str
    user: FakeUser
    channel_id: int
    created: float
    created_fake: float
    message_id: int | None = None  # the message whose component was pressed
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    response_type: int | None = None
    ack_delay: float | None = None
    original_id: int | None = None  # the message that "@original" refers to
    followup_ids: list[int] = field(default_factory=list)  # messages sent through the token after the answer
    modal: dict[str, Any] | None = None


class FakeDiscord:
    """Discord as one guild with text channels and threads, a bot user, and users who press buttons."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app_id = self.next_id()
        self.token = "fake-token"  # the bot token Discord accepts
        # Bots still running when a test ends (it failed before stopping them): stopped before the server, so a
        # failing test fails at once instead of hanging on a bot that reconnects forever.
        self.leftovers: list[Callable[[], Awaitable[None]]] = []
        self.bot = FakeUser(self.next_id(), "Belote")
        self.shard_count = 1  # what GET /gateway/bot advises
        self.guilds: list[int] = []  # every server the bot is in
        self.guild_id = self.add_guild()  # the server of add_channel's channels unless told otherwise
        self.guild_locale = "bg"
        self.channels: dict[int, int] = {}  # id -> channel type (0 text, 11 public thread)
        self.channel_guild: dict[int, int] = {}  # channel id -> its server
        self.dm_user: dict[int, int] = {}  # direct-message channel id -> the user it is with
        self.parents: dict[int, int] = {}  # thread id -> its text channel
        self.messages: dict[int, dict[str, Any]] = {}
        self.history: list[tuple[int, dict[str, Any]]] = []  # every state of every message, in order
        self.deleted: set[int] = set()
        self.ephemeral_owner: dict[int, int] = {}  # message id -> the only user who sees it
        self.requests: list[Request] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.commands: list[dict[str, Any]] = []
        self.identified: list[dict[str, Any]] = []
        self.errors: list[DiscordError] = []
        self.clock_offset = 0.0
        self.slow: dict[str, float] = {}  # "PATCH webhooks" (method, first path part) -> seconds before handling
        # "PATCH channels" -> how many of the next such requests Discord answers with 429 (retry_after below)
        self.rate_limited: dict[str, int] = {}
        self.retry_after = 0.05
        self.in_flight: dict[str, int] = {}  # "PATCH channels" -> requests being handled now
        self.most_in_flight: dict[str, int] = {}  # ... and the most at any moment
        self._sockets: list[web.WebSocketResponse] = []
        self._shard_of_socket: dict[web.WebSocketResponse, tuple[int, int]] = {}  # [id, count] it identified as
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, Any] | None = None
        self.base = ""
        self.connected = asyncio.Event()
        self.attachment_size_limit = 10 * 2**20  # a server without boosts
        self.uploads: dict[int, Upload] = {}
        self.downloads: list[int] = []  # attachment ids fetched from the CDN

    def upload(self, data: bytes, filename: str, content_type: str | None = "image/jpeg") -> Upload:
        """A file a user attaches; Discord's client refuses one over the server's limit."""
        if len(data) > self.attachment_size_limit:
            raise ValueError(f"Discord does not take a file over {self.attachment_size_limit} bytes here")
        upload = Upload(self.next_id(), filename, content_type, data)
        self.uploads[upload.id] = upload
        return upload

    def next_id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move Discord's clock (token lifetimes), not the bot's."""
        self.clock_offset += seconds

    def add_guild(self, shard: int | None = None) -> int:
        """A server the bot is in; with ``shard``, one whose id falls in that shard of ``shard_count``."""
        gid = self.next_id()
        if shard is not None:
            # The shard is read from the id's timestamp bits: step the timestamp until it lands there.
            while (gid >> 22) % self.shard_count != shard:
                gid += 1 << 22
        self.guilds.append(gid)
        return gid

    @staticmethod
    def shard_of(guild_id: int, count: int) -> int:
        return (guild_id >> 22) % count

    def add_channel(self, thread: bool = False, guild: int | None = None) -> int:
        """A text channel, or a public thread (in a text channel of its own), in ``guild`` (default ``guild_id``)."""
        cid = self.next_id()
        self.channels[cid] = 11 if thread else 0
        self.channel_guild[cid] = self.guild_id if guild is None else guild
        if thread:
            self.parents[cid] = self.add_channel(guild=guild)
        return cid

    def add_direct(self, user: FakeUser) -> int:
        """The direct-message channel between ``user`` and the bot: no server, no member."""
        cid = self.next_id()
        self.channels[cid] = 1
        self.dm_user[cid] = user.id
        return cid

    # --- lifecycle -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        app.router.add_route("GET", "/attachments/{channel}/{id}/{name}", self._cdn)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.base + API
        DiscordWebSocket.DEFAULT_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY.__class__(self.base + "/gateway")

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved

    # --- gateway ---------------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            if frame["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif frame["op"] == 2:
                self.identified.append(frame["d"])
                shard_id, count = frame["d"].get("shard", [0, 1])
                if not 0 <= shard_id < count:
                    await ws.close(code=4010, message=b"Invalid shard")  # as Discord closes it
                    break
                self._sockets.append(ws)
                self._shard_of_socket[ws] = (shard_id, count)
                guilds = [g for g in self.guilds if self.shard_of(g, count) == shard_id]
                ready = {
                    "v": 10,
                    "user": {**self.bot.payload(), "bot": True, "verified": True, "flags": 0, "mfa_enabled": False},
                    "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                    "session_id": f"fake-session-{shard_id}",
                    "resume_gateway_url": self.base + "/gateway",
                    "application": {"id": str(self.app_id), "flags": 0},
                    "shard": [shard_id, count],
                }
                await self._send(ws, "READY", ready)
                for g in guilds:
                    await self._send(ws, "GUILD_CREATE", self._guild_payload(g))
                self.connected.set()
        if ws in self._sockets:
            self._sockets.remove(ws)
        self._shard_of_socket.pop(ws, None)
        return ws

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        channels = [
            {"id": str(c), "type": 0, "name": f"table-{c % 1000}", "position": 0, "permission_overwrites": [],
             "parent_id": None, "nsfw": False, "guild_id": str(guild_id)}
            for c, kind in self.channels.items() if kind == 0 and self.channel_guild.get(c) == guild_id
        ]
        return {
            "id": str(guild_id), "name": f"server-{guild_id % 1000}", "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.bot.id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [{"id": str(guild_id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                       "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False}],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "application_id": None,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "preferred_locale": self.guild_locale,
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": "2026-01-01T00:00:00+00:00", "large": False, "unavailable": False, "member_count": 1,
            "members": [], "channels": channels, "threads": [], "presences": [], "voice_states": [],
            "stage_instances": [], "guild_scheduled_events": [],
        }

    def shard_sockets(self, guild_id: int) -> list[web.WebSocketResponse]:
        """The live gateway connections that carry this server's events (its shard's)."""
        return [ws for ws, (sid, count) in self._shard_of_socket.items()
                if not ws.closed and self.shard_of(guild_id, count) == sid]

    async def _cdn(self, request: web.Request) -> web.Response:
        upload = self.uploads.get(int(request.match_info["id"]))
        if upload is None or upload.filename != request.match_info["name"]:
            return web.Response(status=404)
        self.downloads.append(upload.id)
        return web.Response(body=upload.data, content_type=upload.content_type or "application/octet-stream")

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event as Discord does: a server's event over its shard's connection only (the newest, if a
        shard connected twice), others over every connection."""
        await asyncio.wait_for(self.connected.wait(), 10)
        guild = data.get("guild_id")
        if guild is None:
            for ws in self._sockets:
                await self._send(ws, event, data)
            return
        await wait_until(lambda: bool(self.shard_sockets(int(guild))), what=f"a connection of server {guild}'s shard")
        await self._send(self.shard_sockets(int(guild))[-1], event, data)

    # --- interactions ----------------------------------------------------------------------------------------

    def _interaction_base(
        self, user: FakeUser, channel_id: int, type_: int
    ) -> tuple[dict[str, Any], InteractionRecord]:
        iid = self.next_id()
        token = f"itoken-{iid}"
        record = InteractionRecord(iid, token, user, channel_id, created=time.monotonic(), created_fake=self.now())
        self.interactions[iid] = record
        self.by_token[token] = record
        if self.channels[channel_id] == 1:
            return self._direct_interaction(user, channel_id, type_, iid, token), record
        guild_id = self.channel_guild[channel_id]
        channel: dict[str, Any] = {
            "id": str(channel_id),
            "type": self.channels[channel_id],
            "guild_id": str(guild_id),
            "name": f"table-{channel_id % 1000}",
            "permissions": "2248473465835073",
            "flags": 0,
            "position": 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": type_,
            "token": token,
            "version": 1,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {
                "user": user.payload(),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "nick": None,
                "avatar": None,
                "permissions": str(MEMBER_PERMISSIONS | (MANAGE_GUILD if user.manager else 0)),
            },
            "locale": user.locale,
            "guild_locale": self.guild_locale,
            "app_permissions": "2248473465835073",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 10485760,
        }
        if self.channels[channel_id] == 11:
            channel["parent_id"] = str(self.parents[channel_id])
            channel["owner_id"] = str(user.id)
            channel["message_count"] = 1
            channel["member_count"] = 1
            channel["total_message_sent"] = 1
            channel["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
            }
        return payload, record

    def _direct_interaction(self, user: FakeUser, channel_id: int, type_: int, iid: int, token: str) -> dict[str, Any]:
        """An interaction in a direct message, as Discord sends it: ``user`` instead of ``member``, no server, the
        bot-DM context (1)."""
        if self.dm_user[channel_id] != user.id:
            raise AssertionError("a user wrote in someone else's direct messages")
        return {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": type_,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 1, "flags": 0, "last_message_id": None,
                        "recipients": [user.payload()]},
            "user": user.payload(),
            "locale": user.locale,
            "app_permissions": "2248473465835073",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 1,
            "attachment_size_limit": 10485760,
        }

    async def command(
        self, user: FakeUser, channel_id: int, name: str, sub: str | None = None, **options: Any
    ) -> InteractionRecord:
        """A slash command, as ``/name sub option:value``; returns once the bot acknowledged it."""
        payload, record = self._interaction_base(user, channel_id, 2)
        opts = [{"name": k, "type": _option_type(v), "value": str(v.id) if isinstance(v, Upload) else v}
                for k, v in options.items()]
        known = next((c for c in self.commands if c["name"] == name), None)
        data: dict[str, Any] = {
            "id": known["id"] if known else str(self.next_id()),
            "name": name,
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}] if sub else opts,
        }
        uploads = [v for v in options.values() if isinstance(v, Upload)]
        if uploads:
            data["resolved"] = {"attachments": {str(u.id): u.payload(self.base, channel_id) for u in uploads}}
        payload["data"] = data
        payload["attachment_size_limit"] = self.attachment_size_limit
        await self.dispatch("INTERACTION_CREATE", payload)
        await self._wait_ack(record)
        return record

    async def press(
        self, user: FakeUser, message_id: int, custom_id: str, *, seen: dict[str, Any] | None = None
    ) -> InteractionRecord:
        """A press on a button of a message as the user sees it; returns once the bot acknowledged it.

        ``seen``: an older state of the message that the user's client still shows (a stale or replayed press).
        """
        message = seen if seen is not None else self.messages[message_id]
        owner = self.ephemeral_owner.get(message_id)
        if owner is not None and owner != user.id:
            raise AssertionError("a user pressed a button on someone else's ephemeral message")
        if custom_id not in set(button_ids(message)):
            raise AssertionError(f"no button {custom_id!r} on message {message_id}")
        payload, record = self._interaction_base(user, int(message["channel_id"]), 3)
        record.message_id = message_id
        payload["message"] = json.loads(json.dumps(message))
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        await self.dispatch("INTERACTION_CREATE", payload)
        await self._wait_ack(record)
        return record

    async def submit(
        self, user: FakeUser, channel_id: int, custom_id: str, values: dict[str, str]
    ) -> InteractionRecord:
        """A modal submitted with text inputs ``values`` (custom_id -> text)."""
        payload, record = self._interaction_base(user, channel_id, 5)
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        payload["data"] = {"custom_id": custom_id, "components": rows}
        await self.dispatch("INTERACTION_CREATE", payload)
        await self._wait_ack(record)
        return record

    async def _wait_ack(self, record: InteractionRecord) -> None:
        try:
            await asyncio.wait_for(record.acked.wait(), ACK_WINDOW + 2)
        except TimeoutError:
            raise AssertionError(f"the bot never acknowledged interaction {record.id}") from None
        if record.response_type == DEFERRED_CHANNEL_MESSAGE and record.original_id is not None:
            # A busy loop makes the bot defer ("thinking…") and answer a moment later: the person sees the answer
            # once it fills the placeholder, and so does the test (reading the placeholder was a flake under load).
            # (Or the bot deletes the placeholder and answers privately.)
            mid, placeholder = record.original_id, self.messages[record.original_id]
            await wait_until(lambda: not placeholder["flags"] & 128 or mid in self.deleted,
                             what=f"the answer to interaction {record.id}")  # fmt: skip

    # --- what users see --------------------------------------------------------------------------------------

    def public(self, channel_id: int) -> list[dict[str, Any]]:
        return [
            m
            for mid, m in self.messages.items()
            if int(m["channel_id"]) == channel_id and mid not in self.ephemeral_owner
        ]

    def ephemeral(self, user: FakeUser) -> list[dict[str, Any]]:
        return [self.messages[mid] for mid, uid in self.ephemeral_owner.items() if uid == user.id]

    def reply(self, record: InteractionRecord) -> dict[str, Any]:
        """The message an interaction's response created or edited."""
        if record.original_id is None:
            raise AssertionError(f"interaction {record.id} has no response message")
        if record.original_id in self.deleted and record.followup_ids:
            return self.messages[record.followup_ids[0]]  # deferred in public, then answered privately
        return self.messages[record.original_id]

    def private_messages(self, record: InteractionRecord) -> list[dict[str, Any]]:
        """Every message an interaction showed its user alone (its answer, its follow-ups), still there."""
        ids = [record.original_id, *record.followup_ids]
        return [self.messages[m] for m in ids if m is not None and m in self.messages
                and self.ephemeral_owner.get(m) == record.user.id]  # fmt: skip

    def private_reply(self, record: InteractionRecord) -> int:
        """The ephemeral message an interaction gave its user: the answer itself, or (after a deferred update of a
        public message) the first follow-up."""
        for mid in [record.original_id, *record.followup_ids]:
            if mid is not None and self.ephemeral_owner.get(mid) == record.user.id:
                return mid
        raise AssertionError(f"interaction {record.id} gave its user no private message")

    # --- REST ------------------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"]
        body: Any = None
        if request.can_read_body:
            raw = await request.read()
            if raw:
                body = json.loads(raw)
        self.requests.append(Request(request.method, "/" + tail, body, time.monotonic()))
        parts = tail.split("/")
        kind = f"{request.method} {parts[0]}"
        if self.rate_limited.get(kind):
            self.rate_limited[kind] -= 1
            # As Discord answers past a bucket's limit (discord.py trusts a 429 only with Cloudflare's Via header).
            limited = {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": False}
            response = _json(limited, 429)
            response.headers.update({"Via": "1.1 google", "Retry-After": str(self.retry_after),
                                     "X-RateLimit-Scope": "user"})
            return response
        self.in_flight[kind] = self.in_flight.get(kind, 0) + 1
        self.most_in_flight[kind] = max(self.most_in_flight.get(kind, 0), self.in_flight[kind])
        try:
            delay = self.slow.get(kind)
            if delay:
                await asyncio.sleep(delay)  # a slow request: others sent after it may be handled first
        finally:
            self.in_flight[kind] -= 1
        auth = request.headers.get("Authorization")
        if auth is not None and auth != f"Bot {self.token}" and parts[0] not in ("interactions", "webhooks"):
            return DiscordError(401, 0, "401: Unauthorized").response()
        try:
            result = self._route(request.method, parts, body)
        except DiscordError as exc:
            self.errors.append(exc)
            return exc.response()
        if result is None:
            return web.Response(status=204)
        return _json(result)

    def _route(self, method: str, parts: list[str], body: Any) -> Any:
        match method, parts:
            case "GET", ["gateway", "bot"]:
                limit = {"total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}
                return {"url": self.base + "/gateway", "shards": self.shard_count, "session_start_limit": limit}
            case "GET", ["users", "@me"]:
                return {**self.bot.payload(), "bot": True, "verified": True, "flags": 0, "mfa_enabled": False}
            case "GET", ["oauth2", "applications", "@me"]:
                return {
                    "id": str(self.app_id),
                    "name": "Belote",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": self.bot.payload(),
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "summary": "",
                }
            case "PUT", ["applications", _, "commands"]:
                self.commands = [{**c, "id": str(self.next_id()), "application_id": str(self.app_id)} for c in body]
                return self.commands
            case "POST", ["channels", cid, "messages"]:
                return self._create(int(cid), body)
            case "PATCH", ["channels", cid, "messages", mid]:
                return self._edit(int(mid), body, channel_id=int(cid))
            case "DELETE", ["channels", cid, "messages", mid]:
                message = self.messages.get(int(mid))
                if message is None or int(message["channel_id"]) != int(cid) or int(mid) in self.ephemeral_owner:
                    raise DiscordError(404, 10008, "Unknown Message")
                del self.messages[int(mid)]
                self.deleted.add(int(mid))
                return None
            case "GET", ["channels", cid, "messages", mid]:
                message = self.messages.get(int(mid))
                if message is None or int(message["channel_id"]) != int(cid):
                    raise DiscordError(404, 10008, "Unknown Message")
                return message
            case "POST", ["interactions", iid, token, "callback"]:
                return self._callback(int(iid), token, body)
            case "PATCH", ["webhooks", _, token, "messages", target]:
                record = self._live(token)
                mid = record.original_id if target == "@original" else int(target)
                if mid is None:
                    raise DiscordError(404, 10008, "Unknown Message")
                return self._edit(mid, body)
            case "DELETE", ["webhooks", _, token, "messages", target]:
                record = self._live(token)
                mid = record.original_id if target == "@original" else int(target)
                if mid is None or mid not in self.messages:
                    raise DiscordError(404, 10008, "Unknown Message")
                del self.messages[mid]
                self.ephemeral_owner.pop(mid, None)
                self.deleted.add(mid)
                return None
            case "POST", ["webhooks", _, token]:
                record = self._live(token)
                loading = self.messages.get(record.original_id) if record.original_id is not None else None
                if record.response_type == DEFERRED_CHANNEL_MESSAGE and loading is not None and loading["flags"] & 128:
                    # As Discord does: the first follow-up after a deferral ("thinking…") is that message, filled in.
                    message = self._edit(int(loading["id"]), body)
                else:
                    message = self._create(record.channel_id, body, owner=record.user if _ephemeral(body) else None)
                record.followup_ids.append(int(message["id"]))
                return message
        raise DiscordError(404, 0, f"the fake does not serve {method} /{'/'.join(parts)}")

    def _live(self, token: str) -> InteractionRecord:
        record = self.by_token.get(token)
        if record is None or self.now() - record.created_fake > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return record

    def _callback(self, iid: int, token: str, body: dict[str, Any]) -> dict[str, Any]:
        record = self.interactions.get(iid)
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        delay = time.monotonic() - record.created
        if delay > ACK_WINDOW:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = body["type"]
        data = body.get("data") or {}
        message: dict[str, Any] | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._create(record.channel_id, data, owner=record.user if _ephemeral(data) else None)
            record.original_id = int(message["id"])
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            placeholder = {"content": "", "flags": (data.get("flags") or 0) | 128}
            owner = record.user if _ephemeral(data) else None
            message = self._create(record.channel_id, placeholder, owner=owner)
            record.original_id = int(message["id"])
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if record.message_id is None:
                raise invalid_form("type", "only a component interaction can update its message")
            record.original_id = record.message_id
            if kind == UPDATE_MESSAGE:
                message = self._edit(record.message_id, data)
        elif kind == MODAL:
            _check_modal(data)
            record.modal = data
        else:
            raise invalid_form("type", f"unsupported callback type {kind}")
        record.response_type = kind
        record.ack_delay = delay
        record.acked.set()
        result: dict[str, Any] = {"interaction": {"id": str(iid), "type": 2 if record.message_id is None else 3}}
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["interaction"]["response_message_ephemeral"] = bool(message["flags"] & EPHEMERAL)
            result["resource"] = {"type": kind, "message": message}
        else:
            result["resource"] = {"type": kind}
        return result

    # --- messages --------------------------------------------------------------------------------------------

    def _create(self, channel_id: int, body: dict[str, Any], owner: FakeUser | None = None) -> dict[str, Any]:
        if channel_id not in self.channels:
            raise DiscordError(404, 10003, "Unknown Channel")
        _check_message(body)
        mid = self.next_id()
        message = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": {**self.bot.payload(), "bot": True},
            "content": body.get("content") or "",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": (body.get("flags") or 0) | (EPHEMERAL if owner else 0),
            "application_id": str(self.app_id),
        }
        if owner is None and channel_id in self.channel_guild:  # a direct message has no server
            message["guild_id"] = str(self.channel_guild[channel_id])
        self.messages[mid] = message
        self.history.append((mid, json.loads(json.dumps(message))))
        if owner is not None:
            self.ephemeral_owner[mid] = owner.id
        return message

    def _edit(self, mid: int, body: dict[str, Any], channel_id: int | None = None) -> dict[str, Any]:
        message = self.messages.get(mid)
        if message is None or (channel_id is not None and int(message["channel_id"]) != channel_id):
            raise DiscordError(404, 10008, "Unknown Message")
        if channel_id is not None and mid in self.ephemeral_owner:
            raise DiscordError(404, 10008, "Unknown Message")  # ephemeral messages exist only for webhooks
        _check_message(body)
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        message["flags"] &= ~128  # a deferred "thinking" message is filled in
        message["edited_timestamp"] = "2026-01-01T00:00:01+00:00"
        self.history.append((mid, json.loads(json.dumps(message))))
        return message


def _json(body: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only when the content type is exactly "application/json", as Discord sends.
    return web.Response(body=json.dumps(body).encode(), status=status, headers={"Content-Type": "application/json"})


def _ephemeral(body: dict[str, Any]) -> bool:
    return bool((body.get("flags") or 0) & EPHEMERAL)


def _option_type(value: Any) -> int:
    if isinstance(value, Upload):
        return 11
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


def button_ids(message: dict[str, Any]) -> Iterator[str]:
    for row in message.get("components") or []:
        for item in row.get("components", []):
            if item.get("type") == 2 and "custom_id" in item:
                yield item["custom_id"]


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message.get("components") or [] for b in row.get("components", []) if b.get("type") == 2]


def message_text(message: dict[str, Any]) -> str:
    """Everything a user reads on a message: content, embeds and button labels."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for f in embed.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
        parts.append((embed.get("author") or {}).get("name") or "")
    parts += [b.get("label") or "" for b in buttons(message)]
    return "\n".join(parts)


def _check_message(body: dict[str, Any]) -> None:
    content = body.get("content") or ""
    if len(content) > 2000:
        raise invalid_form("content", "Must be 2000 or fewer in length.")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        raise invalid_form("embeds", "Must be 10 or fewer in length.")
    for i, e in enumerate(embeds):
        total = 0
        for key, limit in (("title", 256), ("description", 4096)):
            value = e.get(key) or ""
            total += len(value)
            if len(value) > limit:
                raise invalid_form(f"embeds.{i}.{key}", f"Must be {limit} or fewer in length.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            if not f.get("name") or not f.get("value"):
                raise invalid_form(f"embeds.{i}.fields.{j}", "This field is required")
            if len(f["name"]) > 256 or len(f["value"]) > 1024:
                raise invalid_form(f"embeds.{i}.fields.{j}", "Field too long.")
            total += len(f["name"]) + len(f["value"])
        total += len((e.get("footer") or {}).get("text") or "")
        if total > 6000:
            raise invalid_form(f"embeds.{i}", "Embed size exceeds maximum size of 6000")
    rows = body.get("components") or []
    if len(rows) > 5:
        raise invalid_form("components", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            raise invalid_form(f"components.{r}", "An action row holds 1 to 5 buttons.")
        for b, item in enumerate(items):
            where = f"components.{r}.components.{b}"
            label = item.get("label") or ""
            if len(label) > 80:
                raise invalid_form(f"{where}.label", "Must be 80 or fewer in length.")
            if not label and not item.get("emoji"):
                raise invalid_form(where, "A button needs a label or an emoji.")
            cid = item.get("custom_id")
            if item.get("style") == 5:
                continue
            if not cid or len(cid) > 100:
                raise invalid_form(f"{where}.custom_id", "Must be between 1 and 100 in length.")
            if cid in seen:
                raise invalid_form(f"{where}.custom_id", "Component custom id cannot be duplicated")
            seen.add(cid)


def _check_modal(data: dict[str, Any]) -> None:
    if not data.get("custom_id") or len(data["custom_id"]) > 100:
        raise invalid_form("data.custom_id", "Must be between 1 and 100 in length.")
    if not data.get("title") or len(data["title"]) > 45:
        raise invalid_form("data.title", "Must be between 1 and 45 in length.")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        raise invalid_form("data.components", "A modal holds 1 to 5 rows.")


async def wait_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``condition`` until it holds; the bot works in its own tasks, so tests wait for what they expect."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
