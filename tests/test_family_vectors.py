"""The worked vectors of family.md §12.1 (`bela`) and §12.5 (`french`), as data: deals, matches, legal moves."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Bid, Play, RulesError, parse_card
from bot.engine.bela import BelaDeal, BelaMatch, BelaRules, bela_key, bela_legal_cards, bela_verdict, score_bela
from bot.engine.calls import PASS, parse_call
from bot.engine.cards import card_list, card_str, mask_of
from bot.engine.combos import contest_winner, every_combination
from bot.engine.french import (
    FrenchMatch,
    FrenchRules,
    french_key,
    french_legal_cards,
    french_verdict,
    score_french,
)
from bot.engine.game import parse_variant_rules

A, B = 0, 1
HEARTS, SPADES, CLUBS = 2, 3, 0


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# --- deals: (id, options, caller side, points A/B with the last trick, the side that took every trick,
#     announced declarations A/B, the contest winner, belas A/B in points, held in) -> (written A/B, held, outcome)

BELA_DEALS: list[tuple[str, dict[str, Any], int, tuple[int, int], int | None, tuple[int, int], int | None,
                       tuple[int, int], int, tuple[int, int], int, str]] = [
    ("B4-01", {}, A, (92, 70), None, (0, 0), None, (0, 0), 0, (92, 70), 0, "passed"),
    ("B4-02", {}, A, (70, 92), None, (0, 0), None, (0, 0), 0, (0, 162), 0, "fell"),
    ("B4-03", {}, A, (81, 81), None, (0, 0), None, (0, 0), 0, (0, 162), 0, "fell"),
    ("B4-03 visi", {"tie": "visi"}, A, (81, 81), None, (0, 0), None, (0, 0), 0, (0, 81), 81, "visi"),
    ("B4-04", {}, A, (100, 62), None, (20, 20), A, (20, 0), 0, (140, 62), 0, "passed"),
    ("B4-05", {}, A, (85, 77), None, (20, 50), B, (20, 0), 0, (0, 232), 0, "fell"),
    ("B4-05 always", {"bela_always_counts": True}, A, (85, 77), None, (20, 50), B, (20, 0), 0, (20, 212), 0, "fell"),
    ("B4-06", {}, A, (162, 0), A, (0, 0), None, (0, 0), 0, (252, 0), 0, "passed"),
    ("B4-07", {}, A, (0, 162), B, (150, 0), A, (0, 0), 0, (0, 252), 0, "fell"),
    ("B4-07 transfer", {"swept_declarations": "transfer"}, A, (0, 162), B, (150, 0), A, (0, 0), 0, (0, 402), 0,
     "fell"),
    ("B4-08", {}, B, (82, 80), None, (20, 20), A, (0, 0), 0, (182, 0), 0, "fell"),
    ("B4-08 trump_first", {"equal_declaration_priority": "trump_first"}, B, (82, 80), None, (20, 20), B, (0, 0), 0,
     (82, 100), 0, "passed"),
    ("B4-09", {}, A, (70, 92), None, (220, 100), A, (0, 0), 0, (290, 92), 0, "passed"),
    ("B4-10 deal 2", {"tie": "visi"}, B, (92, 70), None, (0, 0), None, (0, 0), 81, (243, 0), 0, "fell"),
    ("B4-11", {}, B, (0, 162), B, (100, 200), B, (0, 20), 0, (0, 472), 0, "passed"),
    ("B4-13", {}, A, (80, 82), None, (20, 0), A, (0, 0), 0, (100, 82), 0, "passed"),
]  # fmt: skip


@pytest.mark.parametrize("vector", BELA_DEALS, ids=[v[0] for v in BELA_DEALS])
def test_bela_deal_vectors(vector: tuple[Any, ...]) -> None:
    _, options, caller, points, valat, declared, contest, belas, held_in, written, held, outcome = vector
    got = score_bela(BelaRules(**options), caller, points, valat, declared, contest, belas, held_in)
    assert (got.score, got.hanging, got.outcome) == (written, held, outcome)
    assert got.fell == (outcome != "passed")


FRENCH_DEALS: list[tuple[str, dict[str, Any], tuple[int, int], int | None, tuple[int, int], int | None,
                         tuple[int, int], tuple[int, int], int, str]] = [
    ("FR-01", {}, (92, 70), None, (0, 0), None, (0, 0), (92, 70), 0, "made"),
    ("FR-01 rounding 10", {"rounding": 10}, (92, 70), None, (0, 0), None, (0, 0), (90, 70), 0, "made"),
    ("FR-01 rounding 5", {"rounding": 5}, (92, 70), None, (0, 0), None, (0, 0), (90, 70), 0, "made"),
    ("FR-02", {}, (70, 92), None, (0, 0), None, (0, 0), (0, 162), 0, "failed"),
    ("FR-03", {}, (60, 102), None, (20, 0), A, (0, 0), (0, 182), 0, "failed"),
    ("FR-04", {}, (65, 97), None, (0, 0), None, (20, 0), (20, 162), 0, "failed"),
    ("FR-05", {}, (71, 91), None, (20, 0), A, (0, 0), (91, 91), 0, "made"),
    ("FR-05 litige", {"tie": "litige"}, (71, 91), None, (20, 0), A, (0, 0), (0, 91), 91, "litige"),
    ("FR-05 fail", {"tie": "fail"}, (71, 91), None, (20, 0), A, (0, 0), (0, 182), 0, "failed"),
    ("FR-06", {}, (162, 0), A, (200, 50), A, (20, 0), (472, 0), 0, "made"),
    ("FR-06 capot 100", {"capot_bonus": 100}, (162, 0), A, (200, 50), A, (20, 0), (482, 0), 0, "made"),
    ("FR-06 capot 88", {"capot_bonus": 88}, (162, 0), A, (200, 50), A, (20, 0), (470, 0), 0, "made"),
    ("FR-07", {}, (0, 162), B, (50, 0), A, (20, 0), (20, 302), 0, "failed"),
    ("FR-08", {}, (82, 80), None, (20, 20), B, (0, 0), (0, 182), 0, "failed"),
    ("FR-09", {}, (60, 102), None, (100, 100), A, (0, 0), (160, 102), 0, "made"),
    ("FR-09 were the run to win", {}, (60, 102), None, (100, 100), B, (0, 0), (0, 262), 0, "failed"),
    # §7.7, derived: defenders taken capot lose the contest they won, unless capot_keeps_declarations
    ("§7.7 capot voids the defenders", {}, (162, 0), A, (0, 150), B, (0, 0), (252, 0), 0, "made"),
    ("§7.7 defenders keep", {"capot_keeps_declarations": True}, (162, 0), A, (0, 300), B, (0, 0), (0, 552), 0,
     "failed"),
]  # fmt: skip


@pytest.mark.parametrize("vector", FRENCH_DEALS, ids=[v[0] for v in FRENCH_DEALS])
def test_french_deal_vectors(vector: tuple[Any, ...]) -> None:
    _, options, points, valat, declared, contest, belotes, written, held, outcome = vector
    got = score_french(FrenchRules(**options), A, points, valat, declared, contest, belotes)
    assert (got.score, got.hanging, got.outcome) == (written, held, outcome)


# --- the contest: who scores declarations, from the cards each seat declared ---


def _bela_contest(dealer: int, trump: int, held: dict[int, str], options: dict[str, Any]) -> int | None:
    rules = BelaRules(**options)
    declared = [every_combination(mask_of(cards(held.get(s, ""))), trump) for s in range(4)]
    return contest_winner(declared, (0, 1, 0, 1), dealer, lambda c, t, p: bela_key(c, t, p, rules), trump)


def _french_contest(dealer: int, trump: int, held: dict[int, str]) -> int | None:
    declared = [every_combination(mask_of(cards(held.get(s, ""))), trump) for s in range(4)]
    return contest_winner(declared, (0, 1, 0, 1), dealer, french_key, trump)


def test_b4_04_higher_top_card_wins_the_contest() -> None:
    assert _bela_contest(3, HEARTS, {0: "JC QC KC", 1: "TD JD QD"}, {}) == A


def test_b4_05_a_kvarta_beats_a_terca() -> None:
    assert _bela_contest(3, HEARTS, {0: "JC QC KC", 1: "7S 8S 9S TS"}, {}) == B


def test_b4_08_equal_sequences_call_order_or_trump_first() -> None:
    held = {0: "9C TC JC", 1: "9H TH JH"}
    assert _bela_contest(3, HEARTS, held, {}) == A
    assert _bela_contest(3, HEARTS, held, {"equal_declaration_priority": "trump_first"}) == B


def test_b4_11_four_jacks_beat_four_aces() -> None:
    assert _bela_contest(3, SPADES, {0: "AC AD AH AS", 1: "JC JD JH JS"}, {}) == B


def test_bela_longer_run_wins_by_default_top_card_by_option() -> None:
    held = {0: "7C 8C 9C TC JC QC", 1: "9D TD JD QD KD"}  # two "sto": 6 long to Q against 5 long to K
    assert _bela_contest(3, HEARTS, held, {}) == A
    assert _bela_contest(3, HEARTS, held, {"sequence_tiebreak": "top_card"}) == B


def test_fr_08_equal_sequences_the_trump_one_wins() -> None:
    assert _french_contest(3, HEARTS, {0: "9C TC JC", 1: "9H TH JH"}) == B


def test_fr_09_a_carre_beats_a_longer_run() -> None:
    assert _french_contest(3, HEARTS, {0: "KC KD KH KS", 1: "7D 8D 9D TD JD QD"}) == A


# --- matches ---


def test_b4_12_a_plain_finish() -> None:
    assert bela_verdict((950 + 92, 900 + 70), 1001) == A


def test_b4_13_level_at_the_target_plays_another_deal() -> None:
    written = score_bela(BelaRules(), A, (80, 82), None, (20, 0), A, (0, 0)).score
    assert bela_verdict((980 + written[0], 998 + written[1]), 1001) is None


def test_b4_10_held_points_go_to_the_next_decided_deal() -> None:
    first = score_bela(BelaRules(tie="visi"), A, (81, 81), None, (0, 0), None, (0, 0))
    second = score_bela(BelaRules(tie="visi"), B, (92, 70), None, (0, 0), None, (0, 0), first.hanging)
    assert (first.score, first.hanging) == ((0, 81), 81)
    assert (second.score, second.hanging) == ((243, 0), 0)


def _belot_hands() -> list[list[int]]:
    hearts = "7H 8H 9H TH JH QH KH AH"
    rest = [c for c in range(32) if c not in cards(hearts)]
    return [rest[0::3], rest[1::3], rest[2::3], cards(hearts)]  # no other seat holds a whole suit


def test_b4_14_belot_wins_the_match_at_once() -> None:
    match = BelaMatch(BelaRules(), seed=1, first_dealer=1, auto_deal=False)
    match.totals = [950, 200]
    match.start_deal(_belot_hands())
    match.apply(Bid(parse_call("clubs")))  # seat 2, first in the call order
    assert match.winner == B and match.over
    assert match.results == [None] and match.totals == [950, 200]


def test_b4_14_belot_suit_trumps_plays_the_deal_with_a_quint() -> None:
    match = BelaMatch(BelaRules(belot_suit="trumps"), seed=1, first_dealer=1, auto_deal=False)
    deal = match.start_deal(_belot_hands())
    match.apply(Bid(parse_call("clubs")))
    assert not match.over and deal.phase == "play"
    combos = deal.combinations(3)
    assert [(c.kind, c.value, c.length, card_str(c.top * 1 + 8 * 2)) for c in combos] == [("quint", 100, 8, "AH")]


def test_b4_11_the_dealer_in_the_mus_must_name_a_suit() -> None:
    deal = BelaDeal(BelaRules(), 3, [list(range(s * 8, s * 8 + 8)) for s in range(4)])
    for _ in range(3):
        deal.call(PASS)
    assert deal.legal_calls() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="mus"):
        deal.call(PASS)


def test_fr_10_a_plain_finish() -> None:
    assert french_verdict((940 + 92, 700 + 70), FrenchRules()) == (A, False)


def test_french_both_reach_draw_or_higher_wins() -> None:
    assert french_verdict((1010, 1020), FrenchRules()) == (None, True)
    assert french_verdict((1010, 1020), FrenchRules(both_reach="higher_wins")) == (B, False)
    assert french_verdict((1020, 1020), FrenchRules(both_reach="higher_wins")) == (None, False)


# --- legal moves (§2.1, §7.4): trump, the trick so far, my hand -> the legal cards ---

BELA_LEGAL = [
    ("B4-15", {}, HEARTS, "8S", "7S TS KC", "TS"),
    ("B4-16", {}, HEARTS, "8S 9H", "AS 7S", "AS 7S"),
    ("B4-17", {}, SPADES, "KH", "7S JS AD", "7S JS"),
    ("B4-18", {}, SPADES, "KH JS", "7S 8S AC", "7S 8S"),
    ("B4-18 free", {"must_undertrump": False}, SPADES, "KH JS", "7S 8S AC", "7S 8S AC"),
    ("B4-19", {}, HEARTS, "AS 7S", "7H KC", "7H"),
    ("B4-19 exemption", {"partner_exemption": True}, HEARTS, "AS 7S", "7H KC", "7H KC"),
]

FRENCH_LEGAL = [
    ("FR-11 a", True, HEARTS, "TS", "7H AC", "7H"),
    ("FR-11 b", True, HEARTS, "AS 7S", "7H AC", "7H AC"),
    ("FR-11 c", True, HEARTS, "TS 8S 9H", "QH 8H KC", "QH 8H"),
    ("FR-11 c free", False, HEARTS, "TS 8S 9H", "QH 8H KC", "QH 8H KC"),
    ("FR-11 d", True, HEARTS, "TH KH", "AH 7H 9C", "AH"),
]


@pytest.mark.parametrize("vector", BELA_LEGAL, ids=[v[0] for v in BELA_LEGAL])
def test_bela_legal_move_vectors(vector: tuple[Any, ...]) -> None:
    _, options, trump, trick, hand, legal = vector
    got = bela_legal_cards(mask_of(cards(hand)), cards(trick), trump, BelaRules(**options))
    assert sorted(card_str(c) for c in card_list(got)) == sorted(legal.split())


@pytest.mark.parametrize("vector", FRENCH_LEGAL, ids=[v[0] for v in FRENCH_LEGAL])
def test_french_legal_move_vectors(vector: tuple[Any, ...]) -> None:
    _, undertrump, trump, trick, hand, legal = vector
    got = french_legal_cards(mask_of(cards(hand)), cards(trick), trump, undertrump)
    assert sorted(card_str(c) for c in card_list(got)) == sorted(legal.split())


# --- table options ---


@pytest.mark.parametrize(
    ("variant", "rules", "where", "says"),
    [
        ("bela", {"iber": "yes"}, "iber", "true or false"),
        ("bela", {"capot_bonus": 90}, "capot_bonus", "not a table option of bela"),
        ("bela", {"tie": "share"}, "tie", "'pad' or 'visi'"),
        ("french", {"iber": True}, "iber", "not a table option of french"),
        ("french", {"rounding": 3}, "rounding", "1, 5 or 10"),
        ("french", {"target_score": 0}, "target_score", "≥ 1"),
    ],
)
def test_variant_rules_refuse_unknown_keys_and_wrong_kinds_by_name(
    variant: str, rules: dict[str, Any], where: str, says: str
) -> None:
    with pytest.raises(RulesError) as err:
        parse_variant_rules(variant, rules)
    key, why = err.value.problems[0]
    assert key == where and says in why


def test_variant_defaults_are_those_of_family_section_10() -> None:
    bela = parse_variant_rules("bela", {})
    french = parse_variant_rules("french", None)
    assert (bela.target_score, bela.iber, bela.must_undertrump, bela.tie, bela.stiglja_value) == (
        1001, True, True, "pad", 90
    )  # fmt: skip
    assert (french.target_score, french.tie, french.capot_bonus, french.rounding, french.both_reach) == (
        1000, "share", 90, 1, "draw"
    )  # fmt: skip


def test_french_match_deals_the_rest_after_the_bidding_the_taker_gets_the_turned_card() -> None:
    match = FrenchMatch(FrenchRules(), seed=7, first_dealer=0)
    deal = match.deal
    turned = deal.turned  # type: ignore[attr-defined]
    assert all(len(deal.hand_of(s)) == 5 for s in range(4))
    match.apply(Bid(turned >> 3))  # seat 1 takes in round 1
    assert deal.hands[1][5] == turned and all(len(h) == 8 for h in deal.hands)
    assert sorted(c for h in deal.hands for c in h) == list(range(32))
    deal.apply(Play(deal.legal_cards()[0]))


def test_every_variant_plays_through_the_one_interface() -> None:
    """A driver that knows only game.VARIANTS and the match interface plays every game to its end."""
    import random

    from bot.engine.game import VARIANTS, variant

    for name in VARIANTS:
        game = variant(name)
        match = game.new_match(game.rules(target_score=301), seed=name)
        rng = random.Random(name)
        while not match.over:
            actions = match.legal_actions()
            assert actions and match.to_act in range(game.seats)
            match.apply(rng.choice(actions))
        assert len(match.totals) == len(game.sides)
    with pytest.raises(ValueError, match="known: bulgarian, bela, french"):
        variant("bela-5")


def _dosta_hands() -> list[list[int]]:
    """Seat 0 holds five clubs to the ace; seats 1, 2, 3 one low club each and no other."""
    others = [c for c in range(8, 32)]
    return [
        cards("AC TC JC QC KC") + others[0:3],
        cards("7C") + others[3:10],
        cards("8C") + others[10:17],
        cards("9C") + others[17:24],
    ]


@pytest.mark.parametrize(("end_rule", "ends"), [("na_dosta", True), ("na_prolaz", False)])
def test_na_dosta_a_pair_that_reaches_the_target_with_a_trick_wins_at_once(end_rule: str, ends: bool) -> None:
    """family §3.8: match score 990 + the 11 of the first trick = 1001 proven points."""
    match = BelaMatch(BelaRules(end_rule=end_rule), seed=1, first_dealer=3, auto_deal=False)
    match.totals = [990, 0]
    deal = match.start_deal(_dosta_hands())
    match.apply(Bid(parse_call("hearts")))  # seat 0 names hearts
    for card in ("AC", "7C", "8C", "9C"):
        match.apply(Play(parse_card(card)))
    assert match.over is ends
    if ends:
        assert match.winner == A and deal.result is None and match.totals == [990, 0]
    else:
        assert deal.phase == "play" and len(deal.tricks) == 1
