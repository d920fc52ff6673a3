"""belote-agent/1 messages: answers checked against the observation, act messages read back, nothing hidden leaks."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    CALL_NAMES,
    PASS,
    Bid,
    CardParseError,
    Deal,
    IllegalAction,
    Match,
    Observation,
    Play,
    Rules,
    card_str,
    observe,
    parse_card,
    parse_rules,
)
from bot.engine.declarations import KINDS
from bot.protocol.messages import (
    ProtocolError,
    action_to_json,
    check_hello,
    deal_end_message,
    deal_end_of,
    decode,
    fallback_action,
    parse_answer,
)
from bot.protocol.observation_json import observation_from_json

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# Seat 0 holds a belote in hearts and two tierces (K Q J of hearts, 7 8 9 of clubs); dealer 3, so seat 0 calls and
# leads first.
HANDS = [
    cards("KH QH JH 7C 8C 9C AS TS"),
    cards("7D 8D 9D TD JD QD KD AD"),
    cards("7H 8H 9H TH AH 7S 8S 9S"),
    cards("TC JC QC KC AC JS QS KS"),
]


def hearts_deal(rules: Rules | None = None) -> Deal:
    """Seat 0 says hearts, everyone passes: seat 0 is about to lead its first card."""
    deal = Deal(rules or parse_rules({}), 3, HANDS)
    for call in (2, PASS, PASS, PASS):
        deal.call(call)
    return deal


def seat_view(deal: Deal) -> Observation:
    return observe(deal, deal.to_act)


def reason(answer: dict[str, Any], obs: Observation) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_answer(answer, obs)
    return caught.value


# --- answers ---


def test_answers_are_read_leniently_as_formats_section_1_allows() -> None:
    deal = Deal(parse_rules({}), 3, HANDS)
    auction = seat_view(deal)
    assert parse_answer({"call": "NT"}, auction) == Bid(4)
    assert parse_answer({"call": " Spades "}, auction) == Bid(3)
    play = seat_view(hearts_deal())
    assert parse_answer({"card": "10s"}, play) == Play(parse_card("TS"))
    assert parse_answer({"card": "k♥", "belote": True}, play) == Play(parse_card("KH"), (), True)
    assert parse_answer({"card": "AS", "declare": ["Tierce", "tierce"]}, play) == Play(
        parse_card("AS"), ("tierce", "tierce")
    )


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ({}, 'neither "call" nor "card"'),
        ({"call": "pass", "card": "AS"}, "not both"),
        ({"card": "AS", "declares": ["tierce"]}, "unknown field 'declares'"),
        ({"card": "ZZ"}, "not a card"),
        ({"card": 12}, "must be a string"),
        ({"card": "AS", "declare": "tierce"}, "must be a list"),
        ({"card": "AS", "declare": ["sequence"]}, "unknown declaration 'sequence'"),
        ({"card": "KH", "belote": "yes"}, "true or false"),
        ({"call": "double-double"}, "is not a call"),
    ],
)
def test_answers_that_are_not_actions_are_malformed(answer: dict[str, Any], says: str) -> None:
    error = reason(answer, seat_view(hearts_deal()))
    assert error.kind == "malformed"
    assert says in error.reason


def test_malformed_lines_name_what_is_wrong() -> None:
    for line, says in [("", "empty line"), ("{card: JH", "not valid JSON"), ('["JH"]', "expected a JSON object")]:
        with pytest.raises(ProtocolError) as caught:
            decode(line)
        assert caught.value.kind == "malformed"
        assert says in caught.value.reason
    assert decode('{"card": "JH"}\n') == {"card": "JH"}


def test_a_card_the_seat_does_not_hold_is_illegal_and_the_legal_cards_are_listed() -> None:
    obs = seat_view(hearts_deal())
    error = reason({"card": "7D"}, obs)
    assert error.kind == "illegal"
    assert "7D is not in your hand" in error.reason
    assert "legal cards: " + ", ".join(card_str(c) for c in obs.legal_cards) in error.reason


def test_a_card_that_does_not_follow_suit_is_illegal() -> None:
    deal = hearts_deal()
    deal.play(parse_card("AS"))
    deal.play(parse_card("7D"))  # seat 1 has no spades
    error = reason({"card": "7H"}, seat_view(deal))  # seat 2 holds spades and must follow
    assert error.kind == "illegal"
    assert "may not be played now" in error.reason
    assert "legal cards: 7S, 8S, 9S" in error.reason


def test_calls_and_cards_belong_to_their_phase() -> None:
    auction = seat_view(Deal(parse_rules({}), 3, HANDS))
    assert "the auction is on" in reason({"card": "AS"}, auction).reason
    play = seat_view(hearts_deal())
    error = reason({"call": "pass"}, play)
    assert error.kind == "illegal"
    assert "the auction is over" in error.reason


def test_a_call_below_the_contract_is_illegal_with_the_legal_calls() -> None:
    deal = Deal(parse_rules({}), 3, HANDS)
    deal.call(3)  # spades
    error = reason({"call": "hearts"}, seat_view(deal))
    assert error.kind == "illegal"
    assert "legal: pass, no-trumps, all-trumps, contra" in error.reason


def test_declarations_only_with_the_first_card_and_only_what_the_hand_holds() -> None:
    deal = hearts_deal()
    obs = seat_view(deal)
    assert reason({"card": "AS", "declare": ["quarte"]}, obs).kind == "illegal"
    assert reason({"card": "AS", "declare": ["tierce", "tierce", "tierce"]}, obs).kind == "illegal"
    for seat_card in ("AS", "7D", "7S", "JS"):
        deal.play(parse_card(seat_card))
    # Seat 0 (who took the trick with the ace) leads again: its first card is behind it.
    assert deal.to_act == 0
    error = reason({"card": "TS", "declare": ["tierce"]}, seat_view(deal))
    assert error.kind == "illegal"
    assert "first card" in error.reason


def test_a_belote_needs_the_king_or_queen_of_trumps_with_its_pair() -> None:
    obs = seat_view(hearts_deal())
    error = reason({"card": "AS", "belote": True}, obs)
    assert error.kind == "illegal"
    assert "may carry a belote now: QH, KH" in error.reason
    assert parse_answer({"card": "QH", "belote": True}, obs) == Play(parse_card("QH"), (), True)


def test_announcements_are_left_to_the_table_under_auto_declarations() -> None:
    obs = seat_view(hearts_deal(parse_rules({"auto_declarations": True})))
    assert parse_answer({"card": "KH", "declare": ["tierce"], "belote": True}, obs) == Play(parse_card("KH"))


def test_hello_is_checked() -> None:
    assert check_hello({"type": "hello", "protocol": "belote-agent/1", "name": " mine "}) == "mine"
    with pytest.raises(ProtocolError, match="belote-agent/0"):
        check_hello({"type": "hello", "protocol": "belote-agent/0"})
    with pytest.raises(ProtocolError, match="hello"):
        check_hello({"call": "pass"})


# --- random deals: the properties ---


def decisions(seed: int, rules: Rules) -> Iterator[tuple[Match, Deal]]:
    """Every decision of a match played with random legal actions, announcing what may be announced."""
    match = Match(rules, seed)
    rng = random.Random(seed)
    while not match.over:
        deal = match.deal
        yield match, deal
        action = rng.choice(match.legal_actions())
        if isinstance(action, Play) and not rules.auto_declarations:
            declare = deal.declarable() if rng.random() < 0.7 else ()
            action = Play(action.card, declare, action.card in deal.belote_cards() and rng.random() < 0.7)
        match.apply(action)


def card_strings(message: object) -> set[str]:
    """Every string anywhere in a message that reads as a card."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= card_strings(value)
    elif isinstance(message, list):
        for value in message:
            found |= card_strings(value)
    elif isinstance(message, str):
        with contextlib.suppress(CardParseError):
            found.add(card_str(parse_card(message)))
    return found


