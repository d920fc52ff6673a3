"""Interactions in, the core's messages out.

Every press and command is acknowledged inside Discord's 3-second window: the core gets ``ACK_BUDGET`` seconds to
answer, after which the interaction is deferred and answered when the core is done. When the event loop is behind
(``LoopLag``: a bot thinking on it, a burst of work) every step takes longer than the clock says, so the
interaction is deferred at once instead.

A person's private hand is an ephemeral message: opened by a press on the public table ("My hand"), updated by each
press on it, and updated by the core between presses while its interaction token lives (Discord allows 15 minutes;
we stop a minute early).

The core re-renders every seated person's hand after each action. A hand edit is skipped only when the message
already shows exactly that rendering (same text, same buttons, nonce included), so a skip can never leave stale
buttons. While a person's press is being answered, the core's updates of that person's hands wait in their lane:
the answer itself shows the new hand, and the waiting update then goes out only if the table has moved on since.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.config import ShardRange
from bot.core.messages import DISCORD, Answer, ChatRef, OutMessage, UserRef

from .alerts import TurnAlerts
from .lag import LoopLag, answered_within
from .outbox import Outbox
from .render import Rendered, render
from .shards import server_key
from .text import CONTENT_LIMIT, clip, locale_language, markup, tr

if TYPE_CHECKING:
    from bot.core.host import Host

    from .calculator import Calculator
    from .scan import PhotoScans

log = logging.getLogger(__name__)

ACK_BUDGET = 2.0  # seconds the core may take before we defer (Discord drops an interaction after 3)
LAG_LIMIT = 0.1  # seconds behind: beyond this the loop is lagging, and an interaction is deferred at once
HAND_LIFETIME = 14 * 60.0  # an ephemeral message can be edited for 15 minutes after its interaction
REFS_CACHED = 4096
# Channel messages in flight at once, over all tables: a restart re-renders every table together, and Discord allows
# a bot about 50 requests a second; at ~100 ms a request, 5 at a time stays below that.
CHANNEL_SENDS = 5


# What a hand message shows: the view and the note it was rendered from (rendering is a pure function of both).
Shown = tuple[OutMessage, str]


@dataclass
class HandHandle:
    """How to edit one person's ephemeral hand message: the interaction that made it, and when."""

    interaction: discord.Interaction[Any]
    opened: float
    followup_id: int | None = None  # the message was a follow-up (after a deferral), not the original response
    shown: Shown | None = None  # what the message shows; None when that is not known


