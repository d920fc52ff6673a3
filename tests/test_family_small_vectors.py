"""The worked vectors of family.md §12.2 (`bela-3`) and §12.3 (`bela-2`), as data and as deals played out."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Bid, Discard, Exchange, IllegalAction, Play, RulesError, parse_card
from bot.engine.bela import score_bela
from bot.engine.bela2 import BelaTwoDeal, BelaTwoMatch, BelaTwoRules, deal_bela2
from bot.engine.bela3 import BelaThreeDeal, BelaThreeMatch, BelaThreeRules, deal_bela3, score_bela3
from bot.engine.calls import PASS, parse_call
from bot.engine.cards import card_str
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.play import CARD_POINTS

HEARTS, SPADES, CLUBS, DIAMONDS = 2, 3, 0, 1


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# --- §12.2: X is seat 0, the dealer seat 2; (id, options, points X/Y/Z with the discard and the last trick,
#     tricks, announced declarations X/Y/Z, contest side (0 the caller, 1 the opponents), belas) -> written ---

THREE: list[tuple[str, dict[str, Any], tuple[int, int, int], tuple[int, int, int], tuple[int, int, int], int | None,
                  tuple[int, int, int], tuple[int, int, int], str]] = [
    ("B3-01", {}, (82, 60, 20), (4, 4, 2), (0, 0, 0), None, (0, 0, 0), (82, 60, 20), "passed"),
    ("B3-02", {}, (60, 80, 22), (3, 5, 2), (0, 0, 0), None, (0, 0, 0), (0, 80, 22), "fell"),
    ("B3-02 higher_opponent", {"fall_points": "higher_opponent"}, (60, 80, 22), (3, 5, 2), (0, 0, 0), None,
     (0, 0, 0), (0, 140, 22), "fell"),
    ("B3-02 both_opponents", {"fall_points": "both_opponents"}, (60, 80, 22), (3, 5, 2), (0, 0, 0), None,
     (0, 0, 0), (0, 140, 82), "fell"),
    ("B3-03", {}, (103, 17, 42), (6, 1, 3), (0, 0, 0), None, (0, 0, 0), (103, 17, 42), "passed"),
    ("B3-04", {}, (75, 50, 37), (5, 3, 2), (20, 0, 0), 0, (0, 0, 0), (95, 50, 37), "passed"),
    ("B3-05", {}, (90, 40, 32), (5, 3, 2), (50, 100, 20), 1, (0, 0, 0), (0, 140, 52), "fell"),
    ("B3-06", {}, (162, 0, 0), (10, 0, 0), (0, 0, 0), None, (0, 0, 0), (252, 0, 0), "passed"),
    ("B3-07", {}, (60, 51, 51), (4, 3, 3), (0, 0, 0), None, (0, 0, 0), (0, 51, 51), "fell"),
    ("B3-07 higher_opponent", {"fall_points": "higher_opponent"}, (60, 51, 51), (4, 3, 3), (0, 0, 0), None,
     (0, 0, 0), (0, 111, 51), "fell"),
    ("B3-07 both_opponents", {"fall_points": "both_opponents"}, (60, 51, 51), (4, 3, 3), (0, 0, 0), None,
     (0, 0, 0), (0, 111, 111), "fell"),
]  # fmt: skip


@pytest.mark.parametrize("vector", THREE, ids=[v[0] for v in THREE])
def test_bela3_deal_vectors(vector: tuple[Any, ...]) -> None:
    _, options, points, tricks, declared, contest, belas, written, outcome = vector
    got = score_bela3(BelaThreeRules(**options), 0, 2, points, tricks, declared, contest, belas)
    assert (got.score, got.outcome, got.fell) == (written, outcome, outcome == "fell")


def test_bela3_a_player_without_a_trick_loses_his_declaration_and_bela_but_it_still_won_the_contest() -> None:
    """§4.6: confirmation is per player; Y's unconfirmed hundred still beat the caller's kvarta (§2.4)."""
    got = score_bela3(BelaThreeRules(), 0, 2, (100, 0, 62), (6, 0, 4), (50, 100, 20), 1, (20, 20, 0))
    assert got.raw == (120, 0, 82) and got.score == (120, 0, 82) and got.outcome == "passed"


def test_bela3_bela_always_counts_keeps_the_callers_bela_on_a_fall() -> None:
    got = score_bela3(BelaThreeRules(bela_always_counts=True, fall_points="higher_opponent"), 0, 2, (50, 80, 32),
                      (3, 5, 2), (0, 0, 0), None, (20, 0, 0))  # fmt: skip
    assert got.score == (20, 130, 32) and got.fell


# --- §12.3: C is the caller; (id, caller, points C/O with the last trick, the player who took every trick, belas)

TWO: list[tuple[str, int, tuple[int, int], int | None, tuple[int, int], tuple[int, int], str]] = [
    ("B2-01", 0, (60, 56), None, (0, 0), (60, 56), "passed"),
    ("B2-02", 0, (50, 66), None, (0, 0), (0, 116), "fell"),
    ("B2-03", 0, (58, 58), None, (0, 0), (0, 116), "fell"),
    ("B2-04", 0, (116, 0), 0, (0, 0), (206, 0), "passed"),
    ("B2-05", 0, (45, 71), None, (20, 0), (0, 136), "fell"),
    ("B2-07", 1, (62, 70), None, (0, 0), (62, 70), "passed"),
    ("B2-07 level", 1, (66, 66), None, (0, 0), (132, 0), "fell"),
]  # fmt: skip


@pytest.mark.parametrize("vector", TWO, ids=[v[0] for v in TWO])
def test_bela2_deal_vectors(vector: tuple[Any, ...]) -> None:
    _, caller, points, valat, belas, written, outcome = vector
    got = score_bela(BelaTwoRules(), caller, points, valat, (0, 0), None, belas)
    assert (got.score, got.outcome) == (written, outcome)


def bela2_deal(dealer: int, first: list[str], talons: list[str], turned: str, rules: BelaTwoRules) -> BelaTwoDeal:
    """A deal with these first six cards and talons per seat (seat order), turned card ``turned``."""
    hands = [cards(first[s]) + cards(talons[s]) for s in (0, 1)]
    return BelaTwoDeal(rules, dealer, hands, parse_card(turned))


def test_b2_06_two_rounds_the_mus_and_no_seven_exchange() -> None:
    rules = BelaTwoRules()
    first = ["8C 9C TC JC QC KC", "7H 8H 8S 9S TS JS"]
    deal = bela2_deal(0, first, ["7D 8D 9D TD", "AC AD KD QD"], "9H", rules)
    assert deal.to_act == 1 and deal.legal_calls() == [HEARTS, PASS]
    deal.apply(Bid(PASS))
    assert deal.to_act == 0 and deal.legal_calls() == [HEARTS, PASS]
    deal.apply(Bid(PASS))
    assert deal.to_act == 1 and deal.legal_calls() == [CLUBS, DIAMONDS, SPADES, PASS]
    deal.apply(Bid(PASS))
    assert deal.to_act == 0 and deal.legal_calls() == [CLUBS, DIAMONDS, SPADES]
    with pytest.raises(IllegalAction, match="mus"):
        deal.apply(Bid(PASS))
    with pytest.raises(IllegalAction):
        deal.apply(Bid(HEARTS))
    deal.apply(Bid(SPADES))
    assert deal.calls == [PASS, PASS, PASS, SPADES] and deal.bidder == 0
    assert deal.phase == "play" and deal.to_act == 1 and deal.exchanged is None  # hearts are not trumps: no exchange
    # With "always", seat 1 is asked whether to exchange his 7♥ for the 9♥.
    deal = bela2_deal(0, first, ["7D 8D 9D TD", "AC AD KD QD"], "9H", BelaTwoRules(seven_exchange="always"))
    for call in (PASS, PASS, PASS, SPADES):
        deal.apply(Bid(call))
    assert deal.phase == "exchange" and deal.to_act == 1 and deal.legal_actions() == [Exchange(True), Exchange(False)]


def test_b2_07_the_exchange_brings_the_turned_card_into_play() -> None:
    # The stock: the eight clubs and the 7-9 of diamonds, 30 card points with hearts trumps.
    first = ["7H KH QH JS TS AS", "JH 9H TH 8H 8S 9S"]
    talons = ["JD QD KD AD", "7S QS KS TD"]
    deal = bela2_deal(0, first, talons, "AH", BelaTwoRules())
    assert sum(CARD_POINTS[HEARTS][c] for c in deal.stock) == 30 and len(deal.stock) == 11
    deal.apply(Bid(HEARTS))  # seat 1 takes hearts in round 1
    assert deal.phase == "exchange" and deal.to_act == 0
    assert deal.hand_of(0) == sorted(cards(first[0]))  # the talons are taken after the exchange
    deal.apply(Exchange(True))
    assert parse_card("AH") in deal.hand_of(0) and parse_card("7H") not in deal.hand_of(0)
    assert sum(CARD_POINTS[HEARTS][c] for c in deal.in_play()) + 10 == 132  # without the exchange: 121
    while deal.phase == "play":
        deal.apply(Play(deal.legal_cards()[0]))
    assert deal.result is not None and sum(deal.card_totals(0)) == 132


def test_bela2_without_the_exchange_the_turned_card_stays_out() -> None:
    first = ["7H KH QH JS TS AS", "JH 9H TH 8H 8S 9S"]
    deal = bela2_deal(0, first, ["JD QD KD AD", "7S QS KS TD"], "AH", BelaTwoRules())
    deal.apply(Bid(HEARTS))
    deal.apply(Exchange(False))
    assert deal.exchanged is False and parse_card("7H") in deal.hand_of(0)
    while deal.phase == "play":
        deal.apply(Play(deal.legal_cards()[0]))
    assert sum(deal.card_totals(0)) == 121


def test_bela2_seven_exchange_off_asks_nobody() -> None:
    first = ["7H KH QH JS TS AS", "JH 9H TH 8H 8S 9S"]
    deal = bela2_deal(0, first, ["JD QD KD AD", "7S QS KS TD"], "AH", BelaTwoRules(seven_exchange="off"))
    deal.apply(Bid(HEARTS))
    assert deal.phase == "play" and deal.exchanged is None


def test_bela2_deal_hands_the_cards_out_in_the_spec_order() -> None:
    deck = list(range(32))
    hands, turned, stock = deal_bela2(deck, 0)
    assert hands[1] == [0, 1, 2, 6, 7, 8, 13, 14, 15, 16] and hands[0] == [3, 4, 5, 9, 10, 11, 17, 18, 19, 20]
    assert turned == 12 and stock == list(range(21, 32))


# --- bela-3 deals played out ---


def test_bela3_deal_hands_the_cards_out_in_the_spec_order() -> None:
    hands, extra = deal_bela3(list(range(32)), 2)
    assert hands[0][:6] == [0, 1, 2, 9, 10, 11] and hands[0][6:] == [18, 19, 20, 21]
    assert hands[2] == [6, 7, 8, 15, 16, 17, 26, 27, 28, 29] and extra == [30, 31]


def formats_bela3_deal(rules: BelaThreeRules) -> BelaThreeDeal:
    """The bela-3 record example of formats §7.3."""
    hands = [
        cards("QS TH JH QD JC JD AH AC KH 7C"),
        cards("9D TD 7D 8C 9C 8D 8S TC QH AD"),
        cards("AS QC KC 9H 7H 9S KD 7S KS 8H"),
    ]
    return BelaThreeDeal(rules, 2, hands, cards("TS JS"))


def test_bela3_forced_caller_takes_the_extra_cards_and_discards_two_that_count_for_him() -> None:
    deal = formats_bela3_deal(BelaThreeRules())
    assert deal.to_act == 0 and deal.legal_calls() == [CLUBS, DIAMONDS, HEARTS, SPADES]
    with pytest.raises(IllegalAction, match="must name trump"):
        deal.apply(Bid(PASS))
    deal.apply(Bid(HEARTS))
    assert deal.phase == "discard" and deal.to_act == 0 and len(deal.hand_of(0)) == 12
    assert len(deal.legal_actions()) == 66  # any two of the twelve
    with pytest.raises(IllegalAction, match="two different cards"):
        deal.apply(Discard((parse_card("7C"),)))
    with pytest.raises(IllegalAction, match="not one of the caller's 12 cards"):
        deal.apply(Discard((parse_card("7C"), parse_card("9D"))))
    with pytest.raises(IllegalAction, match="discards two cards before the first lead"):
        deal.apply(Play(parse_card("7C")))
    deal.apply(Discard(tuple(cards("7C QD"))))
    assert deal.phase == "play" and deal.to_act == 0 and len(deal.hand_of(0)) == 10
    assert deal.discard_points == 3
    # The first trick of the record: seat 0 declares four jacks and the terca 10-J-Q of spades (J♠ in both).
    deal.apply(Play(parse_card("AC"), ("carre", "tierce")))
    deal.apply(Play(parse_card("8C"), ("quarte", "tierce")))
    deal.apply(Play(parse_card("KC"), ("tierce",)))
    assert deal.tricks[0].winner == 0 and deal.contest() == 0


def test_bela3_without_a_forced_caller_the_dealer_is_in_the_mus() -> None:
    deal = formats_bela3_deal(BelaThreeRules(forced_first_caller=False))
    assert deal.legal_calls() == [CLUBS, DIAMONDS, HEARTS, SPADES, PASS]
    deal.apply(Bid(PASS))
    assert deal.to_act == 1 and PASS in deal.legal_calls()
    deal.apply(Bid(PASS))
    assert deal.to_act == 2 and deal.legal_calls() == [CLUBS, DIAMONDS, HEARTS, SPADES]
    deal.apply(Bid(parse_call("clubs")))
    assert deal.bidder == 2 and deal.phase == "discard" and deal.to_act == 2
    assert len(deal.hand_of(2)) == 12 and set(cards("TS JS")) <= set(deal.hand_of(2))


def test_bela3_belot_after_the_discard_wins_the_match() -> None:
    """§2.6, §4.4: the belot is checked on the ten cards kept; the caller's extra J♠ completes his spades."""
    hands = [
        cards("7S 8S 9S TS QS KS AS 7C 8C AC"),
        cards("7D 8D 9D TD JD QD KD AD TC JC"),
        cards("7H 8H 9H TH JH QH KH AH QC KC"),
    ]
    match = BelaThreeMatch(first_dealer=2, auto_deal=False)
    match.start_deal(hands, extra=cards("JS 9C"))
    match.apply(Bid(HEARTS))
    assert match.deal.phase == "discard"  # the belot waits for the discard
    match.apply(Discard(tuple(cards("7C 8C"))))
    assert match.deal.phase == "done" and match.winner == 0 and match.results == [None]