rules_strategy = st.fixed_dictionaries(
    {},
    optional={
        "auto_declarations": st.booleans(),
        "must_undertrump": st.booleans(),
        "nt_aces_carre": st.booleans(),
        "contra_blocks_bidding": st.booleans(),
    },
).map(parse_rules)


@PROPERTY
@given(seed=st.integers(0, 10**6), rules=rules_strategy)
def test_an_act_message_never_holds_another_seats_unplayed_card(seed: int, rules: Rules) -> None:
    for match, deal in decisions(seed, rules):
        for seat in range(4):
            message = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging).to_json()
            own = set(deal.hand_of(seat))
            played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
            # Hidden: the other seats' cards in hand, and during the auction the three cards not yet dealt.
            hidden = {c for s in range(4) for c in deal.hands[s]} - own - played
            shown = {parse_card(c) for c in card_strings(message)}
            assert not shown & hidden, f"seat {seat} sees {sorted(map(card_str, shown & hidden))}"
            assert sorted(map(parse_card, message["hand"])) == sorted(own)
            assert "hands" not in message


@PROPERTY
@given(seed=st.integers(0, 10**6), rules=rules_strategy)
def test_deal_end_is_the_first_message_with_the_hands(seed: int, rules: Rules) -> None:
    """The stream one seat receives: before deal_end it knows only its own cards and the played ones."""
    seat = seed % 4
    deals_seen = 0
    for match, deal in decisions(seed, rules):
        if deal.to_act == seat:
            message = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging).to_json()
            received = set(deal.hands[seat][: 5 if deal.phase == "auction" else 8])
            played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
            assert {parse_card(c) for c in card_strings(message)} <= received | played
    for deal in match_deals(seed, rules):
        report, hands = deal_end_of(deal)
        message = json.loads(json.dumps(deal_end_message(report, hands)))
        assert message["hands"] == [[card_str(c) for c in hand] for hand in deal.hands]
        assert message["report"]["dealer"] == deal.dealer
        deals_seen += 1
    assert deals_seen >= 1


