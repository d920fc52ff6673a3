"""Records and replay of `bela-3`, `bela-2` and `bela-open` (formats §7.3, §7.4) and `belote-bot replay` for them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.bela2 import BelaTwoMatch, BelaTwoRules
from bot.engine.bela3 import BelaThreeMatch, BelaThreeRules
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_report, family_match_to_record, replay_family_record
from bot.engine.record import RecordError, ReplayError
from tests.test_family_record import _broken, play_out, run_cli, without_dealing
from tests.test_family_small_oracle import THREE_CHOICES, TWO_CHOICES

# The examples of formats §7.3, verbatim.
BELA3_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bela-3",
    "rules": {},
    "seats": ["Ivo", "Mara", "Luka"],
    "deals": [
        {
            "dealer": 2,
            "hands": [["QS","TH","JH","QD","JC","JD","AH","AC","KH","7C"],
                      ["9D","TD","7D","8C","9C","8D","8S","TC","QH","AD"],
                      ["AS","QC","KC","9H","7H","9S","KD","7S","KS","8H"]],
            "extra": ["TS", "JS"],
            "bids": ["hearts"],
            "discard": ["7C", "QD"],
            "play": [{"card": "AC", "declare": ["carre", "tierce"]}, {"card": "8C", "declare": ["quarte", "tierce"]},
                     {"card": "KC", "declare": ["tierce"]}],
        }
    ],
}  # fmt: skip
BELA2_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bela-2",
    "rules": {},
    "seats": ["Ana", "Ivan"],
    "deals": [
        {
            "dealer": 0,
            "hands": [["JC","JD","7S","7C","JS","9D","9H","TS","QH","8D"],
                      ["TH","7D","KC","8H","QD","AD","QS","TC","QC","8C"]],
            "turned": "AC",
            "bids": ["clubs"],
            "exchange": True,
            "play": ["AD", "9D"],
        }
    ],
}  # fmt: skip
SEATS = {"bela-3": ["a", "b", "c"], "bela-2": ["a", "b"]}


@pytest.mark.parametrize("example", [BELA3_EXAMPLE, BELA2_EXAMPLE], ids=["bela-3", "bela-2"])
def test_the_format_examples_replay_and_are_written_back_exactly(example: dict[str, Any]) -> None:
    match = replay_family_record(example)
    assert without_dealing(family_match_to_record(match, example["seats"])) == example


def test_bela3_example_the_caller_holds_four_jacks_with_the_extra_cards() -> None:
    match = replay_family_record(BELA3_EXAMPLE)
    deal = match.deal
    assert deal.phase == "play" and deal.bidder == 0 and deal.contest() == 0
    assert [a.kinds for a in deal.announcements] == [("carre", "tierce"), ("quarte", "tierce"), ("tierce",)]
    report = family_match_report(match)
    assert report["deals"][0] == {
        "dealer": 2, "caller": 0, "contract": "hearts", "multiplier": 1, "declarer": "0",
        "tricks": {"0": 1, "1": 0, "2": 0}, "raw": None, "score": None, "hanging": 0, "outcome": None, "fell": None,
        "belot": None,
    }  # fmt: skip
    assert report["total"] == {"0": 0, "1": 0, "2": 0}


def test_bela2_example_seat_0_plays_with_the_turned_ace() -> None:
    match = replay_family_record(BELA2_EXAMPLE)
    deal = match.deal
    assert deal.exchanged is True  # type: ignore[attr-defined]
    hand = {c for c in deal.hand_of(0)}
    from bot.engine import parse_card

    assert parse_card("AC") in hand and parse_card("7C") not in hand


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    game=st.sampled_from(["bela-3", "bela-2"]),
    stop=st.one_of(st.none(), st.integers(0, 300)),
    data=st.data(),
)
def test_records_round_trip(seed: int, game: str, stop: int | None, data: st.DataObject) -> None:
    """A match, finished or stopped anywhere (in the discard or the exchange too), written and replayed, gives the
    same record and the same report, and plays on."""
    choices = THREE_CHOICES if game == "bela-3" else TWO_CHOICES
    opts = data.draw(st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in choices.items()}))
    match: FamilyMatch = (
        BelaThreeMatch(BelaThreeRules(**opts), seed=seed)
        if game == "bela-3"
        else BelaTwoMatch(BelaTwoRules(**opts), seed=seed)
    )
    play_out(match, random.Random(seed), stop)
    record = json.loads(json.dumps(family_match_to_record(match, SEATS[game])))
    again = replay_family_record(record, seed=seed)
    assert family_match_report(again) == family_match_report(match)
    assert family_match_to_record(again, SEATS[game]) == record
    while not again.over and again.deal.phase != "done":
        again.apply(again.legal_actions()[0])


@pytest.mark.parametrize(
    ("example", "path", "value", "where", "says"),
    [
        (BELA3_EXAMPLE, ["deals", 0, "extra"], KeyError, "deals[0].extra", "names its 2 extra cards"),
        (BELA3_EXAMPLE, ["deals", 0, "turned"], "7C", "deals[0].turned", "3-player Bela deal has no turned card"),
        (BELA3_EXAMPLE, ["deals", 0, "exchange"], True, "deals[0].exchange", "has no seven exchange"),
        (BELA3_EXAMPLE, ["deals", 0, "discard"], KeyError, "deals[0].discard", "two discards come before"),
        (BELA3_EXAMPLE, ["deals", 0, "discard", 0], "XX", "deals[0].discard[0]", "not a card"),
        (BELA3_EXAMPLE, ["deals", 0, "extra", 0], "AS", "deals[0].hands", "distinct"),
        (BELA3_EXAMPLE, ["deals", 0, "hands", 1], ["9D", "TD"], "deals[0].hands[1]", "10 cards"),
        (BELA3_EXAMPLE, ["seats"], ["Ivo", "Mara"], "seats", "3 seats"),
        (BELA3_EXAMPLE, ["rules"], {"tie": "visi"}, "rules.tie", "not a table option of bela-3"),
        (BELA2_EXAMPLE, ["deals", 0, "turned"], KeyError, "deals[0].turned", "names its turned card"),
        (BELA2_EXAMPLE, ["deals", 0, "extra"], ["KH", "KS"], "deals[0].extra", "2-player Bela deal has no 2 extra"),
        (BELA2_EXAMPLE, ["deals", 0, "exchange"], KeyError, "deals[0].exchange", "whether he exchanged it"),
        (BELA2_EXAMPLE, ["deals", 0, "turned"], "JC", "deals[0].hands", "turned card"),
        (BELA2_EXAMPLE, ["deals", 0, "hands"], [["JC"] * 10], "deals[0].hands", "2 hands"),
    ],
)
def test_malformed_records_are_located(
    example: dict[str, Any], path: list[Any], value: object, where: str, says: str
) -> None:
    with pytest.raises(RecordError) as err:
        replay_family_record(_broken(example, path, value))
    assert err.value.where == where and says in err.value.why, err.value


def test_an_exchange_that_was_not_due_is_located() -> None:
    # Trump diamonds instead of clubs: under the default seven_exchange "trump", nobody is asked.
    record = _broken(BELA2_EXAMPLE, ["deals", 0, "bids"], ["pass", "pass", "diamonds"])
    with pytest.raises(RecordError) as err:
        replay_family_record(record)
    assert err.value.where == "deals[0].exchange" and "seven_exchange" in err.value.why
    # With "always" it is due again.
    allowed = copy.deepcopy(record)
    allowed["rules"] = {"seven_exchange": "always"}
    assert replay_family_record(allowed).deal.phase == "play"


def test_illegal_discards_and_calls_name_the_deal_the_action_and_the_rule() -> None:
    with pytest.raises(ReplayError) as err:
        replay_family_record(_broken(BELA3_EXAMPLE, ["deals", 0, "discard"], ["7C", "9D"]))  # 9♦ is seat 1's
    assert (err.value.deal, err.value.part, err.value.seat) == (1, "discard", 0) and "12 cards" in err.value.rule
    with pytest.raises(ReplayError) as err:
        replay_family_record(_broken(BELA3_EXAMPLE, ["deals", 0, "discard"], ["7C", "7C"]))
    assert "two different cards" in err.value.rule
    with pytest.raises(ReplayError) as err:
        replay_family_record(_broken(BELA3_EXAMPLE, ["deals", 0, "bids"], ["pass"]))
    assert (err.value.part, err.value.position, err.value.seat) == ("bid", 1, 0) and "must name trump" in err.value.rule
    with pytest.raises(ReplayError) as err:
        replay_family_record(_broken(BELA2_EXAMPLE, ["deals", 0, "bids"], ["spades"]))
    assert (err.value.part, err.value.seat) == ("bid", 1) and "turned card's suit" in err.value.rule


@pytest.mark.parametrize("example", [BELA3_EXAMPLE, BELA2_EXAMPLE], ids=["bela-3", "bela-2"])
def test_replay_command_prints_the_report_and_the_account(
    example: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(example), encoding="utf-8")
    code, out, _ = run_cli(["replay", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out) == family_match_report(replay_family_record(example))
    code, out, _ = run_cli(["replay", str(path)], capsys)
    assert code == 0 and f"Variant: {example['variant']}" in out and "Trick 1:" in out
    assert ("Discard" in out) == (example is BELA3_EXAMPLE) and ("Exchange" in out) == (example is BELA2_EXAMPLE)
    first = example["seats"][0]
    assert f"No winner yet: {first} (0) 0, " in out  # every player alone: the score is named by player


def test_replay_command_locates_a_missing_discard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_broken(BELA3_EXAMPLE, ["deals", 0, "discard"], KeyError)), encoding="utf-8")
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert code == 2 and "malformed record: deals[0].discard" in err and "Traceback" not in err and not out


BELA_OPEN_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bela-open",
    "rules": {},
    "seats": ["Ana", "Ivan"],
    "deals": [
        {
            "dealer": 1,
            "hands": [["8D","7S","KD","9D","JS","8C","QC","TC","KH","QH","QD","JD","AH","7H","TS","KC"],
                      ["AC","QS","7D","8S","7C","9S","9C","KS","JH","AS","TH","TD","JC","8H","9H","AD"]],
            "bids": ["hearts"],
            "play": ["AH", "9H"],
        }
    ],
}  # fmt: skip


def test_the_open_example_replays_turns_up_the_uncovered_cards_and_is_written_back_exactly() -> None:
    from bot.engine import parse_card

    match = replay_family_record(BELA_OPEN_EXAMPLE)
    assert without_dealing(family_match_to_record(match, BELA_OPEN_EXAMPLE["seats"])) == BELA_OPEN_EXAMPLE
    # After the trick seat 0's J♠ (under the A♥) and seat 1's 9♣ (under the 9♥) are face up.
    assert parse_card("JS") in match.deal.hand_of(0) and parse_card("9C") in match.deal.hand_of(1)
    report = family_match_report(match)["deals"][0]
    assert report["caller"] == 0 and report["declarer"] == "0" and "belot" not in report


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), stop=st.one_of(st.none(), st.integers(0, 300)), data=st.data())
def test_open_records_round_trip(seed: int, stop: int | None, data: st.DataObject) -> None:
    from bot.engine.belaopen import BelaOpenMatch, BelaOpenRules
    from tests.test_family_small_oracle import OPEN_CHOICES

    opts = data.draw(st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPEN_CHOICES.items()}))
    match = BelaOpenMatch(BelaOpenRules(**opts), seed=seed)
    play_out(match, random.Random(seed), stop)
    record = json.loads(json.dumps(family_match_to_record(match, ["a", "b"])))
    assert all(isinstance(p, str) for d in record["deals"] for p in d.get("play", []))  # card strings only
    again = replay_family_record(record, seed=seed)
    assert family_match_report(again) == family_match_report(match)
    assert family_match_to_record(again, ["a", "b"]) == record


@pytest.mark.parametrize(
    ("path", "value", "where", "says"),
    [
        (["deals", 0, "hands", 0], ["8D", "7S"], "deals[0].hands[0]", "16 cards"),
        (["deals", 0, "turned"], "KH", "deals[0].turned", "open-card Bela deal has no turned card"),
        (["deals", 0, "play", 0], {"card": "AH", "declare": ["tierce"]}, "deals[0].play[0]", "auto_declarations"),
    ],
)
def test_malformed_open_records_are_located(path: list[Any], value: object, where: str, says: str) -> None:
    with pytest.raises(RecordError) as err:
        replay_family_record(_broken(BELA_OPEN_EXAMPLE, path, value))
    assert err.value.where == where and says in err.value.why, err.value


def test_a_face_down_card_in_an_open_record_is_an_illegal_play() -> None:
    with pytest.raises(ReplayError) as err:
        replay_family_record(_broken(BELA_OPEN_EXAMPLE, ["deals", 0, "play", 0], "JS"))  # under the A♥
    assert (err.value.part, err.value.position, err.value.seat) == ("play", 1, 0)
    assert "not an uncovered face-up card" in err.value.rule
