"""Rules of dealing, the auction, the play, declarations and belote, through the Deal and Match state machines."""

from __future__ import annotations

import pytest

from bot.engine import (
    ALL_TRUMPS,
    CONTRA,
    NO_TRUMPS,
    PASS,
    RECONTRA,
    Bid,
    Deal,
    IllegalAction,
    Match,
    Play,
    card_str,
    parse_card,
    parse_rules,
)
from bot.engine.calls import HEARTS_CONTRACT, SPADES_CONTRACT, parse_call
from bot.engine.cards import CardParseError, mask_of
from bot.engine.declarations import best_declarations, declarable_kinds, declaration_options, resolve_declarations
from bot.engine.match import deal_hands, shuffle_and_cut

DEFAULT = parse_rules({})


def cards(text: str) -> list[int]:
    return [parse_card(x) for x in text.split()]


# Hands used below: seat 0..3 in playing order, dealer 3 so seat 0 bids and leads first.
HANDS = [
    cards("JH 9H AH TH KH QH 8H 7H"),  # seat 0: every heart
    cards("JS 9S AS TS KS QS 8S 7S"),  # seat 1: every spade
    cards("JD 9D AD TD KD QD 8D 7D"),  # seat 2: every diamond
    cards("JC 9C AC TC KC QC 8C 7C"),  # seat 3: every club
]


def auction_deal(rules: dict[str, object] | None = None) -> Deal:
    return Deal(parse_rules(rules or {}), 3, HANDS)


def calls(deal: Deal, *names: str) -> None:
    for n in names:
        deal.call(parse_call(n))


# --- parsing ---


def test_cards_parse_leniently_and_write_canonically() -> None:
    for text in ("JH", "jh", "J♥", "10H", "TH", " th "):
        assert card_str(parse_card(text)) in ("JH", "TH")
    assert card_str(parse_card("10♠")) == "TS"
    with pytest.raises(CardParseError, match="rank is one of"):
        parse_card("1H")
    with pytest.raises(CardParseError):
        parse_card("JX")


def test_unknown_rules_key_and_wrong_type_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown table option"):
        parse_rules({"target": 151})
    with pytest.raises(ValueError, match="true or false"):
        parse_rules({"must_undertrump": "yes"})
    with pytest.raises(ValueError, match="declaration_comparison"):
        parse_rules({"declaration_comparison": "best"})
    assert parse_rules({"target_score": 101}).target_score == 101


# --- dealing ---


def test_deal_is_3_2_3_counter_clockwise_from_dealers_right() -> None:
    deck = list(range(32))
    hands = deal_hands(deck, dealer=3)
    # Seat 0 (dealer's right) gets the first three, then seats 1, 2, 3; then two each; then three each.
    assert hands[0] == [0, 1, 2, 12, 13, 20, 21, 22]
    assert hands[3] == [9, 10, 11, 18, 19, 29, 30, 31]


def test_seeded_shuffle_is_deterministic_and_cut() -> None:
    assert shuffle_and_cut(7, 0) == shuffle_and_cut(7, 0)
    assert shuffle_and_cut(7, 0) != shuffle_and_cut(7, 1)
    assert sorted(shuffle_and_cut("x", 3)) == list(range(32))


def test_only_five_cards_are_held_during_the_auction() -> None:
    deal = auction_deal()
    assert deal.hand_of(0) == sorted(HANDS[0][:5])
    calls(deal, "hearts", "pass", "pass", "pass")
    assert deal.phase == "play"
    assert len(deal.hand_of(0)) == 8


def test_four_passes_redeal_by_the_next_dealer_and_keep_the_pot() -> None:
    match = Match(seed=1, first_dealer=2)
    match.hanging = 8
    first = match.deal
    for _ in range(4):
        match.apply(Bid(PASS))
    assert first.passed_out and match.results == [None]
    assert match.deal is not first and match.deal.dealer == 3
    assert match.hanging == 8


# --- auction ---


def test_first_call_may_be_any_contract_or_pass() -> None:
    assert auction_deal().legal_calls() == [PASS, 0, 1, 2, 3, 4, 5]


