"""What the group and each player read of a family deal's end: raw points piece by piece, a fall written as a dash,
held points (visi, litige), štiglja and capot, a belot, a "na dosta" ending, and a French draw."""

from __future__ import annotations

import random

from bot.core.familyviews import DASH, result_lines
from bot.core.messages import ChatRef, UserRef
from bot.core.table import Options, Seat, Table
from bot.core.views import end_view, hand_view, result_view
from bot.engine import Bid
from bot.engine.bela import BelaMatch, BelaRules
from bot.engine.calls import PASS
from bot.engine.familymatch import FamilyMatch
from bot.engine.french import FrenchMatch, FrenchRules
from bot.engine.trumpdeal import TrumpDeal
from bot.i18n import translator

EN = translator("en")


def table_with(match: FamilyMatch, game: str, rules: dict[str, object]) -> Table:
    table = Table("t1", ChatRef("test", "1", title="Club"), "1", Options(rules=dict(rules), game=game, lang="en"))
    table.seats = [Seat("human", "1", "Ana"), Seat("bot", "", "", "random"), Seat("bot", "", "", "random"),
                   Seat("bot", "", "", "random")]
    table.match = match  # type: ignore[assignment]
    table.status = "finished" if match.over else "playing"
    return table


def play_out(match: FamilyMatch, rng: random.Random, deals: int = 1) -> None:
    target = len(match.deals) + deals - 1
    while not match.over and ((len(match.deals) <= target and match.deal.phase != "done")
                              or len(match.deals) < target):
        match.apply(rng.choice(match.legal_actions()))


def first_deal_with(make: type[FamilyMatch], rules: object, outcome: str) -> tuple[FamilyMatch, TrumpDeal]:
    for seed in range(3000):
        match = make(rules, seed=f"views-{seed}", first_dealer=0)
        play_out(match, random.Random(seed))
        deal = match.deals[0]
        if deal.result is not None and deal.result.outcome == outcome:
            return match, deal
    raise AssertionError(f"no {outcome} deal in 3000 seeds")


def test_a_fall_is_written_as_a_dash_and_the_opponents_write_both_totals() -> None:
    match, deal = first_deal_with(BelaMatch, BelaRules(), "fell")
    assert deal.result is not None
    lines = result_lines(table_with(match, "bela", {}), deal, 0, EN)
    assert lines is not None
    caller = deal.result.declarer
    written = next(line for line in lines if line.startswith("Written:"))
    assert f"{'AB'[caller]} {DASH}" in written
    assert str(sum(deal.result.raw)) in written  # the opponents write everything
    assert any("did not get more points" in line for line in lines)
    assert f"Total of the deal: A {deal.result.raw[0]} · B {deal.result.raw[1]}" in lines


def test_an_exact_tie_under_visi_is_held_and_shown_as_held() -> None:
    match, deal = first_deal_with(BelaMatch, BelaRules(tie="visi"), "visi")
    assert deal.result is not None and deal.result.hanging > 0
    table = table_with(match, "bela", {"tie": "visi"})
    message = result_view(table, 0, EN)
    assert message is not None
    assert "tie, held over (visi)" in message.text and f"Held points: {deal.result.hanging}" in message.text


def test_a_french_litige_is_held() -> None:
    match, deal = first_deal_with(FrenchMatch, FrenchRules(tie="litige"), "litige")
    message = result_view(table_with(match, "french", {"tie": "litige"}), 0, EN)
    assert deal.result is not None and deal.result.hanging > 0
    assert message is not None and "litige" in message.text and f"Held points: {deal.result.hanging}" in message.text


def test_a_sweep_is_named_stiglja_in_bela_and_capot_in_french() -> None:
    for make, rules, game, word in ((BelaMatch, BelaRules(), "bela", "Štiglja"),
                                    (FrenchMatch, FrenchRules(), "french", "Capot")):
        for seed in range(5000):
            match = make(rules, seed=f"sweep-{seed}", first_dealer=0)
            play_out(match, random.Random(seed))
            deal = match.deals[0]
            if deal.result is not None and 0 in deal.result.tricks:
                break
        else:
            raise AssertionError("no sweep")
        lines = result_lines(table_with(match, game, {}), deal, 0, EN)
        assert lines is not None and any(line.startswith(word) for line in lines), lines


