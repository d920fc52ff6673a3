"""Answers to a Bela or French act message (formats §7.6.3), checked against the seat's view as the engine would."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import CALL_NAMES, PASS, Bid, IllegalAction, Play, card_str
from bot.engine.declarations import KINDS
from bot.engine.familymatch import FamilyMatch
from bot.engine.french import FrenchDeal
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import TrumpDeal
from bot.protocol.messages import ProtocolError, action_to_json, fallback_action, parse_answer

PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decisions(variant: str, seed: int, rules: dict[str, Any]) -> Iterator[tuple[FamilyMatch, TrumpDeal, SeatView]]:
    """Every decision of a short match played by random legal actions, with the view of the seat to act."""
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, {"target_score": 301, **rules}), seed=seed)
    assert isinstance(match, FamilyMatch)
    pick = random.Random(seed)
    while not match.over:
        deal = match.deal
        view = match.observe(deal.to_act)
        yield match, deal, view
        match.apply(pick.choice(deal.legal_actions()))


def rules_for(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    shared = {"auto_declarations": st.booleans(), "no_declarations": st.booleans()}
    own = (
        {"declaration_card_sharing": st.booleans(), "belot_suit": st.sampled_from(["any", "trumps"])}
        if variant == "bela"
        else {"belote_king_first": st.booleans()}
    )
    return st.fixed_dictionaries({}, optional={**shared, **own})


def reason(answer: dict[str, Any], view: SeatView) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_answer(answer, view)
    return caught.value


@pytest.mark.parametrize("variant", ["bela", "french"])
@PROPERTY
@given(seed=st.integers(0, 10**6), data=st.data())
def test_the_answer_check_agrees_with_the_engine(variant: str, seed: int, data: st.DataObject) -> None:
    """Whatever an agent answers, the referee accepts it exactly when the engine would."""
    rules = data.draw(rules_for(variant))
    for _, deal, view in decisions(variant, seed, rules):
        raw: Bid | Play
        if deal.phase == "auction":
            raw = Bid(data.draw(st.integers(0, 8)))
            answer: dict[str, Any] = {"call": CALL_NAMES[raw.call]}
        else:
            # Mostly the seat's own cards, so that declarations and belotes get judged too.
            card = data.draw(st.sampled_from(view.hand) | st.integers(0, 31))
            raw = Play(card, tuple(data.draw(st.lists(st.sampled_from(KINDS), max_size=3))), data.draw(st.booleans()))
            answer = {"card": card_str(raw.card), "declare": list(raw.declare), "belote": raw.belote}
        try:
            action = parse_answer(answer, view)
        except ProtocolError as exc:
            assert exc.kind == "illegal", exc.reason
            if view.auto_declarations and isinstance(raw, Play):
                raw = Play(raw.card)  # the table announces for everyone; only the card can be wrong
            with pytest.raises(IllegalAction):
                copy.deepcopy(deal).apply(raw)
        else:
            copy.deepcopy(deal).apply(action)  # must not raise
        fallback = fallback_action(view)
        assert fallback in deal.legal_actions()
        assert parse_answer(action_to_json(fallback), view) == fallback


def first_view(variant: str, phase: str, seed: int = 7, calls: int = 0) -> tuple[TrumpDeal, SeatView]:
    for _, deal, view in decisions(variant, seed, {}):
        if deal.phase == phase and len(deal.calls) >= calls:
            return deal, view
    raise AssertionError("no such decision")


def test_a_french_call_not_legal_in_this_round_is_illegal_with_the_legal_calls() -> None:
    match = VARIANTS["french"].new_match(parse_variant_rules("french", {}), seed="round")
    assert isinstance(match, FamilyMatch)
    deal = match.deal
    assert isinstance(deal, FrenchDeal)
    turned = deal.turned >> 3
    other = CALL_NAMES[(turned + 1) % 4]
    view = match.observe(deal.to_act)
    problem = reason({"call": other}, view)
    assert problem.kind == "illegal"
    assert problem.reason == f"{other} is not a legal call now; legal: {CALL_NAMES[turned]}, pass"
    # Round 2: the turned card's suit is what may no longer be named.
    for _ in range(4):
        match.apply(Bid(PASS))
    view = match.observe(deal.to_act)
    assert view.to_json()["legal"] == [CALL_NAMES[s] for s in range(4) if s != turned] + ["pass"]
    problem = reason({"call": CALL_NAMES[turned]}, view)
    assert problem.kind == "illegal"
    assert problem.reason.startswith(f"{CALL_NAMES[turned]} is not a legal call now; legal: ")
    assert reason({"call": "no-trumps"}, view).kind == "illegal"
    assert parse_answer({"call": other}, view) == Bid((turned + 1) % 4)


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_calls_and_cards_belong_to_their_phase(variant: str) -> None:
    _, bidding = first_view(variant, "auction")
    problem = reason({"card": card_str(bidding.hand[0])}, bidding)
    assert problem.kind == "illegal"
    assert problem.reason.startswith('the call for trump is on: answer with {"call": ...}; legal calls: ')
    _, playing = first_view(variant, "play")
    problem = reason({"call": "pass"}, playing)
    assert problem.kind == "illegal" and problem.reason.startswith("the call for trump is over: answer with a card")
    assert parse_answer({"call": "PASS"}, bidding) == Bid(PASS)  # read leniently, as formats §1 allows


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ({"card": 5}, 'card must be a string like "JH", not 5'),
        ({"call": ["spades"]}, "call must be a string"),
        ({"card": "JH", "declare": "tierce"}, 'declare must be a list of kinds like ["tierce"]'),
        ({"card": "JH", "belote": "yes"}, "belote must be true or false"),
        ({"card": "JH", "declare": ["sequence"]}, "unknown declaration 'sequence'"),
        ({"card": "ZZ"}, "ZZ"),
        ({"card": "JH", "discard": ["7C", "QD"]}, "unknown field 'discard'"),
        ({"discard": "7C"}, "discard must be a list of two cards"),
        ({"exchange": "yes"}, "exchange must be true or false"),
        ({}, 'the answer has neither "call" nor "card"'),
    ],
)
def test_answers_of_the_wrong_shape_are_malformed_and_say_why(answer: dict[str, Any], says: str) -> None:
    _, view = first_view("bela", "play")
    problem = reason(answer, view)
    assert problem.kind == "malformed"
    assert says in problem.reason


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_a_card_the_seat_does_not_hold_is_illegal_and_the_legal_cards_are_listed(variant: str) -> None:
    deal, view = first_view(variant, "play")
    other = next(c for c in deal.hands[(view.seat + 1) % 4])
    problem = reason({"card": card_str(other)}, view)
    assert problem.kind == "illegal"
    legal = ", ".join(card_str(c) for c in view.legal_cards)
    assert problem.reason == f"{card_str(other)} is not in your hand; legal cards: {legal}"
