"""The bots in the Bela games of three and two players (bela-3, bela-2, bela-open): full matches from SeatViews only,
always legal and blind to what the seat cannot see; the decisions only these games have (the 3-player discard, the
2-player seven exchange and turned card, the open game's call); what a seat infers of the others."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.base import Agent
from bot.ai.easy import EasyAgent
from bot.ai.familycalls import best_call, medium_action
from bot.ai.familyknowledge import family_knowledge
from bot.ai.games import game_of
from bot.ai.hard import HardAgent
from bot.ai.medium import MediumAgent, trick_state
from bot.ai.simple import RandomAgent
from bot.engine import Action, Bid, Discard, Exchange, Play, parse_card
from bot.engine.bela2 import BelaTwoDeal, BelaTwoRules
from bot.engine.bela3 import BelaThreeDeal, BelaThreeRules
from bot.engine.belaopen import BelaOpenDeal, BelaOpenRules
from bot.engine.calls import PASS
from bot.engine.cards import Card, card_list, mask_of
from bot.engine.game import VARIANTS
from bot.engine.seatview import SeatView, view
from bot.engine.trumpdeal import TrumpDeal

GAMES = ["bela-3", "bela-2", "bela-open"]
QUICK = {n: (3, 2 if n > 3 else n) for n in range(1, 17)}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "bela-3": [
        {"target_score": 301},
        {"target_score": 301, "forced_first_caller": False, "auto_declarations": True, "must_undertrump": False},
        {"target_score": 301, "iber": False, "declaration_card_sharing": False, "fall_points": "both_opponents"},
    ],
    "bela-2": [
        {"target_score": 251},
        {"target_score": 251, "seven_exchange": "always", "stock_visible": True, "auto_declarations": True},
        {"target_score": 251, "seven_exchange": "off", "iber": False, "swept_declarations": "transfer"},
    ],
    "bela-open": [
        {"target_score": 251},
        {"target_score": 251, "open_trump": "french", "reveal_on_lead": True},
        {"target_score": 251, "open_declarations": True, "open_bela": True, "iber": False},
    ],
}


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


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
    elif view.legal_exchange:
        assert isinstance(action, Exchange), action
    elif view.phase == "discard":
        assert isinstance(action, Discard) and len(set(action.cards)) == 2, action
        assert set(action.cards) <= set(view.legal_cards)
    else:
        assert isinstance(action, Play) and action.card in view.legal_cards, action


def seat_view(deal: TrumpDeal, seat: int) -> SeatView:
    """The seat's view as the match shows it (with the turned card)."""
    return view(deal, seat, turned=getattr(deal, "turned", None))


def known_to(view: SeatView) -> set[Card]:
    """Every card the view shows: the seat's hand, the play, the turned card, its discard, the stock, the layouts."""
    out = set(view.hand) | {c for t in view.tricks for c in t.cards} | set(view.trick)
    out |= set(view.discard or ()) | set(view.stock or ())
    if view.turned is not None:
        out.add(view.turned)
    for piles in view.layout or ():
        out |= {c for pile in piles for c in pile if c is not None}
    out |= {c for _, _, shown in view.shown for c in shown}
    return out


def hide(deal: TrumpDeal, view: SeatView, rng: random.Random) -> dict[str, Any]:
    """Exchange the cards the seat cannot see among themselves in the engine itself (the other hands, the talons not
    yet taken, the 3-player extra cards and discard, the 2-player stock, the open game's face-down cards); the previous
    state is returned for ``restore``. A bot that read anything but its view would now decide otherwise."""
    hidden = sorted(set(range(32)) - known_to(view))
    moved = hidden[:]
    rng.shuffle(moved)
    to = dict(zip(hidden, moved, strict=True))

    def swap(c: Card) -> Card:
        return to.get(c, c)

    saved: dict[str, Any] = {"hands": deal.hands, "held": list(deal.held)}
    deal.hands = tuple(tuple(swap(c) for c in h) for h in deal.hands)
    deal.held = [mask_of(swap(c) for c in card_list(m)) for m in deal.held]
    for name in ("extra", "discarded", "stock"):
        if hasattr(deal, name):
            saved[name] = getattr(deal, name)
            setattr(deal, name, tuple(swap(c) for c in getattr(deal, name)))
    if isinstance(deal, BelaOpenDeal):
        saved["piles"] = [[list(p) for p in piles] for piles in deal.piles]
        deal.piles = [[[swap(c) for c in p] for p in piles] for piles in deal.piles]
    return saved


