"""The calculator for the 3- and 2-player games (formats §7.5): every worked vector of family §12.2–§12.4, §12.6 and
§12.7, through the library and through `belote-bot score --json`, the format's own example, hand-written requests
with fields reordered or left out, and the errors a person gets for bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.calculator import CalculatorError, score
from bot.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
DASH = "—"

# (vector, request, what each player writes as the sheet shows it, hanging after the deal)
VECTORS: list[tuple[str, dict[str, Any], list[str], int]] = [
    # 12.2 bela-3: X seat 0 (the dealer seat 2), Y seat 1, Z seat 2
    ("B3-01", {"variant": "bela-3", "declarer": "0", "points": {"0": 82, "1": 60, "2": 20}}, ["82", "60", "20"], 0),
    ("B3-02", {"variant": "bela-3", "declarer": "0", "points": {"0": 60, "1": 80, "2": 22}}, [DASH, "80", "22"], 0),
    ("B3-02 higher_opponent", {"variant": "bela-3", "points": {"0": 60, "1": 80}, "declarer": "0",
                               "rules": {"fall_points": "higher_opponent"}}, [DASH, "140", "22"], 0),
    ("B3-02 both_opponents", {"variant": "bela-3", "points": {"1": 80, "2": 22}, "declarer": "0",
                              "rules": {"fall_points": "both_opponents"}}, [DASH, "140", "82"], 0),
    ("B3-03", {"variant": "bela-3", "declarer": "0", "points": {"0": 103, "1": 17, "2": 42}}, ["103", "17", "42"], 0),
    ("B3-04", {"variant": "bela-3", "declarer": "0", "points": {"0": 75, "1": 50, "2": 37},
               "declarations": {"0": ["tierce"]}}, ["95", "50", "37"], 0),
    ("B3-05", {"variant": "bela-3", "declarer": "0", "points": {"0": 90, "1": 40, "2": 32},
               "declarations": {"0": ["quarte"], "1": ["carre:T"], "2": ["tierce:9"]}}, [DASH, "140", "52"], 0),
    ("B3-06", {"variant": "bela-3", "declarer": "0", "valat": "0"}, ["252", "0", "0"], 0),
    ("B3-07", {"variant": "bela-3", "declarer": "0", "points": {"0": 60, "1": 51, "2": 51}}, [DASH, "51", "51"], 0),
    ("B3-07 higher_opponent", {"variant": "bela-3", "declarer": "0", "points": {"0": 60, "1": 51, "2": 51},
                               "rules": {"fall_points": "higher_opponent"}}, [DASH, "111", "51"], 0),
    ("B3-07 both_opponents", {"variant": "bela-3", "declarer": "0", "points": {"0": 60, "1": 51, "2": 51},
                              "rules": {"fall_points": "both_opponents"}}, [DASH, "111", "111"], 0),
    # 12.3 bela-2: C the caller (seat 0 here, seat 1 in B2-07), O the other; 116 in play
    ("B2-01", {"variant": "bela-2", "declarer": "0", "points": {"0": 60, "1": 56}}, ["60", "56"], 0),
    ("B2-02", {"variant": "bela-2", "declarer": "0", "points": {"0": 50, "1": 66}}, [DASH, "116"], 0),
    ("B2-03", {"variant": "bela-2", "declarer": "0", "points": {"0": 58, "1": 58}}, [DASH, "116"], 0),
    ("B2-04", {"variant": "bela-2", "declarer": "0", "points": {"0": 116}, "valat": "0"}, ["206", "0"], 0),
    ("B2-05", {"variant": "bela-2", "declarer": "0", "points": {"0": 45, "1": 71},
               "declarations": {"0": ["belote"]}}, [DASH, "136"], 0),
    ("B2-07", {"variant": "bela-2", "declarer": "1", "points": {"1": 70, "0": 62}}, ["62", "70"], 0),
    ("B2-07 tie", {"variant": "bela-2", "declarer": "1", "points": {"1": 66, "0": 66}}, ["132", DASH], 0),
    # 12.4 bela-open: T the taker (seat 1), O seat 0
    ("BO-01", {"variant": "bela-open", "declarer": "1", "points": {"1": 82}}, ["80", "82"], 0),
    ("BO-02", {"variant": "bela-open", "declarer": "1", "points": {"1": 81, "0": 81}}, ["162", DASH], 0),
    ("BO-03", {"variant": "bela-open", "declarer": "1", "points": {"0": 92}}, ["162", DASH], 0),
    ("BO-04", {"variant": "bela-open", "declarer": "1", "valat": "1"}, ["0", "252"], 0),
    ("BO-05", {"variant": "bela-open", "declarer": "1", "points": {"1": 75}, "declarations": {"1": ["tierce"]},
               "rules": {"open_declarations": True}}, ["87", "95"], 0),
    # 12.6 bulgarian-3: D seat 0, O1 seat 1, O2 seat 2
    ("BG3-01", {"variant": "bulgarian-3", "contract": "hearts", "declarer": "0",
                "points": {"0": 92, "1": 40, "2": 30}}, ["9", "4", "3"], 0),
    ("BG3-02", {"variant": "bulgarian-3", "contract": "hearts", "declarer": "0",
                "points": {"0": 60, "1": 70, "2": 32}}, ["0", "13", "3"], 0),
    ("BG3-03 a", {"variant": "bulgarian-3", "contract": "spades", "points": {"0": 92, "1": 40},
                  "rules": {"made_rule": "both_together"}}, ["9", "4", "3"], 0),
    ("BG3-03 b", {"variant": "bulgarian-3", "contract": "spades", "points": {"0": 60, "2": 32},
                  "rules": {"made_rule": "both_together"}}, ["0", "13", "3"], 0),
    ("BG3-03 c", {"variant": "bulgarian-3", "contract": "spades", "points": {"0": 70, "1": 50, "2": 42}},
     ["7", "5", "4"], 0),
    ("BG3-03 c both_together", {"variant": "bulgarian-3", "contract": "spades", "points": {"0": 70, "1": 50, "2": 42},
                                "rules": {"made_rule": "both_together"}}, ["0", "12", "4"], 0),
    ("BG3-04", {"variant": "bulgarian-3", "contract": "hearts", "points": {"0": 50, "1": 56, "2": 56},
                "hanging_in": 5}, ["0", "11", "10"], 0),
    ("BG3-04 no pot", {"variant": "bulgarian-3", "contract": "hearts", "points": {"0": 50, "1": 56, "2": 56}},
     ["0", "8", "8"], 0),
    # 12.7 bulgarian-2
    ("BG2-01", {"variant": "bulgarian-2", "contract": "hearts", "declarer": "0", "points": {"0": 80, "1": 62}},
     ["8", "6"], 0),
    ("BG2-03 deal 1", {"variant": "bulgarian-2", "contract": "clubs", "declarer": "1",
                       "points": {"1": 66, "0": 66}}, ["7", "0"], 7),
    ("BG2-03 deal 2", {"variant": "bulgarian-2", "contract": "hearts", "declarer": "0",
                       "points": {"0": 80, "1": 62}, "hanging_in": 7}, ["15", "6"], 0),
]


def shown(request: dict[str, Any]) -> tuple[list[str], int]:
    answer = score(request)
    return list(answer.shown()), answer.result.hanging  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "request_", "written", "hanging"), VECTORS, ids=[v[0] for v in VECTORS])
def test_family_vectors_through_the_library(name: str, request_: dict[str, Any], written: list[str],
                                            hanging: int) -> None:
    assert shown(request_) == (written, hanging)


def cli_json(request: dict[str, Any], *extra: str, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    status = main(["score", "--json", "-", *extra])
    out = capsys.readouterr().out
    return status, json.loads(out)


@pytest.mark.parametrize(("name", "request_", "written", "hanging"), VECTORS, ids=[v[0] for v in VECTORS])
def test_family_vectors_through_the_command(name: str, request_: dict[str, Any], written: list[str], hanging: int,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    status, answer = cli_json(request_, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0
    seats = [str(s) for s in range(len(written))]
    assert list(answer["score"]) == seats and list(answer["raw"]) == seats
    assert [str(answer["score"][k]) for k in seats] == [w if w != DASH else "0" for w in written]
    assert answer["hanging"] == hanging
    assert ("fell" in answer) == request_["variant"].startswith("bela")
    assert answer["explanation"]


def test_the_three_player_example_of_the_format_as_a_process() -> None:
    request = {"variant": "bela-3", "declarer": "0", "points": {"0": 60, "1": 80}, "valat": None,
               "declarations": {}, "hanging_in": 0, "rules": {"fall_points": "higher_opponent"}}
    done = subprocess.run([sys.executable, "-m", "bot", "score", "--json", "-"], input=json.dumps(request),
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert {k: answer[k] for k in ("raw", "score", "hanging", "outcome", "fell")} == {
        "raw": {"0": 60, "1": 80, "2": 22}, "score": {"0": 0, "1": 140, "2": 22}, "hanging": 0, "outcome": "fell",
        "fell": True}
    assert "22" in answer["explanation"][1]


def test_fields_in_any_order_and_the_derivable_ones_left_out() -> None:
    # The caller's seat, the dealer and a third player's points follow from the rest.
    full = score({"rules": {}, "hanging_in": 0, "declarations": {"2": [], "0": ["tierce:K"]}, "valat": None,
                  "points": {"2": 37, "1": 50, "0": 75}, "declarer": "0", "dealer": "2", "variant": "bela-3"})
    short = score({"variant": "bela-3", "points": {"1": 50, "2": 37}, "declarations": {"0": ["tierce"]}})
    assert full.result == short.result
    assert full.request.to_json()["dealer"] == "2"  # type: ignore[union-attr]
    # A seat may be written as a number too.
    assert score({"variant": "bela-2", "declarer": 1, "points": {"0": 62, "1": 70}}).result.score == (62, 70)


def test_the_dealer_fixes_which_opponent_gets_the_points_between_equals() -> None:
    # Caller seat 1; by default the dealer is seat 0, so seat 2 speaks right after the caller and is "Y".
    request = {"variant": "bela-3", "declarer": "1", "points": {"1": 60, "0": 51, "2": 51},
               "rules": {"fall_points": "higher_opponent"}}
    assert score(request).result.score == (51, 0, 111)
    # With seat 1 the dealer, seat 2 calls first, the caller second, seat 0 last: seat 2 is still earlier.
    assert score({**request, "dealer": "1"}).result.score == (51, 0, 111)
    # With seat 2 the dealer, seat 0 calls first, then the caller (not forced): seat 0 is earlier.
    assert score({**request, "dealer": "2"}).result.score == (111, 0, 51)


def test_a_player_without_a_trick_loses_his_declarations_and_bela() -> None:
    request = {"variant": "bela-3", "declarer": "0", "points": {"0": 100, "1": 62, "2": 0},
               "declarations": {"2": ["carre:J", "belote"], "0": ["tierce"]}}
    counted = score(request)
    assert counted.result.raw == (100, 62, 220)
    unconfirmed = score({**request, "no_trick": ["2"]})
    # The carré still won the contest, so the caller's tierce does not count either (family §2.4).
    assert unconfirmed.result.raw == (100, 62, 0)
    assert unconfirmed.result.outcome == "passed"
    assert any("took no trick" in s for s in unconfirmed.explanation("en"))


def test_the_caller_keeps_his_discards_when_an_opponent_takes_every_trick() -> None:
    answer = score({"variant": "bela-3", "declarer": "0", "valat": "1", "points": {"0": 14}})
    assert answer.result.raw == (14, 148 + 90, 0)
    assert answer.result.score == (0, 238, 0)


def test_bulgarian_declarations_contest_player_by_player() -> None:
    # Each player a side (family §8.6): the best sequence wins its category; equal best carrés cancel.
    request = {"variant": "bulgarian-3", "contract": "hearts", "points": {"0": 82, "1": 50, "2": 30},
               "declarations": {"0": ["tierce:K", "belote"], "1": ["quarte:A"], "2": ["tierce:A"]}}
    answer = score(request)
    assert answer.result.raw == (102, 100, 30)
    # An unknown top card that decides is asked for, naming the player.
    with pytest.raises(CalculatorError) as err:
        score({**request, "declarations": {"0": ["tierce"], "1": ["tierce:Q"]}})
    assert err.value.fields == ["declarations"] and "player 0" in err.value.render("en")[0].lower()


def test_all_trumps_and_no_trumps_with_three_players() -> None:
    answer = score({"variant": "bulgarian-3", "contract": "no-trumps", "points": {"0": 70, "1": 40}})
    assert answer.result.raw == (140, 80, 40)
    assert answer.result.score == (14, 8, 4)
    valat = score({"variant": "bulgarian-2", "contract": "all-trumps", "valat": "1", "points": {"1": 200},
                   "multiplier": 2})
    assert valat.result.raw == (0, 290)
    assert valat.result.score == (0, 58)


def errors(request: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(CalculatorError) as err:
        score(request)
    return {p.field: p.message.render("en") for p in err.value.problems}


def test_bad_requests_are_named_with_what_is_right() -> None:
    assert errors({"variant": "bela-3", "points": {"0": 60}}) == {
        "points": "give the points of at least 2 players; the last one is the rest of 162"}
    assert errors({"variant": "bela-2", "points": {"0": 60}}) == {
        "points": "missing the points of \"1\": in bela-2 some cards stay out of play, so every player's points are "
                  "needed"}
    assert errors({"variant": "bela-2", "points": {"0": 160, "1": 30}}) == {
        "points": "the players' points add up to 190; with cards out of play the deal holds at least 10 (the last "
                  "trick) and at most 162"}
    assert errors({"variant": "bela-3", "points": {"0": 60, "1": 80, "2": 20}})["points"].startswith(
        "the players' points must add up to 162")
    bad = errors({"variant": "bela-3", "declarer": "A", "points": {"3": 10, "0": 80}, "multiplier": 2,
                  "rules": {"seven_exchange": "always"}, "hanging_in": 4})
    assert bad["declarer"] == 'must be a seat, one of "0", "1", "2", not "A"'
    assert bad["points.3"] == 'unknown player "3"; the players are the seats "0", "1", "2"'
    assert bad["multiplier"].startswith("not a field of a bela-3 request")
    assert bad["rules.seven_exchange"].startswith("not a table option of bela-3")
    assert bad["hanging_in"] == "bela-3 never holds points over to the next deal (a tie falls), so it is 0, not 4"
    assert errors({"variant": "bulgarian-3", "points": {"0": 60, "1": 60}}) == {
        "contract": "missing; use one of clubs, diamonds, hearts, spades, no-trumps, all-trumps"}
    assert errors({"variant": "bulgarian-2", "contract": "hearts", "points": {"0": 60, "1": 60},
                   "declarations": {"0": ["tierce:T"]}})["declarations.0[0]"] == (
        "'tierce:T' cannot exist with 24 cards (9 to A): the top card is one of J, Q, K, A")
    assert errors({"variant": "bulgarian-2", "contract": "hearts", "points": {"0": 60, "1": 60},
                   "rules": {"made_rule": "each"}})["rules.made_rule"] == (
        "not a table option of bulgarian-2; it belongs to bulgarian-3")
    assert errors({"variant": "bela-3", "points": {"0": 162, "1": 0}, "no_trick": ["1", "2"]}) == {
        "no_trick": 'that leaves every trick to "0": write it as "valat": "0"'}
    assert errors({"variant": "bela-3", "points": {"0": 100, "1": 62}, "no_trick": ["1"]}) == {
        "points.1": "player \"1\" took no trick (no_trick), so his points are 0, not 62"}
    assert errors({"variant": "bela-open", "points": {"0": 100}, "declarations": {"0": ["belote"]}}) == {
        "declarations.0[0]": "'belote' does not count in bela-open unless the table option open_bela is on"}
    assert errors({"variant": "bela-2", "points": {"0": 60, "1": 60}, "valat": "0"}) == {
        "points.1": 'every trick went to "0", so this player has 0, not 60'}


def test_a_contest_the_strings_cannot_rank_needs_the_winner_and_must_agree_with_it() -> None:
    request = {"variant": "bela-3", "points": {"0": 70, "1": 50}, "declarations": {"0": ["quint"], "2": ["quint"]}}
    assert errors(request)["declarations_winner"].startswith("missing: the strings cannot rank quint of 0")
    assert score({**request, "declarations_winner": "2"}).result.raw == (70, 50, 142)
    assert score({**request, "declarations_winner": "0"}).result.raw == (170, 50, 42)
    sure = {"variant": "bela-2", "points": {"0": 70, "1": 50}, "declarations": {"0": ["carre:J"], "1": ["quint"]}}
    assert errors({**sure, "declarations_winner": "1"}) == {
        "declarations_winner": '"1" contradicts the declarations: carré of jacks of 0 beats every declaration of 1'}


def test_errors_through_the_command_name_the_field_and_exit_1(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    status, answer = cli_json({"variant": "bulgarian-3", "contract": "hearts", "points": {"0": 200}}, capsys=capsys,
                              monkeypatch=monkeypatch)
    assert status == 1
    assert answer["errors"][0]["field"] == "points.0"


@pytest.mark.parametrize(("multiplied", "times"), [(True, 2), (False, 1)])
def test_contra_valat_follows_valat_multiplied(multiplied: bool, times: int) -> None:
    # Hearts with contra, bulgarian-3. A valat of the declarer: 162 card points + 90 = 252 raw, the others 0; the
    # deal is made and W = roundInd(252) = 25 (remainder 2 rounds down), written W·mult (family §8.7) — 50 under
    # contra, or 25 once when `valat_multiplied` is false (bulgarian-belote §6, option 12).
    rules = {"valat_multiplied": multiplied}
    made = score({"variant": "bulgarian-3", "contract": "hearts", "declarer": "0", "multiplier": 2, "valat": "0",
                  "rules": rules})
    assert made.result.raw == (252, 0, 0)
    assert (made.result.outcome, made.result.score) == ("made", (25 * times, 0, 0))
    # The opponent right after the declarer takes every trick: inside, he alone writes W·mult.
    inside = score({"variant": "bulgarian-3", "contract": "hearts", "declarer": "0", "multiplier": 2, "valat": "1",
                    "rules": rules})
    assert (inside.result.outcome, inside.result.score) == ("inside", (0, 25 * times, 0))
    # bulgarian-2, all trumps with recontra, the opponent's valat: 200 card points + 90 = 290 → 29 (family §9.4),
    # ×4 when multiplied, once when not.
    two = score({"variant": "bulgarian-2", "contract": "all-trumps", "declarer": "0", "multiplier": 4,
                 "valat": "1", "points": {"1": 200}, "rules": rules})
    assert two.result.raw == (0, 290)
    assert (two.result.outcome, two.result.score) == ("inside", (0, 29 * (4 if multiplied else 1)))
    said = "A valat is not multiplied by contra (table option)."
    assert (said in made.explanation("en")) is not multiplied
