"""The double-dummy solver against plain minimax on small positions, and on hand-made endgames."""

from __future__ import annotations

import random

import pytest

from bot.ai.solver import STOP_EVERY, SearchStopped, Solver
from bot.engine import ALL_TRUMPS, NO_TRUMPS, parse_card
from bot.engine.cards import CardMask, card_list, mask_of
from bot.engine.play import CARD_POINTS, legal_cards, trick_winner
from bot.engine.scoring import LAST_TEN, VALAT_BONUS


def brute_force(contract: int, hands: list[CardMask], leader: int, trick: list[int], took: int) -> int:
    """A minus B from the trick in progress on, by exhaustive minimax over the engine's legal cards."""
    seat = (leader + len(trick)) & 3
    if trick:
        pos = trick_winner(trick, contract)
        partner_wins = len(trick) - pos == 2
        legal = legal_cards(hands[seat], trick[0], trick[pos], partner_wins, contract)
    else:
        legal = hands[seat]
    values = []
    for card in card_list(legal):
        hands[seat] ^= 1 << card
        cards = [*trick, card]
        if len(cards) < 4:
            v = brute_force(contract, hands, leader, cards, took)
        else:
            winner = (leader + trick_winner(cards, contract)) & 3
            pts = sum(CARD_POINTS[contract][c] for c in cards)
            now = took | 1 << (winner & 1)
            if not any(hands):
                pts += LAST_TEN + (VALAT_BONUS if now != 3 else 0)
                v = pts if winner & 1 == 0 else -pts
            else:
                rest = brute_force(contract, hands, winner, [], now)
                v = (pts if winner & 1 == 0 else -pts) + rest
        hands[seat] ^= 1 << card
        values.append(v)
    return max(values) if seat & 1 == 0 else min(values)


def random_position(rng: random.Random, tricks_left: int) -> tuple[int, list[CardMask], int, list[int]]:
    """(contract, hands, leader, trick) with every hand holding ``tricks_left`` cards or one fewer in the trick."""
    deck = list(range(32))
    rng.shuffle(deck)
    leader = rng.randrange(4)
    in_trick = rng.randrange(4)
    hands = [0, 0, 0, 0]
    trick: list[int] = []
    pos = 0
    for i in range(4):
        seat = (leader + i) & 3
        n = tricks_left - (1 if i < in_trick else 0)
        hands[seat] = mask_of(deck[pos : pos + n])
        pos += n
    # The cards already in the trick: legal ones, played in order.
    for i in range(in_trick):
        seat = (leader + i) & 3
        hands[seat] |= 1 << deck[pos]
        pos += 1
    contract = rng.randrange(6)
    for i in range(in_trick):
        seat = (leader + i) & 3
        if trick:
            w = trick_winner(trick, contract)
            legal = legal_cards(hands[seat], trick[0], trick[w], len(trick) - w == 2, contract)
        else:
            legal = hands[seat]
        card = rng.choice(card_list(legal))
        hands[seat] ^= 1 << card
        trick.append(card)
    return contract, hands, leader, trick


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_solver_matches_brute_force_on_random_positions(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    for _ in range(60 if tricks_left < 3 else 25):
        contract, hands, leader, trick = random_position(rng, tricks_left)
        took = rng.choice([0, 1, 2, 3])
        expected = brute_force(contract, list(hands), leader, list(trick), took)
        solver = Solver(contract)
        assert solver.value(list(hands), leader, list(trick), took) == expected
        # Every root card's value is exact too, and the best of them is the position's value.
        values = solver.values(list(hands), leader, list(trick), took)
        seat = (leader + len(trick)) & 3
        best = max(values.values()) if seat & 1 == 0 else min(values.values())
        assert best == expected


def test_solver_leaves_the_hands_as_it_found_them() -> None:
    rng = random.Random(7)
    contract, hands, leader, trick = random_position(rng, 3)
    before = (list(hands), list(trick))
    Solver(contract).values(hands, leader, trick)
    assert (hands, trick) == before


def cards(text: str) -> CardMask:
    return mask_of(parse_card(t) for t in text.split())


def test_declarer_draws_the_last_trump_before_cashing_the_ace() -> None:
    # Hearts. Seat 0 holds J♥ 9♥ A♠; seat 1 holds the last trump 7♥ and no spade. Leading A♠ lets it be ruffed.
    hands = [cards("JH 9H AS"), cards("7H 8D 9D"), cards("7C 8C 9C"), cards("TD JD QD")]
    values = Solver(2).values(hands, 0, [], took=3)
    trump_lead = max(values[parse_card("JH")], values[parse_card("9H")])
    assert trump_lead > values[parse_card("AS")]
    everything = sum(CARD_POINTS[2][c] for c in card_list(cards("JH 9H AS 7H 8D 9D 7C 8C 9C TD JD QD")))
    assert trump_lead == everything + LAST_TEN


def test_keeping_the_master_trump_wins_the_last_ten() -> None:
    # Hearts, seventh trick: seat 1 led 7♠, the partner (seat 2) wins it with A♠; seat 0 may play J♥ or 7♦.
    hands = [cards("JH 7D"), cards("8D"), cards("9D"), cards("TD")]
    trick = [parse_card("7S"), parse_card("AS"), parse_card("8S")]
    values = Solver(2).values(hands, 1, trick, took=3)
    assert values[parse_card("7D")] > values[parse_card("JH")]


def test_no_trumps_and_all_trumps_positions_solve_to_known_totals() -> None:
    # Two tricks in no trumps: seat 0 leads; whoever wins the last trick gets the last ten.
    hands = [cards("AS 7C"), cards("KS AC"), cards("8C 8D"), cards("9C 9D")]
    values = Solver(NO_TRUMPS).values(hands, 0, [], took=3)
    # Leading 7♣: seat 1 takes A♣ (11), then must lead K♠ into A♠: 15 + 10 for A.
    assert values[parse_card("7C")] == (11 + 4 + 10) - 11
    assert values[parse_card("AS")] == (11 + 4) - (11 + 10)
    at = Solver(ALL_TRUMPS).value([cards("JH"), cards("9H"), cards("AH"), cards("TH")], 0, [], took=3)
    assert at == 20 + 14 + 11 + 10 + 10


def test_a_search_gives_up_when_its_stop_says_so_and_not_before() -> None:
    """The review's time budget reaches into a search through ``stop``: asked every STOP_EVERY nodes, and a search
    that is told to stop raises rather than returning a value it did not finish."""
    deck = list(range(32))
    random.Random(5).shuffle(deck)
    hands = [mask_of(deck[i : i + 6]) for i in range(0, 24, 6)]  # six tricks left: about 30,000 nodes
    contract, leader, trick = NO_TRUMPS, 0, []
    asked: list[int] = []
    solver = Solver(contract)

    def stop() -> bool:
        asked.append(solver.nodes)
        return len(asked) == 3

    solver.stop = stop
    before = list(hands)
    with pytest.raises(SearchStopped):
        solver.value(hands, leader, trick)
    assert asked == [STOP_EVERY, 2 * STOP_EVERY, 3 * STOP_EVERY]
    assert hands == before  # the stopped search played its cards in its own copy
    # Without a stop the same search runs to its end, past where it was stopped, and gives the exact value.
    free = Solver(contract)
    exact = free.value(hands, leader, trick)
    assert free.nodes > 3 * STOP_EVERY
    assert Solver(contract).value(hands, leader, trick) == exact
