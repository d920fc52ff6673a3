"""Delivery of messages to Telegram chats within the flood limits, in order, newest state winning.

Every message for a chat goes through that chat's queue, worked by one task at a time, so a chat sees its messages
in the order the core produced them. A keyed message that is still waiting when a newer version of it arrives is
replaced in place (the newest state wins, and the edit it saves is not spent). Before each request the queue waits
until the chat's budget allows it (about one message a second per chat, twenty a minute per group, edits
included); a ``RetryAfter`` pauses the chat and retries the same message, so nothing is lost or reordered. A group
upgraded to a supergroup has a new chat id: its queue, and every later post for the old id, goes to the new one.

The budget is counted from the moment each request was answered, which is never earlier than Telegram received it,
so the pacing holds on Telegram's side too.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

from telegram import Bot, InlineKeyboardMarkup, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut

log = logging.getLogger(__name__)
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


@dataclass(frozen=True)
class FloodPolicy:
    """How many messages a chat may receive in a window of seconds. Telegram asks for about one a second in a
    chat (short bursts are tolerated) and at most twenty a minute in a group; edits count."""

    chat_messages: int = 3
    chat_window: float = 3.0
    group_messages: int = 20
    group_window: float = 60.0
    # Over all chats together (python-telegram-bot's AIORateLimiter keeps to it).
    overall_messages: int = 30
    overall_window: float = 1.0
    # Network errors (not flood errors) are retried this many times before the message is given up.
    network_retries: int = 5

    def scaled(self, factor: float) -> FloodPolicy:
        """The same shape with every window multiplied by ``factor`` (tests run faster with a small one)."""
        return FloodPolicy(
            self.chat_messages,
            self.chat_window * factor,
            self.group_messages,
            self.group_window * factor,
            self.overall_messages,
            self.overall_window * factor,
            self.network_retries,
        )


@dataclass
class Post:
    """A message to put in a chat. With a ``key`` it is created once and then edited in place; ``fresh`` asks for a
    new message even if one with that key exists (the old one is deleted first), so Telegram notifies."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    key: str | None = None
    thread_id: int | None = None
    fresh: bool = False
    reply_to: int | None = None
    table_id: str = ""  # the table it is about ("" for none)
    who: str = ""  # the person a private post is for (to name them if their chat refuses the bot)


def post_to_json(post: Post) -> dict[str, Any]:
    data = {f.name: getattr(post, f.name) for f in dataclasses.fields(post)}
    data["markup"] = post.markup.to_dict() if post.markup is not None else None
    return data


def post_from_json(data: dict[str, Any]) -> Post:
    fields = dict(data)
    markup = fields.pop("markup", None)
    return Post(**fields, markup=InlineKeyboardMarkup.de_json(markup, None) if markup else None)


class MessageRefs(Protocol):
    """Where the Telegram message behind each key is remembered (storage, so that edits survive restarts)."""

    async def get(self, key: str) -> tuple[int, int] | None:
        """(chat id, message id) of the message with this key, if it was sent."""
        ...

    async def set(self, key: str, ref: tuple[int, int] | None) -> None: ...


class MemoryRefs:
    def __init__(self) -> None:
        self.refs: dict[str, tuple[int, int]] = {}

    async def get(self, key: str) -> tuple[int, int] | None:
        return self.refs.get(key)

    async def set(self, key: str, ref: tuple[int, int] | None) -> None:
        if ref is None:
            self.refs.pop(key, None)
        else:
            self.refs[key] = ref


# Called when a private chat refuses the bot (the user never opened it, or blocked it): (chat id, the post).
ForbiddenHandler = Callable[[int, Post], Awaitable[None]]
# Called when Telegram says a group became a supergroup with a new id: (old chat id, new chat id).
MigratedHandler = Callable[[int, int], Awaitable[None]]


def retry_seconds(err: RetryAfter) -> float:
    # PTB 22 warns on the public ``retry_after`` while it moves from seconds to a timedelta; read the value under
    # it (as PTB's own rate limiter does), and the public one if that ever goes away.
    value = getattr(err, "_retry_after", None)
    if value is None:
        value = err.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


@dataclass
class _Budget:
    """Answer times of the latest requests to one chat (a sliding window)."""

    stamps: deque[float] = field(default_factory=deque)

    def wait(self, now: float, count: int, window: float) -> float:
        while self.stamps and self.stamps[0] <= now - window:
            self.stamps.popleft()
        if len(self.stamps) < count:
            return 0.0
        return self.stamps[len(self.stamps) - count] + window - now


