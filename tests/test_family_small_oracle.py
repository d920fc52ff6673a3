"""`bela-3`, `bela-2` and `bela-open` against an independent oracle (tests/oracle/family_small.py, family_model.py).

Seeded random matches under random table options: the deal from the shuffled deck, the legal calls, the discard
and the seven exchange, the legal cards at every position, every trick's winner, the declarations contest, what each
player writes after every deal, and the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Bid, Discard, Exchange, Play
from bot.engine.bela2 import BelaTwoDeal, BelaTwoMatch, BelaTwoRules
from bot.engine.bela3 import BelaThreeDeal, BelaThreeMatch, BelaThreeRules
from bot.engine.calls import CALL_NAMES
from bot.engine.cards import card_str
from bot.engine.familymatch import FamilyMatch
from bot.engine.shuffle import shuffle_and_cut
from bot.engine.trumpdeal import TrumpDeal
from tests.oracle import family_model as oracle
from tests.oracle import family_small as small

SUIT = "CDHS"

SHARED_CHOICES: dict[str, list[Any]] = {
    "iber": [True, False],
    "stiglja_value": [90, 100],
    "bela_always_counts": [False, True],
    "sequence_tiebreak": ["length", "top_card"],
    "equal_declaration_priority": ["seat", "trump_first"],
    "declaration_card_sharing": [True, False],
    "no_declarations": [False, True],
    "auto_declarations": [False, True],
}
THREE_CHOICES: dict[str, list[Any]] = {
    **SHARED_CHOICES,
    "target_score": [701, 501, 301],
    "forced_first_caller": [True, False],
    "fall_points": ["vanish", "higher_opponent", "both_opponents"],
    "must_undertrump": [True, False],
}
TWO_CHOICES: dict[str, list[Any]] = {
    **SHARED_CHOICES,
    "target_score": [501, 301],
    "seven_exchange": ["trump", "always", "off"],
    "stock_visible": [False, True],
    "swept_declarations": ["void", "transfer"],
}


def random_options(rng: random.Random, choices: dict[str, list[Any]]) -> dict[str, Any]:
    return {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.5}


def strings(cards: Any) -> list[str]:
    return [card_str(c) for c in cards]


def check_match(match: FamilyMatch, opts: dict[str, Any], rng: random.Random) -> int:
    n = match.SEATS
    manual = not opts.get("auto_declarations", False)
    sharing = opts.get("declaration_card_sharing", True)
    checked = 0
    while not match.over:
        deal = match.deal
        number = len(match.deals) - 1
        totals_before = list(match.totals)
        deck = strings(shuffle_and_cut(match.seed, number, match.scheme))
        # The deal, from the same deck, dealt by the oracle.
        if isinstance(deal, BelaThreeDeal):
            hands, extra = small.deal_three(deck, deal.dealer)
            assert [strings(h) for h in deal.hands] == hands and strings(deal.extra) == extra
        else:
            assert isinstance(deal, BelaTwoDeal)
            hands, turned, stock = small.deal_two(deck, deal.dealer)
            assert [strings(h) for h in deal.hands] == hands and card_str(deal.turned) == turned
            assert sorted(strings(deal.stock)) == sorted(stock)
        # The call.
        calls: list[str] = []
        while deal.phase == "auction":
            want = (
                small.calls_three(calls, deal.dealer, opts) if n == 3 else small.calls_two(calls, card_str(deal.turned))
            )
            assert {CALL_NAMES[c] for c in deal.legal_calls()} == want
            call = rng.choice(deal.legal_calls())
            calls.append(CALL_NAMES[call])
            match.apply(Bid(call))
        trump = SUIT[deal.contract]
        caller = deal.bidder
        kept = [set(h) for h in hands]
        discard_pts = 0
        if isinstance(deal, BelaThreeDeal):
            assert deal.phase == "discard" and deal.to_act == caller
            twelve = kept[caller] | set(extra)
            assert set(strings(deal.legal_cards())) == twelve
            pair = rng.sample(sorted(twelve), 2)
            match.apply(Discard(tuple(int(c) for c in _ints(deal, pair))))
            kept[caller] = twelve - set(pair)
            discard_pts = sum(oracle.points(c, trump) for c in pair)
        else:
            holder = small.exchange_holder(hands, turned, CALL_NAMES[deal.contract], opts)
            if holder is None:
                assert deal.phase != "exchange"
            else:
                assert deal.phase == "exchange" and deal.to_act == holder
                take = rng.random() < 0.6
                match.apply(Exchange(take))
                if take:
                    kept[holder] = kept[holder] - {"7" + turned[1]} | {turned}
        if deal.phase == "done":
            continue  # a belot: covered by the vectors
        assert {s: set(strings(deal.hand_of(s))) for s in range(n)} == dict(enumerate(kept))
        before_play = [set(k) for k in kept]
        trick: list[tuple[int, str]] = []
        took = [0] * n
        card_pts = [0] * n
        card_pts[caller] += discard_pts
        while deal.phase == "play":
            seat = deal.to_act
            mine = sorted(kept[seat])
            assert set(strings(deal.legal_cards())) == oracle.legal_bela(mine, trick, trump, seat, opts), (mine, trick)
            checked += 1
            card = rng.choice(deal.legal_cards())
            if manual:
                declare = deal.declarable() if rng.random() < 0.7 else ()
                match.apply(Play(card, declare, card in deal.belote_cards() and rng.random() < 0.8))
            else:
                match.apply(Play(card))
            kept[seat].discard(card_str(card))
            trick.append((seat, card_str(card)))
            if len(trick) == n:
                winner = oracle.current_winner(trick, trump)[0]
                took[winner] += 1
                card_pts[winner] += sum(oracle.points(c, trump) for _, c in trick)
                assert deal.tricks[-1].winner == winner
                trick = []
                if sum(took) == 10:
                    card_pts[winner] += 10
        assert deal.result is not None
        decl, best = _declarations(deal, before_play, sharing, opts)
        belas = [20 * sum(1 for a in deal.announcements if a.belote_suit >= 0 and a.seat == p) for p in range(n)]
        if n == 3:
            contest_caller = None if best is None else best == caller
            total, written, outcome = small.score_three(
                opts, caller, deal.dealer, card_pts, took, decl, contest_caller, belas
            )
        else:
            total, written, outcome = small.score_two(opts, caller, card_pts, took, decl, best, belas)
        got = deal.result
        assert (list(got.raw), list(got.score), got.outcome) == (total, written, outcome)
        totals = [totals_before[p] + written[p] for p in range(n)]
        assert match.totals == totals
        assert match.winner == oracle.bela_match_winner(totals, opts.get("target_score", 701 if n == 3 else 501))
    return checked


def _ints(deal: TrumpDeal, cards: list[str]) -> list[int]:
    by_name = {card_str(c): c for c in range(32)}
    return [by_name[c] for c in cards]


def _declarations(
    deal: TrumpDeal, held: list[set[str]], sharing: bool, opts: dict[str, Any]
) -> tuple[list[int], int | None]:
    """Each player's announced declarations and the seat of the best one, from the oracle's reading of the hands
    as they stood before the first lead."""
    trump = SUIT[deal.contract]
    declared: dict[int, list[oracle.Decl]] = {}
    announced = {a.seat for a in deal.announcements if a.belote_suit < 0}
    for seat in range(deal.n):
        if seat in announced and not opts.get("no_declarations", False):
            declared[seat] = oracle.declarations(held[seat], sharing)
    best = small.best_declarer(declared, deal.dealer, deal.n, lambda d, p: oracle.bela_key(d, p, trump, opts))
    values = [sum(d.value for d in declared.get(p, [])) for p in range(deal.n)]
    return values, best


@pytest.mark.parametrize("seed", range(30))
def test_bela3_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    opts = random_options(rng, THREE_CHOICES)
    match = BelaThreeMatch(BelaThreeRules(**opts), seed=seed)
    assert check_match(match, opts, rng) > 0


@pytest.mark.parametrize("seed", range(30))
def test_bela2_matches_agree_with_the_oracle(seed: int) -> None:
    rng = random.Random(2000 + seed)
    opts = random_options(rng, TWO_CHOICES)
    match = BelaTwoMatch(BelaTwoRules(**opts), seed=seed)
    assert check_match(match, opts, rng) > 0


OPEN_CHOICES: dict[str, list[Any]] = {
    "target_score": [501, 301],
    "open_trump": ["croatian", "french"],
    "reveal_on_lead": [False, True],
    "iber": [True, False],
    "open_declarations": [False, True],
    "open_bela": [False, True],
    "stiglja_value": [90, 100],
}


def check_open_match(match: FamilyMatch, opts: dict[str, Any], rng: random.Random) -> int:
    """bela-open: the deal, the calls, the playable cards and the public layouts after every card, the tricks, the
    automatic declarations and bela, the score, the end (family §6)."""
    checked = 0
    while not match.over:
        deal = match.deal
        totals_before = list(match.totals)
        deck = strings(shuffle_and_cut(match.seed, len(match.deals) - 1, match.scheme))
        hands = small.deal_open(deck, deal.dealer)
        assert [strings(h) for h in deal.hands] == hands
        layouts = [small.Layout(hands[s]) for s in (0, 1)]
        calls: list[str] = []
        while deal.phase == "auction":
            assert {CALL_NAMES[c] for c in deal.legal_calls()} == small.calls_open(calls, hands, deal.dealer, opts)
            call = rng.choice(deal.legal_calls())
            calls.append(CALL_NAMES[call])
            match.apply(Bid(call))
        if deal.contract < 0:
            assert calls == ["pass"] * 4 and opts.get("open_trump") == "french"
            continue
        trump = SUIT[deal.contract]
        caller = deal.bidder
        trick: list[tuple[int, str]] = []
        took = [0, 0]
        card_pts = [0, 0]
        kq = [0, 0]
        while deal.phase == "play":
            seat = deal.to_act
            for s in (0, 1):
                assert set(strings(deal.hand_of(s))) == layouts[s].playable()
                view = match.observe(s).to_json()
                assert view["layout"] == [layouts[0].public(), layouts[1].public()]
            mine = sorted(layouts[seat].playable())
            assert set(strings(deal.legal_cards())) == oracle.legal_bela(mine, trick, trump, seat, opts), (mine, trick)
            checked += 1
            card = rng.choice(deal.legal_cards())
            match.apply(Play(card))
            text = card_str(card)
            pile = layouts[seat].play(text)
            if text[1] == trump and text[0] in "KQ":
                kq[seat] += 1
            if opts.get("reveal_on_lead", False) and not trick:
                layouts[seat].turn_up(pile)  # §6.4: the leader turns his card up at once
            trick.append((seat, text))
            if len(trick) == 2:
                winner = oracle.current_winner(trick, trump)[0]
                took[winner] += 1
                card_pts[winner] += sum(oracle.points(c, trump) for _, c in trick)
                assert deal.tricks[-1].winner == winner
                for s, _played in trick:  # §6.4: the cards whose covers went to this trick turn face up
                    for k in range(8):
                        layouts[s].turn_up(k)
                trick = []
                if sum(took) == 16:
                    card_pts[winner] += 10
        assert deal.result is not None
        decl = [0, 0]
        best = None
        if opts.get("open_declarations", False):  # §6.5: the 8 face-up cards, sharing allowed, default keys
            declared = {s: oracle.declarations(set(hands[s][8:]), True) for s in (0, 1)}
            declared = {s: d for s, d in declared.items() if d}
            best = small.best_declarer(declared, deal.dealer, 2, lambda d, p, t=trump: oracle.bela_key(d, p, t, {}))
            decl = [sum(d.value for d in declared.get(s, [])) for s in (0, 1)]
        belas = [20 if opts.get("open_bela", False) and kq[s] == 2 else 0 for s in (0, 1)]
        score_opts = {"stiglja_value": opts.get("stiglja_value", 90)}
        total, written, outcome = small.score_two(score_opts, caller, card_pts, took, decl, best, belas, 16)
        got = deal.result
        assert (list(got.raw), list(got.score), got.outcome) == (total, written, outcome)
        totals = [totals_before[p] + written[p] for p in (0, 1)]
        assert match.totals == totals
        assert match.winner == oracle.bela_match_winner(totals, opts.get("target_score", 501))
    return checked


@pytest.mark.parametrize("seed", range(30))
def test_bela_open_matches_agree_with_the_oracle(seed: int) -> None:
    from bot.engine.belaopen import BelaOpenMatch, BelaOpenRules

    rng = random.Random(4000 + seed)
    opts = random_options(rng, OPEN_CHOICES)
    match = BelaOpenMatch(BelaOpenRules(**opts), seed=seed)
    assert check_open_match(match, opts, rng) > 0