def test_bela3_belot_suit_trumps_ignores_eight_plain_cards() -> None:
    hands = [
        cards("7S 8S 9S TS QS KS AS 7C 8C AC"),
        cards("7D 8D 9D TD JD QD KD AD TC JC"),
        cards("7H 8H 9H TH JH QH KH AH QC KC"),
    ]
    match = BelaThreeMatch(BelaThreeRules(belot_suit="trumps"), first_dealer=2, auto_deal=False)
    match.start_deal(hands, extra=cards("JS 9C"))
    match.apply(Bid(CLUBS))
    match.apply(Discard(tuple(cards("7C 8C"))))
    assert match.deal.phase == "play" and match.winner is None


def test_bela2_belot_of_the_opponent_wins_the_match() -> None:
    first = ["7D 8D 9D TD JD QD", "7H KH QH JS TS AS"]
    match = BelaTwoMatch(first_dealer=0, auto_deal=False)
    match.start_deal([cards(first[0] + " KD AD 7C 8C"), cards(first[1] + " 9C TC JC QC")], turned=parse_card("AH"))
    match.apply(Bid(HEARTS))  # seat 1 takes hearts; seat 1 holds the 7♥: he keeps it
    match.apply(Exchange(False))
    assert match.winner == 0 and match.deal.phase == "done"


