"""Hand-built endgames: the hard bot finds the winning line; inference from the public history is right."""

from __future__ import annotations

from bot.ai.hard import HardAgent
from bot.ai.knowledge import knowledge_of
from bot.ai.medium import MediumAgent
from bot.engine import DEFAULT_RULES, PASS, Observation, Play, Trick, parse_card
from bot.engine.cards import SUIT_MASK, mask_of
from bot.engine.deal import Announcement
from bot.engine.play import legal_cards, trick_winner

HEARTS = 2


def c(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def history(leader: int, *tricks: str) -> tuple[Trick, ...]:
    """Tricks from card strings, each played in order from its leader; winners follow from the hearts contract."""
    out = []
    for text in tricks:
        cards = c(text)
        winner = (leader + trick_winner(cards, HEARTS)) & 3
        out.append(Trick(leader, cards, winner))
        leader = winner
    return tuple(out)


def observation(
    hand: str,
    tricks: tuple[Trick, ...],
    trick: str = "",
    announced: tuple[Announcement, ...] = (),
    seat: int = 0,
) -> Observation:
    """Seat 0's view of a hearts contract bid by seat 0 (dealer 3), somewhere in the play."""
    held = c(hand)
    in_trick = c(trick)
    leader = tricks[-1].winner if tricks else 1
    if in_trick:
        w = trick_winner(in_trick, HEARTS)
        legal = legal_cards(mask_of(held), in_trick[0], in_trick[w], len(in_trick) - w == 2, HEARTS)
        legal_cards_ = tuple(x for x in held if legal >> x & 1)
        leader = (seat - len(in_trick)) & 3
    else:
        legal_cards_ = held
    return Observation(
        rules=DEFAULT_RULES,
        seat=seat,
        dealer=3,
        phase="play",
        to_act=seat,
        hand=held,
        calls=(HEARTS, PASS, PASS, PASS),
        contract=HEARTS,
        multiplier=1,
        bidder=0,
        tricks=tricks,
        trick_leader=leader,
        trick=in_trick,
        announced=announced,
        score=(0, 0),
        hanging=0,
        legal_calls=(),
        legal_cards=legal_cards_,
        declarable=(),
        belote_cards=(),
    )


def test_hard_draws_the_last_trump_before_cashing_its_ace() -> None:
    # Every other spade is gone, so whoever holds the last trump (7♥) ruffs A♠ if it is led first.
    tricks = history(0, "7S 8S 9S TS", "JS QS KS 8H", "7C 8C 9C TC", "JC QC KC AC", "AH QH KH TH")
    assert tricks[-1].winner == 0
    obs = observation("JH 9H AS", tricks)
    action = HardAgent(seed=1).act(obs)
    assert isinstance(action, Play)
    assert action.card in c("JH 9H"), f"led {action}, expected a trump"


def test_hard_keeps_the_master_trump_for_the_last_ten() -> None:
    # Seventh trick: the partner leads A♠, which nobody can beat (every other trump is gone). Seat 0, void in
    # spades, may discard: keeping J♥ takes the last trick (and the last ten) whatever is led.
    tricks = history(1, "7C 8C 9C TC", "JC QC KC AC", "7H 8H QH KH", "TH AH 9H 7D", "8D 9D JD QD", "KS QS JS TS")
    assert tricks[-1].winner == 2
    obs = observation("JH TD", tricks, trick="AS 8S", seat=0)
    assert obs.trick_leader == 2 and set(obs.legal_cards) == set(c("JH TD"))
    action = HardAgent(seed=2).act(obs)
    assert isinstance(action, Play)
    assert action.card == parse_card("TD"), f"played {action}, expected to keep the master trump"


def test_knowledge_infers_voids_and_refused_overtrumps() -> None:
    tricks = (
        # Seat 3 discards a club on spades while its partner wins: void in spades, nothing said about trumps.
        Trick(1, c("AS 8S 7C 9S"), 1),
        # Seat 2 ruffs a diamond with 8♥; seat 3 discards instead of over-trumping: no heart above 8♥, no diamond.
        Trick(1, c("7D 8H 8C 8D"), 2),
    )
    k = knowledge_of(observation("JH TH KH QH TD 9C", tricks, seat=0))
    assert k.cannot[3] & SUIT_MASK[3] == SUIT_MASK[3]
    assert k.cannot[3] & SUIT_MASK[1] == SUIT_MASK[1]
    above = mask_of(c("9H AH"))
    assert k.cannot[3] & above == above
    assert not k.cannot[3] & mask_of(c("7H"))  # a lower trump is still possible
    assert k.cannot[2] & SUIT_MASK[1] == SUIT_MASK[1]
    assert k.voids(3) == (1 << 3) | (1 << 1)
    assert k.hand_size == [6, 6, 6, 6]


def test_knowledge_keeps_the_other_belote_card_with_its_announcer() -> None:
    tricks = (Trick(1, c("KH 7H 8H 9H"), 0),)
    announced = (Announcement(1, (), HEARTS),)
    k = knowledge_of(observation("JH AH TD 9S 7S 8S TS", tricks, announced=announced, seat=0))
    assert k.must[1] == mask_of(c("QH"))
    assert not k.cannot[1] & mask_of(c("QH"))
    assert k.cannot[2] & mask_of(c("QH")) == mask_of(c("QH"))  # it cannot be anywhere else


def test_medium_feeds_a_partner_who_wins_for_sure() -> None:
    # The partner's A♠ wins the trick (every trump is seen, seat 1 plays last with no spade left to beat it).
    tricks = history(1, "7C 8C 9C TC", "JC QC KC AC", "7H 8H 9H TH", "JH QH KH AH")
    assert tricks[-1].winner == 1
    obs = observation("TD 7D KS QS", tricks, trick="7S AS 8S", seat=0)
    # Seat 0 must follow spades: the king (4) is worth more than the queen (3).
    assert MediumAgent().act(obs).card == parse_card("KS")  # type: ignore[union-attr]
