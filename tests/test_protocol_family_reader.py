"""The agent side at Bela and French belote tables: act messages read into a SeatView, `belote-bot agent` seated."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.base import Agent
from bot.ai.registry import make_agent
from bot.ai.simple import RandomAgent
from bot.engine import CALL_NAMES, Bid, card_str, parse_card
from bot.engine.familyrecord import family_match_to_record
from bot.engine.seatview import SeatView
from bot.protocol.agent_runner import first_legal, run_agent
from bot.protocol.messages import ProtocolError, encode, parse_answer
from bot.protocol.referee import ProcessAgent
from bot.protocol.seatview_json import seatview_from_json

from .test_protocol_family import no_errors, play_family
from .test_protocol_family_answers import decisions, rules_for
from .test_protocol_referee import ENV

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


@pytest.mark.parametrize("variant", ["bela", "french"])
@PROPERTY
@given(seed=st.integers(0, 10**6), data=st.data())
def test_an_act_message_reads_back_into_the_same_view(variant: str, seed: int, data: st.DataObject) -> None:
    rules = data.draw(rules_for(variant))
    for _, _, view in decisions(variant, seed, rules):
        message = json.loads(json.dumps(view.to_json()))  # as it travels
        assert seatview_from_json(message) == view


# formats §7.6, "The dealer in the mus (bela)", verbatim.
DEALER_IN_THE_MUS = """
{
  "type": "act",
  "variant": "bela",
  "rules": {},
  "phase": "bid",
  "seat": 3,
  "dealer": 3,
  "hand": ["8H", "9C", "8C", "AS", "JD", "JC"],
  "bids": ["pass", "pass", "pass"],
  "caller": null,
  "contract": null,
  "multiplier": null,
  "declarer": null,
  "tricks": [],
  "trick": null,
  "announced": [],
  "shown": [],
  "score": {"A": 420, "B": 515},
  "hanging": 0,
  "legal": ["clubs", "diamonds", "hearts", "spades"],
  "declarable": [],
  "belote": false
}
"""


def test_the_dealer_in_the_mus_of_the_formats_page() -> None:
    view = seatview_from_json(json.loads(DEALER_IN_THE_MUS))
    assert (view.variant, view.phase, view.seat, view.dealer, view.to_act) == ("bela", "auction", 3, 3, 3)
    assert view.hand == cards("8H 9C 8C AS JD JC")
    assert view.calls == (6, 6, 6) and view.caller is None and view.contract is None
    assert view.legal_calls == (0, 1, 2, 3) and view.legal_cards == ()
    assert view.score == (420, 515) and view.sides == ("A", "B") and view.turned is None
    answer = RandomAgent(0).act(view)
    assert isinstance(answer, Bid) and answer.call in (0, 1, 2, 3)  # the dealer must name a suit


# A French round-2 call written from §7.6 by hand: fields in another order, the optional ones left out (caller,
# contract, multiplier, declarer, tricks, trick, announced, shown, declarable, belote), and fields this reader does not
# know (a later version's), which it ignores.
FRENCH_ROUND_TWO = {
    "legal": ["clubs", "diamonds", "spades", "pass"],
    "turned": "9H",
    "bids": ["pass", "pass", "pass", "pass", "pass"],
    "hand": ["AH", "TC", "7D", "KS", "QS"],
    "seat": 2,
    "dealer": 0,
    "variant": "french",
    "type": "act",
    "score": {"B": 310, "A": 640},
    "clock": {"seconds_left": 12},
    "exchanged": None,
}


def test_a_french_round_two_call_written_by_hand() -> None:
    view = seatview_from_json(FRENCH_ROUND_TWO)
    assert view.phase == "auction" and view.seat == 2 and len(view.calls) == 5
    assert view.turned == parse_card("9H") and view.rules == {} and view.hanging == 0
    assert view.legal_calls == (0, 1, 3, 6)
    assert view.score == (640, 310)
    assert view.announced == () and view.shown == () and view.belote_cards == ()
    for seed in range(10):
        action = RandomAgent(seed).act(view)
        assert parse_answer({"call": CALL_NAMES[action.call]}, view) == action  # type: ignore[union-attr]


# Bela, seat 1 after the first trick: it called hearts, its tierce won the contest and is shown, trump is led and it
# holds the king and queen of hearts (a bela to announce).
BELA_PLAY_WITH_SHOWN = {
    "type": "act",
    "variant": "bela",
    "rules": {"tie": "visi"},
    "phase": "play",
    "seat": 1,
    "dealer": 3,
    "hand": ["9D", "TD", "JD", "KH", "QH", "7C", "8D"],
    "bids": ["pass", "hearts"],
    "caller": 1,
    "contract": "hearts",
    "multiplier": 1,
    "declarer": "B",
    "tricks": [{"leader": 0, "cards": ["AS", "7S", "TS", "8S"], "winner": 0}],
    "trick": {"leader": 0, "cards": ["AH"]},
    "announced": [{"seat": 1, "declare": ["tierce"]}],
    "shown": [{"seat": 1, "kind": "tierce", "cards": ["9D", "TD", "JD"]}],
    "score": {"A": 120, "B": 85},
    "hanging": 0,
    "legal": ["KH", "QH"],
    "declarable": [],
    "belote": True,
}


def test_a_bela_play_with_shown_declarations_written_by_hand() -> None:
    view = seatview_from_json(BELA_PLAY_WITH_SHOWN)
    assert view.phase == "play" and view.caller == 1 and view.contract == 2
    assert view.rules == {"tie": "visi"}
    assert view.shown == ((1, "tierce", cards("9D TD JD")),)
    assert view.trick_leader == 0 and view.trick == cards("AH") and len(view.tricks) == 1
    assert view.legal_cards == cards("KH QH") and view.belote_cards == cards("KH QH")
    play = RandomAgent(3).act(view)
    assert parse_answer({"card": card_str(play.card), "belote": True}, view).belote  # type: ignore[union-attr]
    # The same message without caller, contract and declarer: the bids say who named which suit.
    bare = {k: v for k, v in BELA_PLAY_WITH_SHOWN.items() if k not in ("caller", "contract", "declarer", "phase")}
    assert seatview_from_json(bare) == view


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"hand": ["8H", "9C", "8C", "AS", "JD"]}, "act.hand: bela calls trump on 6 cards, not 5"),
        ({"phase": "discard"}, "act.phase: bela has no discard; only bela-3 does"),
        ({"phase": "deal"}, "act.phase: 'deal' is not a phase of bela; it has bid, discard (bela-3), exchange"),
        ({"seat": 4}, "act.seat: bela has seats 0 to 3, not 4"),
        ({"seat": 2}, "act.seat: after 3 bids it is not seat 2's call"),
        ({"hand": ["8H", "8H", "8C", "AS", "JD", "JC"]}, "a card appears twice"),
        ({"legal": ["no-trumps"]}, "act.legal[0]: 'no-trumps' is not a call of this game"),
        ({"variant": "coinche"}, "act.variant: 'coinche' is not a game this agent reads"),
        ({"rules": {"capot_bonus": 100}}, "act.rules.capot_bonus: not a table option of bela"),
        ({"hand": "8H 9C"}, "act.hand: Input should be a valid list"),
        ({"score": {"A": "lots"}}, "act.score.A"),
    ],
)
def test_a_message_that_makes_no_sense_is_malformed_naming_the_field(change: dict[str, Any], says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        seatview_from_json({**json.loads(DEALER_IN_THE_MUS), **change})
    assert caught.value.kind == "malformed"
    assert says in caught.value.reason


def test_the_runner_answers_family_messages_and_the_unreadable_with_their_first_legal_entry() -> None:
    broken = {**json.loads(DEALER_IN_THE_MUS), "hand": ["8H"]}
    exchange = {"type": "act", "variant": "bela-2", "phase": "exchange", "legal": [True, False]}
    discard = {"type": "act", "variant": "bela-3", "phase": "discard", "legal": ["QS", "TH", "JH"]}
    lines = [
        {"type": "hello", "protocol": "belote-agent/1", "variant": "bela", "rules": {}, "seats": 4},
        json.loads(DEALER_IN_THE_MUS), FRENCH_ROUND_TWO, BELA_PLAY_WITH_SHOWN, broken, exchange, discard,
        {"type": "quit"},
    ]
    stdin = io.StringIO("".join(encode(m) + "\n" for m in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_agent(make_agent("random", "r"), stdin, stdout, stderr) == 0
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert answers[0]["variants"] == ["bulgarian", "bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3",
                                      "bulgarian-2"]
    assert answers[1]["call"] in ("clubs", "diamonds", "hearts", "spades")
    assert answers[2]["call"] in ("clubs", "diamonds", "spades", "pass")
    assert answers[3]["card"] in ("KH", "QH")
    assert answers[4:] == [{"call": "clubs"}, {"exchange": True}, {"discard": ["QS", "TH"]}]
    assert answers[4] == first_legal(broken)
    complaints = stderr.getvalue().splitlines()
    assert len(complaints) == 3 and "message 5: cannot read this act message (act.hand: bela calls trump on 6" in (
        complaints[0]
    )


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_belote_bot_agent_plays_family_matches_through_the_protocol_exactly_as_in_process(variant: str) -> None:
    seed = f"fam-{variant}"
    command = [sys.executable, "-m", "bot", "agent", "--level", "random", "--seed", seed]
    with ProcessAgent(command, move_time=5, env=ENV, variant=variant) as agent:
        assert agent.name == "random"
        seats: list[Agent] = [RandomAgent(1), agent, RandomAgent(2), RandomAgent(3)]
        match = play_family(variant, seats, seed)
    assert no_errors(agent) and agent.decisions > 0
    in_process = play_family(variant, [RandomAgent(1), RandomAgent(seed), RandomAgent(2), RandomAgent(3)], seed)
    assert family_match_to_record(match) == family_match_to_record(in_process)
    assert isinstance(match.observe(1), SeatView)


def test_hostile_referee_lines_at_a_family_table_are_reported_and_every_act_answered() -> None:
    mus = json.loads(DEALER_IN_THE_MUS)
    lines = [
        "[" * 100000 + "]" * 100000,
        encode(mus).replace('"hanging":0', '"hanging":' + "9" * 5000),
        encode({**mus, "seat": "3"}),
        encode({**mus, "hand": ["8H"] * 5000}),
        encode({**mus, "bids": ["pass", "pass", "\ud800"]}),
        encode(mus),
        encode({"type": "quit"}),
    ]
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_agent(make_agent("random", "h"), stdin, stdout, stderr) == 0
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    # A line that is no JSON object is no question (formats §6): reported, not answered. Every act message is
    # answered: the unreadable ones with their first legal entry, the last with a legal call.
    assert answers[:2] == [{"call": "clubs"}] * 2
    assert answers[2]["call"] in ("clubs", "diamonds", "hearts", "spades") and len(answers) == 3
    complaints = stderr.getvalue().splitlines()
    assert len(complaints) == 5 and all(len(c) < 400 for c in complaints)
    assert "message 1: not valid JSON (nested more than 64 levels deep" in complaints[0]
    assert "message 2: not valid JSON (a number of 5000 digits" in complaints[1]
    assert "message 3: cannot read this act message (act.seat: Input should be a valid integer" in complaints[2]
    assert "message 4: cannot read this act message (act.hand: List should have at most 12 items" in complaints[3]
    assert "message 5: not valid JSON (not UTF-8 text (a lone surrogate)" in complaints[4]
