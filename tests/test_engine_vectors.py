"""The rules spec's worked vectors (§7.6, §13) through the engine's own scoring, comparison and legal-move code."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import parse_card, parse_contract, parse_rules
from bot.engine.cards import RANK_CHARS, SUIT_CHARS, mask_of
from bot.engine.declarations import CARRE_VALUE, Combination, compare_declarations
from bot.engine.play import CARD_POINTS, legal_cards, trick_winner
from bot.engine.scoring import DealResult, match_verdict, round_team, score_deal
from tests.spec_vectors import DEAL_VECTORS, LEGAL_VECTORS, MATCH_VECTORS, ROUNDING_TABLE

_LENGTH = {"tierce": 3, "quarte": 4, "quint": 5}
_VALUE = {"tierce": 20, "quarte": 50, "quint": 100}


def combination(label: str) -> Combination:
    kind, _, top = label.partition(":")
    rank = RANK_CHARS.index(top[0])
    if kind == "carre":
        return Combination(kind, CARRE_VALUE[rank], 0, rank, -1, 4)
    return Combination(kind, _VALUE[kind], 0, rank, SUIT_CHARS.index(top[1]), _LENGTH[kind])


def score_vector(v: dict[str, Any]) -> DealResult:
    rules = parse_rules(v.get("rules", {}))
    contract = parse_contract(v["contract"])
    last = 0 if v["last"] == "A" else 1
    points = (v["cards"][0] + (10 if last == 0 else 0), v["cards"][1] + (10 if last == 1 else 0))
    decl = v.get("decl", {})
    combos = tuple([combination(x) for x in decl.get(t, []) if x != "belote"] for t in "AB")
    belotes = tuple(20 * decl.get(t, []).count("belote") for t in "AB")
    counted = compare_declarations((combos[0], combos[1]), rules)
    valat = {"A": 0, "B": 1}.get(v.get("valat") or "")
    return score_deal(
        contract,
        v["mult"],
        0 if v.get("declarer", "A") == "A" else 1,
        points,
        (sum(c.value for c in counted[0]), sum(c.value for c in counted[1])),
        (belotes[0], belotes[1]),
        valat,
        v.get("hang_in", 0),
        rules,
    )


@pytest.mark.parametrize("vector", DEAL_VECTORS, ids=[v["id"] for v in DEAL_VECTORS])
def test_deal_vector(vector: dict[str, Any]) -> None:
    result = score_vector(vector)
    assert result.score == tuple(vector["expect"])
    assert result.hanging == vector["hang"]


def test_t10_outcome_is_hanging_and_t06_inside() -> None:
    by_id = {v["id"]: v for v in DEAL_VECTORS}
    assert score_vector(by_id["T10"]).outcome == "hanging"
    assert score_vector(by_id["T06"]).outcome == "inside"
    assert score_vector(by_id["T01"]).outcome == "made"
    assert score_vector(by_id["T28"]).outcome == "hanging"


@pytest.mark.parametrize("row", ROUNDING_TABLE, ids=[f"{r[0]}-{r[1]}:{r[2]}" for r in ROUNDING_TABLE])
def test_rounding_table(row: tuple[str, int, int, int, int]) -> None:
    contract, hi, lo, expect_hi, expect_lo = row
    c = parse_contract(contract)
    assert (round_team(c, hi, True), round_team(c, lo, False)) == (expect_hi, expect_lo)


def test_tie_rounding_the_hanging_half_rounds_up() -> None:
    # §7.4: 106:106 in a suit → 10 written, 11 hang; 154:154 in AT → 15 and 16; 156:156 → 15/16; 204:204 AT → 20/21.
    hearts, at = parse_contract("hearts"), parse_contract("all-trumps")
    assert (round_team(hearts, 106, True), round_team(hearts, 106, False)) == (10, 11)
    assert (round_team(at, 154, True), round_team(at, 154, False)) == (15, 16)
    assert (round_team(hearts, 156, True), round_team(hearts, 156, False)) == (15, 16)
    assert (round_team(at, 204, True), round_team(at, 204, False)) == (20, 21)


@pytest.mark.parametrize("vector", MATCH_VECTORS, ids=[v["id"] for v in MATCH_VECTORS])
def test_match_vector(vector: dict[str, Any]) -> None:
    rules = parse_rules({})
    before, deal = vector["before"], vector["deal"]
    result = DealResult(
        contract=0,
        multiplier=1,
        declarer=0,
        points=(0, 0),
        declarations=(0, 0),
        belotes=(0, 0),
        valat=0 if vector["valat"] else None,
        raw=(0, 0),
        score=deal,
        hanging_in=0,
        hanging=0,
        outcome="made",
        collected=None,
    )
    totals = (before[0] + deal[0], before[1] + deal[1])
    verdict = match_verdict(totals, result, rules)
    assert verdict.winner == {"A": 0, "B": 1, None: None}[vector["winner"]]


def test_capot_lock_can_be_switched_off() -> None:
    result = DealResult(0, 1, 0, (0, 0), (0, 0), (0, 0), 0, (0, 0), (25, 0), 0, 0, "made", None)
    assert match_verdict((155, 90), result, parse_rules({})).winner is None
    assert match_verdict((155, 90), result, parse_rules({"capot_blocks_finish": False})).winner == 0


def test_winner_must_score_last_deal_option() -> None:
    # A leads 160:100 after a deal in which A wrote nothing (B made 16).
    result = DealResult(0, 1, 1, (0, 0), (0, 0), (0, 0), None, (0, 0), (0, 16), 0, 0, "made", None)
    assert match_verdict((160, 100), result, parse_rules({})).winner == 0
    assert match_verdict((160, 100), result, parse_rules({"winner_must_score_last_deal": True})).winner is None


def test_no_finish_while_hanging_option() -> None:
    result = DealResult(0, 1, 0, (0, 0), (0, 0), (0, 0), None, (0, 0), (0, 8), 0, 8, "hanging", None)
    assert match_verdict((160, 100), result, parse_rules({})).winner == 0
    assert match_verdict((160, 100), result, parse_rules({"no_finish_while_hanging": True})).winner is None


def test_target_score_option() -> None:
    result = DealResult(0, 1, 0, (0, 0), (0, 0), (0, 0), None, (0, 0), (10, 6), 0, 0, "made", None)
    assert match_verdict((60, 40), result, parse_rules({"target_score": 51})).winner == 0
    assert match_verdict((60, 40), result, parse_rules({})).winner is None


def legal_after(contract: str, trick: list[str], hand: list[str]) -> int:
    """The legal cards for the next player holding ``hand`` after ``trick`` (the engine's own functions)."""
    c = parse_contract(contract)
    played = [parse_card(x) for x in trick]
    best = trick_winner(played, c)
    partner_wins = len(played) - best == 2  # the winner sits two places before me
    return legal_cards(mask_of(parse_card(x) for x in hand), played[0], played[best], partner_wins, c)


@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[v["id"] for v in LEGAL_VECTORS])
def test_legal_move_vector(vector: dict[str, Any]) -> None:
    expected = mask_of(parse_card(x) for x in vector["legal"])
    assert legal_after(vector["contract"], vector["trick"], vector["hand"]) == expected


def test_card_totals_per_contract() -> None:
    assert sum(CARD_POINTS[parse_contract("hearts")]) == 152
    assert sum(CARD_POINTS[parse_contract("all-trumps")]) == 248
    assert sum(CARD_POINTS[parse_contract("no-trumps")]) == 120
