"""The medium bot in the Bulgarian games of three and two players (bulgarian-3, bulgarian-2): full matches from
SeatViews only, always legal and blind to what the seat cannot see (the other hands, the cards dealt after the
auction, the 2-player cards nobody is dealt); its auction played alone; what a seat infers under the 24-card pack."""

from __future__ import annotations

import io
import json
import random
import sys
from typing import Any

import pytest

from bot.ai.base import Agent
from bot.ai.easy import EasyAgent
from bot.ai.familycalls import medium_action
from bot.ai.familyknowledge import family_knowledge
from bot.ai.games import Tally, game_of
from bot.ai.hard import HardAgent
from bot.ai.medium import MediumAgent
from bot.ai.registry import make_agent
from bot.ai.simple import RandomAgent
from bot.ai.smallhard import SmallSampler
from bot.engine import Action, Bid, Play, parse_card
from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules
from bot.engine.bulgarian_small_match import BulgarianThreeDeal, BulgarianTwoDeal, SmallDeal
from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA
from bot.engine.cards import Card, card_list, mask_of
from bot.engine.familyrecord import family_match_to_record
from bot.engine.game import VARIANTS
from bot.engine.seatview import SeatView, view
from bot.protocol.agent_runner import run_agent
from bot.protocol.messages import encode, hello_message
from bot.protocol.referee import ProcessAgent

from .test_protocol_family import SHORT, no_errors, play_family
from .test_protocol_referee import ENV

GAMES = ["bulgarian-3", "bulgarian-2"]
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "bulgarian-3": [
        {"target_score": 51},
        {"target_score": 51, "made_rule": "both_together", "auto_declarations": True, "must_undertrump": True},
    ],
    "bulgarian-2": [
        {"target_score": 51},
        {"target_score": 51, "contra_blocks_bidding": True, "recontra_ends_auction": True},
    ],
}
HEARTS = 2
SHORT.update({"bulgarian-3": {"target_score": 61}, "bulgarian-2": {"target_score": 61}})


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


QUICK = {n: (3, 2) for n in range(1, 9)}


def make(level: str, seed: str) -> Agent:
    if level == "hard":
        # A quick hard bot whose budget is never the limit, so that it decides the same on any machine.
        return HardAgent(seed, schedule=QUICK, time_cap=60.0)
    return {"random": RandomAgent, "easy": EasyAgent, "medium": MediumAgent}[level](seed)


def known_to(seen: SeatView) -> set[Card]:
    return set(seen.hand) | {c for t in seen.tricks for c in t.cards} | set(seen.trick)


def hide(deal: SmallDeal, seen: SeatView, rng: random.Random) -> dict[str, Any]:
    """Exchange the pack's cards the seat cannot see among themselves in the engine itself: the other hands and the
    cards still to be dealt after the auction (the 2-player undealt eight are in no hand, so no bot can read them)."""
    hidden = sorted(set(card_list(SmallDeal.PACK)) - known_to(seen))
    moved = hidden[:]
    rng.shuffle(moved)
    to = dict(zip(hidden, moved, strict=True))

    def swap(c: Card) -> Card:
        return to.get(c, c)

    saved: dict[str, Any] = {"hands": deal.hands, "held": list(deal.held), "_rest": deal._rest}
    deal.hands = tuple(tuple(swap(c) for c in h) for h in deal.hands)
    deal.held = [mask_of(swap(c) for c in card_list(m)) for m in deal.held]
    if deal._rest is not None:
        deal._rest = tuple(tuple(swap(c) for c in r) for r in deal._rest)
    return saved