def test_a_contract_must_be_higher() -> None:
    deal = auction_deal()
    calls(deal, "spades")
    with pytest.raises(IllegalAction, match="higher than spades"):
        deal.call(HEARTS_CONTRACT)
    assert deal.calls == [SPADES_CONTRACT]


def test_contra_only_against_opponents_and_recontra_by_the_declaring_team() -> None:
    deal = auction_deal()
    calls(deal, "hearts")  # seat 0
    assert CONTRA in deal.legal_calls()  # seat 1 is an opponent
    calls(deal, "pass")
    assert CONTRA not in deal.legal_calls()  # seat 2 is the partner
    with pytest.raises(IllegalAction, match="opponent"):
        deal.call(CONTRA)
    calls(deal, "pass", "contra")  # seat 3 doubles
    assert RECONTRA in deal.legal_calls()  # seat 0, the declarer
    calls(deal, "pass")
    with pytest.raises(IllegalAction, match="declaring team"):
        deal.call(RECONTRA)  # seat 1 is a defender
    calls(deal, "pass", "recontra")  # seat 2, the declarer's partner, redoubles
    assert deal.multiplier == 4


def test_a_higher_bid_escapes_contra_by_default() -> None:
    deal = auction_deal()
    calls(deal, "hearts", "contra")
    assert ALL_TRUMPS in deal.legal_calls()
    calls(deal, "all-trumps")
    assert deal.multiplier == 1 and deal.contract == ALL_TRUMPS and deal.bidder == 2


def test_burgas_contra_blocks_every_call_but_recontra() -> None:
    deal = auction_deal({"contra_blocks_bidding": True})
    calls(deal, "hearts", "contra")
    assert deal.legal_calls() == [PASS, RECONTRA]
    with pytest.raises(IllegalAction, match="contra_blocks_bidding"):
        deal.call(ALL_TRUMPS)


def test_recontra_ends_the_auction_only_with_the_option() -> None:
    deal = auction_deal()
    calls(deal, "hearts", "contra", "recontra")
    assert deal.phase == "auction"
    deal = auction_deal({"recontra_ends_auction": True})
    calls(deal, "hearts", "contra", "recontra")
    assert deal.phase == "play" and deal.multiplier == 4


def test_three_passes_after_a_contract_end_the_auction_and_the_dealers_right_leads() -> None:
    deal = auction_deal()
    calls(deal, "pass", "clubs", "pass", "pass")
    assert deal.phase == "auction"
    calls(deal, "pass")
    assert deal.phase == "play" and deal.to_act == 0 and deal.declarer == 1


# --- play through a real deal ---


def play_deal(contract: str) -> Deal:
    deal = Deal(DEFAULT, 3, HANDS_MIXED)
    calls(deal, contract, "pass", "pass", "pass")
    return deal


HANDS_MIXED = [
    cards("AS 7H AC KH QH 8D 9C 7S"),  # seat 0
    cards("TS 8S JC 7D 9D QC 8H TD"),  # seat 1
    cards("KS QS JS 9S 8C 7C JD QD"),  # seat 2
    cards("JH 9H AH TH KC AD KD TC"),  # seat 3
]


def test_must_follow_suit_with_the_rule_named() -> None:
    deal = play_deal("clubs")
    deal.play(parse_card("AS"))
    with pytest.raises(IllegalAction, match="must follow suit"):
        deal.play(parse_card("JC"))
    assert deal.trick == [parse_card("AS")]


def test_must_trump_when_an_opponent_wins_and_may_discard_when_partner_wins() -> None:
    deal = play_deal("hearts")
    deal.play(parse_card("AC"))  # seat 0 leads clubs
    deal.play(parse_card("QC"))  # seat 1 follows
    deal.play(parse_card("8C"))  # seat 2 follows; seat 0 (partner of 2) wins
    # Seat 3 holds KC and TC: must follow suit.
    assert sorted(card_str(c) for c in deal.legal_cards()) == ["KC", "TC"]


