"""`bela` and `french` against an independent oracle (tests/oracle/family_model.py), a literal reading of family.md.

Seeded random matches under random table options: at every position the legal cards, after every trick the winner
(and Bela's "na dosta" claim), after every deal the declarations contest and what each side writes, after every deal
the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Bid, Play
from bot.engine.bela import BelaMatch, BelaRules
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.french import FrenchMatch, FrenchRules
from bot.engine.trumpdeal import TrumpDeal
from tests.oracle import family_model as oracle

SUIT = "CDHS"

BELA_CHOICES: dict[str, list[Any]] = {
    "target_score": [1001, 501, 301],
    "iber": [True, False],
    "partner_exemption": [False, True],
    "must_undertrump": [True, False],
    "tie": ["pad", "visi"],
    "stiglja_value": [90, 100],
    "swept_declarations": ["void", "transfer"],
    "bela_always_counts": [False, True],
    "sequence_tiebreak": ["length", "top_card"],
    "equal_declaration_priority": ["seat", "trump_first"],
    "declaration_card_sharing": [True, False],
    "end_rule": ["na_prolaz", "na_dosta"],
    "no_declarations": [False, True],
    "auto_declarations": [False, True],
}
FRENCH_CHOICES: dict[str, list[Any]] = {
    "target_score": [1000, 501, 301],
    "must_undertrump": [True, False],
    "tie": ["share", "litige", "fail"],
    "capot_bonus": [90, 100, 88],
    "capot_keeps_declarations": [False, True],
    "no_declarations": [False, True],
    "belote_king_first": [False, True],
    "rounding": [1, 5, 10],
    "both_reach": ["draw", "higher_wins"],
    "auto_declarations": [False, True],
}


def random_options(rng: random.Random, choices: dict[str, list[Any]]) -> dict[str, Any]:
    return {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.5}


def play_action(deal: TrumpDeal, rng: random.Random, manual: bool) -> Play:
    """A random legal card; with manual announcements, declare everything or nothing, and a belote at random."""
    card = rng.choice(deal.legal_cards())
    if not manual:
        return Play(card)
    declare = deal.declarable() if rng.random() < 0.7 else ()
    belote = card in deal.belote_cards() and rng.random() < 0.8
    return Play(card, declare, belote)


def check_match(match: FamilyMatch, opts: dict[str, Any], rng: random.Random) -> int:
    game = match.variant
    legal = oracle.legal_bela if game == "bela" else oracle.legal_french
    manual = not opts.get("auto_declarations", False)
    sharing = game == "bela" and opts.get("declaration_card_sharing", True)
    checked = 0
    while not match.over:
        deal = match.deal
        totals_before = list(match.totals)
        held_before = match.hanging
        while deal.phase == "auction":
            match.apply(Bid(rng.choice(deal.legal_calls())))
        if deal.phase == "done" and deal.contract < 0:
            continue  # French: passed out twice
        if deal.phase == "done":
            continue  # a belot (2·10⁻⁶ a deal): covered by the vectors
        trump = SUIT[deal.contract]
        hands = {s: {card_str(c) for c in deal.hands[s]} for s in range(4)}
        trick: list[tuple[int, str]] = []
        took = [0, 0]
        card_pts = [0, 0]
        dosta = None
        while deal.phase == "play":
            seat = deal.to_act
            mine = sorted(c for c in hands[seat])
            assert {card_str(c) for c in deal.legal_cards()} == legal(mine, trick, trump, seat, opts), (mine, trick)
            checked += 1
            action = play_action(deal, rng, manual)
            match.apply(action)
            hands[seat].discard(card_str(action.card))
            trick.append((seat, card_str(action.card)))
            if len(trick) == 4:
                winner = oracle.current_winner(trick, trump)[0]
                side = winner % 2
                took[side] += 1
                card_pts[side] += sum(oracle.points(c, trump) for _, c in trick)
                assert deal.tricks[-1].winner == winner
                trick = []
                if sum(took) == 8:
                    card_pts[side] += 10
                if game == "bela" and opts.get("end_rule") == "na_dosta" and dosta is None:
                    proven = totals_before[side] + card_pts[side]
                    if took[side] == 8:
                        proven += opts.get("stiglja_value", 90)
                    decl, contest = _declarations(deal, sharing, opts)
                    if contest == side:
                        proven += decl[side]
                    proven += 20 * sum(1 for a in deal.announcements if a.belote_suit >= 0 and a.seat % 2 == side)
                    if proven >= opts.get("target_score", 1001):
                        dosta = side
                        assert deal.phase == "done" and match.winner == side
        if dosta is not None:
            assert deal.result is None
            continue
        assert deal.result is not None
        decl, contest = _declarations(deal, sharing, opts)
        belas = [20 * sum(1 for a in deal.announcements if a.belote_suit >= 0 and a.seat % 2 == t) for t in (0, 1)]
        score = oracle.score_bela if game == "bela" else oracle.score_french
        caller = deal.bidder % 2
        total, written, held, outcome = score(opts, caller, card_pts, took, decl, contest, belas, held_before)
        got = deal.result
        assert (list(got.raw), list(got.score), got.hanging, got.outcome) == (total, written, held, outcome)
        totals = [totals_before[t] + written[t] for t in (0, 1)]
        assert match.totals == totals
        if game == "bela":
            assert match.winner == oracle.bela_match_winner(totals, opts.get("target_score", 1001))
        else:
            end = oracle.french_match_end(totals, opts.get("target_score", 1000), opts.get("both_reach", "draw"))
            assert (match.winner, match.drawn) == end
    return checked


def _declarations(deal: TrumpDeal, sharing: bool, opts: dict[str, Any]) -> tuple[list[int], int | None]:
    """Each team's announced declarations and the contest winner, from the oracle's own reading of the hands."""
    trump = SUIT[deal.contract]
    declared: dict[int, list[oracle.Decl]] = {}
    announced = {a.seat for a in deal.announcements if a.belote_suit < 0}
    for seat in range(4):
        if seat in announced and deal.played_first[seat] and not opts.get("no_declarations", False):
            declared[seat] = oracle.declarations({card_str(c) for c in deal.hands[seat]}, sharing)
    if deal.variant == "bela":
        winner = oracle.contest(declared, deal.dealer, lambda d, p: oracle.bela_key(d, p, trump, opts))
    else:
        winner = oracle.contest(declared, deal.dealer, lambda d, p: oracle.french_key(d, p, trump))
    values = [sum(d.value for s, ds in declared.items() if s % 2 == t for d in ds) for t in (0, 1)]
    if not all(deal.played_first):
        winner = None  # the contest is decided once every player has played a card
    return values, winner


@pytest.mark.parametrize("seed", range(40))
def test_bela_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    opts = random_options(rng, BELA_CHOICES)
    match = BelaMatch(BelaRules(**opts), seed=seed)
    assert check_match(match, opts, rng) > 0


@pytest.mark.parametrize("seed", range(40))
def test_french_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(1000 + seed)
    opts = random_options(rng, FRENCH_CHOICES)
    match = FrenchMatch(FrenchRules(**opts), seed=seed)
    assert check_match(match, opts, rng) > 0


def test_oracle_hand_declarations_agree_on_random_hands() -> None:
    """The engine's declarations of a hand (both sharing rules) against the oracle's, over many random hands."""
    from bot.engine.cards import mask_of
    from bot.engine.combos import best_disjoint, every_combination

    rng = random.Random(5)
    for _ in range(3000):
        hand = rng.sample(range(32), 8)
        mask = mask_of(hand)
        text = {card_str(c) for c in hand}
        shared = sorted(c.value for c in every_combination(mask, 0))
        assert shared == sorted(d.value for d in oracle.declarations(text, True))
        assert sum(c.value for c in best_disjoint(mask, 0)) == sum(d.value for d in oracle.declarations(text, False))