def match_deals(seed: int, rules: Rules) -> list[Deal]:
    last = None
    for last, _ in decisions(seed, rules):  # noqa: B007 (the match as it ends)
        pass
    assert last is not None
    return [d for d in last.deals if d.phase == "done"]


@PROPERTY
@given(seed=st.integers(0, 10**6), rules=rules_strategy)
def test_an_act_message_reads_back_into_the_same_observation(seed: int, rules: Rules) -> None:
    for match, deal in decisions(seed, rules):
        obs = observe(deal, deal.to_act, (match.totals[0], match.totals[1]), match.hanging)
        message = json.loads(json.dumps(obs.to_json()))  # as it travels
        assert observation_from_json(message) == obs


@PROPERTY
@given(seed=st.integers(0, 10**6), rules=rules_strategy, data=st.data())
def test_the_answer_check_agrees_with_the_engine(seed: int, rules: Rules, data: st.DataObject) -> None:
    """Whatever an agent answers, the referee accepts it exactly when the engine would."""
    for match, deal in decisions(seed, rules):
        obs = observe(deal, deal.to_act, (match.totals[0], match.totals[1]), match.hanging)
        raw: Bid | Play
        if deal.phase == "auction":
            raw = Bid(data.draw(st.integers(0, 8)))
            answer: dict[str, Any] = {"call": CALL_NAMES[raw.call]}
        else:
            raw = Play(
                data.draw(st.integers(0, 31)),
                tuple(data.draw(st.lists(st.sampled_from(KINDS), max_size=2))),
                data.draw(st.booleans()),
            )
            answer = {"card": card_str(raw.card), "declare": list(raw.declare), "belote": raw.belote}
        try:
            action = parse_answer(answer, obs)
        except ProtocolError as exc:
            assert exc.kind == "illegal"
            if rules.auto_declarations and isinstance(raw, Play):
                raw = Play(raw.card)  # the table announces for everyone; only the card can be wrong
            with pytest.raises(IllegalAction):
                copy.deepcopy(deal).apply(raw)
        else:
            copy.deepcopy(deal).apply(action)  # must not raise
        fallback = fallback_action(obs)
        assert fallback in deal.legal_actions()
        assert parse_answer(action_to_json(fallback), obs) == fallback
