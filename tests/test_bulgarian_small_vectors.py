"""The house-rule vectors of family.md §12.6 (`bulgarian-3`) and §12.7 (`bulgarian-2`): the auction with three and
two players and each player's score."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.bulgarian_small import auction, legal_calls, round_ind, score_three, score_two
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA, parse_call
from bot.engine.rules import Rules

HEARTS, SPADES, CLUBS = 2, 3, 0

# (id, options, made_rule, contract, raw D/O1/O2, pot in) -> (written D/O1/O2, pot, outcome); D is seat 0.
THREE: list[tuple[str, dict[str, Any], str, int, tuple[int, int, int], int, tuple[int, int, int], int, str]] = [
    ("BG3-01", {}, "each", HEARTS, (92, 40, 30), 0, (9, 4, 3), 0, "made"),
    ("BG3-02", {}, "each", HEARTS, (60, 70, 32), 0, (0, 13, 3), 0, "inside"),
    ("BG3-03 a", {}, "both_together", SPADES, (92, 40, 30), 0, (9, 4, 3), 0, "made"),
    ("BG3-03 b", {}, "both_together", SPADES, (60, 70, 32), 0, (0, 13, 3), 0, "inside"),
    ("BG3-03 c each", {}, "each", SPADES, (70, 50, 42), 0, (7, 5, 4), 0, "made"),
    ("BG3-03 c together", {}, "both_together", SPADES, (70, 50, 42), 0, (0, 12, 4), 0, "inside"),
    ("BG3-04", {}, "each", HEARTS, (50, 56, 56), 5, (0, 11, 10), 0, "inside"),
    ("BG3-04 no pot", {}, "each", HEARTS, (50, 56, 56), 0, (0, 8, 8), 0, "inside"),
]  # fmt: skip


@pytest.mark.parametrize("vector", THREE, ids=[v[0] for v in THREE])
def test_bulgarian3_deal_vectors(vector: tuple[Any, ...]) -> None:
    _, options, made_rule, contract, raw, pot_in, written, pot, outcome = vector
    got = score_three(Rules(**options), made_rule, contract, 1, 0, raw, pot_in)
    assert (got.score, got.pot, got.outcome) == (written, pot, outcome)


def test_bulgarian3_hanging_and_contra() -> None:
    hanging = score_three(Rules(), "each", HEARTS, 1, 0, (70, 70, 22), 4)
    assert (hanging.score, hanging.pot, hanging.outcome) == ((0, 7, 2), 11, "hanging")
    made = score_three(Rules(), "each", HEARTS, 2, 0, (92, 40, 30), 3)
    assert (made.score, made.pot) == ((35, 0, 0), 0)  # round(162) × 2 + the pot
    inside_shared = score_three(Rules(), "each", HEARTS, 4, 0, (50, 56, 56), 0)
    assert inside_shared.score == (0, 32, 32)  # 16 × 4 shared
    split = score_three(Rules(contra_tie="split"), "each", HEARTS, 2, 0, (70, 70, 22))
    assert (split.score, split.pot) == ((0, 14, 4), 14)


def test_bulgarian3_inside_keeps_belote() -> None:
    got = score_three(Rules(inside_keeps_belote=True), "each", HEARTS, 1, 0, (60, 70, 32), 0, declarer_belotes=1)
    assert got.score == (2, 11, 3)  # O1 gets 70 + (60 − 20)


def test_round_ind_rounds_each_player_alone() -> None:
    assert [round_ind(HEARTS, x) for x in (65, 66, 40)] == [6, 7, 4]
    assert [round_ind(ALL_TRUMPS, x) for x in (64, 65)] == [6, 7]
    assert [round_ind(NO_TRUMPS, x) for x in (64, 65)] == [6, 7]


# --- §12.7 ---


def test_bg2_01_made_with_undealt_points_lost() -> None:
    got = score_two(Rules(), HEARTS, 1, 0, (80, 62))
    assert (got.score, got.outcome) == ((8, 6), "made")


def test_bg2_02_the_two_player_auction() -> None:
    names = ["hearts", "pass"]
    state = auction(2, 0, [parse_call(c) for c in names])
    assert state.over and (state.contract, state.bidder) == (HEARTS, 1)
    state = auction(2, 0, [PASS, PASS])
    assert state.over and state.redeal
    calls = [HEARTS, CONTRA, RECONTRA, ALL_TRUMPS, PASS]
    for k in range(len(calls)):
        assert calls[k] in legal_calls(2, 0, calls[:k], Rules())
    state = auction(2, 0, calls)
    assert state.over and (state.contract, state.bidder, state.multiplier) == (ALL_TRUMPS, 0, 1)
    assert CONTRA in legal_calls(2, 0, [HEARTS], Rules()) and legal_calls(2, 0, [HEARTS, PASS], Rules()) == []


def test_bg2_03_a_hanging_deal_collected_by_the_other_player() -> None:
    first = score_two(Rules(), CLUBS, 1, 1, (66, 66))  # raw indexed by seat: seat 0 66, seat 1 66
    assert (first.score, first.pot, first.outcome) == ((7, 0), 7, "hanging")
    second = score_two(Rules(), HEARTS, 1, 0, (80, 62), first.pot)
    assert (second.score, second.pot) == ((15, 6), 0)


def test_the_three_player_auction_contra_by_either_opponent_and_two_passes_end_it() -> None:
    rules = Rules()
    assert CONTRA in legal_calls(3, 0, [SPADES], rules) and CONTRA in legal_calls(3, 0, [SPADES, PASS], rules)
    assert legal_calls(3, 0, [SPADES, PASS, PASS], rules) == []  # two passes after a bid end the auction
    assert auction(3, 0, [SPADES, PASS, PASS]).over
    assert not auction(3, 0, [SPADES, PASS]).over
    assert RECONTRA in legal_calls(3, 0, [SPADES, PASS, CONTRA], rules)  # the bidder (seat 1) answers
    assert RECONTRA not in legal_calls(3, 0, [SPADES, CONTRA], rules)  # seat 0 did not bid
    assert auction(3, 0, [PASS, PASS, PASS]).redeal
    # The petar/maria/ivan record example of formats §7.3: spades by seat 1, contra by seat 0.
    state = auction(3, 0, [SPADES, PASS, CONTRA, PASS, PASS])
    assert state.over and (state.contract, state.bidder, state.multiplier) == (SPADES, 1, 2)