def play(game: str, rules: dict[str, Any], seed: str, hidden: bool, agents: list[Agent]) -> list[Action]:
    variant = VARIANTS[game]
    match: Any = variant.new_match(variant.rules.model_validate(rules), seed=seed)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not match.over:
        seat = match.to_act
        seen = match.observe(seat)
        assert isinstance(seen, SeatView)
        saved = hide(match.deal, seen, rng) if hidden else None
        if hasattr(agents[seat], "deal"):
            agents[seat].deal = match.deal  # type: ignore[attr-defined]
        action = agents[seat].act(seen)
        if saved is not None:
            for name, value in saved.items():
                setattr(match.deal, name, value)
        if seen.legal_calls:
            assert isinstance(action, Bid) and action.call in seen.legal_calls, action
        else:
            assert isinstance(action, Play) and action.card in seen.legal_cards, action
        match.apply(action)  # the engine raises IllegalAction if it disagrees
        actions.append(action)
        assert len(actions) < 5000, "the match does not end"
    assert match.winner is not None
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_bot_plays_full_matches_legally_from_its_view_alone(level: str, game: str) -> None:
    for i, rules in enumerate(OPTIONS[game]):
        seed = f"{level}/{game}/{i}"
        seats = VARIANTS[game].seats
        blind = play(game, rules, seed, True, [make(level, f"{seed}/{s}") for s in range(seats)])
        assert blind == play(game, rules, seed, False, [make(level, f"{seed}/{s}") for s in range(seats)])


@pytest.mark.parametrize("game", GAMES)
def test_the_hide_check_catches_a_bot_that_reads_the_hidden_cards(game: str) -> None:
    class Peeker:
        """A medium bot that cheats in the play (it holds one rather than being one: `make fast` compiles
        MediumAgent, and a compiled class takes no Python subclass)."""

        deal: SmallDeal | None = None

        def __init__(self, seed: int) -> None:
            self.honest = MediumAgent(seed)

        def act(self, observation: Any) -> Action:
            if observation.phase == "play" and self.deal is not None:
                secret = self.deal.held[(observation.seat + 1) % self.deal.n]
                return Play(observation.legal_cards[secret % len(observation.legal_cards)])
            return self.honest.act(observation)

    seats = VARIANTS[game].seats
    rules = OPTIONS[game][0]
    caught = play(game, rules, "peek", True, [Peeker(i) for i in range(seats)])
    honest = play(game, rules, "peek", False, [Peeker(i) for i in range(seats)])
    assert caught != honest


def three_deal(mine: str, seat: int = 1, dealer: int = 0) -> BulgarianThreeDeal:
    """A bulgarian-3 deal in its auction: ``seat`` holds ``mine`` (five cards), the others the rest of the pack."""
    own = cards(mine)
    rest = [c for c in card_list(SmallDeal.PACK) if c not in own]
    hands = [rest[0:5], rest[5:10]]
    hands.insert(seat, own)
    late = [rest[10:13], rest[13:16], rest[16:19]]
    return BulgarianThreeDeal(BulgarianThreeRules(), dealer, hands, late)


def test_the_medium_bot_bids_the_contract_its_cards_carry_and_passes_a_poor_hand() -> None:
    deal = three_deal("JH 9H AH AC TC")  # seat 1 speaks first: jack, nine and ace of hearts, A 10 of clubs
    assert medium_action(view(deal, 1)) == Bid(HEARTS)
    poor = three_deal("9C QD KS TH QH")
    assert medium_action(view(poor, 1)) == Bid(PASS)
    aces = three_deal("AC TC KC AD AS")  # three aces, A 10 K of clubs: no trumps
    assert medium_action(view(aces, 1)) == Bid(NO_TRUMPS)


def test_the_medium_bot_says_contra_when_it_holds_what_beats_the_contract() -> None:
    # Seat 1 bids hearts; seat 2 holds the jack, nine and ace of hearts and two aces.
    deal = three_deal("JH 9H AH AC AD", seat=2)
    deal.call(HEARTS)
    assert medium_action(view(deal, 2)) == Bid(CONTRA)
    # With nothing in hearts it passes, and it never raises over nothing.
    weak = three_deal("9C QD KS TS QC", seat=2)
    weak.call(HEARTS)
    assert medium_action(view(weak, 2)) == Bid(PASS)


def two_deal(mine: str) -> BulgarianTwoDeal:
    """A bulgarian-2 deal in its auction, dealer 0: seat 1 holds ``mine``; seat 0 five of the rest."""
    own = cards(mine)
    rest = [c for c in card_list(SmallDeal.PACK) if c not in own]
    return BulgarianTwoDeal(BulgarianTwoRules(), 0, [rest[0:5], own], [rest[5:8], rest[8:11]])


