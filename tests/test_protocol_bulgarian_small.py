"""belote-agent/1 at the Bulgarian tables of three and two (formats §7.6): the act messages of bulgarian-3 and
bulgarian-2 (the six contracts, contra and recontra, the multiplier, a side per player, no ``shown``) read back into
the very views the engine gives, messages written by hand with fields reordered, left out or added, the ones that
make no sense named by field, and `belote-bot agent` playing whole matches through the protocol exactly as in
process."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import parse_card
from bot.engine.bulgarian_small import legal_calls
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA
from bot.engine.familymatch import FamilyMatch
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.protocol.messages import ProtocolError, fallback_action, parse_answer
from bot.protocol.seatview_json import seatview_from_json

from .test_protocol_family import SHORT
from .test_protocol_small import hello_variants, through_the_agent

HEARTS, SPADES = 2, 3  # the contracts run clubs, diamonds, hearts, spades, no trumps, all trumps
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = ("bulgarian-3", "bulgarian-2")
SHORT.update({"bulgarian-3": {"target_score": 61}, "bulgarian-2": {"target_score": 61}})


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def rules_for(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    own: dict[str, st.SearchStrategy[Any]] = {
        "contra_blocks_bidding": st.booleans(), "recontra_ends_auction": st.booleans(),
        "auto_declarations": st.booleans(), "must_undertrump": st.booleans(), "nt_aces_carre": st.booleans(),
        "valat_team_keeps_declarations": st.booleans(),
    }
    if variant == "bulgarian-3":
        own["made_rule"] = st.sampled_from(["each", "both_together"])
    return st.fixed_dictionaries({}, optional=own)


@pytest.mark.parametrize("variant", GAMES)
@PROPERTY
@given(seed=st.integers(0, 10**6), data=st.data())
def test_every_act_message_of_a_whole_match_reads_back_into_the_engines_view(variant: str, seed: int,
                                                                           data: st.DataObject) -> None:
    rules = data.draw(rules_for(variant))
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, {"target_score": 61, **rules}), seed=seed)
    assert isinstance(match, FamilyMatch)
    pick, phases, multipliers = random.Random(seed), set(), set()
    while not match.over:
        view = match.observe(match.deal.to_act)
        message = json.loads(json.dumps(view.to_json()))  # as it travels
        assert "shown" not in message
        assert seatview_from_json(message) == view
        phases.add(message["phase"])
        multipliers.add(view.multiplier)
        match.apply(pick.choice(match.deal.legal_actions()))
    assert {"bid", "play"} <= phases


# bulgarian-3, dealer 2: seat 0 bid hearts, seat 1 said contra; seat 2 calls on its first 5 cards. The fields come
# in another order than the page lists them, caller/contract/multiplier/declarer/tricks/trick are left out (nothing
# is in force yet), and one field is unknown.
BID = {
    "legal": ["pass", "spades", "no-trumps", "all-trumps"],
    "hand": ["9S", "JS", "QH", "KH", "AD"],
    "bids": ["hearts", "contra"],
    "dealer": 2,
    "seat": 2,
    "phase": "bid",
    "variant": "bulgarian-3",
    "type": "act",
    "score": {"2": 40, "0": 12, "1": 77},
    "hanging": 6,
    "clock": {"left_ms": 4000},
}

# bulgarian-2, dealer 1: seat 0 all trumps, seat 1 contra, seat 0 recontra, seat 1 pass; seat 0 led the 9♥ and
# seat 1 holds the K♥ Q♥: in all trumps he follows suit and cannot beat the 9, and a belote goes with following
# suit. No "shown", "phase" left out (the contract says play), "caller"/"declarer" left out.
PLAY = {
    "type": "act",
    "variant": "bulgarian-2",
    "seat": 1,
    "dealer": 1,
    "hand": ["KH", "QH", "AS", "TS", "JC", "9D", "TD", "AC"],
    "bids": ["all-trumps", "contra", "recontra", "pass"],
    "contract": "all-trumps",
    "multiplier": 4,
    "trick": {"cards": ["9H"], "leader": 0},
    "tricks": [],
    "announced": [],
    "score": {"0": 30, "1": 12},
    "hanging": 5,
    "legal": ["KH", "QH"],
    "declarable": [],
    "belote": True,
    "rules": {"target_score": 101},
}


def test_a_bulgarian_three_call_after_a_contra_written_by_hand() -> None:
    view = seatview_from_json(BID)
    assert (view.variant, view.seat, view.dealer, view.phase, view.to_act) == ("bulgarian-3", 2, 2, "auction", 2)
    assert view.hand == cards("9S JS QH KH AD")
    assert view.calls == (HEARTS, CONTRA)
    assert (view.contract, view.caller, view.multiplier) == (None, None, 2)
    assert view.legal_calls == (PASS, SPADES, NO_TRUMPS, ALL_TRUMPS)
    # What the message offers is what the game allows there (family §8.4).
    rules = parse_variant_rules("bulgarian-3", {})
    assert sorted(view.legal_calls) == legal_calls(3, 2, [HEARTS, CONTRA], rules)
    assert (view.sides, view.score, view.hanging) == (("0", "1", "2"), (12, 77, 40), 6)
    assert (view.shows, view.shown, view.legal_cards) == (False, (), ())


def test_a_bulgarian_two_play_under_recontra_written_by_hand() -> None:
    view = seatview_from_json(PLAY)
    assert (view.phase, view.contract, view.caller, view.multiplier) == ("play", ALL_TRUMPS, 0, 4)
    assert view.calls == (ALL_TRUMPS, CONTRA, RECONTRA, PASS)
    assert (view.trick_leader, view.trick) == (0, cards("9H"))
    assert set(view.legal_cards) == set(cards("KH QH"))
    assert set(view.belote_cards) == set(cards("KH QH"))  # following suit in all trumps
    assert view.rules == {"target_score": 101}
    assert (view.sides, view.score, view.hanging) == (("0", "1"), (30, 12), 5)
    # A recontra answered and a card with its belote; a contra now is no call of the play.
    assert parse_answer({"card": "KH", "belote": True}, view) is not None
    with pytest.raises(ProtocolError) as caught:
        parse_answer({"call": "contra"}, view)
    assert caught.value.kind == "illegal"


def test_the_first_lead_without_phase_contract_or_trick_follows_from_the_bids() -> None:
    # bulgarian-3, dealer 0: seat 1 bid spades, seats 2 and 0 passed; seat 1 leads. Only the bids say it is the play.
    message = {"type": "act", "variant": "bulgarian-3", "seat": 1, "dealer": 0, "bids": ["spades", "pass", "pass"],
               "hand": ["9S", "JS", "QH", "KH", "AD", "TD", "9C", "AC"],
               "legal": ["9S", "JS", "QH", "KH", "AD", "TD", "9C", "AC"], "declarable": []}
    view = seatview_from_json(message)
    assert (view.phase, view.contract, view.caller, view.multiplier) == ("play", SPADES, 1, 1)
    assert (view.trick_leader, view.trick, view.belote_cards) == (1, (), ())


@pytest.mark.parametrize(("base", "change", "says"), [
    (BID, {"multiplier": 4, "phase": "play", "contract": "hearts"}, "act.bids"),
    (BID, {"hand": ["9S", "JS", "QH", "KH", "AD", "AS"]}, "5 cards"),
    (BID, {"bids": ["hearts", "seven"]}, "act.bids[1]"),
    (BID, {"seat": 3}, "act.seat"),
    (BID, {"bids": ["pass", "pass", "pass"], "seat": 0}, "passed out"),
    (PLAY, {"multiplier": 2}, "act.multiplier: the bids make it 4"),
    (PLAY, {"contract": "no-trumps"}, "act.contract"),
    (PLAY, {"caller": 1}, "act.caller"),
    (PLAY, {"declarer": "1"}, "act.declarer"),
    (PLAY, {"bids": ["all-trumps", "contra"], "phase": "play"}, "the auction goes on, so the phase is bid"),
    (PLAY, {"bids": ["all-trumps", "contra"]}, "no contract is in force yet"),
    (PLAY, {"legal": ["AH"]}, "act.legal"),
])
def test_a_bulgarian_message_that_makes_no_sense_is_malformed_naming_the_field(base: dict[str, Any],
                                                                              change: dict[str, Any],
                                                                              says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        seatview_from_json({**base, **change})
    assert caught.value.kind == "malformed" and says in caught.value.reason, caught.value.reason


@pytest.mark.parametrize("variant", GAMES)
def test_the_referee_falls_back_to_a_legal_action_at_bulgarian_tables(variant: str) -> None:
    for seed in range(3):
        match = VARIANTS[variant].new_match(parse_variant_rules(variant, {"target_score": 61}), seed=seed)
        while not match.over:
            match.apply(fallback_action(match.observe(match.deal.to_act)))


@pytest.mark.parametrize("variant", GAMES)
def test_the_hello_names_the_bulgarian_tables_and_the_agent_plays_them(variant: str) -> None:
    assert variant in hello_variants(variant)


@pytest.mark.parametrize("variant", GAMES)
def test_belote_bot_agent_plays_bulgarian_matches_of_three_and_two_exactly_as_in_process(variant: str) -> None:
    n = VARIANTS[variant].seats
    sent, answers = through_the_agent(variant)
    acts = [m for m in sent if m["type"] == "act"]
    assert acts and all("shown" not in m and set(m["score"]) == set(VARIANTS[variant].sides) for m in acts)
    assert any(m["phase"] == "play" and m["multiplier"] >= 1 for m in acts)
    assert any("call" in a for a in answers) and any("card" in a for a in answers)
    ends = [m for m in sent if m["type"] == "deal_end"]
    assert ends and all(len(m["hands"]) == n for m in ends)