def restore(deal: TrumpDeal, saved: dict[str, Any]) -> None:
    for name, value in saved.items():
        setattr(deal, name, value)


def play(
    level: str, game: str, rules: dict[str, Any], seed: str, hidden: bool, agents: list[Agent] | None = None
) -> list[Action]:
    """A full match with ``level`` in every seat; each agent is handed its SeatView and nothing else."""
    variant = VARIANTS[game]
    match: Any = variant.new_match(variant.rules.model_validate(rules), seed=seed)
    agents = agents or [make(level, f"{seed}/{i}") for i in range(variant.seats)]
    rng = random.Random(seed)
    actions: list[Action] = []
    while not match.over:
        seat = match.to_act
        view = match.observe(seat)
        assert isinstance(view, SeatView)
        saved = hide(match.deal, view, rng) if hidden else None
        if hasattr(agents[seat], "deal"):
            agents[seat].deal = match.deal  # type: ignore[attr-defined]
        action = agents[seat].act(view)
        if saved is not None:
            restore(match.deal, saved)
        check_legal(view, action)
        match.apply(action)  # the engine raises IllegalAction if it disagrees
        actions.append(action)
        assert len(actions) < 5000, "the match does not end"
    assert match.winner is not None
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_every_level_plays_full_matches_legally_from_its_view_alone(level: str, game: str) -> None:
    for i, rules in enumerate(OPTIONS[game]):
        seed = f"{level}/{game}/{i}"
        # The hidden cards dealt otherwise while each bot thinks: the same decisions, so it read only its view.
        assert play(level, game, rules, seed, hidden=True) == play(level, game, rules, seed, hidden=False)


@pytest.mark.parametrize("game", GAMES)
def test_the_hide_check_catches_a_bot_that_reads_the_hidden_cards(game: str) -> None:
    """The check above is not blind: a bot that looks at what no view shows (the next seat's cards; in the open game
    the face-down cards) is caught in every game."""

    class Peeker(RandomAgent):
        deal: TrumpDeal | None = None

        def act(self, observation: Any) -> Action:
            if observation.legal_cards and observation.phase == "play" and self.deal is not None:
                if isinstance(self.deal, BelaOpenDeal):
                    secret = sum(p[0] for piles in self.deal.piles for p in piles if len(p) == 2)
                else:
                    secret = self.deal.held[(observation.seat + 1) % self.deal.n]
                return Play(observation.legal_cards[secret % len(observation.legal_cards)])
            return super().act(observation)

    seats = VARIANTS[game].seats
    rules = OPTIONS[game][0]
    caught = play("", game, rules, "peek", True, [Peeker(i) for i in range(seats)])
    honest = play("", game, rules, "peek", False, [Peeker(i) for i in range(seats)])
    assert caught != honest


# --- the decisions of these games ---


def bela3_view(hand12: str, trump: int, seat: int = 1) -> SeatView:
    """The caller's view in the discard: seat 1 (the dealer's right with dealer 0) named ``trump``."""
    mine = cards(hand12)
    rest = [c for c in range(32) if c not in mine]
    hands = [rest[0:10], mine[:10], rest[10:20]]
    deal = BelaThreeDeal(BelaThreeRules(), 0, hands, mine[10:])
    deal.call(trump)
    assert deal.phase == "discard" and deal.to_act == seat
    return seat_view(deal, seat)


