"""Properties of `bela-3`, `bela-2` and `bela-open` over random matches under random table options (hypothesis).

Random bots play every seat through ``match.observe(seat)`` only. Every deal's card points add up to what is in
play (162 with three players, the caller's discard included; the 20 cards in play with two); there is always a
legal action until the match ends; and no seat's view ever holds a card it may not see: another seat's cards, a
talon before the call, the extra cards and the discard for anyone but the caller, the stock unless it lies face up,
a face-down card of the open game.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.simple import RandomAgent
from bot.engine.bela2 import BelaTwoDeal, BelaTwoMatch, BelaTwoRules
from bot.engine.bela3 import BelaThreeDeal, BelaThreeMatch, BelaThreeRules
from bot.engine.belaopen import BelaOpenDeal, BelaOpenMatch, BelaOpenRules
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.play import CARD_POINTS
from bot.engine.seatview import SeatView
from tests.test_family_properties import options, visible_cards
from tests.test_family_small_oracle import OPEN_CHOICES, THREE_CHOICES, TWO_CHOICES


def check_views(match: FamilyMatch) -> None:
    deal = match.deal
    played = {card_str(c) for t in deal.tricks for c in t.cards} | {card_str(c) for c in deal.trick}
    public = set(played)
    if isinstance(deal, BelaTwoDeal):
        public.add(card_str(deal.turned))
        if deal.opts.stock_visible:
            public |= {card_str(c) for c in deal.stock}
    if isinstance(deal, BelaOpenDeal):
        # Both layouts' face-up cards are public; a face-down card is nobody's, its owner's included.
        face_up = {c for s in (0, 1) for c in deal.hand_of(s)}
        public |= {card_str(c) for c in face_up}
        face_down = {card_str(p[0]) for s in (0, 1) for k, p in enumerate(deal.piles[s])
                     if len(p) == 2 or (len(p) == 1 and not deal.face_up[s][k])}  # fmt: skip
        for seat in (0, 1):
            view = match.observe(seat).to_json()
            assert not visible_cards(view) & face_down, f"seat {seat} sees a face-down card"
            assert visible_cards(view) <= public
            assert "shown" not in view and "declarable" not in view and "belote" not in view
    for seat in range(match.SEATS):
        seen = match.observe(seat)
        assert isinstance(seen, SeatView)
        view = seen.to_json()
        own = {card_str(c) for c in deal.hand_of(seat)}
        shown = {c for d in view.get("shown", []) for c in d["cards"]}
        mine = set(own)
        if isinstance(deal, BelaThreeDeal) and seat == deal.bidder:
            mine |= {card_str(c) for c in deal.discarded}  # the caller knows his own discard
        assert set(view["hand"]) == own
        assert visible_cards(view) <= mine | public | shown, f"seat {seat} sees a hidden card"
        if deal.phase == "auction" and not isinstance(deal, BelaOpenDeal):
            assert len(own) == 6  # the talon stays hidden during the call
        if isinstance(deal, BelaThreeDeal):
            assert ("discard" in view) and (view["discard"] is None or seat == deal.bidder)
            if seat != deal.bidder:
                assert not {card_str(c) for c in deal.extra} & visible_cards(view) - played - shown
        if isinstance(deal, BelaTwoDeal):
            assert "exchanged" in view and ("stock" in view) == deal.opts.stock_visible
            if deal.phase == "exchange":
                assert len(own) == 6 and (view["legal"] == [True, False]) == (seat == deal.to_act)


def run(match: FamilyMatch, seed: int, bonus: int) -> None:
    agents = [RandomAgent(seed * 7 + s) for s in range(match.SEATS)]
    steps = 0
    while not match.over:
        deal = match.deal
        assert match.legal_actions(), "no legal action in an undecided match"
        if steps % 3 == 0 or deal.phase in ("discard", "exchange"):
            check_views(match)
        seat = match.to_act
        match.apply(agents[seat].act(match.observe(seat)))
        steps += 1
        result = deal.result
        if deal.phase == "done" and result is not None:
            cards = deal.card_totals(0)
            if isinstance(deal, BelaThreeDeal):
                assert sum(cards) + deal.discard_points == 162
                counted = sum(sum(c.value for c in deal.declared[p]) + 20 * deal.belotes[p] for p in range(3))
            elif isinstance(deal, BelaOpenDeal):
                assert sum(cards) == 162
                counted = sum(deal.side_declarations(p) + deal.side_belas(p) for p in (0, 1))
            else:
                assert isinstance(deal, BelaTwoDeal)
                assert sum(cards) == sum(CARD_POINTS[deal.contract][c] for c in deal.in_play()) + 10
                counted = sum(deal.side_declarations(p) + deal.side_belas(p) for p in (0, 1))
            swept = any(t == deal.TRICKS for t in result.tricks)
            extras = sum(result.raw) - sum(cards) - (deal.discard_points if isinstance(deal, BelaThreeDeal) else 0)
            extras -= bonus if swept else 0
            assert 0 <= extras <= 2 * counted and extras % 10 == 0
            assert len(result.score) == match.SEATS and min(result.score) >= 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(THREE_CHOICES))
def test_bela3_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    rules = BelaThreeRules(**opts)
    run(BelaThreeMatch(rules, seed=seed), seed, rules.stiglja_value)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(TWO_CHOICES))
def test_bela2_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    rules = BelaTwoRules(**opts)
    run(BelaTwoMatch(rules, seed=seed), seed, rules.stiglja_value)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(OPEN_CHOICES))
def test_bela_open_random_matches_keep_every_point_and_every_face_down_card(seed: int, opts: dict[str, Any]) -> None:
    rules = BelaOpenRules(**opts)
    run(BelaOpenMatch(rules, seed=seed), seed, rules.stiglja_value)
