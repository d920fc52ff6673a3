"""Inference from the play: the hard bot weighs its sampled deals by how well the other seats' cards fit them.

Each position is a whole deal given card by card (no shuffle involved) and played to the decision; the hard bot then
decides with several seeds. Before the weighting, it sampled the unseen cards evenly within the known voids and got
these positions wrong with every seed.
"""

from __future__ import annotations

from bot.ai.hard import HardAgent
from bot.ai.knowledge import knowledge_of
from bot.ai.sampling import Sampler, play_likelihood
from bot.engine import ALL_TRUMPS, DEFAULT_RULES, NO_TRUMPS, PASS, Deal, Observation, Play, Rules, observe, parse_card


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def position(
    hands: list[str], calls: list[int], plays: list[tuple[str, ...]], dealer: int = 3, rules: Rules = DEFAULT_RULES
) -> Observation:
    """The view of the seat to act after ``calls`` and the tricks ``plays`` (each card with what it announced)."""
    deal = Deal(rules, dealer, [cards(h) for h in hands])
    for call in calls:
        deal.call(call)
    for trick in plays:
        for entry in trick:
            card, *extra = entry.split("+")
            declare = tuple(x for x in extra if x != "belote")
            if rules.auto_declarations:
                deal.play(parse_card(card))
            else:
                deal.play(parse_card(card), declare, "belote" in extra)
    return observe(deal, deal.to_act)


# All trumps by seat 0 (a tierce); seat 2, its partner, is to play on partner's 8♣, the last club, a sure trick. J♥,
# the master heart, is not with seat 0: a declarer who leads trumps from the top would have cashed it. So 10♥ falls to
# J♥ later unless it goes on partner's trick now. Sampling evenly, seat 0 held J♥ in a third of the deals.
FEED_TEN = (
    ["JD 9D 9C TD JC QS 8S 8C", "KH KD 8D AS 7D AD TS AC", "QC AH TH 7S QD KC 8H JS", "7C TC 7H QH 9S KS 9H JH"],
    [ALL_TRUMPS, PASS, PASS, PASS],
    [
        ("JC+tierce", "AC", "KC+belote", "7C"),
        ("JD", "7D", "QD", "7H"),
        ("9C", "8D", "QC", "TC"),
        ("9D", "KD", "AH", "QH"),
        ("8C", "KH"),
    ],
)


def test_the_feed_position_is_what_it_claims() -> None:
    obs = position(*FEED_TEN)
    assert obs.seat == 2 and set(obs.legal_cards) == set(cards("TH 7S 8H JS"))
    assert obs.trick == tuple(cards("8C KH"))


def test_partner_feeds_the_ten_that_a_defenders_discard_shows_would_be_lost() -> None:
    obs = position(*FEED_TEN)
    chosen = [HardAgent(seed=s).act(obs) for s in range(4)]
    assert all(isinstance(a, Play) for a in chosen)
    tens = sum(1 for a in chosen if isinstance(a, Play) and a.card == parse_card("TH"))
    assert tens >= 3, f"fed 10♥ with {tens} seeds of 4: {[str(a) for a in chosen]}"


def test_weighted_deals_take_the_master_heart_from_the_declarer_who_did_not_cash_it() -> None:
    obs = position(*FEED_TEN)
    k = knowledge_of(obs)
    jack = parse_card("JH")
    even = Sampler(obs, k, "even").weighted(100, 100)
    weighted = Sampler(obs, k, "weighted").weighted(100, 400)

    def with_declarer(deals: list[tuple[list[int], int]]) -> float:
        return sum(t for hands, t in deals if hands[0] >> jack & 1) / sum(t for _, t in deals)

    assert with_declarer(even) > 0.2
    assert with_declarer(weighted) < 0.05


def test_a_deal_that_contradicts_the_declarers_leads_weighs_less() -> None:
    obs = position(*FEED_TEN)
    k = knowledge_of(obs)
    deals = [Sampler(obs, k, f"s{i}").sample() for i in range(80)]
    jack = parse_card("JH")
    declarer = [play_likelihood(obs, k, h) for h in deals if h[0] >> jack & 1]
    defenders = [play_likelihood(obs, k, h) for h in deals if not h[0] >> jack & 1]
    assert declarer and defenders
    assert max(declarer) < sum(defenders) / len(defenders)
    assert all(0 < w <= 1 for w in declarer + defenders)


