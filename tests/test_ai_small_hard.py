"""The hard bot in the Bela games of three and two players: full matches blind to the hidden cards, the best card
whenever nothing is hidden (checked by exhaustive search on the engine itself), the search of tricks of three against
the engine, and deals sampled only where the seat cannot see."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai.familyknowledge import family_knowledge
from bot.ai.games import game_of
from bot.ai.hard import HardAgent
from bot.ai.medium import MediumAgent
from bot.engine import Play
from bot.engine.cards import Card, mask_of
from bot.engine.game import VARIANTS
from bot.engine.trumpdeal import TrumpDeal

from .test_ai_small import GAMES, OPTIONS, play


@pytest.mark.parametrize("game", GAMES)
def test_the_hard_bot_plays_a_full_match_legally_from_its_view_alone(game: str) -> None:
    rules = dict(OPTIONS[game][0], target_score=151)
    assert play("hard", game, rules, f"hard/{game}", True) == play("hard", game, rules, f"hard/{game}", False)


def test_the_hard_bot_in_the_open_game_does_not_read_the_face_down_cards() -> None:
    # The open game with the French call and the lead's reveal: the face-down cards dealt otherwise change nothing.
    rules = dict(OPTIONS["bela-open"][1], target_score=151)
    assert play("hard", "bela-open", rules, "hard/open", True) == play("hard", "bela-open", rules, "hard/open", False)


def engine_best(deal: TrumpDeal) -> dict[Card, int]:
    """Each legal card's value by exhaustive minimax on copies of the engine's deal: the caller's card points (with
    the last trick and the štiglja) minus his opponents', the opponents playing together."""
    import copy

    def value(d: TrumpDeal) -> int:
        if d.phase == "done" or d.phase != "play":
            totals = d.card_totals(d.opts.stiglja_value)
            if d.n == 3:  # bela-3 keeps card points per player; the discard is the caller's
                totals[d.bidder] += getattr(d, "discard_points", 0)
            return 2 * totals[d.bidder] - sum(totals)
        seat = d.to_act
        results = []
        for card in d.legal_cards():
            nxt = copy.deepcopy(d)
            nxt.play(card)
            results.append(value(nxt))
        return max(results) if seat == d.bidder else min(results)

    out = {}
    for card in deal.legal_cards():
        nxt = copy.deepcopy(deal)
        nxt.play(card)
        out[card] = value(nxt)
    return out


@pytest.mark.parametrize(("game", "rules"), [("bela-2", {"stock_visible": True}), ("bela-open", {})])
def test_the_hard_bot_finds_the_best_card_when_nothing_is_hidden(game: str, rules: dict[str, Any]) -> None:
    """Late in a 2-player deal with the stock face up, and in the open game once every face-down card has turned up,
    the seat knows every card: its card must be one of the best by exhaustive search on the engine itself."""
    variant = VARIANTS[game]
    checked = 0
    for m in range(12):
        match: Any = variant.new_match(variant.rules.model_validate({**rules, "target_score": 1000}), seed=f"best/{m}")
        agents = [MediumAgent() for _ in range(2)]
        while match.deals and len(match.deals) < 3 and not match.over:
            deal = match.deal
            seat = match.to_act
            view = match.observe(seat)
            hidden = view.layout is not None and any(p and p[0] is None for piles in view.layout for p in piles)
            left = deal.TRICKS - len(view.tricks)
            if view.phase == "play" and left <= 4 and len(view.legal_cards) > 1 and not hidden:
                values = engine_best(deal)
                exact = HardAgent(f"best/{m}", schedule={n: (2, n) for n in range(1, 17)}, time_cap=60.0)
                card = exact.act(view)
                assert isinstance(card, Play)
                best = max(values.values()) if seat == deal.bidder else min(values.values())
                assert values[card.card] == best, (view, values, card)
                checked += 1
            match.apply(agents[seat].act(view))
    assert checked >= 12, checked