def test_belote_in_trumps_with_king_or_queen_while_holding_the_other() -> None:
    deal = play_deal("hearts")
    assert deal.belote_cards() == [parse_card("QH"), parse_card("KH")]
    deal.play(parse_card("KH"), belote=True)
    assert deal.announcements[-1].belote_suit == 2
    # Later the queen may not announce a second belote: the king is gone.


def test_belote_without_the_pair_or_in_no_trumps_is_illegal() -> None:
    deal = play_deal("no-trumps")
    with pytest.raises(IllegalAction, match="no belote in no trumps"):
        deal.play(parse_card("KH"), belote=True)
    deal = play_deal("spades")
    with pytest.raises(IllegalAction, match="king and queen of trumps"):
        deal.play(parse_card("KH"), belote=True)


def test_all_trumps_belote_lost_on_a_discard() -> None:
    # §13.8: in AT, discarding K♥ on a spade lead while holding Q♥ allows no belote.
    hands = [
        cards("7S 8S 9S TS JS AH 7C 8C"),
        cards("KH QH 7D 8D 9D TD JD QD"),
        cards("QS KS AS 9C TC JC QC KC"),
        cards("JH 9H TH 8H 7H AC AD KD"),
    ]
    deal = Deal(DEFAULT, 3, hands)
    calls(deal, "all-trumps", "pass", "pass", "pass")
    deal.play(parse_card("7S"))
    assert deal.belote_cards() == []
    with pytest.raises(IllegalAction, match="leading or following suit"):
        deal.play(parse_card("KH"), belote=True)
    deal.play(parse_card("KH"))  # the plain discard is fine


def test_declarations_only_with_the_first_card_and_never_in_no_trumps() -> None:
    deal = play_deal("hearts")
    # Seat 0 holds A♣ K♥ Q♥ ...: no sequence of three.
    with pytest.raises(IllegalAction, match="does not hold"):
        deal.play(parse_card("AS"), declare=("tierce",))
    deal.play(parse_card("AS"))
    deal.play(parse_card("TS"))
    # Seat 2 holds J♠ Q♠ K♠ (a tierce) and 9♠: J-Q-K with 9? 9 10 missing → tierce J-Q-K.
    assert deal.declarable() == ("tierce",)
    deal.play(parse_card("KS"), declare=("tierce",))
    assert deal.announcements[-1].kinds == ("tierce",)
    nt = play_deal("no-trumps")
    nt.play(parse_card("AS"))
    nt.play(parse_card("TS"))
    with pytest.raises(IllegalAction, match="no declarations in no trumps"):
        nt.play(parse_card("KS"), declare=("tierce",))


def test_a_card_serves_one_combination_and_the_player_chooses() -> None:
    hand = mask_of(cards("JH QH KH AH JC JD JS 7C"))
    options = {tuple(sorted(c.kind for c in o)) for o in declaration_options(hand, HEARTS_CONTRACT, DEFAULT)}
    assert ("carre", "tierce") in options  # the carré of jacks takes J♥, leaving Q-K-A
    assert ("quarte",) in options
    assert [c.kind for c in best_declarations(hand, HEARTS_CONTRACT, DEFAULT)] == ["carre", "tierce"]
    chosen = resolve_declarations(hand, ["quarte"], HEARTS_CONTRACT, DEFAULT)
    assert chosen is not None and chosen[0].top == 7
    assert resolve_declarations(hand, ["quarte", "carre"], HEARTS_CONTRACT, DEFAULT) is None


def test_long_runs_are_one_quint_and_eight_card_run_option() -> None:
    hand = mask_of(cards("7H 8H 9H TH JH QH KH AH"))
    assert declarable_kinds(hand, HEARTS_CONTRACT, DEFAULT) == ("quint",)
    assert sum(c.value for c in best_declarations(hand, HEARTS_CONTRACT, DEFAULT)) == 100
    rules120 = parse_rules({"eight_card_run": 120})
    assert sum(c.value for c in best_declarations(hand, HEARTS_CONTRACT, rules120)) == 120


