"""The bots in Bela and French belote: full matches from SeatViews only, always legal; what the hard bot infers and
samples; its double-dummy search under each game's duties."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.ai.base import Agent
from bot.ai.easy import EasyAgent
from bot.ai.familyhard import FamilySampler
from bot.ai.familyknowledge import family_knowledge
from bot.ai.games import BelaGame, FrenchGame, game_of
from bot.ai.hard import HardAgent
from bot.ai.medium import MediumAgent
from bot.ai.simple import RandomAgent
from bot.ai.solver import Solver
from bot.engine import Action, Bid, Play, parse_card
from bot.engine.bela import BelaRules, bela_legal_cards
from bot.engine.cards import CardMask, card_list, mask_of
from bot.engine.deal import Trick
from bot.engine.french import FrenchRules, french_legal_cards
from bot.engine.game import VARIANTS
from bot.engine.play import CARD_POINTS, trick_winner
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import TrumpDeal

QUICK = {n: (3, 2 if n > 3 else n) for n in range(1, 9)}
GAMES = ["bela", "french"]
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "bela": [
        {"target_score": 301},
        {"target_score": 301, "auto_declarations": True, "partner_exemption": True, "must_undertrump": False},
        {"target_score": 301, "iber": False, "declaration_card_sharing": False, "stiglja_value": 100},
    ],
    "french": [
        {"target_score": 301},
        {"target_score": 301, "auto_declarations": True, "must_undertrump": False, "capot_bonus": 100},
        {"target_score": 301, "belote_king_first": True, "tie": "litige"},
    ],
}


def make(level: str, seed: str) -> Agent:
    if level == "random":
        return RandomAgent(seed)
    if level == "easy":
        return EasyAgent(seed)
    if level == "medium":
        return MediumAgent(seed)
    # A quick hard bot whose budget is never the limit, so that it decides the same on any machine.
    return HardAgent(seed, schedule=QUICK, auction_samples=8, time_cap=60.0)


def check_legal(view: SeatView, action: Action) -> None:
    if view.legal_calls:
        assert isinstance(action, Bid) and action.call in view.legal_calls, action
        return
    assert isinstance(action, Play) and action.card in view.legal_cards, action
    if view.auto_declarations:
        assert action.declare == () and not action.belote
        return
    assert set(action.declare) <= set(view.declarable)
    assert not action.belote or action.card in view.belote_cards


def hide_the_others(deal: TrumpDeal, seat: int, rng: random.Random) -> tuple[Any, ...]:
    """Deal the cards the seat cannot see among the other seats again (same counts), in the engine itself; the
    previous state is returned for ``restore``. A bot that read anything but its view would now decide otherwise."""
    saved = (list(deal.held), deal.hands, getattr(deal, "stock", None))
    others = [p for p in range(4) if p != seat]
    hidden = [c for p in others for c in card_list(deal.held[p])]
    stock = list(getattr(deal, "stock", ()))
    pool = hidden + stock
    rng.shuffle(pool)
    for p in others:
        n = bin(deal.held[p]).count("1")
        deal.held[p], pool = mask_of(pool[:n]), pool[n:]
    deal.hands = tuple(tuple(card_list(deal.held[p])) if p != seat else deal.hands[p] for p in range(4))
    if stock:
        deal.stock = tuple(pool)  # type: ignore[attr-defined]
    return saved


def restore(deal: TrumpDeal, saved: tuple[Any, ...]) -> None:
    deal.held, deal.hands = saved[0], saved[1]
    if saved[2] is not None:
        deal.stock = saved[2]  # type: ignore[attr-defined]


def play(level: str, game: str, rules: dict[str, Any], seed: str, hide: bool) -> list[Action]:
    """A full match with ``level`` in every seat; each agent is handed its SeatView and nothing else."""
    variant = VARIANTS[game]
    match: Any = variant.new_match(variant.rules.model_validate(rules), seed=seed)
    agents = [make(level, f"{seed}/{i}") for i in range(4)]
    rng = random.Random(seed)
    actions: list[Action] = []
    while not match.over:
        seat = match.to_act
        view = match.observe(seat)
        assert isinstance(view, SeatView)
        saved = hide_the_others(match.deal, seat, rng) if hide else None
        action = agents[seat].act(view)
        if saved is not None:
            restore(match.deal, saved)
        check_legal(view, action)
        match.apply(action)  # the engine raises IllegalAction if it disagrees
        actions.append(action)
        assert len(actions) < 5000, "the match does not end"
    assert match.winner is not None or match.drawn
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_every_level_plays_full_matches_legally_from_its_view_alone(level: str, game: str) -> None:
    for i, rules in enumerate(OPTIONS[game]):
        seed = f"{level}/{game}/{i}"
        # The hidden cards dealt otherwise while each bot thinks: the same decisions, so it read only its view.
        assert play(level, game, rules, seed, hide=True) == play(level, game, rules, seed, hide=False)


@pytest.mark.parametrize("game", GAMES)
def test_the_hard_bot_plays_a_full_match_legally_from_its_view_alone(game: str) -> None:
    rules = {"target_score": 201, **({"auto_declarations": True} if game == "french" else {})}
    assert play("hard", game, rules, f"hard/{game}", hide=True) == play("hard", game, rules, f"hard/{game}", hide=False)


def test_the_hide_check_catches_a_bot_that_reads_the_hidden_hands() -> None:
    """The check above is not blind: a bot that looks at another seat's cards in the engine is caught."""

    class Peeker(RandomAgent):
        deal: TrumpDeal | None = None

        def act(self, observation: Any) -> Action:
            if observation.legal_cards and self.deal is not None:
                other = self.deal.held[(observation.seat + 1) % 4]  # what no view shows
                return Play(observation.legal_cards[other % len(observation.legal_cards)])
            return super().act(observation)

    def run(hide: bool) -> list[Action]:
        match: Any = VARIANTS["bela"].new_match(BelaRules(target_score=101), seed="peek")
        agents = [Peeker(i) for i in range(4)]
        rng = random.Random(1)
        out: list[Action] = []
        while not match.over:
            seat = match.to_act
            agents[seat].deal = match.deal
            view = match.observe(seat)
            saved = hide_the_others(match.deal, seat, rng) if hide else None
            action = agents[seat].act(view)
            if saved is not None:
                restore(match.deal, saved)
            match.apply(action)
            out.append(action)
        return out

    assert run(True) != run(False)