def test_the_doubled_bidder_recontras_a_strong_contract_and_never_bids_over_his_own() -> None:
    strong = two_deal("JH 9H AH KH QH")  # five hearts from the jack down
    strong.call(HEARTS)
    strong.call(CONTRA)
    assert medium_action(view(strong, 1)) == Bid(RECONTRA)
    fair = two_deal("JH 9H AH AC TC")  # enough to bid hearts, not to redouble; all trumps is legal but not wanted
    fair.call(HEARTS)
    fair.call(CONTRA)
    assert ALL_TRUMPS in fair.legal_calls()
    assert medium_action(view(fair, 1)) == Bid(PASS)


def test_the_seat_knows_the_7s_and_8s_are_out_of_play_and_infers_voids_in_all_trumps() -> None:
    deal = three_deal("JH 9H AH AC TC", seat=1)
    deal.call(ALL_TRUMPS)
    deal.call(PASS)
    deal.call(PASS)
    game = game_of(view(deal, 0))
    # Seat 1 leads; seats 2 and 0 follow as they must. A seat that does not follow the led suit holds none of it.
    lead = next(c for c in deal.legal_cards() if c >> 3 == HEARTS)
    deal.play(lead)
    k = family_knowledge(view(deal, 2), game)
    assert not k.unseen & ~SmallDeal.PACK, "a 7 or an 8 is counted as a card someone may hold"
    assert sum(k.hand_size[p] for p in range(3) if p != 2) == bin(k.unseen).count("1")


def test_the_two_player_undealt_cards_go_to_the_place_that_never_plays() -> None:
    variant = VARIANTS["bulgarian-2"]
    match: Any = variant.new_match(variant.rules(), seed="undealt")
    while match.deal.phase == "auction":
        match.apply(Bid(PASS if PASS in match.deal.legal_calls() and match.deal.calls else HEARTS))
    seen = match.observe(match.to_act)
    k = family_knowledge(seen, game_of(seen))
    assert bin(k.unseen).count("1") == 16  # 24 less the seat's eight: the other hand and the eight nobody holds
    assert k.hand_size[1 - seen.seat] == 8 and k.hand_size[2] == 8


@pytest.mark.parametrize("game", GAMES)
def test_the_hard_bot_writes_a_played_deal_as_the_engine_does(game: str) -> None:
    """The search's scoring of a deal (``written``, from card points, tricks, counted declarations and belotes) is the
    engine's own: for deals played out by the medium bot, the same score per player as the deal's result."""
    variant = VARIANTS[game]
    checked = 0
    for i in range(12):
        match: Any = variant.new_match(variant.rules(), seed=f"written/{i}")
        agents = [MediumAgent(s) for s in range(variant.seats)]
        deal = match.deal
        last: SeatView | None = None
        while match.deal is deal and deal.phase != "done":
            seat = match.to_act
            last = match.observe(seat)
            match.apply(agents[seat].act(last))
        if deal.result is None or last is None or last.caller is None:
            continue  # passed out
        piece = game_of(last)
        card = [deal.card_points[p] + (10 if deal.last_trick_side == p else 0) for p in range(variant.seats)]
        decl, contest = piece.counted(deal.declared, list(range(variant.seats)), deal.dealer, deal.contract)
        belas = [20 * b for b in deal.belotes]
        written = piece.written(last, Tally(deal.bidder, card, list(deal.tricks_won), decl, contest, belas))
        assert written == deal.result.score
        checked += 1
    assert checked >= 6


