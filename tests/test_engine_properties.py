"""Properties that hold in every legal match, under every combination of table options."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Bid, Match, Play, Rules, card_str, observe
from bot.engine.cards import card_list
from bot.engine.record import match_report, match_to_record, replay_record
from bot.engine.scoring import card_total, round_total
from tests.table_options import OPTION_VALUES

rules_strategy = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}).map(
    lambda d: Rules.model_validate(d)
)


def choose(match: Match, rng: random.Random) -> Bid | Play:
    """A random legal action, with random (legal) announcements: declarations and belotes are optional."""
    deal = match.deal
    actions = deal.legal_actions()
    action = rng.choice(actions)
    if isinstance(action, Play) and not deal.rules.auto_declarations:
        declare = deal.declarable()
        kinds = tuple(k for k in declare if rng.random() < 0.8)
        belote = action.card in deal.belote_cards() and rng.random() < 0.8
        return Play(action.card, kinds, belote)
    return action


def play_random_match(rules: Rules, seed: int, check: bool = True) -> Match:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    guard = 0
    while not match.over:
        deal = match.deal
        if check:
            check_step(match)
        match.apply(choose(match, rng))
        guard += 1
        assert guard < 20_000, "a match that never ends"
        if deal.phase == "done" and deal.result is not None and check:
            check_deal(deal)
    return match


def check_step(match: Match) -> None:
    deal = match.deal
    # There is always a legal action until the match ends.
    assert match.legal_actions()
    # Legal cards are a subset of the hand.
    assert deal.legal_mask() & ~deal.held[deal.to_act] == 0
    for seat in range(4):
        obs = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging)
        hidden = set()
        for other in range(4):
            if other != seat:
                hidden |= {card_str(c) for c in card_list(deal.held[other])}
                # Cards not yet received (the last three, during the auction) are hidden too.
                if deal.phase == "auction":
                    hidden |= {card_str(c) for c in deal.hands[other][5:]}
        if deal.phase == "auction":
            hidden |= {card_str(c) for c in deal.hands[seat][5:]}
        message = obs.to_json()
        shown = set(message["hand"]) | {c for t in message["tricks"] for c in t["cards"]}
        shown |= set(message["trick"]["cards"])
        if deal.phase == "play" and seat == deal.to_act:
            shown |= set(message["legal"])
        assert not shown & hidden, f"seat {seat} sees hidden cards {shown & hidden}"
        assert set(message["hand"]) == {card_str(c) for c in card_list(deal.held[seat])}
        # Nothing else in the message spells a card.
        text = json.dumps({k: v for k, v in message.items() if k not in ("hand", "tricks", "trick", "legal")})
        assert not any(f'"{c}"' in text for c in hidden)


def check_deal(deal: Any) -> None:
    result = deal.result
    # Card points add up to 152/248/120, plus the last ten.
    assert sum(deal.card_points) == card_total(deal.contract)
    assert sum(result.points) == card_total(deal.contract) + 10
    assert sum(deal.tricks_won) == 8
    # §7.5: the written points and the change of the pot add up to the deal's rounded total (× the multiplier).
    m = result.multiplier if result.multiplier > 1 and (result.valat is None or deal.rules.valat_multiplied) else 1
    assert sum(result.score) + result.hanging - result.hanging_in == round_total(result.total) * m


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 10**9))
def test_random_matches_keep_every_invariant(rules: Rules, seed: int) -> None:
    match = play_random_match(rules, seed)
    assert match.winner is not None
    assert match.totals[match.winner] >= rules.target_score
    assert match.totals[match.winner] > match.totals[1 - match.winner]


@settings(max_examples=120, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 10**9), stop=st.integers(0, 400))
def test_record_written_and_replayed_gives_the_identical_report(rules: Rules, seed: int, stop: int) -> None:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    for _ in range(stop):
        if match.over:
            break
        match.apply(choose(match, rng))
    record = json.loads(json.dumps(match_to_record(match, ["a", "b", "c", "d"])))
    assert match_report(replay_record(record)) == match_report(match)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_same_seed_and_actions_give_the_same_match(seed: int) -> None:
    a = play_random_match(Rules(), seed, check=False)
    b = play_random_match(Rules(), seed, check=False)
    assert match_report(a) == match_report(b)
    assert match_to_record(a) == match_to_record(b)