# --- what the hard bot infers and samples ---


def views_in_play(game: str, seed: str, rules: dict[str, Any] | None = None) -> list[tuple[SeatView, list[CardMask]]]:
    """Every view of a seat to play in a medium-bot match, with the cards each seat really held then."""
    variant = VARIANTS[game]
    match: Any = variant.new_match(variant.rules.model_validate(rules or {"target_score": 501}), seed=seed)
    agents = [MediumAgent() for _ in range(4)]
    out: list[tuple[SeatView, list[CardMask]]] = []
    while not match.over:
        seat = match.to_act
        view = match.observe(seat)
        if view.legal_cards and len(view.tricks) >= 1:
            out.append((view, list(match.deal.held)))
        match.apply(agents[seat].act(view))
    return out


def replay_plays(game: Any, view: SeatView, hands: list[CardMask], played_by: list[CardMask]) -> None:
    """Play the view's history again on a deal with these hands; the engine raises if a card was not allowed."""
    assert view.contract is not None and view.caller is not None
    initial = [hands[p] | played_by[p] for p in range(4)]
    rules = dict(view.rules, auto_declarations=False)
    deal = game.__class__(game.opts.model_validate(rules)).deal_for(view.dealer, initial, view.caller, view.turned)
    for c in view.calls:
        deal.call(c)
    for card in [c for t in view.tricks for c in t.cards] + list(view.trick):
        deal.play(card)