# --- table options (family §4.9, §5.9, §10) ---


@pytest.mark.parametrize(
    ("variant", "data", "says"),
    [
        ("bela-3", {"tie": "visi"}, "not a table option of bela-3"),
        ("bela-3", {"partner_exemption": True}, "not a table option of bela-3"),
        ("bela-3", {"swept_declarations": "transfer"}, "not a table option of bela-3"),
        ("bela-3", {"fall_points": "all"}, "fall_points"),
        ("bela-3", {"forced_first_caller": "yes"}, "must be true or false"),
        ("bela-2", {"must_undertrump": False}, "not a table option of bela-2"),
        ("bela-2", {"direction": "clockwise"}, "not a table option of bela-2"),
        ("bela-2", {"seven_exchange": "never"}, "seven_exchange"),
        ("bela-2", {"target_score": 0}, "must be a whole number"),
    ],
)
def test_small_table_rules_refuse_other_games_keys_and_wrong_kinds(variant: str, data: dict[str, Any], says: str
                                                                    ) -> None:  # fmt: skip
    with pytest.raises(RulesError) as caught:
        parse_variant_rules(variant, data)
    assert says in str(caught.value)


def test_small_table_defaults_are_those_of_family_section_10() -> None:
    three = BelaThreeRules()
    assert (three.target_score, three.forced_first_caller, three.fall_points, three.iber, three.must_undertrump) == (
        701, True, "vanish", True, True)  # fmt: skip
    two = BelaTwoRules()
    assert (two.target_score, two.seven_exchange, two.stock_visible, two.swept_declarations) == (
        501, "trump", False, "void")  # fmt: skip
    assert (VARIANTS["bela-3"].seats, VARIANTS["bela-3"].sides) == (3, ("0", "1", "2"))
    assert (VARIANTS["bela-2"].seats, VARIANTS["bela-2"].sides) == (2, ("0", "1"))
    assert not VARIANTS["bela-3"].house_rules and not VARIANTS["bela-2"].house_rules


