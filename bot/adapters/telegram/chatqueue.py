"""One chat's queue in the outbox: what waits (the table's messages before replies to commands), how a new post
merges into it, and the chat's budget, with the chat's request times kept in storage so that the next process (even
after a kill) counts them."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field

from .flood import Budget
from .posts import MessageRefs, Post


@dataclass
class ChatQueue:
    posts: deque[Post] = field(default_factory=deque)
    busy: Post | None = None  # the post whose request is in flight (never merged into)
    budget: Budget = field(default_factory=Budget)
    group_budget: Budget = field(default_factory=Budget)
    last_edit: float = float("-inf")  # when a group's message was last edited (monotonic)
    spent: deque[float] = field(default_factory=deque)  # the chat's answer times (wall clock), as stored
    loaded: bool = False  # the stored request times were read
    attempt: float | None = None  # the stored answer time of the latest request
    paused_until: float = 0.0
    worker: asyncio.Task[None] | None = None
    empty: asyncio.Event = field(default_factory=asyncio.Event)

    def next_post(self) -> Post | None:
        """The post to send next: the table's messages first, then replies to commands, each in order."""
        return next((p for p in self.posts if not p.is_reply), self.posts[0] if self.posts else None)

    def idle_since(self) -> float:
        return max(self.budget.last(), self.group_budget.last(), self.paused_until)

    def merge(self, post: Post) -> bool:
        """A waiting post with the post's key takes its content (the newest state wins); False when none waits."""
        for waiting in self.posts:
            if waiting.key == post.key and waiting is not self.busy:
                waiting.text, waiting.markup = post.text, post.markup
                waiting.fresh = waiting.fresh or post.fresh
                waiting.restated = waiting.restated and post.restated
                waiting.thread_id = post.thread_id
                return True
        return False

    def make_room_for_reply(self, post: Post, limit: int) -> tuple[int, int]:
        """Before a new reply is queued: a waiting reply saying the same is dropped (the new one answers the latest
        command), and the oldest replies beyond ``limit`` go. (How many of each were dropped.)"""
        same = [
            p
            for p in self.posts
            if p.is_reply and p is not self.busy and (p.text, p.markup, p.thread_id) == (post.text, post.markup,
                                                                                           post.thread_id)
        ]
        for old in same:
            self.posts.remove(old)
        replies = [p for p in self.posts if p.is_reply and p is not self.busy]
        over = replies[: max(0, len(replies) - limit + 1)]
        for old in over:
            self.posts.remove(old)
        return len(same), len(over)

    def superseded(self, post: Post) -> bool:
        """A newer version of the post waits behind it (the same key, or the same reply)."""
        for waiting in self.posts:
            if waiting is post:
                continue
            if post.key is not None and waiting.key == post.key:
                return True
            if post.is_reply and waiting.is_reply and (waiting.text, waiting.markup) == (post.text, post.markup):
                return True
        return False

    # --- a chat's spent requests, across processes ---

    async def load_spent(self, chat_id: int, refs: MessageRefs, window: float) -> None:
        """A chat's requests made by an earlier process (or before its queue was forgotten) count against it. A
        request that process had in flight when it died reached Telegram before now, if at all: it counts as now."""
        if self.loaded:
            return
        self.loaded = True
        wall, now = time.time(), time.monotonic()
        answered, asking = await refs.load_spent(chat_id)
        stamps = [t for t in answered if 0 <= wall - t < window]
        if asking is not None and 0 <= wall - asking < window:
            stamps.append(wall)
        known = set(self.spent)
        for stamp in sorted(stamps):
            if stamp not in known:
                self.spent.append(stamp)
                self.budget.spend(now - (wall - stamp))
                if chat_id < 0:
                    self.group_budget.spend(now - (wall - stamp))
        self.spent = deque(sorted(self.spent))
        self.budget.stamps = deque(sorted(self.budget.stamps))
        self.group_budget.stamps = deque(sorted(self.group_budget.stamps))

    async def spending(self, chat_id: int, refs: MessageRefs, window: float) -> None:
        """About to send or edit: store that a request is in flight first, so that a process that follows (even
        after a kill during this request) counts it."""
        wall = time.time()
        while self.spent and self.spent[0] <= wall - window:
            self.spent.popleft()
        self.attempt = None
        await refs.save_spent(chat_id, list(self.spent), wall)

    async def answered(self, chat_id: int, refs: MessageRefs) -> None:
        """Telegram answered the request: store when. Telegram counted it at some moment between the request and
        the answer (later than the request when it travels slowly), so only the answer's time is safe for the
        next process to count from."""
        wall = time.time()
        self.spent.append(wall)
        self.attempt = wall
        await refs.save_spent(chat_id, list(self.spent), None)

    async def not_spent(self, chat_id: int, refs: MessageRefs) -> None:
        """Telegram answered the last request with a server error: it did not count, nor shall the next process."""
        if self.attempt is not None and self.attempt in self.spent:
            self.spent.remove(self.attempt)
            self.attempt = None
            await refs.save_spent(chat_id, list(self.spent), None)


def priority(chat_id: int, post: Post) -> int:
    """Who goes first when the bot as a whole is at its limit: what a person needs to act (their private hand,
    their turn) before new group messages (results), and those before edits of a group's table, which lose
    nothing by waiting (a newer state replaces them while they wait)."""
    if chat_id > 0:
        return 0
    return 2 if post.key is not None and not post.fresh else 1
