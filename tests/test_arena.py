"""The duplicate arena: pairing of deals, error handling, records and the command line."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bot.ai.arena import ArenaResult, Side, percentile, run_arena, summary
from bot.ai.medium import MediumAgent
from bot.ai.simple import RandomAgent
from bot.cli.main import main
from bot.engine import Action, Bid, Observation, Play
from bot.engine.game import VARIANTS
from bot.engine.record import replay_record
from tests.bench_scripts import bench_script


def side(label: str, factory: Any) -> Side:
    return Side(label, (factory(0), factory(1)))


def test_an_agent_against_itself_scores_exactly_zero_on_every_deal_pair() -> None:
    # Duplicate: the same hands with the seats swapped, so identical players cancel out deal by deal.
    a, b = side("medium", MediumAgent), side("medium", MediumAgent)
    result = run_arena(a, b, deals=30, seed="self")
    assert len(result.pair_diffs) == 30
    assert all(d == 0 for d in result.pair_diffs)
    assert result.a_match_wins == result.b_match_wins


def test_medium_beats_random_with_an_interval_above_zero() -> None:
    a, b = side("medium", MediumAgent), side("random", RandomAgent)
    result = run_arena(a, b, deals=60, seed="mr")
    mean, low, high = result.mean_ci()
    assert low > 0 and low <= mean <= high
    report = summary(a, b, result)
    assert report["deal_pairs"] == 60
    assert report["a_errors"] == {} and report["b_errors"] == {}
    assert report["a_decisions"] > 0 and report["a_time_p99_ms"] >= report["a_time_p50_ms"]


class Faulty:
    """Raises on its first call, then answers illegally, then slowly, then legally."""

    name = "faulty"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, observation: Observation) -> Action:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("boom")
        if self.calls == 2:
            return Play(-1) if not observation.legal_calls else Bid(99)
        if self.calls == 3:
            time.sleep(0.06)
        if observation.legal_calls:
            return Bid(observation.legal_calls[0])
        return Play(observation.legal_cards[0])

    def deal_end(self, report: dict[str, Any], hands: list[list[str]], extra: object = None) -> None:
        return None

    def close(self) -> None:
        return None


def test_failures_are_counted_and_replaced_by_a_legal_action() -> None:
    a = Side("faulty", (Faulty(), Faulty()))
    b = side("random", RandomAgent)
    result = run_arena(a, b, deals=2, seed="f", move_time=0.05)
    assert len(result.pair_diffs) == 2
    assert a.errors["exception"] == 2  # one per seat agent
    assert a.errors["illegal"] == 2
    assert a.errors["timeout"] == 2
    assert not b.errors
    assert any("boom" in p for p in a.problems)


def test_records_replay_to_the_same_scores(tmp_path: Path) -> None:
    a, b = side("medium", MediumAgent), side("random", RandomAgent)
    result = run_arena(a, b, deals=8, seed="rec", records=tmp_path)
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files][:2] == ["match-0000-ab.json", "match-0000-ba.json"]
    total = 0
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        assert data["format"] == "belote-record/1"
        match = replay_record(data)
        total += len(match.deals)
    assert total == result.deals_played


def test_percentile_and_interval() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([float(i) for i in range(100)], 0.99) == 98.0
    r = ArenaResult(pair_diffs=[1.0, 3.0, 2.0, 2.0])
    mean, low, high = r.mean_ci()
    assert mean == 2.0 and low < 2.0 < high


def test_cli_arena_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "easy", "--b", "random", "--deals", "6", "--seed", "7", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "A = easy, B = random: 6 deal pairs" in out
    assert "mean game-point difference per deal" in out and "95% CI" in out
    assert "decision time p50" in out


def test_cli_arena_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "medium", "--b", "easy", "--deals", "4", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal_pairs"] == 4 and report["a"] == "medium"


def test_cli_arena_explains_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "easy", "--b", "random", "--rules", '{"target": 1}']) == 2
    err = capsys.readouterr().err
    assert "rules.target" in err and "unknown table option" in err
    assert main(["arena", "--a", "easy", "--b", "random", "--rules", "{oops"]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["arena", "--a", "easy", "--b", "random", "--deals", "0"]) == 2
    assert "--deals must be at least 1" in capsys.readouterr().err


def _contracts_script() -> Any:
    return bench_script("contracts")


def test_contracts_from_records_count_every_played_deal_and_no_call_of_medium_against_itself(tmp_path: Path) -> None:
    from collections import Counter

    from bot.ai.easy import EasyAgent

    a, b = side("medium", MediumAgent), side("easy", EasyAgent)
    run_arena(a, b, deals=12, seed="contracts", records=tmp_path)
    script = _contracts_script()
    calls: dict[str, Counter[str]] = {}
    declared, made, deals = script.tally(tmp_path, calls)
    played = 0
    for path in tmp_path.glob("*.json"):
        match = replay_record(json.loads(path.read_text(encoding="utf-8")))
        played += sum(1 for r in match.results if r is not None)
    assert deals >= 24
    assert sum(sum(c.values()) for c in declared.values()) == played
    assert all(made[s][k] <= declared[s][k] for s in made for k in made[s])
    # The medium side's calls are the medium bot's, so none differs; the easy side's do.
    assert calls["medium (A)"]["all"] > 0
    assert sum(n for k, n in calls["medium (A)"].items() if k != "all") == 0
    assert sum(n for k, n in calls["easy (B)"].items() if k != "all") > 0



def test_deal_pairs_from_records_are_the_arenas_and_a_run_compared_with_itself_differs_by_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = bench_script("pairs")
    from bot.ai.easy import EasyAgent

    result = run_arena(side("medium", MediumAgent), side("easy", EasyAgent), deals=12, seed="pairs", records=tmp_path)
    pairs = script.deal_pairs(tmp_path)
    assert sorted(pairs.values()) == sorted(result.pair_diffs)
    assert script.main([str(tmp_path), "--vs", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"12 deal pairs: {result.mean_ci()[0]:+.2f}" in out
    assert "pair by pair" in out and "12 deal pairs: +0.00 [+0.00, +0.00]" in out
    # A is the medium bot, so every deal pair is one where A called as medium; B's calls are not A's.
    assert script.main([str(tmp_path), "--by-calls"]) == 0
    out = capsys.readouterr().out
    assert "A called as medium in both orientations: 12 deal pairs" in out
    assert "A made a call unlike medium's: 0 deal pairs" in out
    assert script.main([str(tmp_path / "missing")]) == 2
    assert "is not a folder of arena records" in capsys.readouterr().err

# --- the family games (--variant) ---


@pytest.mark.parametrize("game", ["bela", "french"])
def test_a_family_game_against_itself_scores_zero_and_its_records_replay(game: str, tmp_path: Path) -> None:
    from bot.engine.familyrecord import replay_family_record

    a, b = side("medium", MediumAgent), side("medium", MediumAgent)
    result = run_arena(a, b, deals=12, seed="fam", records=tmp_path, game=game)
    assert len(result.pair_diffs) == 12 and all(d == 0 for d in result.pair_diffs)
    total = 0
    for f in sorted(tmp_path.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        assert data["variant"] == game
        match = replay_family_record(data)
        total += len(match.deals)
    assert total == result.deals_played


@pytest.mark.parametrize("game", ["bela", "french"])
def test_cli_arena_plays_a_family_game(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--variant", game, "--a", "medium", "--b", "random", "--deals", "6", "--json", "--quiet"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal_pairs"] == 6 and report["a_errors"] == {} and report["b_errors"] == {}
    assert report["a_decisions"] > 6 * 2 * 8  # every card of its two seats, in both matches of each pair


def test_cli_arena_explains_a_bad_variant_or_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--variant", "preferans", "--a", "easy", "--b", "random"]) == 2
    assert "--variant must be one of bulgarian, bela, french" in capsys.readouterr().err
    assert main(["arena", "--variant", "bela", "--a", "easy", "--b", "random", "--rules", '{"capot_bonus": 90}']) == 2
    err = capsys.readouterr().err
    assert "capot_bonus" in err and "not a table option of bela" in err


@pytest.mark.parametrize("game", ["bela-3", "bela-2", "bela-open"])
def test_a_small_table_against_itself_scores_zero_and_its_records_replay(game: str, tmp_path: Path) -> None:
    from bot.engine.familyrecord import replay_family_record

    a, b = side("medium", MediumAgent), side("medium", MediumAgent)
    result = run_arena(a, b, deals=10, seed="small", records=tmp_path, game=game)
    assert len(result.pair_diffs) == 10 and all(d == 0 for d in result.pair_diffs)
    seats = VARIANTS[game].seats
    names = sorted(f.name for f in tmp_path.glob("*.json"))
    # One match per place of A: three for three players (A alone against two B), two head to head.
    expected = ["abb", "bab", "bba"] if seats == 3 else ["ab", "ba"]
    assert names[: len(expected)] == [f"match-0000-{x}.json" for x in expected]
    total = 0
    for f in sorted(tmp_path.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        assert data["variant"] == game
        total += len(replay_family_record(data).deals)
    assert total == result.deals_played


@pytest.mark.parametrize("game", ["bela-3", "bela-2", "bela-open"])
def test_cli_arena_plays_a_small_table(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--variant", game, "--a", "medium", "--b", "random", "--deals", "8", "--json", "--quiet"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal_pairs"] == 8 and report["a_errors"] == {} and report["b_errors"] == {}
    seats = VARIANTS[game].seats
    # A sits once in every place of each deal; with three players B fills the other two places.
    assert report["b_decisions"] > report["a_decisions"] if seats == 3 else report["a_decisions"] > 8 * 2 * 5
    assert report["mean_diff_per_deal"] > 0


def test_three_players_rotate_one_against_two() -> None:
    from bot.ai.arena import layouts

    assert layouts(3) == ["abb", "bab", "bba"]
    assert layouts(2) == ["ab", "ba"]
    assert layouts(4) == ["abab", "baba"]
