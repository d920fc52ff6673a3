"""A seat's choices that are not a call or a card: the 3-player caller's discard, picked in two steps and then
confirmed, and the 2-player seven exchange. Part of ``Host``.

Picks are the table's ``picks``, not events: nothing reaches the engine or the log before Confirm, and a restart
forgets them while the deal stays as logged. A pick press by anyone but the seat to discard, a pick of a card the
seat may not discard and a Confirm of other cards than the picks all change nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.engine import IllegalAction, card_str, parse_card
from bot.i18n import Translator

from .live import LiveTable
from .messages import Answer, OutMessage, UserRef

log = logging.getLogger(__name__)


class Choices:
    if TYPE_CHECKING:  # provided by Host
        async def _commit(self, live: LiveTable, event: dict[str, Any], notice: str = "") -> None: ...

        def _answer(self, live: LiveTable, user: UserRef, text: str, ok: bool = True, joined: bool = False) -> Answer:
            ...

        async def _emit(self, live: LiveTable, messages: list[OutMessage]) -> None: ...

        def _hand(self, live: LiveTable, seat: int) -> OutMessage: ...

    async def _choice_press(
        self, live: LiveTable, user: UserRef, seat: int, kind: str, arg: str, tr: Translator
    ) -> Answer:
        """``dp:<card>`` pick a card to discard, ``du:<card>`` put it back, ``dc:<card><card>`` confirm the two,
        ``e:1`` / ``e:0`` exchange the seven or keep it. The seat is the one to act (checked by the caller)."""
        table = live.table
        deal = table.deal
        assert deal is not None
        if kind == "e" and deal.phase == "exchange" and arg in ("0", "1"):
            return await self._act(live, user, seat, {"e": "exchange", "seat": seat, "take": arg == "1",
                                                      "by": "human"}, tr)
        if deal.phase != "discard" or kind == "e":
            return self._answer(live, user, tr.gettext("That is not possible now."), ok=False)
        legal = deal.legal_cards()
        cards = _cards(arg)
        if cards is None or any(c not in legal for c in cards):
            return self._answer(live, user, tr.gettext("That is not a card you may discard."), ok=False)
        picks = table.picks.get(seat, ())
        if kind == "dc":
            if len(cards) != 2 or set(cards) != set(picks):
                return self._answer(live, user, tr.gettext("Your picks changed; confirm the two cards shown now."),
                                    ok=False)
            event = {"e": "discard", "seat": seat, "cards": [card_str(c) for c in cards], "by": "human"}
            return await self._act(live, user, seat, event, tr)
        if len(cards) != 1:
            return self._answer(live, user, tr.gettext("That is not possible now."), ok=False)
        card = cards[0]
        if kind == "du":
            if card not in picks:
                return self._answer(live, user, tr.gettext("That card is not picked."), ok=False)
            table.picks[seat] = tuple(c for c in picks if c != card)
        elif card in picks:  # a double tap: picked already
            return self._answer(live, user, tr.gettext("That card is picked already."), ok=False)
        elif len(picks) >= 2:
            return self._answer(live, user, tr.gettext("You have picked two cards; press one of them to put it back "
                                                       "first."), ok=False)
        else:
            table.picks[seat] = (*picks, card)
        await self._emit(live, [self._hand(live, seat)])
        return self._answer(live, user, "")

    async def _act(self, live: LiveTable, user: UserRef, seat: int, event: dict[str, Any], tr: Translator) -> Answer:
        try:
            await self._commit(live, event)
        except IllegalAction as exc:
            log.info("table %s: refused %s (%s)", live.table.table_id, exc.action, exc.rule)
            return self._answer(live, user, tr.gettext("That move is against the rules."), ok=False)
        return self._answer(live, user, "")


def _cards(text: str) -> tuple[int, ...] | None:
    """One or two card codes written together ("JH", "JHQD"), or None."""
    if len(text) not in (2, 4):
        return None
    try:
        return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))
    except ValueError:
        return None



__all__ = ["Choices"]
