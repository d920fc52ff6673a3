"""Properties of `bulgarian-3` and `bulgarian-2` over random matches under random table options (hypothesis).

Random bots play every seat through ``match.observe(seat)`` only. Every deal's points add up (162 with three
players; with two, what the 16 dealt cards hold plus the last ten); each player's raw total is his cards (doubled in
no trumps), counted declarations, belotes and valat, and the match totals are the sum of what was written; there
is always a legal action until the match ends and every one of them is accepted; and no view ever holds another
player's card, the three cards dealt after the auction before it ends, or an undealt card; its ``act`` message has
exactly the fields of formats §6 and §7.6.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.simple import RandomAgent
from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules
from bot.engine.bulgarian_small_match import BulgarianThreeMatch, BulgarianTwoMatch, SmallDeal
from bot.engine.calls import ALL_TRUMPS, NO_TRUMPS
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.play import CARD_POINTS
from bot.engine.seatview import SeatView
from tests.test_bulgarian_small_oracle import CHOICES
from tests.test_family_properties import options, visible_cards

# formats §6 ``act`` and the two fields §7.6 adds for these games (no turned card, discard, stock, layout or shown).
ACT_FIELDS = {
    "type", "variant", "rules", "seat", "dealer", "hand", "bids", "contract", "multiplier", "declarer", "tricks",
    "trick", "announced", "score", "hanging", "legal", "declarable", "belote", "phase", "caller",
}  # fmt: skip
PACK = {r + s for r in "9TJQKA" for s in "CDHS"}


def check_views(match: FamilyMatch) -> None:
    deal = match.deal
    assert isinstance(deal, SmallDeal)
    played = {card_str(c) for t in deal.tricks for c in t.cards} | {card_str(c) for c in deal.trick}
    dealt = {card_str(c) for h in deal.hands for c in h}
    for seat in range(match.SEATS):
        seen = match.observe(seat)
        assert isinstance(seen, SeatView)
        view = seen.to_json()
        assert set(view) == ACT_FIELDS
        own = {card_str(c) for c in deal.hand_of(seat)}
        assert set(view["hand"]) == own and own <= dealt
        assert visible_cards(view) <= own | played, f"seat {seat} sees a hidden card"
        if deal.phase == "auction":
            assert len(own) == 5 and view["phase"] == "bid" and view["contract"] is None
            assert view["multiplier"] is None and view["caller"] is None and view["trick"] is None
        else:
            assert view["multiplier"] == deal.multiplier and view["caller"] == deal.bidder
            assert view["declarer"] == str(deal.bidder)
        assert set(view["score"]) == {str(p) for p in range(match.SEATS)}


def check_deal(deal: SmallDeal, n: int) -> None:
    result = deal.result
    assert result is not None
    points = CARD_POINTS[deal.contract]
    dealt = {c for h in deal.hands for c in h}
    cards = [deal.card_points[p] + (10 if deal.last_trick_side == p else 0) for p in range(n)]
    assert sum(cards) == sum(points[c] for c in dealt) + 10
    if n == 3:  # all 24 cards in play: 162, 258 in all trumps, 130 in no trumps before the doubling (family §8.2)
        assert sum(cards) == {NO_TRUMPS: 130, ALL_TRUMPS: 258}.get(deal.contract, 162)
    else:
        assert len(dealt) == 16 and not {card_str(c) for c in dealt} - PACK
    counted = deal.counted()
    for p in range(n):
        keeps = deal.valat in (None, p) or deal.rules.valat_team_keeps_declarations
        extra = sum(c.value for c in counted[p]) + (20 * deal.belotes[p] if keeps else 0)
        raw = 2 * (cards[p] + extra) if deal.contract == NO_TRUMPS else cards[p] + extra
        if deal.valat == p:
            raw += 180 if deal.contract == NO_TRUMPS and deal.rules.nt_valat_doubled else 90
        assert result.raw[p] == raw
    assert len(result.score) == n and min(result.score) >= 0 and result.hanging >= 0


def run(match: FamilyMatch, seed: int) -> None:
    agents = [RandomAgent(seed * 7 + s) for s in range(match.SEATS)]
    steps = 0
    written = [0] * match.SEATS
    while not match.over:
        deal = match.deal
        assert isinstance(deal, SmallDeal)
        legal = match.legal_actions()
        assert legal, "no legal action in an undecided match"
        if steps % 5 == 0:
            check_views(match)
            for action in legal:  # every legal action is accepted
                trial = copy.deepcopy(match)
                trial.apply(action)
        seat = match.to_act
        match.apply(agents[seat].act(match.observe(seat)))
        steps += 1
        if deal.phase == "done" and deal.result is not None:
            check_deal(deal, match.SEATS)
            written = [w + s for w, s in zip(written, deal.result.score, strict=True)]
            assert match.totals == written
    assert match.winner is not None and match.totals[match.winner] >= match.rules.target_score


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options({**CHOICES, "made_rule": ["each", "both_together"]}))
def test_bulgarian3_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    run(BulgarianThreeMatch(BulgarianThreeRules(**opts), seed=seed), seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(CHOICES))
def test_bulgarian2_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    run(BulgarianTwoMatch(BulgarianTwoRules(**opts), seed=seed), seed)
