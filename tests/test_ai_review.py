"""The post-deal review on hand-built deals whose mistakes are known."""

from __future__ import annotations

from bot.ai.review import review_deal
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS
from bot.engine.cards import parse_cards
from bot.engine.deal import Deal
from bot.engine.rules import Rules


def cards(text: str) -> list[int]:
    return parse_cards(text.split())


# A budget no machine reaches, for the review and for the hard bot's calls: these tests check what the review finds,
# not how fast the machine is (on a slow core the default budget ends a review before its last decision).
LOOSE = 120.0

CLUBS = "AC 10C KC QC JC 9C 8C"
# Seat 0 holds seven clubs and a small spade; seat 3 the other spades and the last club; seats 1 and 2 one suit each.
HANDS = [
    parse_cards([*CLUBS.split(), "7S"]),
    cards("7D 8D 9D 10D JD QD KD AD"),
    cards("7H 8H 9H 10H JH QH KH AH"),
    cards("AS 10S KS QS JS 9S 8S 7C"),
]


def play_out(deal: Deal, leads: list[str]) -> None:
    """Seat 0 leads the given cards in turn (it wins every club lead); every other seat plays its lowest legal
    card. Seat 3 wins a spade lead and then leads spades until it has only its club left."""
    wanted = parse_cards(leads)
    while deal.phase == "play":
        legal = deal.legal_cards()
        if deal.to_act == 0 and not deal.trick:
            card = wanted.pop(0) if wanted else min(legal)
        elif deal.to_act == 3 and not deal.trick:
            spades = [c for c in legal if c >> 3 == 3]
            card = max(spades) if spades else legal[0]
        else:
            card = min(legal)
        deal.play(card)


def nt_deal(leads: list[str]) -> Deal:
    deal = Deal(Rules(), 3, HANDS)
    for call in (NO_TRUMPS, PASS, PASS, PASS):
        deal.call(call)
    play_out(deal, leads)
    assert deal.result is not None
    return deal


def test_a_lead_that_gives_the_deal_away_is_named() -> None:
    # Leading the small spade first lets seat 3 in, and its spades take the next seven tricks; seven club leads first
    # take seven tricks. The review names the spade at trick 1 and a club instead.
    deal = nt_deal(["7S"])
    review = review_deal(deal, 0, cpu=LOOSE, call_cpu=LOOSE)
    first = [n for n in review.cards if n.trick == 1]
    assert first, review
    note = first[0]
    assert note.played == parse_cards(["7S"])[0]
    assert note.better >> 3 == 0  # a club
    assert note.gain >= 40  # at least the clubs' 30 points and the last ten swing to seat 0's side
    assert note.game_gain > 0
    assert review.complete


def test_the_right_line_gets_no_card_note() -> None:
    deal = nt_deal(CLUBS.split())
    review = review_deal(deal, 0, cpu=LOOSE, call_cpu=LOOSE)
    assert review.complete
    assert review.checked >= 1
    assert review.cards == ()


def test_a_defender_who_keeps_the_wrong_card_is_named() -> None:
    # Seat 1 discards the lowest diamond each time, so it keeps the ace for the last trick, which its partner takes:
    # right. Reviewing seat 2 (seat 0's partner), who discards hearts: it keeps the ace of hearts for seat 3's trick,
    # where keeping a low heart would give the other side 11 points less.
    deal = nt_deal(CLUBS.split())
    review = review_deal(deal, 2, cpu=LOOSE, call_cpu=LOOSE)
    assert review.cards, review
    assert all(n.gain >= 4 for n in review.cards)
    assert any(n.played >> 3 == 2 for n in review.cards)


def test_a_call_the_hard_bot_would_not_make_is_named() -> None:
    # Four sevens and an eight among the first five cards: the hard bot passes where seat 0 called all trumps.
    hands = [
        cards("7C 7D 7H 7S 8C AC 10C KC"),
        cards("AD 10D KD QD JD 9D 8D 9C"),
        cards("AH 10H KH QH JH 9H 8H QC"),
        cards("AS 10S KS QS JS 9S 8S JC"),
    ]
    deal = Deal(Rules(), 3, hands)
    for call in (ALL_TRUMPS, PASS, PASS, PASS):
        deal.call(call)
    while deal.phase == "play":
        deal.play(min(deal.legal_cards()))
    review = review_deal(deal, 0, cpu=LOOSE, call_cpu=LOOSE)
    assert [(n.number, n.made, n.better) for n in review.calls] == [(1, ALL_TRUMPS, PASS)]
    # Seat 1 passed over all trumps holding A 10 K Q J of diamonds. The hard bot weighs a contra on the deals the
    # opening allows (an all-trumps opening by the fitted model often goes inside) and doubles.
    second = review_deal(deal, 1, cpu=LOOSE, call_cpu=LOOSE)
    assert [(n.number, n.made, n.better) for n in second.calls] == [(1, PASS, CONTRA)]


def test_a_call_the_hard_bot_would_make_too_is_not_named() -> None:
    # Seat 1 passed over all trumps with four small cards and a seven of its first five: so would the hard bot.
    hands = [
        cards("JC JD JH JS 9C AC 10C KC"),
        cards("7C 8C 7D 8D 7H 9D AD 10D"),
        cards("7S 8S 8H QC QD AH 10H KH"),
        cards("9H QH KD 9S AS 10S KS QS"),
    ]
    deal = Deal(Rules(), 3, hands)
    for call in (ALL_TRUMPS, PASS, PASS, PASS):
        deal.call(call)
    while deal.phase == "play":
        deal.play(min(deal.legal_cards()))
    review = review_deal(deal, 1, cpu=LOOSE, call_cpu=LOOSE)
    assert review.checked >= 1 and review.calls == ()


def test_a_review_stops_at_its_budget() -> None:
    deal = nt_deal(["7S"])
    review = review_deal(deal, 0, cpu=0.0)
    assert not review.complete
    assert review.cards == ()
