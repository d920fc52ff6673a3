"""belote-agent/1 at tables of three and two (formats §7.6): the act messages of bela-3, bela-2 and bela-open read
back into the very views the engine gives (the discard, the seven exchange, the open layouts), the format page's
examples verbatim, the discard and exchange answers checked, the referee's fallback in those phases, and
`belote-bot agent` playing whole matches through the protocol exactly as in process."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.base import Agent
from bot.ai.registry import make_agent
from bot.ai.simple import RandomAgent
from bot.engine import Discard, Exchange, parse_card
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_to_record
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.seatview import SeatView
from bot.protocol.agent_runner import run_agent
from bot.protocol.messages import ProtocolError, encode, fallback_action, hello_message, parse_answer
from bot.protocol.referee import ProcessAgent
from bot.protocol.seatview_json import seatview_from_json

from .test_protocol_family import SHORT, no_errors, play_family
from .test_protocol_referee import ENV

PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = ("bela-3", "bela-2", "bela-open")
SHORT.update({"bela-3": {"target_score": 301}, "bela-2": {"target_score": 201}, "bela-open": {"target_score": 201}})


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def rules_for(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    own: dict[str, st.SearchStrategy[Any]] = {
        "bela-3": {"forced_first_caller": st.booleans(), "auto_declarations": st.booleans(),
                   "fall_points": st.sampled_from(["vanish", "higher_opponent"])},
        "bela-2": {"seven_exchange": st.sampled_from(["trump", "always", "off"]), "stock_visible": st.booleans(),
                   "auto_declarations": st.booleans()},
        "bela-open": {"open_trump": st.sampled_from(["croatian", "french"]), "reveal_on_lead": st.booleans(),
                      "open_declarations": st.booleans(), "open_bela": st.booleans()},
    }[variant]
    return st.fixed_dictionaries({}, optional=own)


def views(variant: str, seed: int, rules: dict[str, Any]) -> list[tuple[FamilyMatch, SeatView]]:
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, {"target_score": 151, **rules}), seed=seed)
    assert isinstance(match, FamilyMatch)
    pick, seen = random.Random(seed), []
    while not match.over:
        deal = match.deal
        view = match.observe(deal.to_act)
        seen.append((match, view))
        match.apply(pick.choice(deal.legal_actions()))
    return seen


@pytest.mark.parametrize("variant", SMALL)
@PROPERTY
@given(seed=st.integers(0, 10**6), data=st.data())
def test_an_act_message_reads_back_into_the_same_view(variant: str, seed: int, data: st.DataObject) -> None:
    rules = data.draw(rules_for(variant))
    phases = set()
    for _, view in views(variant, seed, rules):
        message = json.loads(json.dumps(view.to_json()))  # as it travels
        if not view.announces:
            # The open game's act carries no "shown" (formats §7.6.2): its automatic declarations come from the
            # public layouts, and the message does not repeat them.
            view = dataclasses.replace(view, shown=())
        assert seatview_from_json(message) == view
        phases.add(message["phase"])
    assert {"bid", "play"} <= phases


# formats §7.6, "The 3-player caller's discard (bela-3)", verbatim.
DISCARD_EXAMPLE = """
{
  "type": "act",
  "variant": "bela-3",
  "rules": {},
  "phase": "discard",
  "seat": 0,
  "dealer": 2,
  "hand": ["QS","TH","JH","QD","JC","JD","AH","AC","KH","7C","TS","JS"],
  "bids": ["hearts"],
  "caller": 0,
  "contract": "hearts",
  "multiplier": 1,
  "declarer": "0",
  "discard": null,
  "tricks": [],
  "trick": null,
  "announced": [],
  "shown": [],
  "score": {"0": 180, "1": 240, "2": 95},
  "hanging": 0,
  "legal": ["QS","TH","JH","QD","JC","JD","AH","AC","KH","7C","TS","JS"],
  "declarable": [],
  "belote": false
}
"""

# formats §7.6, "The seven exchange (bela-2)", verbatim.
EXCHANGE_EXAMPLE = """
{
  "type": "act",
  "variant": "bela-2",
  "rules": {},
  "phase": "exchange",
  "seat": 0,
  "dealer": 0,
  "hand": ["JC", "JD", "7S", "7C", "JS", "9D"],
  "turned": "AC",
  "exchanged": null,
  "bids": ["clubs"],
  "caller": 1,
  "contract": "clubs",
  "multiplier": 1,
  "declarer": "1",
  "tricks": [],
  "trick": null,
  "announced": [],
  "shown": [],
  "score": {"0": 0, "1": 0},
  "hanging": 0,
  "legal": [true, false],
  "declarable": [],
  "belote": false
}
"""

# formats §7.6, "A play in the open game (bela-open; seat 0 led the A♥, trumps)", verbatim.
OPEN_PLAY_EXAMPLE = """
{
  "type": "act",
  "variant": "bela-open",
  "rules": {},
  "phase": "play",
  "seat": 1,
  "dealer": 1,
  "hand": ["JH", "AS", "TH", "TD", "JC", "8H", "9H", "AD"],
  "layout": [
    [[null, "KH"], [null, "QH"], [null, "QD"], [null, "JD"], [null], [null, "7H"], [null, "TS"], [null, "KC"]],
    [[null, "JH"], [null, "AS"], [null, "TH"], [null, "TD"], [null, "JC"], [null, "8H"], [null, "9H"], [null, "AD"]]
  ],
  "bids": ["hearts"],
  "caller": 0,
  "contract": "hearts",
  "multiplier": 1,
  "declarer": "0",
  "tricks": [],
  "trick": {"leader": 0, "cards": ["AH"]},
  "announced": [],
  "score": {"0": 0, "1": 0},
  "hanging": 0,
  "legal": ["9H", "JH"]
}
"""


def test_the_three_player_discard_of_the_formats_page() -> None:
    view = seatview_from_json(json.loads(DISCARD_EXAMPLE))
    assert (view.variant, view.phase, view.seat, view.caller, view.contract) == ("bela-3", "discard", 0, 0, 2)
    assert view.legal_cards == view.hand and len(view.hand) == 12 and view.discard is None
    assert view.score == (180, 240, 95) and view.sides == ("0", "1", "2")
    assert parse_answer({"discard": ["7C", "QD"]}, view) == Discard(cards("7C QD"))
    answer = make_agent("random", "d").act(view)
    assert isinstance(answer, Discard) and len(set(answer.cards)) == 2 and set(answer.cards) <= set(view.hand)
    assert fallback_action(view) == Discard(cards("QS TH"))


def test_the_seven_exchange_of_the_formats_page() -> None:
    view = seatview_from_json(json.loads(EXCHANGE_EXAMPLE))
    assert (view.variant, view.phase, view.seat, view.caller) == ("bela-2", "exchange", 0, 1)
    assert view.turned == parse_card("AC") and view.exchanged is None and view.legal_exchange == (True, False)
    assert parse_answer({"exchange": True}, view) == Exchange(True)
    assert parse_answer({"exchange": False}, view) == Exchange(False)
    assert isinstance(make_agent("random", "e").act(view), Exchange)
    assert fallback_action(view) == Exchange(True)


def test_a_play_in_the_open_game_of_the_formats_page() -> None:
    view = seatview_from_json(json.loads(OPEN_PLAY_EXAMPLE))
    assert (view.variant, view.phase, view.seat, view.caller) == ("bela-open", "play", 1, 0)
    assert view.legal_cards == cards("9H JH") and view.trick == cards("AH")
    assert view.layout is not None and view.layout[0][4] == (None,) and view.layout[1][0] == (None, parse_card("JH"))
    assert not view.announces and view.declarable == () and view.belote_cards == ()
    with pytest.raises(ProtocolError, match="9H, JH"):
        parse_answer({"card": "AS"}, view)


@pytest.mark.parametrize(("example", "change", "says"), [
    (DISCARD_EXAMPLE, {"seat": 1}, "act.seat"),
    (DISCARD_EXAMPLE, {"hand": ["QS", "TH"], "legal": ["QS", "TH"]}, "12 cards"),
    (DISCARD_EXAMPLE, {"variant": "bela-2", "score": {"0": 0, "1": 0}, "dealer": 1}, "no discard"),
    (EXCHANGE_EXAMPLE, {"hand": ["JC", "JD", "7S", "8C", "JS", "9D"]}, "the 7 of the turned suit"),
    (EXCHANGE_EXAMPLE, {"legal": ["clubs"]}, "act.legal"),
    (EXCHANGE_EXAMPLE, {"turned": None}, "act.turned"),
    (OPEN_PLAY_EXAMPLE, {"hand": ["JH", "AS"]}, "uncovered face-up cards"),
    (OPEN_PLAY_EXAMPLE, {"layout": None}, "act.layout"),
    (OPEN_PLAY_EXAMPLE, {"phase": "deal"}, "act.phase"),
])
def test_a_message_that_makes_no_sense_is_malformed_naming_the_field(example: str, change: dict[str, Any],
                                                                     says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        seatview_from_json({**json.loads(example), **change})
    assert caught.value.kind == "malformed" and says in caught.value.reason


def test_discard_and_exchange_answers_are_checked_with_what_is_right() -> None:
    discard = seatview_from_json(json.loads(DISCARD_EXAMPLE))
    exchange = seatview_from_json(json.loads(EXCHANGE_EXAMPLE))
    cases: list[tuple[dict[str, Any], SeatView, str, str]] = [
        ({"discard": ["7C", "7C"]}, discard, "illegal", "two different cards"),
        ({"discard": ["7C", "8D"]}, discard, "illegal", "8D is not one of the caller's 12 cards"),
        ({"discard": ["7C"]}, discard, "malformed", "a list of two cards"),
        ({"card": "7C"}, discard, "illegal", '{"discard": ["QS", "TH"]}'),
        ({"call": "pass"}, exchange, "illegal", '{"exchange": true} or {"exchange": false}'),
        ({"exchange": "yes"}, exchange, "malformed", "true or false"),
        ({"exchange": True}, discard, "illegal", "no seven exchange now"),
        ({"discard": ["JC", "JD"]}, exchange, "illegal", "no discard now"),
        ({"discard": ["7C", "QD"], "card": "7C"}, discard, "malformed", "unknown field 'discard'"),
    ]
    for answer, view, kind, says in cases:
        with pytest.raises(ProtocolError) as caught:
            parse_answer(answer, view)
        assert (caught.value.kind, says in caught.value.reason) == (kind, True), (answer, caught.value.reason)


@pytest.mark.parametrize("variant", SMALL)
def test_the_referee_falls_back_to_a_legal_action_in_every_phase(variant: str) -> None:
    # A whole match played by the fallback alone: the engine refuses anything illegal (before, a discard or an
    # exchange fell back to playing a card).
    rules = {"target_score": 151, **({"seven_exchange": "always"} if variant == "bela-2" else {})}
    phases = set()
    for seed in range(4):
        match = VARIANTS[variant].new_match(parse_variant_rules(variant, rules), seed=seed)
        while not match.over:
            view = match.observe(match.deal.to_act)
            phases.add(view.phase)
            match.apply(fallback_action(view))
    assert {"discard" if variant == "bela-3" else "exchange" if variant == "bela-2" else "play"} <= phases


def hello_variants(variant: str) -> list[str]:
    """The games ``belote-bot agent``'s random level answers it plays, after the hello of a ``variant`` table
    (whose seats and name the hello must give)."""
    hello = hello_message(variant)
    assert hello["seats"] == VARIANTS[variant].seats and hello["variant"] == variant
    stdin = io.StringIO(encode(hello) + "\n" + encode({"type": "quit"}) + "\n")
    stdout = io.StringIO()
    run_agent(make_agent("random", "h"), stdin, stdout, io.StringIO())
    variants: list[str] = json.loads(stdout.getvalue().splitlines()[0])["variants"]
    return variants


def through_the_agent(variant: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A match of ``variant`` with seat 1 played by ``belote-bot agent`` in its own process, which must end exactly
    as the same match played in process; the messages sent to the program and its answers."""
    seed = f"small-{variant}"
    n = VARIANTS[variant].seats
    command = [sys.executable, "-m", "bot", "agent", "--level", "random", "--seed", seed]
    transcript = io.StringIO()
    with ProcessAgent(command, move_time=5, env=ENV, variant=variant, transcript=transcript) as agent:
        seats: list[Agent] = [RandomAgent(1), agent, RandomAgent(2)][:n]
        match = play_family(variant, seats, seed)
    assert no_errors(agent) and agent.decisions > 0
    in_process = play_family(variant, [RandomAgent(1), RandomAgent(seed), RandomAgent(2)][:n], seed)
    assert family_match_to_record(match) == family_match_to_record(in_process)
    sent = [json.loads(line[2:]) for line in transcript.getvalue().splitlines() if line.startswith("> ")]
    answers = [json.loads(line[2:]) for line in transcript.getvalue().splitlines() if line.startswith("< ")]
    assert sent[0]["seats"] == n
    return sent, answers


@pytest.mark.parametrize("variant", SMALL)
def test_the_hello_names_three_or_two_seats_and_the_agent_plays_them(variant: str) -> None:
    assert variant in hello_variants(variant)


@pytest.mark.parametrize("variant", SMALL)
def test_belote_bot_agent_plays_matches_of_three_and_two_exactly_as_in_process(variant: str) -> None:
    n = VARIANTS[variant].seats
    sent, answers = through_the_agent(variant)
    ends = [m for m in sent if m["type"] == "deal_end"]
    assert ends and all(len(m["hands"]) == n for m in ends)
    if variant == "bela-3":
        assert all(len(m["extra"]) == 2 for m in ends)  # the set-aside cards, public at the deal's end
        assert any("discard" in a for a in answers)  # seat 1 called at least once and discarded
    if variant == "bela-open":
        assert all("layout" in m for m in sent if m["type"] == "act")
