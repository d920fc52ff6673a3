"""Delivery of messages to Telegram chats within the flood limits, in order, newest state winning, nothing lost.

Every message for a chat goes through that chat's queue, worked by one task at a time, so a chat sees its messages
in the order the core produced them. A keyed message that is still waiting when a newer version of it arrives is
replaced in place (the newest state wins, and the edit it saves is not spent). Before each request the queue waits
until the chat's budget allows it (about one message a second per chat, twenty a minute per group, edits
included), and a group's edits are spaced (``FloodPolicy.group_edit_gap``) so that a busy table's view is merged
into fewer edits and the group's budget lasts through a deal. A ``RetryAfter`` pauses the chat and retries the same
message; a server error or a timeout is retried until the message is delivered or a newer version of it waits
behind it. A group upgraded to a supergroup has a new chat id: its queue, and every later post for the old id,
goes to the new one.

Replies to commands (posts with ``reply_to``) wait behind the table's messages: a chat's table messages go first,
a waiting reply is dropped when a newer one says the same thing, and at most ``FloodPolicy.waiting_replies`` wait.

The budget is counted from the moment each request was answered, which is never earlier than Telegram received it,
so the pacing holds on Telegram's side too; a request that timed out counts from then (Telegram may have taken it).
Each chat's answer times are also stored (through ``MessageRefs``), and before each request that one is in flight,
so a process started after this one (even after a kill mid-request) spends only what is left of the chat's budget.
What a group's message shows (a digest of its text and buttons) is stored with its id: a message the chat shows
already is not sent again (a restart re-rendering every table spends nothing on them), and a ``restated`` post (a
finished deal's result, given again at start) is sent only when the chat lacks it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from telegram import Bot, LinkPreviewOptions, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut

from bot.ops import metrics

from .chatqueue import ChatQueue, priority
from .flood import FloodPolicy, Gate, quiet_rate_limiter_log, retry_seconds
from .posts import MemoryRefs, MessageRefs, Post, digest_of, post_from_json, post_to_json

__all__ = [
    "FloodPolicy",
    "MemoryRefs",
    "MessageRefs",
    "Outbox",
    "Post",
    "digest_of",
    "post_from_json",
    "post_to_json",
    "retry_seconds",
]

log = logging.getLogger(__name__)
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


# Called when a private chat refuses the bot (the user never opened it, or blocked it): (chat id, the post).
ForbiddenHandler = Callable[[int, Post], Awaitable[None]]
# Called when Telegram says a group became a supergroup with a new id: (old chat id, new chat id).
MigratedHandler = Callable[[int, int], Awaitable[None]]


@dataclass
class OutboxStats:
    sent: int = 0
    edited: int = 0
    coalesced: int = 0
    retried_after: int = 0
    failed: int = 0
    retried: int = 0  # attempts again after a server error or a timeout
    superseded: int = 0  # posts dropped unsent because a newer version waited behind them
    unchanged: int = 0  # posts not sent because the chat showed them already
    dropped_replies: int = 0  # replies to commands dropped from a full queue


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
        self._gate = Gate(self.policy.overall_messages, self.policy.overall_window)
        self._chats: dict[int, ChatQueue] = {}
        self._swept = time.monotonic()
        # Posts may be queued before the bot is connected (a restart re-renders every table at once); they wait.
        self._open = asyncio.Event()
        if start_open:
            self._open.set()
        quiet_rate_limiter_log()
        metrics.watch_outbox("telegram", self.pending)

    def open(self) -> None:
        """The bot is connected: start delivering (posts queued so far go first, in order)."""
        self._open.set()

    # --- the producer side ---

    def put(self, post: Post) -> None:
        """Queue a post for its chat (never blocks). A waiting post with the same key takes the new content; a
        waiting reply equal to a new one is dropped (the new one answers the latest command)."""
        self._redirect(post)
        queue = self._queue(post.chat_id)
        if post.key is not None and queue.merge(post):
            self.stats.coalesced += 1
            return
        if post.is_reply:
            superseded, dropped = queue.make_room_for_reply(post, self.policy.waiting_replies)
            self.stats.superseded += superseded
            self.stats.dropped_replies += dropped
            if dropped:
                log.info("chat %s: too many replies waiting; the oldest is dropped", post.chat_id)
        queue.posts.append(post)
        self._wake(post.chat_id, queue)

    def _queue(self, chat_id: int) -> ChatQueue:
        queue = self._chats.get(chat_id)
        if queue is None:
            self._sweep()
            queue = self._chats[chat_id] = ChatQueue()
        return queue

    def _wake(self, chat_id: int, queue: ChatQueue) -> None:
        if queue.posts:
            queue.empty.clear()
            if queue.worker is None or queue.worker.done():
                queue.worker = asyncio.create_task(self._work(chat_id, queue), name=f"outbox {chat_id}")

    def _sweep(self) -> None:
        """Forget the queues of chats that have nothing waiting and whose budget is whole again (a chat's spent
        requests are stored, and read again if it is written to later)."""
        now = time.monotonic()
        if now - self._swept < self.policy.chat_window:
            return
        self._swept = now
        horizon = now - max(self.policy.group_window, self.policy.chat_window)
        idle = [
            chat_id
            for chat_id, q in self._chats.items()
            if not q.posts and (q.worker is None or q.worker.done()) and q.idle_since() <= horizon
        ]
        for chat_id in idle:
            del self._chats[chat_id]

    def queues(self) -> int:
        """How many chats have a queue (for tests and the benchmark)."""
        return len(self._chats)

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
        queue = self._queue(chat_id)
        waiting = {p.key for p in queue.posts if p.key is not None}
        queue.posts.extendleft(reversed([p for p in older if p.key is None or p.key not in waiting]))
        self._wake(chat_id, queue)

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

    async def _work(self, chat_id: int, queue: ChatQueue) -> None:
        try:
            await self._open.wait()
            await queue.load_spent(chat_id, self.refs, self.policy.group_window)
            while queue.posts:
                head = await self._wait_budget(chat_id, queue)
                if head is None:
                    break  # moved to another chat while it waited
                await self._gate.acquire(priority(chat_id, head))
                post = queue.next_post()
                if post is None:
                    break
                if await self._delay(chat_id, queue, post) > 0:
                    continue  # a post that must wait longer came first while the gate was passed
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

    async def _wait_budget(self, chat_id: int, queue: ChatQueue) -> Post | None:
        """Wait until the chat's budget lets its next post go; that post (None when nothing waits any more)."""
        while True:
            post = queue.next_post()
            if post is None:
                return None
            delay = await self._delay(chat_id, queue, post)
            if delay <= 0:
                return post
            await asyncio.sleep(delay)

    async def _delay(self, chat_id: int, queue: ChatQueue, post: Post) -> float:
        p = self.policy
        now = time.monotonic()
        delay = max(queue.paused_until - now, queue.budget.wait(now, p.chat_messages, p.chat_window))
        if chat_id < 0:
            delay = max(delay, queue.group_budget.wait(now, p.group_messages, p.group_window))
            if post.key is not None and not post.fresh and await self.refs.get(post.key) is not None:
                delay = max(delay, queue.last_edit + p.group_edit_gap - now)  # an edit: merged into fewer
        return delay

    def _spent(self, chat_id: int, queue: ChatQueue, edit: bool = False) -> None:
        now = time.monotonic()
        queue.budget.spend(now)
        if chat_id < 0:
            queue.group_budget.spend(now)
            if edit:
                queue.last_edit = now

    async def _deliver(self, post: Post, queue: ChatQueue) -> bool:
        """One attempt at a post; False means "try it again" (after a pause)."""
        failures = 0
        while True:
            if failures and queue.superseded(post):
                self.stats.superseded += 1
                return True
            try:
                return await self._request(post, queue)
            except RetryAfter as err:
                # The chat (or the bot) is over its limit: pause this chat and send the same post again.
                self.stats.retried_after += 1
                metrics.flood_wait("telegram", retry_seconds(err))
                queue.paused_until = time.monotonic() + retry_seconds(err)
                log.warning("chat %s: Telegram's flood limit; sending again in %.0f s", post.chat_id,
                            retry_seconds(err))
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
                # Telegram's servers are in trouble (5xx) or slow: the message is still owed to the chat.
                failures += 1
                self.stats.retried += 1
                if not isinstance(err, TimedOut):  # a timed-out request may have reached the chat
                    await queue.not_spent(post.chat_id, self.refs)
                if failures == 1 or failures % 20 == 0:
                    log.warning("chat %s: Telegram did not take a message (%s); trying again", post.chat_id, err)
                pause = self.policy.retry_pause
                await asyncio.sleep(min(pause / 25 * 2**failures, pause))
            except TelegramError as err:
                self.stats.failed += 1
                log.warning("chat %s: Telegram refused a message: %s", post.chat_id, err.message)
                return True
            except Exception:
                # A bug must not stall the chat's queue: drop this post, keep the rest flowing.
                self.stats.failed += 1
                log.exception("chat %s: could not deliver a message", post.chat_id)
                return True

    async def _request(self, post: Post, queue: ChatQueue) -> bool:
        """Edit the post's message, or send it; False when it must wait for the budget again first."""
        ref = await self.refs.get(post.key) if post.key is not None else None
        if ref is not None and ref[0] != post.chat_id:
            ref = None  # the key moved to another chat: start a new message there
        digest = digest_of(post) if post.chat_id < 0 and post.key is not None else None
        if ref is not None and post.key is not None and digest is not None:
            shown = await self.refs.digest(post.key)
            # A restated post stands when the chat has it (a message kept from before digests were stored, too).
            if (shown == digest and not post.fresh) or (post.restated and shown in (None, digest)):
                self.stats.unchanged += 1
                return True
        if ref is not None and post.fresh:
            # A notification: the old message goes, a new one comes (deleting does not count toward the limits).
            with contextlib.suppress(BadRequest):  # already gone or too old: the new message still goes out
                await self.bot.delete_message(ref[0], ref[1])
            ref = None
        if ref is not None:
            try:
                async with self._asking(post, queue, edit=True):
                    await self.bot.edit_message_text(
                        post.text,
                        chat_id=post.chat_id,
                        message_id=ref[1],
                        reply_markup=post.markup,
                        parse_mode=ParseMode.HTML,
                        link_preview_options=_NO_PREVIEW,
                    )
            except BadRequest as err:
                text = err.message.lower()
                if "not modified" in text:
                    if post.key is not None and digest is not None:
                        await self.refs.set(post.key, ref, digest)
                    return True
                if "not found" in text or "can't be edited" in text:
                    # The message is gone from the chat: forget it, and send it anew within the budget.
                    await self.refs.set(post.key or "", None)
                    return False
                raise
            self.stats.edited += 1
            if post.key is not None and digest is not None:
                await self.refs.set(post.key, ref, digest)
            return True
        async with self._asking(post, queue, edit=False):
            message = await self._send(post)
        self.stats.sent += 1
        if post.key is not None:
            await self.refs.set(post.key, (post.chat_id, message.message_id), digest)
        return True

    @contextlib.asynccontextmanager
    async def _asking(self, post: Post, queue: ChatQueue, edit: bool) -> AsyncIterator[None]:
        """One request to the post's chat: stored as in flight before it goes; once it ends, counted toward the
        chat's budget, in this process first (whatever storage does next) and then in storage for the next one."""
        await queue.spending(post.chat_id, self.refs, self.policy.group_window)
        try:
            yield
        except BaseException as err:
            if counts(err):
                self._spent(post.chat_id, queue, edit)
            raise
        else:
            self._spent(post.chat_id, queue, edit)
        finally:
            await queue.answered(post.chat_id, self.refs)

    async def _send(self, post: Post) -> Message:
        return await self.bot.send_message(
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


def counts(err: BaseException) -> bool:
    """Whether a request that ended in ``err`` counts toward the chat's limits as one answered does: Telegram may
    have taken it (a timeout), or took it and refused it (a bad request, a chat that refuses the bot). A 429 and a
    server error (5xx) are answered without counting it."""
    if isinstance(err, RetryAfter):
        return False
    return not isinstance(err, NetworkError) or isinstance(err, TimedOut | BadRequest)
