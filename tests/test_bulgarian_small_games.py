"""`bulgarian-3` and `bulgarian-2` as whole games: the vectors of family §12.6–§12.7 played through a match (records
of deals whose raw totals are the vectors', replayed card by card), the formats §7.3 example record, records and the
§7.4 report written and replayed, `belote-bot replay` and `belote-bot verify` on them, and the §7.6 act message."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.engine import PASS, Bid, IllegalAction, Play
from bot.engine.bulgarian_small import BulgarianThreeRules, BulgarianTwoRules
from bot.engine.bulgarian_small_match import BulgarianThreeMatch, BulgarianTwoMatch, SmallDeal
from bot.engine.calls import ALL_TRUMPS, CONTRA, HEARTS_CONTRACT, RECONTRA
from bot.engine.cards import parse_card
from bot.engine.familyrecord import (
    family_match_report,
    family_match_to_record,
    replay_family_record,
)
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.play import CARD_POINTS
from bot.engine.record import RecordError, ReplayError
from tests.test_fair_family_record import swap, verify

DATA = json.loads((Path(__file__).parent / "data" / "bulgarian_small_vectors.json").read_text(encoding="utf-8"))
REPORT_FIELDS = {
    "dealer", "caller", "contract", "multiplier", "declarer", "tricks", "raw", "score", "hanging", "outcome",
}  # fmt: skip


def replayed(name: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    record = copy.deepcopy(DATA[name])
    if rules is not None:
        record["rules"] = rules
    return family_match_report(replay_family_record(record))


def per_side(*values: int) -> dict[str, int]:
    return {str(p): v for p, v in enumerate(values)}


# --- §12.6 ---


@pytest.mark.parametrize(
    ("name", "rules", "raw", "written", "outcome"),
    [
        ("BG3-01", {}, (92, 40, 30), (9, 4, 3), "made"),
        ("BG3-02", {}, (60, 70, 32), (0, 13, 3), "inside"),
        ("BG3-03a", {}, (92, 40, 30), (9, 4, 3), "made"),
        ("BG3-03a", {"made_rule": "both_together"}, (92, 40, 30), (9, 4, 3), "made"),
        ("BG3-03b", {}, (60, 70, 32), (0, 13, 3), "inside"),
        ("BG3-03b", {"made_rule": "both_together"}, (60, 70, 32), (0, 13, 3), "inside"),
        ("BG3-03c", {}, (70, 50, 42), (7, 5, 4), "made"),
        ("BG3-03c", {"made_rule": "both_together"}, (70, 50, 42), (0, 12, 4), "inside"),
    ],
)
def test_bulgarian3_vectors_through_the_game(
    name: str, rules: dict[str, Any], raw: tuple[int, ...], written: tuple[int, ...], outcome: str
) -> None:
    report = replayed(name, rules)
    (deal,) = report["deals"]
    assert set(deal) == REPORT_FIELDS
    assert (deal["caller"], deal["declarer"], deal["multiplier"]) == (0, "0", 1)
    assert deal["raw"] == per_side(*raw) and sum(raw) == 162
    assert (deal["score"], deal["outcome"], deal["hanging"]) == (per_side(*written), outcome, 0)
    assert report["total"] == per_side(*written) and report["winner"] is None


def test_bulgarian3_shared_inside_with_a_pot_carried_in() -> None:
    """BG3-04: a hanging deal leaves a pot of 5; then D is inside against two equal opponents, who share his 50 and
    the pot, the odd point to the one right after him."""
    report = replayed("BG3-04")
    hanging, shared = report["deals"]
    assert hanging["raw"] == per_side(54, 54, 54) and hanging["outcome"] == "hanging"
    assert (hanging["score"], hanging["hanging"]) == (per_side(0, 5, 5), 5)
    assert shared["raw"] == per_side(50, 56, 56) and shared["caller"] == 0
    assert (shared["score"], shared["hanging"], shared["outcome"]) == (per_side(0, 11, 10), 0, "inside")
    alone = copy.deepcopy(DATA["BG3-04"])
    alone["deals"] = alone["deals"][1:]
    alone["deals"][0]["dealer"] = 0
    (deal,) = family_match_report(replay_family_record(alone))["deals"]
    assert deal["score"] == per_side(0, 8, 8)  # without the pot


# --- §12.7 ---


def undealt_points(record: dict[str, Any], deal: int, contract: int) -> int:
    dealt = {parse_card(c) for h in record["deals"][deal]["hands"] for c in h}
    return sum(CARD_POINTS[contract][c] for c in range(32) if c & 7 >= 2 and c not in dealt)


def test_bulgarian2_made_with_undealt_points_lost() -> None:
    """BG2-01: the 8 undealt cards hold 20, so the deal holds 142; raw D 80 / O 62 → 8 / 6."""
    assert undealt_points(DATA["BG2-01"], 0, HEARTS_CONTRACT) == 20
    (deal,) = replayed("BG2-01")["deals"]
    assert sum(deal["raw"].values()) == 142 and deal["raw"] == per_side(80, 62)
    assert (deal["score"], deal["outcome"]) == (per_side(8, 6), "made")


def test_bulgarian2_hanging_deal_collected_by_the_other_player() -> None:
    """BG2-03: 66 / 66 under clubs hangs (seat 0 writes 7, 7 in the pot); seat 0 makes the next deal and collects."""
    assert undealt_points(DATA["BG2-03"], 0, 0) == 30 and undealt_points(DATA["BG2-03"], 1, HEARTS_CONTRACT) == 20
    report = replayed("BG2-03")
    first, second = report["deals"]
    assert (first["dealer"], first["caller"], first["contract"]) == (0, 1, "clubs")
    assert first["raw"] == per_side(66, 66) and first["outcome"] == "hanging"
    assert (first["score"], first["hanging"]) == (per_side(7, 0), 7)
    assert (second["dealer"], second["caller"], second["raw"]) == (1, 0, per_side(80, 62))
    assert (second["score"], second["hanging"], second["outcome"]) == (per_side(15, 6), 0, "made")
    assert report["total"] == per_side(22, 6)


def test_bulgarian2_auction_vectors_in_a_match() -> None:
    """BG2-02: one pass ends the auction; two passes redeal and seat 1 deals next; a new contract cancels the
    doubling."""
    match = BulgarianTwoMatch(BulgarianTwoRules(), seed="bg2-02", first_dealer=0)
    match.apply(Bid(PASS))
    match.apply(Bid(PASS))
    assert match.deals[0].passed_out and match.deal.dealer == 1 and match.totals == [0, 0]
    match = BulgarianTwoMatch(BulgarianTwoRules(), seed="bg2-02", first_dealer=0)
    match.apply(Bid(HEARTS_CONTRACT))
    match.apply(Bid(PASS))
    deal = match.deal
    assert (deal.phase, deal.contract, deal.bidder, deal.to_act) == ("play", HEARTS_CONTRACT, 1, 1)
    match = BulgarianTwoMatch(BulgarianTwoRules(), seed="bg2-02", first_dealer=0)
    for call in (HEARTS_CONTRACT, CONTRA, RECONTRA, ALL_TRUMPS, PASS):
        match.apply(Bid(call))
    deal = match.deal
    assert (deal.phase, deal.contract, deal.bidder, deal.multiplier) == ("play", ALL_TRUMPS, 0, 1)
    assert all(len(match.deal.hand_of(s)) == 8 for s in (0, 1))


# --- records and replay (formats §7.3, §7.4) ---

SPEC_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bulgarian-3",
    "rules": {},
    "seats": ["Petar", "Maria", "Ivan"],
    "deals": [
        {
            "dealer": 0,
            "hands": [
                ["AS", "KD", "JS", "JH", "AD", "TC", "KH", "AC"],
                ["KS", "TH", "QS", "TS", "9S", "JD", "9D", "9C"],
                ["AH", "JC", "KC", "QH", "9H", "QC", "QD", "TD"],
            ],
            "bids": ["spades", "pass", "contra", "pass", "pass"],
            "play": [{"card": "KS", "belote": True}, {"card": "QD", "declare": ["tierce"]}, "JS"],
        }
    ],
}


def test_the_formats_example_record_replays_and_reports_its_unfinished_deal() -> None:
    match = replay_family_record(copy.deepcopy(SPEC_EXAMPLE))
    (deal,) = family_match_report(match)["deals"]
    assert set(deal) == REPORT_FIELDS
    assert (deal["caller"], deal["contract"], deal["multiplier"], deal["declarer"]) == (1, "spades", 2, "1")
    assert deal["tricks"] == per_side(1, 0, 0)  # seat 0 over-trumps the K♠ with the J♠
    assert (deal["raw"], deal["score"], deal["outcome"]) == (None, None, None)
    assert family_match_to_record(match, ["Petar", "Maria", "Ivan"])["deals"] == SPEC_EXAMPLE["deals"]


@pytest.mark.parametrize("variant", ["bulgarian-3", "bulgarian-2"])
def test_a_whole_match_record_round_trips(variant: str) -> None:
    """A match played to its end by random legal actions, announcements included: written, read back and replayed,
    it gives the same record and the same report, deal by deal, passed-out deals with their five cards."""
    rng = random.Random(variant)
    rules = parse_variant_rules(variant, {})
    match = VARIANTS[variant].new_match(rules, seed=f"rt-{variant}")
    while not match.over:
        deal = match.deal
        assert isinstance(deal, SmallDeal)
        legal = match.legal_actions()
        action = Bid(PASS) if Bid(PASS) in legal and rng.random() < 0.6 else rng.choice(legal)
        if isinstance(action, Play):
            belote = action.card in deal.belote_cards() and rng.random() < 0.7
            action = Play(action.card, deal.declarable() if rng.random() < 0.7 else (), belote)
        match.apply(action)
    record = json.loads(json.dumps(family_match_to_record(match, ["A", "B", "C"][: match.SEATS], reveal=True)))
    assert any(len(d["hands"][0]) == 5 and "play" not in d for d in record["deals"]), "no passed-out deal"
    assert any(isinstance(p, dict) for d in record["deals"] for p in d.get("play", ())), "no announcement"
    again = replay_family_record(record)
    assert family_match_to_record(again, ["A", "B", "C"][: match.SEATS], reveal=True) == record
    assert family_match_report(again) == family_match_report(match) and again.winner == match.winner


@pytest.mark.parametrize(
    ("change", "where", "why"),
    [
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "7S"), "deals[0].hands", "no 7s or 8s"),
        (lambda r: r["deals"][0].__setitem__("turned", "AS"), "deals[0].turned", "has no turned card"),
        (lambda r: r["seats"].append("Goran"), "seats", "3 seats"),
        (lambda r: r["deals"][0]["hands"][1].pop(), "deals[0].hands[1]", "8 cards (5 for a passed-out deal)"),
        (lambda r: r.__setitem__("rules", {"made_rule": "most"}), "rules.made_rule", "must be"),
        (lambda r: r["deals"][0].__setitem__("bids", ["pass"] * 3), "deals[0].hands", "lists the 5 cards"),
    ],
)
def test_a_malformed_record_says_where_and_why(change: Any, where: str, why: str) -> None:
    record = copy.deepcopy(SPEC_EXAMPLE)
    change(record)
    with pytest.raises(RecordError) as err:
        replay_family_record(record)
    assert err.value.where.startswith(where) and why in str(err.value)


def test_an_illegal_card_in_a_record_names_the_rule() -> None:
    record = copy.deepcopy(SPEC_EXAMPLE)
    record["deals"][0]["play"][2] = "AD"  # seat 0 holds spades: he must follow, and beat the K♠
    with pytest.raises(ReplayError) as err:
        replay_family_record(record)
    assert "must follow suit (spades)" in str(err.value) and "deal 1" in str(err.value)
    record["deals"][0]["play"][2] = "JS"
    record["deals"][0]["play"][1] = {"card": "QD", "declare": ["quarte"]}
    with pytest.raises(ReplayError, match="does not hold those combinations"):
        replay_family_record(record)


def test_two_player_options_have_no_made_rule() -> None:
    with pytest.raises(ValueError, match="not a table option of bulgarian-2"):
        parse_variant_rules("bulgarian-2", {"made_rule": "each"})
    assert list(BulgarianThreeRules.model_fields)[-1] == "made_rule"
    assert VARIANTS["bulgarian-3"].house_rules and VARIANTS["bulgarian-2"].house_rules
    assert (VARIANTS["bulgarian-3"].seats, VARIANTS["bulgarian-3"].sides) == (3, ("0", "1", "2"))
    assert (VARIANTS["bulgarian-2"].seats, VARIANTS["bulgarian-2"].sides) == (2, ("0", "1"))


@pytest.mark.parametrize("variant", ["bulgarian-3", "bulgarian-2"])
def test_replay_and_verify_commands_on_a_small_table_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    rng = random.Random(1)
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, {"target_score": 41}), seed=f"cli-{variant}")
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    record = family_match_to_record(match, ["Ana", "Boris", "Vera"][: match.SEATS], reveal=True)
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 0, err
    assert f"Every hand of the {len(record['deals'])} deal" in out
    path = tmp_path / "record.json"
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == family_match_report(match)
    played = next(i for i, d in enumerate(record["deals"]) if "play" in d)
    swap(record, played, (0, 6), (1, 6))  # cards dealt after the auction
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 1 and f"deal {played + 1} does not follow from the seed" in out + err
    record["deals"][played]["hands"][0][0] = "7C"
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 2 and "no 7s or 8s" in out + err and "Traceback" not in out + err


# --- the act message (formats §7.6) ---


def test_the_act_message_of_a_contra_deal() -> None:
    match = replay_family_record(copy.deepcopy(SPEC_EXAMPLE))
    act = match.observe(1).to_json()
    assert act == {
        "type": "act",
        "variant": "bulgarian-3",
        "rules": {},
        "phase": "play",
        "seat": 1,
        "dealer": 0,
        "hand": ["9C", "9D", "JD", "TH", "9S", "TS", "QS"],
        "bids": ["spades", "pass", "contra", "pass", "pass"],
        "caller": 1,
        "contract": "spades",
        "multiplier": 2,
        "declarer": "1",
        "tricks": [{"leader": 1, "cards": ["KS", "QD", "JS"], "winner": 0}],
        "trick": {"leader": 0, "cards": []},
        "announced": [{"seat": 1, "belote": "S"}, {"seat": 2, "declare": ["tierce"]}],
        "score": {"0": 0, "1": 0, "2": 0},
        "hanging": 0,
        "legal": [],
        "declarable": [],
        "belote": False,
    }
    bidding = BulgarianThreeMatch(seed="act", first_dealer=2).observe(0).to_json()
    assert bidding["phase"] == "bid" and len(bidding["hand"]) == 5
    assert (bidding["contract"], bidding["multiplier"], bidding["declarer"], bidding["caller"]) == (None,) * 4
    assert bidding["legal"] == ["clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps", "pass"]
    assert "shown" not in bidding and "turned" not in bidding


def test_an_all_trumps_player_announces_a_belote_in_each_suit() -> None:
    """In all trumps a player may announce a belote in each suit where he leads or follows with its K or Q (§5.3);
    the record carries each on its own card and replays."""
    hands = [["KH", "QH", "KS", "QS", "9C", "AH", "AS", "JD"], ["JH", "TH", "JS", "TS", "9D", "TC", "AC", "QD"],
             ["9H", "9S", "JC", "QC", "KC", "AD", "TD", "KD"]]  # fmt: skip
    match = BulgarianThreeMatch(seed="at", first_dealer=2, auto_deal=False)
    match.start_deal([[parse_card(c) for c in h] for h in hands])
    for call in (ALL_TRUMPS, PASS, PASS):
        match.apply(Bid(call))
    deal = match.deal
    for card, belote in (("QH", True), ("TH", False), ("9H", False), ("KC", False), ("9C", False), ("AC", False)):
        match.apply(Play(parse_card(card), (), belote))
    assert [t.winner for t in deal.tricks] == [2, 0]  # the 9 wins in all trumps
    assert parse_card("KS") in deal.belote_cards()
    match.apply(Play(parse_card("KS"), (), True))
    assert [(a.seat, a.belote_suit) for a in deal.announcements] == [(0, 2), (0, 3)]
    record = family_match_to_record(match, ["A", "B", "C"])
    assert record["deals"][0]["play"][0] == {"card": "QH", "belote": True}
    assert record["deals"][0]["play"][6] == {"card": "KS", "belote": True}
    assert family_match_to_record(replay_family_record(record), ["A", "B", "C"]) == record
    with pytest.raises(IllegalAction, match="announced with the king or queen"):
        match.apply(Play(parse_card("JS"), (), True))


def test_the_end_of_the_match_with_players() -> None:
    """family §8.8: the target and more than each other player; a shared top, a valat deal (capot_blocks_finish), a
    leader who wrote nothing (winner_must_score_last_deal) or a pot (no_finish_while_hanging) play on."""
    from bot.engine.bulgarian_small import small_verdict

    rules = BulgarianThreeRules()
    assert small_verdict(rules, [151, 150, 20], [9, 4, 3], 0, None) == 0
    assert small_verdict(rules, [160, 160, 20], [9, 4, 3], 0, None) is None  # shared top: play on
    assert small_verdict(rules, [140, 150, 20], [9, 4, 3], 0, None) is None  # below the target
    assert small_verdict(rules, [40, 20, 170], [0, 0, 25], 0, 2) is None  # a valat deal cannot end it
    assert small_verdict(BulgarianThreeRules(capot_blocks_finish=False), [40, 20, 170], [0, 0, 25], 0, 2) == 2
    late = BulgarianThreeRules(winner_must_score_last_deal=True)
    assert small_verdict(late, [160, 150, 20], [0, 13, 3], 0, None) is None
    held = BulgarianTwoRules(no_finish_while_hanging=True)
    assert small_verdict(held, [160, 150], [9, 4], 7, None) is None
    assert small_verdict(BulgarianTwoRules(), [160, 150], [9, 4], 7, None) == 0