@pytest.mark.parametrize("game", GAMES)
def test_sampled_deals_never_give_a_seat_a_card_it_cannot_hold(game: str) -> None:
    checked = 0
    for m in range(3):
        for view, truth in views_in_play(game, f"sample/{m}")[::3]:
            piece = game_of(view)
            k = family_knowledge(view, piece)
            # The true deal is one the seat's knowledge allows.
            for p in range(4):
                if p != view.seat:
                    assert truth[p] & k.cannot[p] == 0
                    assert truth[p] & k.must[p] == k.must[p]
            sampler = FamilySampler(view, k, piece, f"s{checked}")
            for _ in range(4):
                hands = sampler.sample()
                assert hands[view.seat] == truth[view.seat]
                assert [bin(h).count("1") for h in hands] == [bin(h).count("1") for h in truth]
                assert hands[0] | hands[1] | hands[2] | hands[3] == truth[0] | truth[1] | truth[2] | truth[3]
                for p in range(4):
                    assert hands[p] & k.cannot[p] == 0 or p == view.seat
                    assert hands[p] & k.must[p] == k.must[p]
                replay_plays(piece, view, hands, k.played_by)  # every card played was legal with these hands
                checked += 1
    assert checked > 100


def test_a_bela_defender_who_did_not_overtrump_his_partner_holds_no_higher_trump() -> None:
    # Spades trump. Seat 2 led A♣, seat 3 trumped with 8♠, seat 0 followed, and seat 1 (3's partner) threw 7♦: in Bela
    # he must over-trump even his partner's trump, so he holds no spade above 8♠. In French belote he may hold one.
    start = VARIANTS["bela"].new_match(BelaRules(), seed=0, first_dealer=0).observe(0)
    played = Trick(2, (parse_card("AC"), parse_card("8S"), parse_card("7C"), parse_card("7D")), 3)
    hand = tuple(card_list(mask_of(parse_card(c) for c in ["8C", "9C", "TC", "JC", "QC", "KC", "7H"])))
    view = replace(start, phase="play", contract=3, caller=3, calls=(3,), hand=hand, tricks=(played,), trick=())
    higher = mask_of(parse_card(c) for c in ["9S", "TS", "JS", "QS", "KS", "AS"])
    assert family_knowledge(view, BelaGame(BelaRules())).cannot[1] & higher == higher
    assert family_knowledge(view, FrenchGame(FrenchRules())).cannot[1] & higher == 0
    clubs = mask_of(parse_card(c) for c in ["8C", "9C", "TC", "JC", "QC", "KC"])
    assert family_knowledge(view, FrenchGame(FrenchRules())).cannot[1] & clubs == clubs  # void in clubs either way


# --- the double-dummy search under each game's duties ---


def brute_force(game: str, opts: Any, trump: int, hands: list[CardMask], leader: int, trick: list[int]) -> int:
    """A minus B from the trick in progress on, by exhaustive minimax over the engine's legal cards of the game."""
    seat = (leader + len(trick)) & 3
    if not trick:
        legal = hands[seat]
    elif game == "bela":
        legal = bela_legal_cards(hands[seat], trick, trump, opts)
    else:
        legal = french_legal_cards(hands[seat], trick, trump, opts.must_undertrump)
    values = []
    for card in card_list(legal):
        hands[seat] ^= 1 << card
        cards = [*trick, card]
        if len(cards) < 4:
            v = brute_force(game, opts, trump, hands, leader, cards)
        else:
            winner = (leader + trick_winner(cards, trump)) & 3
            pts = sum(CARD_POINTS[trump][c] for c in cards) + (0 if any(hands) else 10)
            rest = brute_force(game, opts, trump, hands, winner, []) if any(hands) else 0
            v = (pts if winner & 1 == 0 else -pts) + rest
        hands[seat] ^= 1 << card
        values.append(v)
    return max(values) if seat & 1 == 0 else min(values)