# All trumps by seat 2 after hearts and spades were bid; seat 1 (a defender, void in diamonds) is second to play on
# seat 0's 7♦. J♠, the master spade, is not with the declarer, who drew trumps from the top and would have cashed it:
# it is with seat 1's partner, so seat 1's A♠ and 9♠ are worth keeping and A♣ is the card to throw. Sampling evenly,
# the declarer held J♠ in half the deals and seat 1 threw 9♠.
KEEP_SPADES = (
    ["QS AD TC 7S TD JD 7D KC", "KS 9S TH AC 9D JC 7C AS", "QC JH 9C 9H 8D AH TS 8H", "7H QH JS 8S 8C QD KH KD"],
    [2, PASS, PASS, 3, ALL_TRUMPS, PASS, PASS, PASS],
    [
        ("JH", "7H", "AD", "TH"),
        ("9H", "QH+belote", "TC", "7C"),
        ("AH", "KH", "TD", "KS"),
        ("8D", "KD+belote", "JD", "9D"),
        ("7D",),
    ],
)


def test_a_defender_keeps_the_spades_its_partners_jack_makes_good() -> None:
    obs = position(*KEEP_SPADES, dealer=1)
    assert obs.seat == 1 and set(obs.legal_cards) == set(cards("9S AC JC AS"))
    chosen = [HardAgent(seed=s).act(obs) for s in range(4)]
    aces = sum(1 for a in chosen if isinstance(a, Play) and a.card == parse_card("AC"))
    assert aces >= 3, f"threw A♣ with {aces} seeds of 4: {[str(a) for a in chosen]}"
    k = knowledge_of(obs)
    jack = parse_card("JS")
    weighted = Sampler(obs, k, "weighted").weighted(100, 400)
    declarer = sum(t for hands, t in weighted if hands[2] >> jack & 1)
    partner = sum(t for hands, t in weighted if hands[3] >> jack & 1)
    assert partner > 5 * declarer


def test_the_inference_holds_when_the_table_announces_for_the_players() -> None:
    # Under auto_declarations the replayed deal announces by itself: the declarer's leads still tell.
    obs = position(*FEED_TEN, rules=DEFAULT_RULES.model_copy(update={"auto_declarations": True}))
    k = knowledge_of(obs)
    jack = parse_card("JH")
    weighted = Sampler(obs, k, "weighted").weighted(100, 400)
    assert sum(t for hands, t in weighted if hands[0] >> jack & 1) < 5


# No trumps by seat 0, who has cashed clubs and hearts; seat 1 (a defender) has thrown 9♠ and J♠, then 8♦ and 9♦,
# keeping A♠ and A♦. The rule-based player throws from its shortest suit, so a model that takes its choice of suit
# at its word reads the spade discards as "no A♠ here". Which suit a worthless discard comes from says little: the
# weighted deals should leave A♠ with seat 1 about as often as even ones do, not move it to the other seats (in the
# play this led 10♠ into the kept A♠).
KEPT_ACE = (
    ["AC TC KC QC AH TH KH TS", "7C 9S JS 8D 9D AS AD 7H", "8C JC 8H 9H JH 7S 8S 7D", "9C QH QS KS TD JD QD KD"],
    [NO_TRUMPS, PASS, PASS, PASS],
    [
        ("AC", "7C", "8C", "9C"),
        ("AH", "7H", "8H", "QH"),
        ("TH", "9S", "9H", "QS"),
        ("TC", "JS", "JC", "KS"),
        ("KC", "8D", "7S", "TD"),
        ("QC", "9D", "8S", "JD"),
    ],
)


def test_a_defender_who_throws_small_spades_may_still_hold_the_ace_he_kept() -> None:
    obs = position(*KEPT_ACE)
    assert obs.seat == 0 and set(obs.legal_cards) == set(cards("KH TS"))
    k = knowledge_of(obs)
    ace = parse_card("AS")
    even = Sampler(obs, k, "even").weighted(200, 200)
    weighted = Sampler(obs, k, "weighted").weighted(200, 600)

    def with_defender(deals: list[tuple[list[int], int]]) -> float:
        return sum(t for hands, t in deals if hands[1] >> ace & 1) / sum(t for _, t in deals)

    assert with_defender(even) > 0.35
    assert with_defender(weighted) > 0.75 * with_defender(even)
    chosen = [HardAgent(seed=s).act(obs) for s in range(3)]
    assert all(isinstance(a, Play) and a.card == parse_card("KH") for a in chosen)


def test_more_deals_drawn_make_the_defender_keep_the_spades_with_every_seed() -> None:
    # The Bulgarian play draws five deals per deal searched (three before): among more drawn deals, the ones where
    # the declarer's trump leads make sense (J♠ with the partner) are found often enough that no seed throws a spade.
    obs = position(*KEEP_SPADES, dealer=1)
    chosen = [HardAgent(seed=s, time_cap=30).act(obs) for s in range(16)]
    aces = sum(1 for a in chosen if isinstance(a, Play) and a.card == parse_card("AC"))
    assert aces == 16, f"threw A♣ with {aces} seeds of 16: {[str(a) for a in chosen]}"