def test_the_two_player_sampler_deals_only_pack_cards_and_leaves_the_eight_undealt_to_nobody() -> None:
    variant = VARIANTS["bulgarian-2"]
    match: Any = variant.new_match(variant.rules(), seed="sampler")
    agents = [MediumAgent(s) for s in range(2)]
    while match.deal.phase != "play" or len(match.deal.tricks) < 3 or match.observe(match.to_act).trick:
        match.apply(agents[match.to_act].act(match.observe(match.to_act)))
    seen = match.observe(match.to_act)
    game = game_of(seen)
    k = family_knowledge(seen, game)
    other = 1 - seen.seat
    for hands, _ in SmallSampler(seen, k, game, "s").deals(30):
        assert hands[seen.seat] == mask_of(seen.hand)
        assert not (hands[other] | hands[2]) & ~SmallDeal.PACK, "a 7 or an 8 was dealt"
        assert bin(hands[other]).count("1") == len(seen.hand) and bin(hands[2]).count("1") == 8
        assert not hands[other] & k.cannot[other], "the opponent was given a card it cannot hold"


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_the_agent_hello_lists_only_games_the_level_plays(level: str) -> None:
    """`belote-bot agent --level L` says in its hello which games it plays; each one listed, it plays: the bot's own
    action at the first decision of a match of every listed game (the runner's fallback would hide a bot that fails)."""
    stdin = io.StringIO(encode(hello_message("bulgarian-3")) + "\n" + encode({"type": "quit"}) + "\n")
    stdout = io.StringIO()
    agent = make_agent(level, "hello")
    run_agent(agent, stdin, stdout, io.StringIO())
    listed = json.loads(stdout.getvalue().splitlines()[0])["variants"]
    assert {"bulgarian-3", "bulgarian-2"} <= set(listed)
    for name in listed:
        match: Any = VARIANTS[name].new_match(VARIANTS[name].rules(), seed="hello")
        seen = match.observe(match.to_act)
        match.apply(make_agent(level, "hello").act(seen))


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("game", GAMES)
def test_belote_bot_agent_plays_the_bulgarian_tables_through_the_protocol(level: str, game: str) -> None:
    seed = f"agent-{level}-{game}"
    n = VARIANTS[game].seats
    command = [sys.executable, "-m", "bot", "agent", "--level", level, "--seed", seed]
    with ProcessAgent(command, move_time=5, env=ENV, variant=game) as agent:
        seats: list[Agent] = [MediumAgent(1), agent, MediumAgent(2)][:n]
        match = play_family(game, seats, seed)
    assert no_errors(agent) and agent.decisions > 0
    if level == "medium":  # the medium bot decides by rules alone: the same match as in process
        in_process = play_family(game, [MediumAgent(1), MediumAgent(seed), MediumAgent(2)][:n], seed)
        assert family_match_to_record(match) == family_match_to_record(in_process)


def test_the_hard_declarer_keeps_his_master_trump_for_the_last_trick() -> None:
    """bulgarian-2, hearts by seat 0, two tricks left and seat 0 to lead the jack of hearts or the nine of spades.
    Whatever the other player holds (a spade or a trump beats the nine), leading the nine first can only gain: the
    jack then takes the last trick and its ten. Searched on deals of the pack's unseen cards, the nine is led."""
    rules = BulgarianTwoRules()
    deal = BulgarianTwoDeal(rules, 1, [cards("JH 9S AC TC KC AD TD KD"), cards("9C QC JC 9D QD JD AS QS")])
    deal.call(HEARTS)
    deal.call(PASS)
    for a, b in [("AC", "9C"), ("TC", "QC"), ("KC", "JC"), ("AD", "9D"), ("TD", "QD"), ("KD", "JD")]:
        deal.play(parse_card(a))
        deal.play(parse_card(b))
    seen = view(deal, 0)
    assert set(seen.legal_cards) == {parse_card("JH"), parse_card("9S")}
    assert make("hard", "keep").act(seen) == Play(parse_card("9S"))


@pytest.mark.parametrize("game", GAMES)
def test_the_hard_bot_searches_these_games_by_their_own_plan(game: str) -> None:
    """The four-player default schedule covers eight tricks, as these games have, but the search of tricks of three
    and two follows the game's own plan; a schedule given for every trick (a test's quick one) still rules."""
    from bot.ai.hard import SCHEDULE
    from bot.ai.smallhard import schedule_for

    match: Any = VARIANTS[game].new_match(VARIANTS[game].rules(), seed="plan")
    piece = game_of(match.observe(0))
    assert schedule_for(piece, HardAgent(0).schedule) is piece.search != SCHEDULE
    assert schedule_for(piece, QUICK) is QUICK