@pytest.mark.parametrize(
    ("game", "opts"),
    [
        ("bela", BelaRules()),
        ("bela", BelaRules(iber=False, partner_exemption=True, must_undertrump=False)),
        ("french", FrenchRules()),
        ("french", FrenchRules(must_undertrump=False)),
    ],
)
def test_the_solver_with_a_games_duties_matches_brute_force(game: str, opts: Any) -> None:
    piece = BelaGame(opts) if game == "bela" else FrenchGame(opts)
    rng = random.Random(game + str(opts))
    for _ in range(40):
        left = rng.choice([2, 3])
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[i * left : (i + 1) * left]) for i in range(4)]
        trump, leader = rng.randrange(4), rng.randrange(4)
        expected = brute_force(game, opts, trump, list(hands), leader, [])
        solver = Solver(trump, valat_bonus=piece.sweep_bonus, duties=piece.solver_duties(trump))
        assert solver.value(list(hands), leader, [], took=3) == expected


def test_the_bela_search_does_not_let_a_defender_duck_under_his_partners_trump() -> None:
    # Spades trump, two tricks left, seat 0 leads A♣. Seat 1 must trump with 7♠; seat 3, void in clubs, must then
    # over-trump his partner with J♠ in Bela (no partner exemption), so seat 0's A♠ takes the last trick:
    # B 11 + 20 = 31, A 10 + 11 + 11 + 10 = 42. Under Bulgarian duties seat 3 could throw 10♥ and keep J♠.
    def hand(text: str) -> CardMask:
        return mask_of(parse_card(c) for c in text.split())

    hands = [hand("AC AS"), hand("7S 7H"), hand("7C AH"), hand("JS TH")]
    bela = BelaGame(BelaRules())
    solver = Solver(3, valat_bonus=90, duties=bela.solver_duties(3))
    club_ace = parse_card("AC")
    assert solver.values(list(hands), 0, [], took=3)[club_ace] == 42 - 31
    assert Solver(3).values(list(hands), 0, [], took=3)[club_ace] < 0  # the Bulgarian search lets him duck
    # And in the middle of the trick: with 7♠ over A♣ (and 7♣), only J♠ is searched for seat 3.
    trick = [parse_card("AC"), parse_card("7S"), parse_card("7C")]
    rest = [hand("AS"), hand("7H"), hand("AH"), hand("JS TH")]
    assert solver.moves(rest, 0, trick) == [parse_card("JS")]


def test_french_defender_may_keep_his_trump_over_his_partners_trick() -> None:
    # The same cards in French belote: the partner exemption lets seat 3 throw 10♥ under 7♠ and keep J♠.
    def hand(text: str) -> CardMask:
        return mask_of(parse_card(c) for c in text.split())

    trick = [parse_card("AC"), parse_card("7S"), parse_card("7C")]
    rest = [hand("AS"), hand("7H"), hand("AH"), hand("JS TH")]
    french = FrenchGame(FrenchRules())
    solver = Solver(3, valat_bonus=90, duties=french.solver_duties(3))
    assert set(solver.moves(rest, 0, trick)) == {parse_card("JS"), parse_card("TH")}


@pytest.mark.parametrize("game", GAMES)
def test_the_caller_is_dealt_the_trump_jack_more_often_than_without_the_calls(game: str) -> None:
    # Calls weigh the sampling: a seat that named trump more likely holds its jack. Over real positions where the
    # trump jack is unseen and may be with the caller or another seat, count how often a sample gives it to the caller,
    # with the weights of the calls heard and with even weights.
    weighted = even = total = 0
    for m in range(6):
        for view, _ in views_in_play(game, f"weights/{m}"):
            assert view.contract is not None and view.caller is not None
            jack = view.contract * 8 + 4
            piece = game_of(view)
            k = family_knowledge(view, piece)
            if view.caller == view.seat or not k.unseen >> jack & 1:
                continue
            holders = [p for p in range(4) if p != view.seat and not k.cannot[p] >> jack & 1]
            if len(holders) < 2 or view.caller not in holders or k.must[view.caller] >> jack & 1:
                continue
            sampler = FamilySampler(view, k, piece, f"w{total}")
            plain = FamilySampler(view, k, piece, f"w{total}")
            plain.weights = [[1.0] * 32 for _ in range(4)]
            for _ in range(6):
                weighted += sampler.sample()[view.caller] >> jack & 1
                even += plain.sample()[view.caller] >> jack & 1
                total += 1
    assert total > 300, total
    assert weighted > 1.2 * even, (weighted, even, total)