def test_a_belot_wins_the_match_at_once() -> None:
    match = BelaMatch(BelaRules(), seed=1, first_dealer=3, auto_deal=False)
    hearts = list(range(16, 24))
    others = [c for c in range(32) if c not in hearts]
    hands = [others[0::3], hearts, others[1::3], others[2::3]]  # seat 1 holds every heart; the rest are mixed
    match.start_deal(hands)
    match.apply(Bid(0))  # seat 0 (the dealer's right) names clubs: the talons are taken, the belot found
    assert match.over and match.winner == 1
    table = table_with(match, "bela", {})
    message = result_view(table, 0, EN)
    assert message is not None and "belot" in message.text and "holds all eight ♥" in message.text
    assert "team B wins" in end_view(table, EN).text


def test_na_dosta_ends_the_match_during_the_deal() -> None:
    rules = BelaRules(end_rule="na_dosta", target_score=60)
    match = BelaMatch(rules, seed="dosta", first_dealer=0)
    play_out(match, random.Random(1))
    assert match.over and match.deals[0].dosta_side >= 0
    table = table_with(match, "bela", {"end_rule": "na_dosta", "target_score": 60})
    message = result_view(table, 0, EN)
    assert message is not None and "na dosta" in message.text and "wins at once" in message.text


def test_a_french_match_where_both_teams_reach_the_target_is_a_draw() -> None:
    for seed in range(200):
        match = FrenchMatch(FrenchRules(target_score=20), seed=f"draw-{seed}", first_dealer=0)
        play_out(match, random.Random(seed), deals=4)
        if match.drawn:
            break
    else:
        raise AssertionError("no draw")
    text = end_view(table_with(match, "french", {"target_score": 20}), EN).text
    assert "a draw" in text and f"A {match.totals[0]} · B {match.totals[1]}" in text


def test_bela_call_buttons_are_four_suits_and_dalje_but_the_dealer_cannot_pass() -> None:
    match = BelaMatch(BelaRules(), seed="calls", first_dealer=3)
    table = table_with(match, "bela", {})
    ana = UserRef("test", "1", "Ana")
    hr = translator("hr")
    first = hand_view(table, 0, ana, hr)  # seat 0 speaks first: four suits and "dalje"
    labels = [b.label for row in first.buttons for b in row]
    assert len(labels) == 5 and "Dalje" in labels
    for _ in range(3):
        match.apply(Bid(PASS))
    table2 = table_with(BelaMatch(BelaRules(), seed="calls", first_dealer=0), "bela", {})
    for _ in range(3):
        table2.match.apply(Bid(PASS))  # type: ignore[union-attr]
    dealer = hand_view(table2, 0, ana, hr)  # seat 0 deals and everyone passed: the mus
    labels = [b.label for row in dealer.buttons for b in row]
    assert len(labels) == 4 and "Dalje" not in labels and "mus" in dealer.text


def test_french_buttons_take_the_turned_suit_then_offer_the_other_three() -> None:
    match = FrenchMatch(FrenchRules(), seed="rounds", first_dealer=3)
    table = table_with(match, "french", {})
    ana = UserRef("test", "1", "Ana")
    fr = translator("fr")
    turned = match.deal.turned  # type: ignore[attr-defined]
    first = hand_view(table, 0, ana, fr)
    labels = [b.label for row in first.buttons for b in row]
    assert len(labels) == 2 and labels[1] == "Passe", labels
    assert labels[0].startswith("Je prends") and "♣♦♥♠"[turned >> 3] in labels[0]  # prendre: the turned suit
    for _ in range(4):
        match.apply(Bid(PASS))
    second = hand_view(table, 0, ana, fr)
    labels = [b.label for row in second.buttons for b in row]
    assert len(labels) == 4 and "Passe" in labels and not any(lb.startswith("Je prends") for lb in labels)
    assert "♣♦♥♠"[turned >> 3] not in "".join(labels)