def test_a_three_player_match_writes_per_player_and_ends_at_701() -> None:
    match = BelaThreeMatch(seed="p3", first_dealer=2)
    assert len(match.totals) == 3 and match.deal.dealer == 2
    deals = 0
    while not match.over:
        deal = match.deal
        actions = match.legal_actions()
        match.apply(actions[0])
        if match.deal is not deal or match.over:
            deals += 1
    assert match.winner is not None and max(match.totals) >= 701
    assert sorted(match.totals, reverse=True)[0] > sorted(match.totals, reverse=True)[1]
    assert [d.dealer for d in match.deals[:4]] == [2, 0, 1, 2]


def test_bela2_turned_card_is_in_both_views() -> None:
    match = BelaTwoMatch(seed=3)
    for seat in (0, 1):
        assert match.observe(seat).to_json()["turned"] == card_str(match.deal.turned)  # type: ignore[attr-defined]


# --- §12.4: open-card Bela (T the taker, O the opponent; 162 in play) ---

OPEN: list[tuple[str, dict[str, Any], tuple[int, int], int | None, tuple[int, int], int | None, tuple[int, int],
                 str]] = [
    ("BO-01", {}, (82, 80), None, (0, 0), None, (82, 80), "passed"),
    ("BO-02", {}, (81, 81), None, (0, 0), None, (0, 162), "fell"),
    ("BO-03", {}, (70, 92), None, (0, 0), None, (0, 162), "fell"),
    ("BO-04", {}, (162, 0), 0, (0, 0), None, (252, 0), "passed"),
    ("BO-05", {"open_declarations": True}, (75, 87), None, (20, 0), 0, (95, 87), "passed"),
]  # fmt: skip


