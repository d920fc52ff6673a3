"""What a seat of `bela-3`, `bela-2` or `bela-open` sees (formats §7.6 ``act``): the discard, the exchange, the
stock, the layouts."""

from __future__ import annotations

import copy
from typing import Any

from bot.ai.simple import RandomAgent
from bot.engine import Discard, Exchange, parse_card
from bot.engine.bela2 import BelaTwoMatch, BelaTwoRules
from bot.engine.familyrecord import replay_family_record
from bot.engine.seatview import SeatView
from tests.test_family_small_record import BELA2_EXAMPLE, BELA3_EXAMPLE


def before_play(example: dict[str, Any], rules: dict[str, Any] | None = None) -> dict[str, Any]:
    record = copy.deepcopy(example)
    for key in ("play", "discard", "exchange"):
        record["deals"][0].pop(key, None)
    if rules is not None:
        record["rules"] = rules
    return record


def act(view: SeatView) -> dict[str, Any]:
    """The act message with its card lists in a fixed order (a hand's order is not part of the format)."""
    out = view.to_json()
    for key in ("hand", "legal"):
        if out[key] and isinstance(out[key][0], str):
            out[key] = sorted(out[key])
    return out


def test_the_bela3_discard_act_message_of_formats_7_6() -> None:
    match = replay_family_record(before_play(BELA3_EXAMPLE))
    match.totals = [180, 240, 95]
    twelve = sorted(["QS", "TH", "JH", "QD", "JC", "JD", "AH", "AC", "KH", "7C", "TS", "JS"])
    assert act(match.observe(0)) == {
        "type": "act", "variant": "bela-3", "rules": {}, "phase": "discard", "seat": 0, "dealer": 2,
        "hand": twelve, "bids": ["hearts"], "caller": 0, "contract": "hearts", "multiplier": 1, "declarer": "0",
        "discard": None, "tricks": [], "trick": None, "announced": [], "shown": [],
        "score": {"0": 180, "1": 240, "2": 95}, "hanging": 0, "legal": twelve, "declarable": [], "belote": False,
    }  # fmt: skip
    other = match.observe(1).to_json()
    assert other["phase"] == "discard" and other["legal"] == [] and other["discard"] is None
    assert len(other["hand"]) == 10 and not {"TS", "JS"} & set(other["hand"])
    match.apply(Discard((parse_card("7C"), parse_card("QD"))))
    assert match.observe(0).to_json()["discard"] == ["7C", "QD"]
    assert match.observe(1).to_json()["discard"] is None and match.observe(2).to_json()["discard"] is None
    assert len(match.observe(0).hand) == 10


def test_the_bela2_exchange_act_message_of_formats_7_6() -> None:
    match = replay_family_record(before_play(BELA2_EXAMPLE))
    assert act(match.observe(0)) == {
        "type": "act", "variant": "bela-2", "rules": {}, "phase": "exchange", "seat": 0, "dealer": 0,
        "hand": sorted(["JC", "JD", "7S", "7C", "JS", "9D"]), "turned": "AC", "exchanged": None, "bids": ["clubs"],
        "caller": 1, "contract": "clubs", "multiplier": 1, "declarer": "1", "tricks": [],
        "trick": None, "announced": [], "shown": [], "score": {"0": 0, "1": 0}, "hanging": 0,
        "legal": [True, False], "declarable": [], "belote": False,
    }  # fmt: skip
    waiting = match.observe(1).to_json()
    assert waiting["phase"] == "exchange" and waiting["legal"] == [] and len(waiting["hand"]) == 6
    assert "stock" not in waiting
    match.apply(Exchange(True))
    for seat in (0, 1):
        seen = match.observe(seat).to_json()
        assert seen["exchanged"] is True and seen["phase"] == "play" and len(seen["hand"]) == 10
    assert "AC" in match.observe(0).to_json()["hand"]
    assert parse_card("AC") in match.observe(0).talon and parse_card("AC") not in match.observe(1).talon


