"""What every seat hears when a deal is over (formats §6 and §7.6 item 4): the report, the hands as the record lists
them and a family deal's other record fields, the same at a chat table, in the arena and through the protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.ai.arena import Side, play_match
from bot.ai.simple import RandomAgent
from bot.engine.familyrecord import deal_end_of, family_deal_to_record
from bot.engine.game import VARIANTS
from bot.protocol.messages import deal_end_message


class Listener(RandomAgent):
    """A random player that keeps what it is told at each deal's end."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.heard: list[tuple[dict[str, Any], list[list[str]], dict[str, Any]]] = []

    def deal_end(
        self, report: dict[str, Any], hands: list[list[str]], extra: Mapping[str, Any] | None = None
    ) -> None:
        self.heard.append((report, hands, dict(extra or {})))


# The record fields of formats §7.3 beside hands, bids and play that each game's deal_end must carry.
FIELDS = {
    "bulgarian": set(),
    "bela": set(),
    "french": {"turned"},
    "bela-3": {"extra", "discard"},
    "bela-2": {"turned"},
    "bela-open": set(),
    "bulgarian-3": set(),
    "bulgarian-2": set(),
}


@pytest.mark.parametrize("game", list(VARIANTS))
def test_every_seat_hears_the_deals_record_fields_at_its_end(game: str) -> None:
    seats = VARIANTS[game].seats
    listeners = [Listener(seat) for seat in range(seats)]
    side = Side("random", (listeners[0], listeners[1]))
    match = play_match([(side, agent) for agent in listeners], VARIANTS[game].rules(), 11, 3, game=game)
    for n, deal in enumerate(match.deals):
        expected = deal_end_of(deal)
        for agent in listeners:
            report, hands, extra = agent.heard[n]
            assert (report, hands, extra) == expected
            assert FIELDS[game] <= set(extra), (game, sorted(extra))
        if game != "bulgarian":
            record = family_deal_to_record(deal)
            assert expected[1] == record["hands"]  # bela-open: the 16-card layout, not the hands in play
            assert all(record[k] == v for k, v in expected[2].items())


def test_the_deal_end_message_of_a_bela3_deal_names_the_callers_discard() -> None:
    """The other two players learn the caller's two discarded cards when the deal is over, as the spec says."""
    listeners = [Listener(seat) for seat in range(3)]
    side = Side("random", (listeners[0], listeners[1]))
    match = play_match([(side, a) for a in listeners], VARIANTS["bela-3"].rules(), 5, 1, game="bela-3")
    report, hands, extra = deal_end_of(match.deals[0])
    message = deal_end_message(report, hands, extra)
    assert message["type"] == "deal_end" and len(message["discard"]) == 2 and len(message["extra"]) == 2
    assert set(message["discard"]) <= {card for hand in hands for card in hand} | set(message["extra"])
