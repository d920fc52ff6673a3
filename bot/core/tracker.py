"""The card tracker for learners (the table option ``tracker``): for each suit, the cards still out and the cards
already played, as any player at the table could remember them.

Only public information: the cards played in the tricks, taken from the asking seat's observation. It never says
or guesses who holds a card; the asker's own hand counts as "still out" like any other unplayed card.
"""

from __future__ import annotations

from bot.ai.base import View
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.game import VARIANTS
from bot.engine.seatview import SeatView
from bot.i18n import Translator

from . import names
from .viewparts import sort_hand

# The button's action (``payload.READ_ONLY``: it changes nothing, so an older hand message may still ask).
TRACKER_ACTION = "k"


def tracker_text(obs: View, tr: Translator) -> str:
    """Per suit (trumps first, strongest card first): the cards not played yet, then the played ones; ``obs`` is
    the asking seat's view (``match.observe(seat)``), in any game."""
    played = {card for trick in obs.tricks for card in trick.cards} | set(obs.trick)
    pack = VARIANTS[obs.variant].pack if isinstance(obs, SeatView) else VARIANTS["bulgarian"].pack
    deck = sort_hand([card for card in range(32) if pack >> card & 1], obs.contract)
    lines = [tr.gettext("Cards still out (and played), by suit:")]
    for suit in dict.fromkeys(card >> 3 for card in deck):  # suits in display order
        ranks = [(card, names.card_label(card)[:-1]) for card in deck if card >> 3 == suit]
        out = " ".join(rank for card, rank in ranks if card not in played) or "—"
        gone = " ".join(rank for card, rank in ranks if card in played)
        line = f"{SUIT_SYMBOLS[suit]} {out}"
        if gone:
            line += "  " + tr.gettext("(played: {cards})", cards=gone)
        lines.append(line)
    return "\n".join(lines)
