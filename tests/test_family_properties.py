"""Properties of `bela` and `french` over random matches under random table options (hypothesis).

Every deal's cards add up to 162 and its totals to 162 plus bonuses; points are neither made nor lost between the
deal, the sheet and the held pot; there is always a legal action until the match ends; and no seat's view ever
holds another seat's unplayed card (a talon before its owner's call, the rest of a French deal before the bidding).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Bid, Play
from bot.engine.bela import BelaMatch, BelaRules
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.french import FrenchMatch, FrenchRules
from tests.test_family_oracle import BELA_CHOICES, FRENCH_CHOICES


def options(choices: dict[str, list[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in choices.items()})


def visible_cards(view: dict[str, Any]) -> set[str]:
    """Every card string anywhere in a view."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, str) and len(x) == 2 and x[0] in "789TJQKA" and x[1] in "CDHS":
            found.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


def check_views(match: FamilyMatch) -> None:
    deal = match.deal
    played = {card_str(c) for t in deal.tricks for c in t.cards} | {card_str(c) for c in deal.trick}
    turned = {card_str(deal.turned)} if hasattr(deal, "turned") else set()
    for seat in range(4):
        view = match.observe(seat).to_json()
        own = {card_str(c) for c in deal.hand_of(seat)}
        shown = {c for d in view["shown"] for c in d["cards"]}
        assert set(view["hand"]) == own
        assert visible_cards(view) <= own | played | turned | shown, f"seat {seat} sees a hidden card"
        if deal.phase == "auction":  # the talon / the rest of the deal stays hidden during the call
            assert len(own) == (6 if match.variant == "bela" else 5)
        assert len({d["seat"] % 2 for d in view["shown"]}) <= 1, "the losing side's declarations are never shown"
        for d in view["shown"]:  # only the contest winner's declarations are shown, from their owners' hands
            assert set(d["cards"]) <= {card_str(c) for c in deal.hands[d["seat"]]}


def run(match: FamilyMatch, rng: random.Random, bonus: int, step_views: int) -> None:
    steps = 0
    while not match.over:
        deal = match.deal
        legal = match.legal_actions()
        assert legal, "no legal action in an undecided match"
        if steps % step_views == 0:
            check_views(match)
        held_in = match.hanging
        action = rng.choice(legal)
        if isinstance(action, Play) and not deal.opts.auto_declarations:
            belote = action.card in deal.belote_cards() and rng.random() < 0.8
            action = Play(action.card, deal.declarable() if rng.random() < 0.7 else (), belote)
        match.apply(action if isinstance(action, Play) else Bid(action.call))
        steps += 1
        result = deal.result
        if deal.phase == "done" and result is not None:
            cards = deal.card_totals(0)
            assert sum(cards) == 162
            swept = any(t == 8 for t in result.tricks)
            extras = sum(result.raw) - 162 - (bonus if swept else 0)
            announced = sum(deal.side_declarations(t) + deal.side_belas(t) for t in (0, 1))
            assert 0 <= extras <= announced + (announced if swept else 0) and extras % 10 == 0
            if getattr(deal.opts, "rounding", 1) == 1:
                assert sum(result.score) + result.hanging == sum(result.raw) + held_in


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(BELA_CHOICES))
def test_bela_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    rules = BelaRules(**opts)
    run(BelaMatch(rules, seed=seed), random.Random(seed), rules.stiglja_value, 3)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=options(FRENCH_CHOICES))
def test_french_random_matches_keep_every_point_and_every_secret(seed: int, opts: dict[str, Any]) -> None:
    rules = FrenchRules(**opts)
    run(FrenchMatch(rules, seed=seed), random.Random(seed), rules.capot_bonus, 3)