@pytest.mark.parametrize("vector", OPEN, ids=[v[0] for v in OPEN])
def test_bela_open_deal_vectors(vector: tuple[Any, ...]) -> None:
    from bot.engine.belaopen import BelaOpenDeal, BelaOpenRules

    _, options, points, valat, declared, contest, written, outcome = vector
    deal = BelaOpenDeal(BelaOpenRules(**options), 1, open_hands())
    deal.apply(Bid(HEARTS))  # seat 0, the taker
    got = deal._score(points, valat, declared, contest, (0, 0))
    assert (got.score, got.outcome) == (written, outcome)


def open_hands() -> list[list[int]]:
    """The open game's record example of formats §7.3 (dealer seat 1)."""
    return [
        cards("8D 7S KD 9D JS 8C QC TC KH QH QD JD AH 7H TS KC"),
        cards("AC QS 7D 8S 7C 9S 9C KS JH AS TH TD JC 8H 9H AD"),
    ]


def test_bo_06_only_uncovered_face_up_cards_count() -> None:
    """Seat 1 named spades and leads K♥; seat 0's face-up cards hold no heart, his Q♥ lies face down under the A♦:
    he must trump, and his only playable trump is the 7♠."""
    from bot.engine.belaopen import BelaOpenDeal, BelaOpenRules

    seat0 = cards("QH 7C 8C TC KC 7D 9D JD" + " AD 7S JC TD 9C QC 8D AC")  # 8 face-down, then their covers
    seat1 = cards("QD KD 7H 8H 9H TH JH AH" + " KH 8S 9S TS JS QS KS AS")
    for rules, turned_at_once in ((BelaOpenRules(), False), (BelaOpenRules(reveal_on_lead=True), True)):
        deal = BelaOpenDeal(rules, 0, [seat0, seat1])
        deal.apply(Bid(SPADES))  # seat 1, the non-dealer, names spades and leads
        assert deal.to_act == 1
        deal.apply(Play(parse_card("KH")))
        assert [card_str(c) for c in deal.legal_cards()] == ["7S"]
        assert (parse_card("QD") in deal.hand_of(1)) == turned_at_once  # the card under the K♥
        with pytest.raises(IllegalAction, match="not an uncovered face-up card"):
            deal.apply(Play(parse_card("QH")))  # face down: no duty, not playable
        deal.apply(Play(parse_card("7S")))
        # At the end of the trick the cards under the 7♠ and the K♥ are face up and playable.
        assert parse_card("7C") in deal.hand_of(0) and parse_card("QD") in deal.hand_of(1)
        assert parse_card("QH") not in deal.hand_of(0)