def test_carre_of_aces_in_no_trumps_only_with_the_option() -> None:
    hand = mask_of(cards("AH AC AD AS 7H 8H 9H TH"))
    assert declarable_kinds(hand, NO_TRUMPS, DEFAULT) == ()
    assert declarable_kinds(hand, NO_TRUMPS, parse_rules({"nt_aces_carre": True})) == ("carre",)


def test_eights_and_sevens_are_no_carre() -> None:
    hand = mask_of(cards("8H 8C 8D 8S 7H 7C 7D 7S"))
    assert declarable_kinds(hand, HEARTS_CONTRACT, DEFAULT) == ()


def test_auto_declarations_announce_for_the_player_and_refuse_manual_ones() -> None:
    deal = Deal(parse_rules({"auto_declarations": True}), 3, HANDS_MIXED)
    calls(deal, "hearts", "pass", "pass", "pass")
    with pytest.raises(IllegalAction, match="automatic"):
        deal.play(parse_card("KH"), belote=True)
    deal.play(parse_card("KH"))
    assert deal.announcements[-1].belote_suit == 2


def test_illegal_action_changes_nothing() -> None:
    deal = play_deal("clubs")
    before = (list(deal.held), list(deal.trick), deal.to_act)
    with pytest.raises(IllegalAction):
        deal.play(parse_card("JC"))  # seat 1's card, not seat 0's
    assert (list(deal.held), list(deal.trick), deal.to_act) == before


def test_must_undertrump_option() -> None:
    # Seat 0 leads a spade, seat 1 follows, seat 2 (void) trumps with J♥; seat 3, void in spades, cannot over-trump.
    hands = [
        cards("7S AS KS QS JS 7D 8D 9D"),
        cards("8S 9S TS AC KC QC JC 9C"),
        cards("JH 9H AH TH KH JD QD KD"),
        cards("7H 8H QH AD 7C 8C TC TD"),
    ]
    for undertrump, expected in ((False, "7H 8H QH AD 7C 8C TC TD"), (True, "7H 8H QH")):
        deal = Deal(parse_rules({"must_undertrump": undertrump}), 3, hands)
        calls(deal, "hearts", "pass", "pass", "pass")
        deal.play(parse_card("7S"))
        deal.play(parse_card("8S"))
        assert deal.legal_cards() == sorted(cards("JH 9H AH TH KH"))  # seat 2 must trump
        deal.play(parse_card("JH"))
        assert deal.legal_cards() == sorted(cards(expected))
        if undertrump:
            with pytest.raises(IllegalAction, match="must_undertrump"):
                deal.play(parse_card("AD"))


def test_full_match_ends_with_a_winner_and_totals_add_up() -> None:
    import random

    rng = random.Random(5)
    match = Match(seed=5)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    assert match.winner is not None
    assert match.totals[match.winner] >= 151
    assert match.totals[match.winner] > match.totals[1 - match.winner]
    assert sum(r.score[0] for r in match.results if r) == match.totals[0]
    assert match.legal_actions() == []
    with pytest.raises(ValueError):
        match.apply(Play(0))


def test_resolving_a_carre_among_two_follows_the_hundred_carre_order() -> None:
    hand = mask_of(cards("TH TC TD TS KH KC KD KS"))
    by_points = resolve_declarations(hand, ["carre"], HEARTS_CONTRACT, DEFAULT)
    by_rank = resolve_declarations(hand, ["carre"], HEARTS_CONTRACT, parse_rules({"hundred_carre_order": "rank"}))
    assert by_points is not None and card_str(by_points[0].top)[0] == "T"  # A > 10 > K > Q
    assert by_rank is not None and card_str(by_rank[0].top)[0] == "K"  # A > K > Q > 10


def test_odd_actions_are_refused_with_a_reason() -> None:
    deal = play_deal("hearts")
    with pytest.raises(IllegalAction, match="unknown declaration"):
        deal.play(parse_card("AS"), declare=(3,))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not an action"):
        deal.apply("AS")  # type: ignore[arg-type]