def test_the_three_player_caller_banks_a_lone_ten_and_keeps_trumps_and_aces() -> None:
    # Hearts trump (2). The caller holds J 9 A K of hearts, A♣ 7♣, a bare 10♠, A♦ 8♦ 7♦, and K♠ Q♣. The bare ten would
    # fall to the ace of spades; laid aside it counts 10 for him (family §4.4).
    view = bela3_view("JH 9H AH KH AC 7C TS AD 8D 7D KS QC", 2)
    action = medium_action(view)
    assert isinstance(action, Discard)
    assert parse_card("TS") in action.cards
    kept = set(view.legal_cards) - set(action.cards)
    assert {parse_card(c) for c in ["JH", "9H", "AH", "KH", "AC", "AD"]} <= kept
    easy = EasyAgent(0).act(view)
    assert isinstance(easy, Discard) and parse_card("TS") in easy.cards
    assert not {c >> 3 for c in easy.cards} & {2} and not {c & 7 for c in easy.cards} & {7}  # no trump, no ace


def test_the_three_player_discard_is_out_of_play_for_the_caller_only() -> None:
    view = bela3_view("JH 9H AH KH AC 7C TS AD 8D 7D KS QC", 2)
    pair = medium_action(view)
    assert isinstance(pair, Discard)
    deal = BelaThreeDeal(BelaThreeRules(), 0, *_bela3_hands("JH 9H AH KH AC 7C TS AD 8D 7D KS QC"))
    deal.call(2)
    deal.apply(pair)
    for seat in range(3):
        v = seat_view(deal, seat)
        k = family_knowledge(v, game_of(v))
        discard = mask_of(pair.cards)
        if seat == 1:
            assert k.unseen & discard == 0 and k.hand_size[:3] == [10, 10, 10] and k.hand_size[3] == 0
        else:
            # Another seat does not know the discard: two of its unseen cards lie with no player.
            assert k.unseen & discard == discard and k.hand_size[3] == 2
            assert sum(k.hand_size) == bin(k.unseen | k.hand).count("1")


def _bela3_hands(hand12: str) -> tuple[list[list[Card]], list[Card]]:
    mine = cards(hand12)
    rest = [c for c in range(32) if c not in mine]
    return [rest[0:10], mine[:10], rest[10:20]], mine[10:]


def test_the_three_player_opponents_are_allies_and_the_caller_plays_alone() -> None:
    deal = BelaThreeDeal(BelaThreeRules(), 0, *_bela3_hands("JH 9H AH KH AC 7C TS AD 8D 7D KS QC"))
    deal.call(2)
    deal.apply(Discard((parse_card("TS"), parse_card("QC"))))
    deal.play(parse_card("7C"))  # the caller (seat 1) leads; seat 2 and seat 0 are allies against him
    second = seat_view(deal, 2)
    piece = game_of(second)
    assert piece.sides(second) == (1, 0, 1)
    deal.play(deal.legal_cards()[-1])
    third = seat_view(deal, 0)
    _, winner, ally = trick_state(third, piece.sides(third))
    assert ally == (winner == 2)


def bela2_deal(first6: str, turned: str, other6: str, rules: BelaTwoRules | None = None) -> BelaTwoDeal:
    mine, theirs, t = cards(first6), cards(other6), parse_card(turned)
    rest = [c for c in range(32) if c not in mine + theirs + [t]]
    # dealer 1: seat 0 is the non-dealer and calls first
    return BelaTwoDeal(rules or BelaTwoRules(), 1, [mine + rest[:4], theirs + rest[4:8]], t)


def test_the_holder_of_the_seven_counts_the_turned_card_when_he_takes_its_suit() -> None:
    # Turned: J♥. Seat 0 holds 7♥ 9♥ A♥ with A♣ 8♣ 8♦. With the jack from the exchange his hearts are worth naming;
    # the same hand with 8♥ for 7♥ (no exchange to come) is not.
    with_seven = seat_view(bela2_deal("7H 9H AH AC 8C 8D", "JH", "7S 8S 9S TS QS KS"), 0)
    without = seat_view(bela2_deal("8H 9H AH AC 8C 8D", "JH", "7S 7H 9S TS QS KS"), 0)
    game = game_of(with_seven)
    assert best_call(with_seven, game) == 2
    assert best_call(without, game) == PASS


