"""The post-deal review at a chat table: a "Review" button on each deal's result (table option ``review``, on by
default) answers the presser alone with the hard bot's view of their own seat in that deal (``bot.ai.review``).

Only what is public after the deal goes into it: the four hands, the calls and the cards played, which the review
solves double-dummy; the calls are judged from the presser's seat's observation at the time. Someone who did not
sit at the table is refused. An older deal's button still works while the table's log is stored (a finished table
is rebuilt from it, as after a restart). The work runs on the think pool's slow lane, one table's reviews taking
their turn with the other tables' bots; a press while the same review is being made waits for it instead of
starting it again, and a made review is kept for the next press.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Final

from bot.ai.review import CALL_CPU, REVIEW_CPU, Review, review_deal
from bot.engine.deal import DONE, Deal
from bot.i18n import Translator

from . import names
from .messages import Answer, Button, ChatRef, UserRef
from .payload import Payload
from .table import Table, TableError, replay
from .viewparts import payload, score_before, seat_name

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger(__name__)

# The button's action: ``v:<deal number>`` (1-based). It changes nothing, so any older message may ask.
REVIEW_ACTION: Final = "v"
KEPT: Final = 64  # made reviews kept for the next press (per host)


def is_review(action: str) -> bool:
    return action.startswith(REVIEW_ACTION + ":")


def review_button(table: Table, index: int, tr: Translator) -> Button | None:
    """The result's button for deal ``index`` (0-based), when the table offers reviews of its game."""
    if not table.options.review or table.game != "bulgarian":
        return None
    return Button(tr.gettext("Review my play"), payload(table, f"{REVIEW_ACTION}:{index + 1}"))


def review_text(table: Table, index: int, review: Review, tr: Translator) -> str:
    """The review as the presser reads it."""
    lines = [tr.gettext("**Deal {n}: the hard bot's review for {name}**", n=index + 1,
                        name=seat_name(table, review.seat, tr))]
    for note in review.calls:
        lines.append(tr.gettext("Call {k}: you said {made}; the hard bot would say {better}.", k=note.number,
                                made=names.call_name(note.made, tr), better=names.call_name(note.better, tr)))
    for card in review.cards:
        line = tr.gettext("Trick {t}: you played {played}; {better} was better by {n} card points.", t=card.trick,
                          played=names.card_label(card.played), better=names.card_label(card.better), n=card.gain)
        if card.game_gain:
            line += " " + tr.gettext("The result would have been {n} game points better for your side.",
                                     n=card.game_gain)
        lines.append(line)
    if not review.calls and not review.cards:
        lines.append(tr.gettext("Nothing to say: your calls are the hard bot's, and no card of yours cost your side "
                                "points."))
    if review.cards:
        lines.append(tr.gettext("Card points are your side's (tricks and the last ten), with every hand in sight and "
                                "best play by all four after it."))
    if not review.complete:
        lines.append(tr.gettext("Some of your first decisions were not checked: the review ran out of time."))
    return "\n".join(lines)


class Reviews:
    """Answers review presses for a host (``Host.press`` hands them over before any table lock)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.cpu = REVIEW_CPU  # processor seconds of one review, and of the hard bot's call at each of its calls
        self.call_cpu = CALL_CPU
        # (table, deal index, seat) -> the review being made or made
        self._made: OrderedDict[tuple[str, int, int], asyncio.Future[Review]] = OrderedDict()

    async def press(self, user: UserRef, p: Payload, tr: Translator) -> Answer:
        number = p.action.partition(":")[2]
        if not (number.isascii() and number.isdigit() and 0 < len(number) < 4 and int(number) > 0):
            return Answer(tr.gettext("This button does not belong to any table."), ok=False)
        index = int(number) - 1
        table = await self._table(p.table_id, user.platform)
        match = table.match if table is not None else None
        if table is None or match is None or index >= len(match.deals):
            return Answer(tr.gettext("That deal is no longer stored, so it cannot be reviewed."), ok=False,
                          table_id=p.table_id)
        seat = table.seat_of(user.user_id)
        if seat is None:
            return Answer(tr.gettext("Only the players of this table can ask for its review."), ok=False,
                          table_id=p.table_id)
        deal = match.deals[index]
        if not isinstance(deal, Deal) or deal.phase != DONE:
            return Answer(tr.gettext("That is not possible now."), ok=False, table_id=p.table_id)
        key = (p.table_id, index, seat)
        job = self._made.get(key)
        if job is None:
            before = score_before(table, index)
            work = functools.partial(review_deal, deal, seat, (before[0], before[1]), f"{p.table_id}/{index}",
                                     self.cpu, call_cpu=self.call_cpu)
            job = asyncio.ensure_future(self.host.thinking.think(f"review:{p.table_id}", "hard", work))
            self._made[key] = job
            while len(self._made) > KEPT:
                self._made.popitem(last=False)
        try:
            review = await asyncio.shield(job)
        except Exception:
            log.exception("table %s: the review of deal %d failed", p.table_id, index + 1)
            self._made.pop(key, None)
            return Answer(tr.gettext("Something went wrong on our side; nothing changed. Please try again."),
                          ok=False, table_id=p.table_id)
        return Answer(review_text(table, index, review, tr), table_id=p.table_id)

    async def _table(self, table_id: str, platform: str) -> Table | None:
        """The table as it is in memory, else rebuilt from its stored log (an ended table, or one from before a
        restart); None when nothing of it is stored or it belongs to another platform."""
        live = self.host._tables.get(table_id)
        if live is not None:
            return live.table if live.table.chat.platform == platform else None
        row = await self.host.storage.get_table(table_id)
        if row is None or row.platform != platform:
            return None
        events = [e.data for e in await self.host.storage.events(table_id)]
        try:
            return replay(table_id, ChatRef.from_key(row.platform, row.chat), row.creator, events)
        except (TableError, ValueError, KeyError) as exc:
            log.warning("table %s cannot be rebuilt for a review (%s)", table_id, exc)
            return None