def test_a_three_player_seat_never_samples_a_card_it_knows_is_elsewhere() -> None:
    from bot.ai.smallhard import SmallSampler

    variant = VARIANTS["bela-3"]
    checked = 0
    for m in range(3):
        match: Any = variant.new_match(variant.rules(target_score=301), seed=f"s3/{m}")
        agents = [MediumAgent() for _ in range(3)]
        while not match.over and checked < 200:
            deal = match.deal
            seat = match.to_act
            view = match.observe(seat)
            if view.phase == "play" and view.tricks:
                k = family_knowledge(view, game_of(view))
                truth = [deal.held[p] for p in range(3)] + [mask_of(deal.discarded) if seat != deal.bidder else 0]
                for p in range(4):
                    if p != seat:
                        assert truth[p] & k.cannot[p] == 0 and truth[p] & k.must[p] == k.must[p]
                for hands, _ in SmallSampler(view, k, game_of(view), f"{m}/{checked}").deals(3):
                    assert hands[seat] == truth[seat]
                    assert [bin(h).count("1") for h in hands] == [bin(h).count("1") for h in truth]
                    assert hands[0] | hands[1] | hands[2] | hands[3] == truth[0] | truth[1] | truth[2] | truth[3]
                    if seat == deal.bidder:
                        assert not (hands[0] | hands[1] | hands[2]) & mask_of(deal.discarded)
                checked += 1
            match.apply(agents[seat].act(view))
    assert checked >= 100


def test_the_open_game_samples_only_the_face_down_cards_and_enumerates_the_last_few() -> None:
    from bot.ai.smallhard import ENUMERATE, SmallSampler

    variant = VARIANTS["bela-open"]
    match: Any = variant.new_match(variant.rules(), seed="open-sample")
    agents = [MediumAgent() for _ in range(2)]
    seen_enumerated = False
    while len(match.deals) < 2:
        seat = match.to_act
        view = match.observe(seat)
        if view.phase == "play":
            piece = game_of(view)
            k = family_knowledge(view, piece)
            sampler = SmallSampler(view, k, piece, "x")
            deals = sampler.deals(6)
            up = [piece.visible(view, s) or 0 for s in range(2)]
            downs = len(sampler.slots)
            for hands, covers in deals:
                if not downs:  # every card is face up: the one deal there is
                    assert covers is None and hands[:2] == up
                    continue
                assert covers is not None
                for s in range(2):
                    assert hands[s] & up[s] == up[s]  # the face-up cards stay where they lie
                    downs_of = sum(1 for seat_, _ in sampler.slots if seat_ == s)
                    assert bin(hands[s]).count("1") == bin(up[s]).count("1") + downs_of
                    assert len(covers[s]) == sum(1 for seat_, _ in sampler.slots if seat_ == s)
            if downs > 0 and _factorial(downs) <= ENUMERATE:
                assert len(deals) == _factorial(downs)  # every arrangement, each once
                arranged = {(tuple(h), tuple(tuple(c) for c in covers or ())) for h, covers in deals}
                assert len(arranged) == len(deals)
                seen_enumerated = True
        match.apply(agents[seat].act(view))
    assert seen_enumerated


def _factorial(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


@pytest.mark.parametrize(("game", "rules"), [("bela-3", {}), ("bela-3", {"iber": False, "must_undertrump": False})])
def test_the_three_player_search_agrees_with_the_engine(game: str, rules: dict[str, Any]) -> None:
    """Tricks of three with the two opponents allied: the search's values, given the true hands, rank every legal
    card as exhaustive minimax on the engine does (the same value up to the points already taken)."""
    from bot.ai.smallsolver import SmallSolver

    variant = VARIANTS[game]
    checked = 0
    for m in range(6):
        match: Any = variant.new_match(variant.rules.model_validate({**rules, "target_score": 2000}), seed=f"dd/{m}")
        agents = [MediumAgent() for _ in range(3)]
        while len(match.deals) < 3 and not match.over:
            deal, seat = match.deal, match.to_act
            view = match.observe(seat)
            if view.phase == "play" and deal.TRICKS - len(view.tricks) <= 3 and len(view.legal_cards) > 1:
                piece, trump = game_of(view), deal.contract
                sides = tuple(0 if s == deal.bidder else 1 for s in range(3))
                solver = SmallSolver(
                    trump, lambda h, led, w, p=piece, t=trump: p.duties(h, led, w, False, t), sides, piece.sweep_bonus
                )
                took = 0
                for t in view.tricks:
                    took |= 1 << t.winner
                found = solver.values(
                    list(deal.held), view.trick_leader, list(view.trick), took, 10, deal.legal_cards()
                )
                expected = engine_best(deal)
                assert len({found[c] - expected[c] for c in expected}) == 1, (found, expected)
                checked += 1
            match.apply(agents[seat].act(view))
    assert checked >= 30, checked
