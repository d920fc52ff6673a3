"""belote-agent/1 at Bela and French belote tables (formats §7.6): external programs seated by the referee."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.ai.base import Agent, View
from bot.ai.simple import RandomAgent
from bot.engine import Action, Bid, Match, Play, card_str, parse_card, parse_rules
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_deal_report, family_match_to_record
from bot.engine.french import FrenchDeal
from bot.engine.game import VARIANTS, parse_variant_rules
from bot.engine.seatview import SeatView
from bot.protocol.messages import family_deal_end_of
from bot.protocol.referee import AgentRefusedGame, ProcessAgent

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "agents"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
# Short matches: a few deals each.
SHORT = {"bela": {"target_score": 301}, "french": {"target_score": 301}}


def script(name: str, *args: object) -> list[str]:
    return [sys.executable, str(AGENTS / f"{name}.py"), *map(str, args)]


def new_match(variant: str, seed: str) -> FamilyMatch:
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, SHORT[variant]), seed=seed)
    assert isinstance(match, FamilyMatch)
    return match


def play_family(variant: str, agents: list[Agent], seed: str) -> FamilyMatch:
    """A referee loop: every action goes through the engine, so anything illegal that got through would raise."""
    match = new_match(variant, seed)
    while not match.over:
        deal = match.deal
        seat = deal.to_act
        match.apply(agents[seat].act(match.observe(seat)))
        if deal.phase == "done":
            report, hands, _ = family_deal_end_of(deal)
            for agent in agents:
                agent.deal_end(report, hands)  # ProcessAgent adds the deal's turned card it was shown
    return match


class SpecYardstick:
    """What tests/agents/family_agent.py does, in process: first legal action, every declaration, belote if it may."""

    name = "family"

    def act(self, view: View) -> Action:
        if view.legal_calls:
            return Bid(view.legal_calls[0])
        card = view.legal_cards[0]
        belote = card in view.belote_cards and not view.auto_declarations
        return Play(card, () if view.auto_declarations else view.declarable, belote)

    def deal_end(self, report: dict[str, Any], hands: list[list[str]], extra: object = None) -> None:
        return None

    def close(self) -> None:
        return None


def lines(transcript: io.StringIO, direction: str = ">") -> list[dict[str, Any]]:
    return [json.loads(line[2:]) for line in transcript.getvalue().splitlines() if line.startswith(direction + " ")]


def no_errors(agent: ProcessAgent) -> bool:
    return agent.errors == {"illegal": 0, "malformed": 0, "timeout": 0, "crash": 0}


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_the_hello_names_the_game_its_options_and_seats(variant: str) -> None:
    transcript = io.StringIO()
    rules = {"target_score": 501, "no_declarations": True}
    with ProcessAgent(script("family_agent"), variant=variant, rules=rules, transcript=transcript):
        pass
    sent = lines(transcript)
    assert sent[0] == {
        "type": "hello", "protocol": "belote-agent/1", "variant": variant, "rules": rules, "seats": 4,
    }
    assert sent[-1] == {"type": "quit"}
    # The Bulgarian game's hello stays §6's, so that programs written before the family are unaffected.
    transcript = io.StringIO()
    with ProcessAgent(script("family_agent"), transcript=transcript):
        pass
    assert lines(transcript)[0] == {"type": "hello", "protocol": "belote-agent/1"}


def test_a_program_whose_variants_lack_the_tables_is_sent_quit_and_not_seated() -> None:
    transcript = io.StringIO()
    with pytest.raises(AgentRefusedGame) as refused:
        ProcessAgent(script("family_agent", "bulgarian,bela"), variant="french", transcript=transcript)
    assert "plays bulgarian, bela, not french" in str(refused.value)
    assert lines(transcript) == [
        {"type": "hello", "protocol": "belote-agent/1", "variant": "french", "rules": {}, "seats": 4},
        {"type": "quit"},
    ]
    # Its own game seats it.
    with ProcessAgent(script("family_agent", "bulgarian,bela"), variant="bela") as agent:
        assert agent.name == "family"


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_a_spec_written_program_plays_whole_matches_exactly_as_its_yardstick(variant: str) -> None:
    for seed in ("p1", "p2"):
        transcripts = [io.StringIO(), io.StringIO()]
        ours = [ProcessAgent(script("family_agent"), move_time=5, variant=variant, transcript=t) for t in transcripts]
        try:
            seats: list[Agent] = [ours[0], RandomAgent(f"{seed}/1"), ours[1], RandomAgent(f"{seed}/3")]
            match = play_family(variant, seats, seed)
        finally:
            for agent in ours:
                agent.close()
        yardstick = play_family(
            variant, [SpecYardstick(), RandomAgent(f"{seed}/1"), SpecYardstick(), RandomAgent(f"{seed}/3")], seed
        )
        assert family_match_to_record(match) == family_match_to_record(yardstick)
        assert all(no_errors(agent) and agent.decisions > 0 and agent.restarts == 0 for agent in ours)
        # deal_end: the deal's report, its hands as the record lists them, and its turned card (French belote).
        for transcript in transcripts:
            ends = [m for m in lines(transcript) if m["type"] == "deal_end"]
            assert len(ends) == len(match.deals)
            for message, deal in zip(ends, match.deals, strict=True):
                assert message["report"] == json.loads(json.dumps(family_deal_report(deal)))
                assert message["hands"] == [[card_str(c) for c in h] for h in deal.hands]
                if isinstance(deal, FrenchDeal):
                    assert message["turned"] == card_str(deal.turned)
                else:
                    assert set(message) == {"type", "report", "hands"}
        declared = [a for deal in match.deals for a in deal.announcements if a.seat in (0, 2)]
        assert declared, "the program's announcements reached the table"


def test_a_seat_started_for_the_bulgarian_game_is_greeted_afresh_at_a_bela_table() -> None:
    transcript = io.StringIO()
    with ProcessAgent(script("family_agent"), move_time=5, transcript=transcript) as agent:
        play_family("bela", [agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "g")
    hellos = [m for m in lines(transcript) if m["type"] == "hello"]
    assert hellos == [
        {"type": "hello", "protocol": "belote-agent/1"},
        {"type": "hello", "protocol": "belote-agent/1", "variant": "bela", "rules": {"target_score": 301}, "seats": 4},
    ]
    assert no_errors(agent) and agent.restarts == 0


def test_a_program_that_refuses_the_game_met_at_the_table_gets_fallbacks_with_the_reason() -> None:
    with ProcessAgent(script("family_agent", "bulgarian"), move_time=5) as agent:
        match = play_family("french", [agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "r")
    assert match.over
    # Every decision of its seat was the table's fallback, each counted with the reason; no program runs.
    asked = sum(1 for deal in match.deals for _ in deal.calls) > 0
    assert asked and agent.errors["crash"] > 0 and agent.decisions == 0
    assert agent.errors["illegal"] == agent.errors["malformed"] == agent.errors["timeout"] == 0
    assert agent.pid is None
    assert any("plays bulgarian, not french" in p for p in agent.problems)


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_illegal_answers_at_a_family_table_are_counted_and_replaced(variant: str) -> None:
    for n in range(20):
        with ProcessAgent(script("illegal", 2), move_time=5, variant=variant) as agent:
            others = [RandomAgent(f"i{n}/{seat}") for seat in (0, 2, 3)]
            match = play_family(variant, [others[0], agent, others[1], others[2]], f"i{n}")
        problems = " | ".join(agent.problems)
        if "is not a legal call now" in problems and "legal cards:" in problems:
            break
    assert match.over
    assert agent.errors["illegal"] == agent.decisions // 2 > 0
    assert agent.errors["malformed"] == agent.errors["timeout"] == agent.errors["crash"] == 0
    assert "is not a legal call now" in problems and "legal cards:" in problems


def test_malformed_answers_at_a_family_table_restart_the_program() -> None:
    with ProcessAgent(script("malformed", 3), move_time=5, variant="french") as agent:
        match = play_family("french", [agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "m")
    assert match.over
    assert agent.errors["malformed"] == agent.decisions // 3 > 0
    assert agent.restarts == agent.errors["malformed"]
    assert any("not valid JSON" in p for p in agent.problems)


ACT_FIELDS = {
    "type", "variant", "rules", "phase", "seat", "dealer", "hand", "bids", "caller", "contract", "multiplier",
    "declarer", "tricks", "trick", "announced", "shown", "score", "hanging", "legal", "declarable", "belote",
}  # fmt: skip


def card_strings(message: Any) -> list[str]:
    """Every card string anywhere in a message."""
    found: list[str] = []
    if isinstance(message, str):
        try:
            parse_card(message)
        except ValueError:
            return []
        return [message] if len(message) == 2 else []
    if isinstance(message, dict):
        for value in message.values():
            found += card_strings(value)
    if isinstance(message, list):
        for value in message:
            found += card_strings(value)
    return found


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_no_act_message_sent_holds_another_seats_card(variant: str) -> None:
    """formats §7.6.5: a talon reaches its owner only after the call; the French stock reaches nobody; the others'
    cards only when played, or when shown as the contest winner's declarations."""
    transcripts = [io.StringIO() for _ in range(4)]
    agents = [ProcessAgent(script("family_agent"), move_time=5, variant=variant, transcript=t) for t in transcripts]
    match = new_match(variant, "h")
    checked, shown_seen = 0, False
    try:
        while not match.over:
            deal = match.deal
            seat = deal.to_act
            view = match.observe(seat)
            assert isinstance(view, SeatView)
            calling, everyone_played = deal.phase == "auction", deal.everyone_played()
            played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
            shown = {c for _, _, cs in view.shown for c in cs}
            public = played | shown | ({deal.turned} if isinstance(deal, FrenchDeal) else set())
            own = set(deal.hand_of(seat))
            stock = set(deal.stock) if isinstance(deal, FrenchDeal) and len(deal.hands[0]) == 5 else set()
            hidden = {c for hand in deal.hands for c in hand} | stock
            hidden -= own | public
            before = len(transcripts[seat].getvalue())
            match.apply(agents[seat].act(view))
            sent = [json.loads(line[2:]) for line in transcripts[seat].getvalue()[before:].splitlines()
                    if line.startswith("> ")]
            act = next(m for m in sent if m["type"] == "act")
            seen = {parse_card(c) for c in card_strings(act)}
            assert not seen & hidden, f"seat {seat} is shown {sorted(map(card_str, seen & hidden))}"
            assert sorted(map(parse_card, act["hand"])) == sorted(own)
            # Every field of formats §7.6.2 for this game, and no other.
            assert set(act) == ACT_FIELDS | ({"turned"} if variant == "french" else set())
            assert act["phase"] == ("bid" if calling else "play")
            if calling:
                assert len(act["hand"]) == (6 if variant == "bela" else 5)
                assert act["caller"] is None and act["contract"] is None and act["trick"] is None
            else:
                assert act["caller"] == deal.bidder and act["declarer"] == "AB"[deal.bidder % 2]
            if not everyone_played:
                assert act["shown"] == []
            shown_seen |= bool(act["shown"])
            if variant == "french":
                assert isinstance(deal, FrenchDeal) and act["turned"] == card_str(deal.turned)
            checked += 1
            if deal.phase == "done":
                for agent in agents:
                    agent.deal_end(*family_deal_end_of(deal)[:2])
    finally:
        for agent in agents:
            agent.close()
    assert checked > 50 and shown_seen