@dataclass
class _ChatQueue:
    posts: deque[Post] = field(default_factory=deque)
    busy: Post | None = None  # the post whose request is in flight (never merged into)
    budget: _Budget = field(default_factory=_Budget)
    group_budget: _Budget = field(default_factory=_Budget)
    paused_until: float = 0.0
    worker: asyncio.Task[None] | None = None
    empty: asyncio.Event = field(default_factory=asyncio.Event)


def _priority(chat_id: int, post: Post) -> int:
    """Who goes first when the bot as a whole is at its limit: what a person needs to act (their private hand,
    their turn) before new group messages (results), and those before edits of a group's table, which lose
    nothing by waiting (a newer state replaces them while they wait)."""
    if chat_id > 0:
        return 0
    return 2 if post.key is not None and not post.fresh else 1


class _Gate:
    """The bot's overall budget (messages in any window, over every chat), granted by priority, then in order;
    every ``fair_every``-th grant goes to the longest waiter whatever its priority, so no chat starves."""

    def __init__(self, count: int, window: float, fair_every: int = 4) -> None:
        self.count = count
        self.window = window
        self.fair_every = fair_every
        self._granted = 0
        self._stamps: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._granter: asyncio.Task[None] | None = None

    async def acquire(self, priority: int) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._granter is None or self._granter.done():
            self._granter = asyncio.create_task(self._grant(), name="outbox gate")
        await future

    async def _grant(self) -> None:
        while self._waiting:
            now = time.monotonic()
            while self._stamps and self._stamps[0] <= now - self.window:
                self._stamps.popleft()
            if len(self._stamps) >= self.count:
                await asyncio.sleep(self._stamps[0] + self.window - now)
                continue
            self._granted += 1
            if self._granted % self.fair_every == 0:
                oldest = min(range(len(self._waiting)), key=lambda i: self._waiting[i][1])
                _, _, future = self._waiting.pop(oldest)
                heapq.heapify(self._waiting)
            else:
                _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its worker was cancelled
                continue
            self._stamps.append(now)
            future.set_result(None)
            await asyncio.sleep(0)

    def close(self) -> None:
        if self._granter is not None:
            self._granter.cancel()


@dataclass
class OutboxStats:
    sent: int = 0
    edited: int = 0
    coalesced: int = 0
    retried_after: int = 0
    failed: int = 0