class DiscordAdapter:
    def __init__(
        self,
        host: Host,
        client: discord.Client,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        ack_budget: float = ACK_BUDGET,
        shards: ShardRange | None = None,
    ) -> None:
        self.host = host
        self.shards = shards  # the Discord shards this process runs (None: all of them)
        self.client = client
        self.monotonic = monotonic
        self.ack_budget = ack_budget
        self.lag = LoopLag()  # Discord's window runs on the real clock
        self.lag_limit = LAG_LIMIT
        self.hands: dict[str, HandHandle] = {}  # OutMessage.key of a hand -> its live ephemeral message
        self._writes: dict[str, int] = {}  # hand key -> edits of its message in flight
        self._overlapped: set[str] = set()  # hand keys edited twice at once: which edit landed last is unknown
        self._answering: Counter[str] = Counter()  # user id -> their presses being answered
        self._answered = asyncio.Condition()
        self._refs: dict[str, str] = {}  # public OutMessage.key -> "channel_id/message_id"
        self._noted: set[str] = set()  # channels whose server is stored (note_server)
        self._channel_sends = asyncio.Semaphore(CHANNEL_SENDS)
        self.alerts = TurnAlerts(self, shards)
        self.outbox = Outbox(self._deliver_now, gate=self._after_answers)
        self.calculator: Calculator  # set by the client, which installs the calculator's commands
        self.scans: PhotoScans  # set by the client too: /score with a photo

    # --- who and where ---------------------------------------------------------------------------------------

    @staticmethod
    def user_ref(interaction: discord.Interaction[Any]) -> UserRef:
        user = interaction.user
        return UserRef(DISCORD, str(user.id), user.display_name, locale_language(interaction.locale))

    @staticmethod
    def chat_ref(interaction: discord.Interaction[Any]) -> ChatRef | None:
        channel = interaction.channel
        if channel is None or interaction.guild_id is None:
            return None
        title = getattr(channel, "name", None) or ""
        if isinstance(channel, discord.Thread):
            return ChatRef(DISCORD, str(channel.parent_id), str(channel.id), title=title)
        return ChatRef(DISCORD, str(channel.id), title=title)

    @staticmethod
    def server_ref(interaction: discord.Interaction[Any]) -> ChatRef | None:
        """The server as a place of its own: its language is the one its channels follow."""
        return None if interaction.guild_id is None else ChatRef(DISCORD, server_key(interaction.guild_id))

    async def note_server(self, interaction: discord.Interaction[Any]) -> None:
        """Remember which server a channel belongs to (once per channel and run), so that while the channel has
        no language of its own it speaks its server's."""
        chat, server = self.chat_ref(interaction), self.server_ref(interaction)
        if chat is None or server is None or chat.key in self._noted:
            return
        await self.host.storage.set_chat_parent(DISCORD, chat.key, server.key)
        if len(self._noted) >= REFS_CACHED:
            self._noted.clear()  # noting again costs one write
        self._noted.add(chat.key)

    # --- presses ---------------------------------------------------------------------------------------------

    async def on_press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        user = self.user_ref(interaction)
        on_hand = interaction.message is not None and interaction.message.flags.ephemeral
        self._answering[user.user_id] += 1  # the core's updates of this person's hands wait for the answer
        try:
            answer, deferred = await self._within_window(interaction, self.host.press(user, payload), ephemeral=False)
            if answer is None:
                await self._failed(interaction, deferred, user)
                return
            try:
                if on_hand:
                    await self._update_pressed_hand(interaction, answer, deferred)
                else:
                    await self._reply_privately(interaction, answer, deferred, user)
            except discord.HTTPException as exc:
                log.warning("Discord refused the answer to a press: %s", exc)
        finally:
            self._answering[user.user_id] -= 1
            if not self._answering[user.user_id]:
                del self._answering[user.user_id]
            async with self._answered:
                self._answered.notify_all()

    async def _after_answers(self, msg: OutMessage) -> None:
        """The outbox's gate: a hand update waits while its owner's press is being answered. The answer shows the
        hand as the press left it; an edit sent meanwhile would repeat it, or race it and land first or last."""
        if msg.kind != "hand" or not isinstance(msg.audience, UserRef):
            return
        user_id = msg.audience.user_id
        async with self._answered:
            await self._answered.wait_for(lambda: not self._answering[user_id])

    def _begin_write(self, key: str) -> None:
        if self._writes.get(key):
            self._overlapped.add(key)
        self._writes[key] = self._writes.get(key, 0) + 1

    def _end_write(self, key: str) -> bool:
        """True when no other write to this hand overlapped this one, so the message shows what this one sent.
        Otherwise the live handle no longer knows what is shown, and the next update is sent whatever it is."""
        certain = key not in self._overlapped
        left = self._writes[key] - 1
        if left:
            self._writes[key] = left
        else:
            del self._writes[key]
            self._overlapped.discard(key)
        if not certain and (current := self.hands.get(key)) is not None:
            current.shown = None
        return certain

    async def _update_pressed_hand(self, interaction: discord.Interaction[Any], answer: Answer, deferred: bool) -> None:
        if answer.view is None:
            # No seat any more (the table ended, or the person left): keep the last view, remove its buttons.
            note = clip(markup(answer.text), CONTENT_LIMIT) if answer.text else None
            if deferred:
                await interaction.edit_original_response(content=note, view=None)
            else:
                await interaction.response.edit_message(content=note, view=None)
            return
        key = answer.view.key
        r = render(answer.view, note=answer.text)
        self._begin_write(key)
        try:
            if deferred:
                await interaction.edit_original_response(content=r.content, embed=r.embed, view=r.view)
            else:
                await interaction.response.edit_message(content=r.content, embed=r.embed, view=r.view)
        finally:
            certain = self._end_write(key)
        shown = (answer.view, answer.text) if certain else None
        self._remember(key, HandHandle(interaction, self.monotonic(), shown=shown))

    async def _reply_privately(
        self, interaction: discord.Interaction[Any], answer: Answer, deferred: bool, user: UserRef
    ) -> None:
        if answer.view is not None:
            r = render(answer.view, note=answer.text)
            handle = await self._send_ephemeral(interaction, r, deferred)
            handle.shown = (answer.view, answer.text)
            self._remember(answer.view.key, handle)
        elif answer.text:
            text = clip(markup(answer.text), CONTENT_LIMIT)
            if deferred:
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        elif not deferred:
            await interaction.response.defer()

    def _remember(self, key: str, handle: HandHandle) -> None:
        """Keep the newest hand message of this key; forget the ones whose tokens have run out."""
        now = self.monotonic()
        for old in [k for k, h in self.hands.items() if now - h.opened > HAND_LIFETIME]:
            del self.hands[old]
        self.hands[key] = handle

    async def _send_ephemeral(self, interaction: discord.Interaction[Any], r: Rendered, deferred: bool) -> HandHandle:
        kwargs: dict[str, Any] = {"embed": r.embed, "ephemeral": True, "allowed_mentions": r.mentions}
        if r.view is not None:
            kwargs["view"] = r.view
        if deferred:
            message = await interaction.followup.send(r.content or "", wait=True, **kwargs)
            return HandHandle(interaction, self.monotonic(), followup_id=message.id)
        await interaction.response.send_message(r.content, **kwargs)
        return HandHandle(interaction, self.monotonic())

    # --- commands --------------------------------------------------------------------------------------------

    async def on_command(
        self,
        interaction: discord.Interaction[Any],
        run: Callable[[ChatRef, UserRef], Awaitable[Answer]],
    ) -> None:
        """Run a command against the core in this channel and answer the person privately."""
        user = self.user_ref(interaction)
        chat = self.chat_ref(interaction)
        await self.note_server(interaction)
        if chat is None:
            language = await self.host.user_language(user)
            await interaction.response.send_message(
                tr(language).gettext("Belote is played in a server's text channel or thread."), ephemeral=True
            )
            return
        answer, deferred = await self._within_window(interaction, run(chat, user), ephemeral=True)
        if answer is None:
            await self._failed(interaction, deferred, user)
            return
        try:
            if answer.view is not None:
                r = render(answer.view, note=answer.text)
                handle = await self._send_ephemeral(interaction, r, deferred)
                handle.shown = (answer.view, answer.text)
                self._remember(answer.view.key, handle)
                return
            text = answer.text or tr(await self.host.user_language(user)).gettext("Done.")
            text = clip(markup(text), CONTENT_LIMIT)
            if deferred:
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("Discord refused the answer to a command: %s", exc)

    async def command(self, interaction: discord.Interaction[Any], name: str, args: Sequence[str] = ()) -> None:
        await self.on_command(interaction, lambda chat, user: self.host.command(chat, user, name, list(args)))

    # --- acknowledging in time -------------------------------------------------------------------------------

    async def _within_window(
        self, interaction: discord.Interaction[Any], work: Awaitable[Answer], *, ephemeral: bool
    ) -> tuple[Answer | None, bool]:
        """The core's answer, deferring the interaction first if the core takes longer than the budget.
        None when the core failed (logged; the person gets a short apology)."""
        task = asyncio.ensure_future(work)
        deferred = False
        try:
            if not await answered_within(task, self.ack_budget, self.lagging):
                try:
                    if ephemeral:
                        await interaction.response.defer(ephemeral=True, thinking=True)
                    else:
                        await interaction.response.defer()
                    deferred = True
                except discord.HTTPException as exc:
                    log.warning("could not defer an interaction in time: %s", exc)
            return await task, deferred
        except Exception:
            log.exception("the game host failed on an interaction")
            return None, deferred

    def lagging(self) -> bool:
        """The event loop is behind: answer every interaction by deferring it first."""
        return self.lag.behind() > self.lag_limit

    async def _failed(self, interaction: discord.Interaction[Any], deferred: bool, user: UserRef) -> None:
        text = tr(await self.host.user_language(user)).gettext(
            "Something went wrong on our side; nothing changed. Please try again."
        )
        try:
            if deferred:
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell a person that their interaction failed")

    # --- output from the core --------------------------------------------------------------------------------

    async def deliver(self, msg: OutMessage) -> None:
        """The core's sink: queue the message (per table and audience, latest state per key wins)."""
        audience = msg.audience
        lane = f"{msg.table_id}|{audience.user_id if isinstance(audience, UserRef) and msg.kind == 'hand' else ''}"
        self.outbox.put(lane, msg)

    async def _deliver_now(self, msg: OutMessage) -> None:
        if isinstance(msg.audience, UserRef):
            if msg.kind == "hand":
                await self._edit_hand(msg)
            elif msg.kind == "ping":
                await self.alerts.post(msg)
            # Other private messages need an interaction to answer; Discord has no way to push them unasked.
            return
        await self.publish(msg, msg.audience)
        if msg.table_id and self.alerts.table_over(msg.table_id):
            # The table's last messages: nobody is to act any more. This lane posted every alert of the table, so
            # none can come after this.
            await self.alerts.remove(msg.table_id)

    async def _edit_hand(self, msg: OutMessage) -> None:
        handle = self.hands.get(msg.key)
        if handle is None:
            return
        if self.monotonic() - handle.opened > HAND_LIFETIME:
            del self.hands[msg.key]  # the token is (nearly) dead; the next press on the hand makes a new one
            return
        shown = (msg, "")
        if handle.shown == shown:
            return  # the message shows exactly this already: the same text and the same buttons
        r = render(msg)
        self._begin_write(msg.key)
        try:
            if handle.followup_id is None:
                await handle.interaction.edit_original_response(
                    content=r.content, embed=r.embed, view=r.view, allowed_mentions=r.mentions
                )
            else:
                await handle.interaction.followup.edit_message(
                    handle.followup_id, content=r.content, embed=r.embed, view=r.view, allowed_mentions=r.mentions
                )
        except discord.HTTPException as exc:
            log.info("a hand message can no longer be edited (%s); waiting for the next press", exc)
            if self.hands.get(msg.key) is handle:
                del self.hands[msg.key]
            return
        finally:
            certain = self._end_write(msg.key)
        if certain and self.hands.get(msg.key) is handle:
            handle.shown = shown

    async def message_ref(self, key: str) -> str | None:
        """Where the public message of this key is ("channel_id/message_id"), if it was posted."""
        return self._refs.get(key) or await self.host.storage.get_message_ref(DISCORD, key)

    async def forget_ref(self, key: str) -> None:
        self._refs.pop(key, None)
        await self.host.storage.set_message_ref(DISCORD, key, None)

    async def publish(self, msg: OutMessage, chat: ChatRef) -> None:
        """Edit the public message of this key in place, or post it (a ``notify`` message is always posted anew,
        and its previous copy deleted). At most CHANNEL_SENDS of these run at once."""
        async with self._channel_sends:
            await self._publish(msg, chat)

    async def _publish(self, msg: OutMessage, chat: ChatRef) -> None:
        channel_id = int(chat.thread_id or chat.chat_id)
        channel = self.client.get_partial_messageable(channel_id, guild_id=None)
        storage = self.host.storage
        ref = await self.message_ref(msg.key)
        r = render(msg)
        if ref is not None:
            old_channel, _, old_id = ref.partition("/")
            old = self.client.get_partial_messageable(int(old_channel)).get_partial_message(int(old_id))
            if msg.notify:
                # Already gone, or not ours to delete: the new message is what matters.
                with contextlib.suppress(discord.HTTPException):
                    await old.delete()
            else:
                try:
                    await old.edit(content=r.content, embed=r.embed, view=r.view, allowed_mentions=r.mentions)
                    return
                except discord.NotFound:
                    pass  # someone deleted it: post it again
        kwargs: dict[str, Any] = {"embed": r.embed, "allowed_mentions": r.mentions}
        if r.view is not None:
            kwargs["view"] = r.view
        sent = await channel.send(r.content, **kwargs)
        ref = f"{channel_id}/{sent.id}"
        if len(self._refs) >= REFS_CACHED:
            del self._refs[next(iter(self._refs))]  # storage has them all; this is only a cache
        self._refs[msg.key] = ref
        await storage.set_message_ref(DISCORD, msg.key, ref)