def test_hostile_answers_at_a_family_table_are_malformed_and_play_goes_on() -> None:
    with ProcessAgent(script("hostile", 2), move_time=5, variant="bela") as agent:
        match = play_family("bela", [RandomAgent(0), agent, RandomAgent(2), RandomAgent(3)], "hostile")
    assert match.over
    assert agent.errors["malformed"] == agent.decisions // 2 > 0
    assert agent.errors["illegal"] == agent.errors["timeout"] == agent.errors["crash"] == 0
    said = " | ".join(agent.problems)
    for why in ("not valid JSON", 'call must be a string like "pass"', 'card must be a string like "JH"'):
        assert why in said, said
    assert all(len(p) < 400 for p in agent.problems)  # a hostile line is quoted clipped, not whole


@pytest.mark.parametrize(("variant", "rules"), [("bela", {"target_score": 301}), ("bulgarian", {"target_score": 41})])
def test_a_seat_greeted_for_its_tables_game_is_not_greeted_again(variant: str, rules: dict[str, Any]) -> None:
    """Options written out at their defaults name the same game as options left out."""
    transcript = io.StringIO()
    with ProcessAgent(script("family_agent"), variant=variant, rules={**rules, "must_undertrump": variant == "bela"},
                      transcript=transcript) as agent:
        if variant == "bela":
            play_family("bela", [agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "once")
        else:
            match = Match(parse_rules(rules), "once")
            while not match.over:
                deal = match.deal
                match.apply((agent if deal.to_act == 0 else RandomAgent(deal.to_act)).act(match.observe(deal.to_act)))
    assert [m["type"] for m in lines(transcript)].count("hello") == 1
    assert no_errors(agent) and agent.restarts == 0