class Outbox:
    def __init__(
        self,
        bot: Bot,
        refs: MessageRefs | None = None,
        policy: FloodPolicy | None = None,
        on_forbidden: ForbiddenHandler | None = None,
        start_open: bool = True,
        on_migrated: MigratedHandler | None = None,
    ) -> None:
        self.bot = bot
        self.refs: MessageRefs = refs or MemoryRefs()
        self.policy = policy or FloodPolicy()
        self.on_forbidden = on_forbidden
        self.on_migrated = on_migrated
        # Old chat id -> new one, for groups upgraded to supergroups: posts for the old id go to the new one.
        self._moved: dict[int, int] = {}
        self.stats = OutboxStats()
        self._gate = _Gate(self.policy.overall_messages, self.policy.overall_window)
        self._chats: dict[int, _ChatQueue] = {}
        # Posts may be queued before the bot is connected (a restart re-renders every table at once); they wait.
        self._open = asyncio.Event()
        if start_open:
            self._open.set()

    def open(self) -> None:
        """The bot is connected: start delivering (posts queued so far go first, in order)."""
        self._open.set()

    # --- the producer side ---

    def put(self, post: Post) -> None:
        """Queue a post for its chat (never blocks). A waiting post with the same key takes the new content."""
        self._redirect(post)
        queue = self._chats.setdefault(post.chat_id, _ChatQueue())
        if post.key is not None:
            for waiting in queue.posts:
                if waiting.key == post.key and waiting is not queue.busy:
                    waiting.text, waiting.markup = post.text, post.markup
                    waiting.fresh = waiting.fresh or post.fresh
                    waiting.thread_id = post.thread_id
                    self.stats.coalesced += 1
                    return
        queue.posts.append(post)
        queue.empty.clear()
        if queue.worker is None or queue.worker.done():
            queue.worker = asyncio.create_task(self._work(post.chat_id, queue), name=f"outbox {post.chat_id}")

    async def drain(self, private_only: bool = False) -> None:
        """Wait until every queued post was delivered (or given up); with ``private_only``, only the posts to
        private chats (people's hands), not to groups."""
        while True:
            waiting = [q.empty for chat_id, q in self._chats.items() if q.posts and not (private_only and chat_id < 0)]
            if not waiting:
                return
            await asyncio.gather(*(e.wait() for e in waiting))

    def unsent(self) -> list[Post]:
        """Every post not delivered yet, chat by chat in order (to keep them across a restart)."""
        return [post for queue in self._chats.values() for post in queue.posts]

    def restore(self, posts: list[Post]) -> None:
        """Put back posts left unsent by the previous run, before anything queued since (they are older). A key
        already waiting keeps its newer content."""
        by_chat: dict[int, list[Post]] = {}
        for post in posts:
            self._redirect(post)
            by_chat.setdefault(post.chat_id, []).append(post)
        for chat_id, older in by_chat.items():
            self._put_first(chat_id, older)

    def _put_first(self, chat_id: int, older: list[Post]) -> None:
        """Put posts older than everything queued for the chat at the head of its queue, in their order; a key
        already waiting keeps its newer content."""
        queue = self._chats.setdefault(chat_id, _ChatQueue())
        waiting = {p.key for p in queue.posts if p.key is not None}
        queue.posts.extendleft(reversed([p for p in older if p.key is None or p.key not in waiting]))
        if queue.posts:
            queue.empty.clear()
            if queue.worker is None or queue.worker.done():
                queue.worker = asyncio.create_task(self._work(chat_id, queue), name=f"outbox {chat_id}")

    # --- groups upgraded to supergroups ---

    def moved_to(self, chat_id: int) -> int:
        """The chat's current id: the new one if the group was upgraded (after every upgrade, if more than one)."""
        seen = {chat_id}
        while chat_id in self._moved and self._moved[chat_id] not in seen:
            chat_id = self._moved[chat_id]
            seen.add(chat_id)
        return chat_id

    def move_chat(self, old_id: int, new_id: int) -> bool:
        """The group ``old_id`` is now ``new_id``: what waits for it goes there, ahead of what the new chat already
        has waiting (it is older), and so does every later post for the old id. False when this was known."""
        if old_id == new_id or self._moved.get(old_id) == new_id:
            return False
        self._moved[old_id] = new_id
        queue = self._chats.get(old_id)
        if queue is not None:
            # The post in flight stays: its request ends in the old chat, and its own handling moves it if need be.
            moving = [p for p in queue.posts if p is not queue.busy]
            queue.posts.clear()
            if queue.busy is not None:
                queue.posts.append(queue.busy)
            else:
                queue.empty.set()
            for post in moving:
                self._redirect(post)
            self._put_first(self.moved_to(new_id), moving)
        return True

    def _redirect(self, post: Post) -> None:
        new_id = self.moved_to(post.chat_id)
        if new_id != post.chat_id:
            post.chat_id = new_id
            post.reply_to = None  # a message id of the old chat means nothing in the new one

    def pending(self) -> int:
        return sum(len(q.posts) for q in self._chats.values())

    async def close(self) -> None:
        """Stop the workers; what is still queued is not sent (call ``drain`` first to deliver it)."""
        workers = [q.worker for q in self._chats.values() if q.worker is not None and not q.worker.done()]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._gate.close()

    # --- the worker side ---

    async def _work(self, chat_id: int, queue: _ChatQueue) -> None:
        try:
            await self._open.wait()
            while queue.posts:
                await self._wait_budget(chat_id, queue)
                if not queue.posts:
                    break  # moved to another chat while it waited
                head = queue.posts[0]
                await self._gate.acquire(_priority(chat_id, head))
                if not queue.posts:
                    break
                post = queue.posts[0]
                queue.busy = post
                try:
                    done = await self._deliver(post, queue)
                finally:
                    queue.busy = None
                if done:
                    # By identity: an equal post may wait behind it.
                    for i, waiting in enumerate(queue.posts):
                        if waiting is post:
                            del queue.posts[i]
                            break
        finally:
            if not queue.posts:
                queue.empty.set()

    async def _wait_budget(self, chat_id: int, queue: _ChatQueue) -> None:
        p = self.policy
        while True:
            now = time.monotonic()
            delay = max(queue.paused_until - now, queue.budget.wait(now, p.chat_messages, p.chat_window))
            if chat_id < 0:
                delay = max(delay, queue.group_budget.wait(now, p.group_messages, p.group_window))
            if delay <= 0:
                return
            await asyncio.sleep(delay)

    def _spent(self, chat_id: int, queue: _ChatQueue) -> None:
        now = time.monotonic()
        queue.budget.stamps.append(now)
        if chat_id < 0:
            queue.group_budget.stamps.append(now)

    async def _deliver(self, post: Post, queue: _ChatQueue) -> bool:
        """One attempt at the head post; False means "try it again" (after a pause)."""
        network_failures = 0
        while True:
            try:
                return await self._request(post, queue)
            except RetryAfter as err:
                # The chat (or the bot) is over its limit: pause this chat and send the same post again.
                self.stats.retried_after += 1
                queue.paused_until = time.monotonic() + retry_seconds(err)
                log.info("chat %s: flood limit, retrying after %.1fs", post.chat_id, retry_seconds(err))
                return False
            except ChatMigrated as err:
                # The group became a supergroup: this post, what waits behind it and the group's tables go there.
                old_id, new_id = post.chat_id, int(err.new_chat_id)
                log.info("chat %s is now the supergroup %s: its messages follow", old_id, new_id)
                self.move_chat(old_id, new_id)
                moved = dataclasses.replace(post)
                self._redirect(moved)
                self._put_first(moved.chat_id, [moved])
                if self.on_migrated is not None:
                    await self.on_migrated(old_id, new_id)
                return True
            except Forbidden as err:
                self.stats.failed += 1
                log.info("chat %s refuses the bot: %s", post.chat_id, err.message)
                if self.on_forbidden is not None:
                    await self.on_forbidden(post.chat_id, post)
                return True
            except BadRequest as err:
                self.stats.failed += 1
                log.warning("chat %s: Telegram refused a message: %s", post.chat_id, err.message)
                return True
            except (TimedOut, NetworkError) as err:
                network_failures += 1
                if network_failures > self.policy.network_retries:
                    self.stats.failed += 1
                    log.warning("chat %s: giving up a message after network errors: %s", post.chat_id, err)
                    return True
                await asyncio.sleep(min(0.2 * 2**network_failures, 5.0))
            except TelegramError as err:
                self.stats.failed += 1
                log.warning("chat %s: Telegram refused a message: %s", post.chat_id, err.message)
                return True
            except Exception:
                # A bug must not stall the chat's queue: drop this post, keep the rest flowing.
                self.stats.failed += 1
                log.exception("chat %s: could not deliver a message", post.chat_id)
                return True

    async def _request(self, post: Post, queue: _ChatQueue) -> bool:
        """Edit the post's message, or send it; False when it must wait for the budget again first."""
        ref = await self.refs.get(post.key) if post.key is not None else None
        if ref is not None and ref[0] != post.chat_id:
            ref = None  # the key moved to another chat: start a new message there
        if ref is not None and post.fresh:
            # A notification: the old message goes, a new one comes (deleting does not count toward the limits).
            with contextlib.suppress(BadRequest):  # already gone or too old: the new message still goes out
                await self.bot.delete_message(ref[0], ref[1])
            ref = None
        if ref is not None:
            try:
                await self.bot.edit_message_text(
                    post.text,
                    chat_id=post.chat_id,
                    message_id=ref[1],
                    reply_markup=post.markup,
                    parse_mode=ParseMode.HTML,
                    link_preview_options=_NO_PREVIEW,
                )
            except BadRequest as err:
                self._spent(post.chat_id, queue)  # a refused request counts toward the limits too
                text = err.message.lower()
                if "not modified" in text:
                    return True
                if "not found" in text or "can't be edited" in text:
                    # The message is gone from the chat: forget it, and send it anew within the budget.
                    await self.refs.set(post.key or "", None)
                    return False
                raise
            self.stats.edited += 1
            self._spent(post.chat_id, queue)
            return True
        message = await self.bot.send_message(
            post.chat_id,
            post.text,
            reply_markup=post.markup,
            message_thread_id=post.thread_id,
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
            reply_parameters=(
                ReplyParameters(post.reply_to, allow_sending_without_reply=True) if post.reply_to else None
            ),
        )
        self.stats.sent += 1
        self._spent(post.chat_id, queue)
        if post.key is not None:
            await self.refs.set(post.key, (post.chat_id, message.message_id))
        return True
