"""What one seat may know (an observation), and nothing else.

Bots and every private view are built only from this: the seat's own cards, the public history of the deal and the
match, and the seat's legal actions. No other seat's unplayed card is ever in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .calls import CALL_NAMES, Call, Contract
from .cards import Card, card_str
from .deal import AUCTION, Announcement, Deal, Phase, Trick
from .rules import Rules
from .scoring import TEAM_NAMES


@dataclass(frozen=True, slots=True)
class Observation:
    rules: Rules
    seat: int
    dealer: int
    phase: Phase
    to_act: int
    hand: tuple[Card, ...]
    calls: tuple[Call, ...]
    contract: Contract | None
    multiplier: int | None
    bidder: int | None
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    announced: tuple[Announcement, ...]
    score: tuple[int, int]
    hanging: int
    legal_calls: tuple[Call, ...]
    legal_cards: tuple[Card, ...]
    declarable: tuple[str, ...]
    belote_cards: tuple[Card, ...]

    @property
    def declarer(self) -> int | None:
        return None if self.bidder is None else self.bidder & 1

    @property
    def auto_declarations(self) -> bool:
        return self.rules.auto_declarations

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def to_json(self) -> dict[str, Any]:
        """The ``act`` message of the agent protocol (formats.md §6), ``type`` included."""
        return {
            "type": "act",
            "variant": "bulgarian",
            "rules": self.rules.to_json(),
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": [card_str(c) for c in self.hand],
            "bids": [CALL_NAMES[c] for c in self.calls],
            "contract": None if self.contract is None else CALL_NAMES[self.contract],
            "multiplier": self.multiplier,
            "declarer": None if self.declarer is None else TEAM_NAMES[self.declarer],
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner} for t in self.tricks
            ],
            "trick": {"leader": self.trick_leader, "cards": [card_str(c) for c in self.trick]},
            "announced": [a.to_json() for a in self.announced],
            "score": {"A": self.score[0], "B": self.score[1]},
            "hanging": self.hanging,
            "legal": (
                [CALL_NAMES[c] for c in self.legal_calls]
                if self.phase == AUCTION
                else [card_str(c) for c in self.legal_cards]
            ),
            "declarable": list(self.declarable),
            "belote": bool(self.belote_cards),
        }


def observe(deal: Deal, seat: int, score: tuple[int, int] = (0, 0), hanging: int | None = None) -> Observation:
    """The observation of ``seat``. Legal actions are filled in only when it is that seat's turn."""
    mine = deal.to_act == seat and deal.phase != "done"
    in_auction = deal.phase == AUCTION
    contract_known = not in_auction and deal.contract >= 0
    return Observation(
        rules=deal.rules,
        seat=seat,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=tuple(deal.hand_of(seat)),
        calls=tuple(deal.calls),
        contract=deal.contract if contract_known else None,
        multiplier=deal.multiplier if contract_known else None,
        bidder=deal.bidder if contract_known else None,
        tricks=tuple(deal.tricks),
        trick_leader=deal.trick_leader,
        trick=tuple(deal.trick),
        announced=tuple(deal.announcements),
        score=score,
        hanging=deal.hanging_in if hanging is None else hanging,
        legal_calls=tuple(deal.legal_calls()) if mine else (),
        legal_cards=tuple(deal.legal_cards()) if mine else (),
        declarable=deal.declarable(seat) if mine else (),
        belote_cards=tuple(deal.belote_cards()) if mine else (),
    )
