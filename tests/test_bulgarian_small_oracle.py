"""`bulgarian-3` and `bulgarian-2` against an independent oracle (tests/oracle/bulgarian_small_model.py), a literal
reading of family.md §8–§9.

Seeded random matches under random table options, every deal played through the match: the hands as the seed deals
them, at every call the legal calls, at every card the legal cards, the declarable kinds and the belote cards, after
every trick its winner, after every deal each player's raw total, what he writes, the pot and the verdict, and after
every deal the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Bid, Play
from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules
from bot.engine.bulgarian_small_match import BulgarianThreeMatch, BulgarianTwoMatch, SmallDeal
from bot.engine.calls import CALL_NAMES
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.shuffle import shuffle_and_cut
from tests.oracle import bulgarian_small_model as oracle
from tests.oracle.model import belote_allowed, card_points

CHOICES: dict[str, list[Any]] = {
    "target_score": [151, 101, 51],
    "contra_blocks_bidding": [False, True],
    "recontra_ends_auction": [False, True],
    "declaration_comparison": ["separate", "carre_kills_quint", "single_contest", "carre_beats_sequence"],
    "hundred_carre_order": ["points", "rank"],
    "long_sequence": ["top_card", "length"],
    "nt_aces_carre": [False, True],
    "nt_valat_doubled": [False, True],
    "valat_multiplied": [True, False],
    "contra_tie": ["all_hang", "split"],
    "inside_keeps_belote": [False, True],
    "valat_team_keeps_declarations": [True, False],
    "capot_blocks_finish": [True, False],
    "winner_must_score_last_deal": [False, True],
    "no_finish_while_hanging": [False, True],
    "must_undertrump": [False, True],
    "auto_declarations": [False, True],
}


def random_options(rng: random.Random, three: bool) -> dict[str, Any]:
    opts = {k: rng.choice(v) for k, v in CHOICES.items() if rng.random() < 0.5}
    if three and rng.random() < 0.5:
        opts["made_rule"] = rng.choice(["each", "both_together"])
    return opts


def a_call(rng: random.Random, legal: list[int]) -> int:
    """Random calls that bid, double and pass often enough to reach every kind of ending."""
    passes = [c for c in legal if CALL_NAMES[c] == "pass"]
    if passes and rng.random() < 0.55:
        return passes[0]
    return rng.choice(legal)


def check_match(match: FamilyMatch, opts: dict[str, Any], rng: random.Random) -> int:
    n = match.SEATS
    manual = not opts.get("auto_declarations", False)
    checked = 0
    while not match.over:
        deal = match.deal
        assert isinstance(deal, SmallDeal)
        number = len(match.deals) - 1
        pack = [card_str(c) for c in shuffle_and_cut(match.seed, number, match.scheme)]
        hands = oracle.deal(pack, deal.dealer, n)
        assert [[card_str(c) for c in h] for h in deal.hands] == [h[:5] for h in hands]
        totals_before, pot_in = list(match.totals), match.hanging
        auction = oracle.Auction(n, deal.dealer, opts)
        while deal.phase == "auction":
            assert {CALL_NAMES[c] for c in deal.legal_calls()} == auction.legal()
            call = a_call(rng, deal.legal_calls())
            auction.call(CALL_NAMES[call])
            match.apply(Bid(call))
        if auction.state == "redeal":
            assert deal.passed_out and match.hanging == pot_in and match.totals == totals_before
            continue
        assert [[card_str(c) for c in h] for h in deal.hands] == hands
        contract = auction.contract
        assert contract is not None and auction.bidder is not None
        assert (CALL_NAMES[deal.contract], deal.bidder, deal.multiplier) == (contract, auction.bidder, auction.mult)
        held = {s: list(hands[s]) for s in range(n)}
        trick: list[tuple[int, str]] = []
        took, cards = [0] * n, [0] * n
        declared: list[list[oracle.Combo]] = [[] for _ in range(n)]
        belotes = [0] * n
        first = [True] * n
        while deal.phase == "play":
            seat = deal.to_act
            legal = oracle.legal_cards(held[seat], trick, contract, opts.get("must_undertrump", False))
            assert sorted(card_str(c) for c in deal.legal_cards()) == sorted(legal), (held[seat], trick, contract)
            best = oracle.best_set(held[seat], contract, opts) if first[seat] else []
            assert sorted(deal.declarable()) == sorted(c.kind for c in best)
            may = {c for c in legal if belote_allowed(c, held[seat], trick, contract)}
            assert {card_str(c) for c in deal.belote_cards()} == may
            checked += 1
            card = rng.choice(deal.legal_cards())
            text = card_str(card)
            declare = tuple(c.kind for c in best) if manual and rng.random() < 0.8 else ()
            belote = text in may and (not manual or rng.random() < 0.8)
            match.apply(Play(card, declare, belote) if manual else Play(card))
            if first[seat]:
                first[seat] = False
                declared[seat] = best if (declare or not manual) else []
            belotes[seat] += belote
            held[seat].remove(text)
            trick.append((seat, text))
            if len(trick) == n:
                winner = oracle.current_winner(trick, contract)[0]
                assert deal.tricks[-1].winner == winner
                took[winner] += 1
                cards[winner] += sum(card_points(c, contract) for _, c in trick) + (10 if sum(took) == 8 else 0)
                trick = []
        raw, valat, counted_belotes = oracle.raw_totals(contract, cards, declared, belotes, took, opts)
        d, mult = auction.bidder, auction.mult
        if n == 3:
            written, pot, verdict = oracle.score_three(
                contract, mult, d, raw, pot_in, counted_belotes[d], valat, opts
            )
        else:
            written, pot, verdict = oracle.score_two(contract, mult, d, raw, pot_in, valat, opts)
        got = deal.result
        assert got is not None
        assert (list(got.raw), list(got.score), got.hanging, got.outcome) == (raw, written, pot, verdict)
        totals = [totals_before[p] + written[p] for p in range(n)]
        assert match.totals == totals and match.hanging == pot
        assert match.winner == oracle.match_winner(totals, written, valat is not None, pot, opts)
    return checked


@pytest.mark.parametrize("seed", range(40))
def test_three_player_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    opts = random_options(rng, True)
    match = BulgarianThreeMatch(BulgarianThreeRules(**opts), seed=f"bg3-{seed}")
    assert check_match(match, opts, rng) > 0


@pytest.mark.parametrize("seed", range(40))
def test_two_player_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(500 + seed)
    opts = random_options(rng, False)
    match = BulgarianTwoMatch(BulgarianTwoRules(**opts), seed=f"bg2-{seed}")
    assert check_match(match, opts, rng) > 0