def test_the_seven_exchange_takes_the_turned_card_unless_the_seven_makes_a_declaration() -> None:
    deal = bela2_deal("7H 9H AH AC TC 8D", "JH", "7S 8S 9S TS QS KS")
    deal.call(2)
    assert deal.phase == "exchange"
    assert medium_action(seat_view(deal, 0)) == Exchange(True)
    # 7♥ 8♥ 9♥ is a terca (20); the turned K♥ adds less than it breaks.
    deal = bela2_deal("7H 8H 9H AC TC 8D", "KH", "7S 8S 9S TS QS KS")
    deal.call(2)
    assert medium_action(seat_view(deal, 0)) == Exchange(False)
    assert EasyAgent(0).act(seat_view(deal, 0)) == Exchange(True)


def test_after_the_exchange_the_other_seat_knows_who_holds_the_turned_card() -> None:
    deal = bela2_deal("7H 9H AH AC TC 8D", "JH", "7S 8S 9S TS QS KS")
    deal.call(2)
    deal.apply(Exchange(True))
    other = seat_view(deal, 1)
    k = family_knowledge(other, game_of(other))
    assert k.must[0] >> parse_card("JH") & 1
    assert not k.unseen >> parse_card("7H") & 1  # the seven lies face up, out of play
    assert k.hand_size[:2] == [10, 10] and k.hand_size[2] == 11  # the stock: 32 - 20 - the seven


def open_view(non_dealer_up: str, dealer_up: str) -> SeatView:
    up0, up1 = cards(non_dealer_up), cards(dealer_up)
    rest = [c for c in range(32) if c not in up0 + up1]
    deal = BelaOpenDeal(BelaOpenRules(), 1, [rest[:8] + up0, rest[8:] + up1])
    return seat_view(deal, 0)


def test_the_open_call_weighs_the_opponents_face_up_cards() -> None:
    # Seat 0 sees its hearts J 9 A and the opponent's face-up cards. Against weak opponent hearts it names hearts; when
    # the opponent shows the stronger hearts and spades, it passes (the dealer must then name a suit).
    strong = open_view("JH 9H AH AC TC 7D 8D 7S", "7C 8C 9C QD KD 9S TS QS")
    assert best_call(strong, game_of(strong)) == 2
    weak = open_view("8H 7H QH 7C 8C 7D 8D 7S", "JH 9H AH JS 9S AS AC AD")
    assert best_call(weak, game_of(weak)) == PASS


def test_the_open_game_knowledge_is_the_layouts() -> None:
    view = open_view("JH 9H AH AC TC 7D 8D 7S", "7C 8C 9C QD KD 9S TS QS")
    k = family_knowledge(view, game_of(view))
    theirs = mask_of(cards("7C 8C 9C QD KD 9S TS QS"))
    assert k.may_hold(1) == theirs  # the opponent can play only its face-up cards
    assert bin(k.unseen).count("1") == 16 + 8  # the 16 face-down cards (both layouts) and the opponent's face-up ones
    assert k.hand_size[2] == 16  # nobody holds the face-down cards yet


def test_the_forced_first_caller_names_his_best_suit_and_may_pass_only_by_option() -> None:
    # A weak six: nothing worth naming. Forced (the default), seat 1 names a suit all the same, his best; with
    # forced_first_caller off he passes, and the dealer in the mus names one.
    weak = "7C 8C 9D 7H 8S 9S"
    mine = cards(weak)
    rest = [c for c in range(32) if c not in mine]
    for forced in (True, False):
        deal = BelaThreeDeal(
            BelaThreeRules(forced_first_caller=forced), 0, [rest[:10], mine + rest[10:14], rest[14:24]], rest[24:26]
        )
        first = seat_view(deal, 1)
        for agent in (MediumAgent(), EasyAgent(0), make("hard", "forced")):
            action = agent.act(first)
            assert isinstance(action, Bid)
            assert (action.call != PASS) if forced else (action.call == PASS)
        if not forced:
            deal.call(PASS)
            deal.call(PASS)
            assert isinstance(MediumAgent().act(seat_view(deal, 0)), Bid)
            assert MediumAgent().act(seat_view(deal, 0)) != Bid(PASS)