def test_the_bela2_stock_is_public_only_when_it_lies_face_up() -> None:
    shown = replay_family_record(before_play(BELA2_EXAMPLE, {"stock_visible": True}))
    dealt = {c for h in BELA2_EXAMPLE["deals"][0]["hands"] for c in h} | {"AC"}
    for seat in (0, 1):
        stock = shown.observe(seat).to_json()["stock"]
        assert len(stock) == 11 and not set(stock) & dealt
    hidden = replay_family_record(before_play(BELA2_EXAMPLE))
    assert all("stock" not in hidden.observe(seat).to_json() for seat in (0, 1))


def test_the_random_bot_answers_the_discard_and_the_exchange_from_its_view() -> None:
    three = replay_family_record(before_play(BELA3_EXAMPLE))
    for seed in range(20):
        action = RandomAgent(seed).act(three.observe(0))
        assert isinstance(action, Discard) and len(set(action.cards)) == 2
        assert set(action.cards) <= set(three.observe(0).legal_cards)
    two = replay_family_record(before_play(BELA2_EXAMPLE))
    answers = {RandomAgent(seed).act(two.observe(0)) for seed in range(20)}
    assert answers == {Exchange(True), Exchange(False)}
    two.apply(Exchange(False))
    assert two.deal.phase == "play"


def test_a_two_player_match_under_every_exchange_rule_reaches_its_end_with_random_bots() -> None:
    for rule in ("trump", "always", "off"):
        match = BelaTwoMatch(BelaTwoRules(seven_exchange=rule, target_score=301), seed=rule)
        bots = [RandomAgent(1), RandomAgent(2)]
        while not match.over:
            match.apply(bots[match.to_act].act(match.observe(match.to_act)))
        assert match.winner is not None and max(match.totals) >= 301


def test_the_open_play_act_message_of_formats_7_6() -> None:
    from tests.test_family_small_record import BELA_OPEN_EXAMPLE

    record = copy.deepcopy(BELA_OPEN_EXAMPLE)
    record["deals"][0]["play"] = ["AH"]
    match = replay_family_record(record)
    assert act(match.observe(1)) == {
        "type": "act", "variant": "bela-open", "rules": {}, "phase": "play", "seat": 1, "dealer": 1,
        "hand": sorted(["JH", "AS", "TH", "TD", "JC", "8H", "9H", "AD"]),
        "layout": [
            [[None, "KH"], [None, "QH"], [None, "QD"], [None, "JD"], [None], [None, "7H"], [None, "TS"], [None, "KC"]],
            [[None, "JH"], [None, "AS"], [None, "TH"], [None, "TD"], [None, "JC"], [None, "8H"], [None, "9H"],
             [None, "AD"]],
        ],
        "bids": ["hearts"], "caller": 0, "contract": "hearts", "multiplier": 1, "declarer": "0", "tricks": [],
        "trick": {"leader": 0, "cards": ["AH"]}, "announced": [], "score": {"0": 0, "1": 0}, "hanging": 0,
        "legal": ["9H", "JH"],
    }  # fmt: skip
    # Both layouts are the same for both seats: they are public.
    assert match.observe(0).to_json()["layout"] == match.observe(1).to_json()["layout"]


def test_the_open_french_trump_choice_shows_the_proposing_card_as_turned() -> None:
    from tests.test_family_small_record import BELA_OPEN_EXAMPLE

    record = copy.deepcopy(BELA_OPEN_EXAMPLE)
    record["rules"] = {"open_trump": "french"}
    record["deals"][0]["bids"] = []
    record["deals"][0].pop("play")
    match = replay_family_record(record)
    for seat in (0, 1):
        assert match.observe(seat).to_json()["turned"] == "AD"  # the face-up card of the dealer's pile 7
    assert "turned" not in replay_family_record(BELA_OPEN_EXAMPLE).observe(0).to_json()
