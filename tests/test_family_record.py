"""Records and replay of `bela` and `french` (formats §7.3, §7.4) and `belote-bot replay` for them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.main import main
from bot.engine import Play, card_str
from bot.engine.bela import BelaMatch, BelaRules
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_report, family_match_to_record, replay_family_record
from bot.engine.french import FrenchMatch, FrenchRules
from bot.engine.record import RecordError, ReplayError
from tests.test_family_oracle import BELA_CHOICES, FRENCH_CHOICES

# The examples of formats §7.3, verbatim.
BELA_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "bela",
    "rules": {},
    "seats": ["Ana", "Boris", "Vera", "Goran"],
    "deals": [
        {
            "dealer": 3,
            "hands": [
                ["JS", "8D", "TH", "9D", "QS", "QC", "AC", "KH"], ["7C", "KD", "7D", "AD", "AH", "7S", "QH", "QD"],
                ["8S", "TS", "KC", "7H", "9S", "9H", "TD", "TC"], ["8H", "9C", "8C", "AS", "JD", "JC", "KS", "JH"],
            ],
            "bids": ["pass", "pass", "pass", "spades"],
            "play": ["8D", {"card": "AD", "declare": ["tierce"]}, {"card": "TD", "declare": ["tierce"]}, "JD"],
        }
    ],
}  # fmt: skip
FRENCH_EXAMPLE: dict[str, Any] = {
    "format": "belote-record/1",
    "variant": "french",
    "rules": {},
    "seats": ["Anne", "Bruno", "Claire", "Denis"],
    "deals": [
        {
            "dealer": 0,
            "hands": [
                ["AD", "TS", "JS", "9S", "KH", "KS", "TH", "QS"], ["9H", "7S", "TC", "8D", "8S", "KD", "7H", "9D"],
                ["KC", "QD", "AC", "AS", "JH", "7C", "QH", "QC"], ["JD", "8C", "8H", "AH", "9C", "JC", "7D", "TD"],
            ],
            "turned": "KS",
            "bids": ["pass", "pass", "pass", "spades"],
            "play": ["7S", {"card": "AS", "declare": ["tierce"]}, "8C", {"card": "9S", "declare": ["quint"]}],
        }
    ],
}  # fmt: skip


def without_dealing(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "dealing"}


@pytest.mark.parametrize("example", [BELA_EXAMPLE, FRENCH_EXAMPLE], ids=["bela", "french"])
def test_the_format_examples_replay_and_are_written_back_exactly(example: dict[str, Any]) -> None:
    match = replay_family_record(example)
    assert without_dealing(family_match_to_record(match, example["seats"])) == example
    committed = {**example, "dealing": {"scheme": "hmac-sha256/1", "commitment": "ab" * 32}}
    assert family_match_to_record(replay_family_record(committed), example["seats"]) == committed


def test_bela_example_report_the_dealer_in_the_mus_names_spades() -> None:
    report = family_match_report(replay_family_record(BELA_EXAMPLE))
    assert report["deals"][0] == {
        "dealer": 3, "caller": 3, "contract": "spades", "multiplier": 1, "declarer": "B",
        "tricks": {"A": 0, "B": 1}, "raw": None, "score": None, "hanging": 0, "outcome": None, "fell": None,
        "belot": None,
    }  # fmt: skip
    assert report["winner"] is None


def test_records_are_read_liberally() -> None:
    loose = copy.deepcopy(BELA_EXAMPLE)
    loose["deals"][0]["hands"][0] = ["J♠", "8d", "10H", "9D", "QS", "QC", "AC", "KH"]
    loose["deals"][0]["bids"] = ["pass", "pass", "pass", "♠"]
    match = replay_family_record(loose)
    assert without_dealing(family_match_to_record(match, loose["seats"])) == BELA_EXAMPLE


def play_out(match: FamilyMatch, rng: random.Random, stop: int | None) -> None:
    steps = 0
    while not match.over and (stop is None or steps < stop):
        deal = match.deal
        action = rng.choice(match.legal_actions())
        if isinstance(action, Play) and not deal.opts.auto_declarations:
            belote = action.card in deal.belote_cards() and rng.random() < 0.8
            action = Play(action.card, deal.declarable() if rng.random() < 0.7 else (), belote)
        match.apply(action)
        steps += 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    game=st.sampled_from(["bela", "french"]),
    stop=st.one_of(st.none(), st.integers(0, 400)),
    data=st.data(),
)
def test_records_round_trip(seed: int, game: str, stop: int | None, data: st.DataObject) -> None:
    """A match, finished or stopped anywhere, written and replayed, gives the same record and the same report."""
    choices = BELA_CHOICES if game == "bela" else FRENCH_CHOICES
    opts = data.draw(st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in choices.items()}))
    match: FamilyMatch = (
        BelaMatch(BelaRules(**opts), seed=seed) if game == "bela" else FrenchMatch(FrenchRules(**opts), seed=seed)
    )
    play_out(match, random.Random(seed), stop)
    record = json.loads(json.dumps(family_match_to_record(match, ["a", "b", "c", "d"])))
    again = replay_family_record(record, seed=seed)
    assert family_match_report(again) == family_match_report(match)
    assert family_match_to_record(again, ["a", "b", "c", "d"]) == record
    while not again.over and again.deal.phase != "done":  # the replayed match plays on exactly as the original
        again.apply(again.legal_actions()[0])


def test_a_french_deal_saved_during_its_bidding_is_finished_from_the_seed() -> None:
    match = FrenchMatch(FrenchRules(), seed=11, first_dealer=2)
    match.apply(match.legal_actions()[-1])  # seat 3 passes
    record = family_match_to_record(match)
    assert [len(h) for h in record["deals"][0]["hands"]] == [5, 5, 5, 5]
    again = replay_family_record(record, seed=11)
    again.apply(again.legal_actions()[0])  # seat 0 takes the turned card
    assert [len(h) for h in again.deal.hands] == [8, 8, 8, 8] and again.deal.hands[0][5] == match.deal.turned  # type: ignore[attr-defined]
    without_seed = replay_family_record(record, seed=12)
    with pytest.raises(ValueError, match="only five cards"):
        without_seed.apply(without_seed.legal_actions()[0])


def _broken(example: dict[str, Any], path: list[Any], value: object) -> dict[str, Any]:
    data = copy.deepcopy(example)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("example", "path", "value", "where", "says"),
    [
        (FRENCH_EXAMPLE, ["deals", 0, "turned"], KeyError, "deals[0].turned", "turned card"),
        (BELA_EXAMPLE, ["deals", 0, "turned"], "7C", "deals[0].turned", "no turned card"),
        (BELA_EXAMPLE, ["variant"], "bela-5", "variant", "known: bulgarian, bela, french"),
        (BELA_EXAMPLE, ["variant"], ["bela"], "variant", "unknown variant"),
        (BELA_EXAMPLE, ["seats"], ["Ana", "Boris"], "seats", "4 seats"),
        (BELA_EXAMPLE, ["deals", 0, "hands", 1, 0], "JS", "deals[0].hands[1][0]", "dealt twice"),
        (BELA_EXAMPLE, ["deals", 0, "hands", 1], ["7C", "KD", "7D", "AD", "AH", "7S"], "deals[0].hands[1]", "8 cards"),
        (BELA_EXAMPLE, ["deals", 0, "play", 0], "XX", "deals[0].play[0]", "not a card"),
        (BELA_EXAMPLE, ["deals", 0, "bids", 0], "double", "deals[0].bids[0]", ""),
        (BELA_EXAMPLE, ["rules"], {"capot_bonus": 90}, "rules.capot_bonus", "not a table option of bela"),
        (FRENCH_EXAMPLE, ["deals", 0, "bids", 3], "hearts", "deals[0].bids[3]", ""),
        (FRENCH_EXAMPLE, ["deals", 0, "turned"], "7D", "deals[0].hands", "turned card"),
        (BELA_EXAMPLE, ["deals", 0, "extra"], ["TS"], "deals[0].extra", "a Bela deal has no 2 extra cards"),
        (BELA_EXAMPLE, ["deals", 0, "stock"], ["TS"], "deals[0].stock", "unknown field"),
    ],
)
def test_malformed_records_are_located(
    example: dict[str, Any], path: list[Any], value: object, where: str, says: str
) -> None:
    with pytest.raises((RecordError, ReplayError)) as err:
        replay_family_record(_broken(example, path, value))
    if isinstance(err.value, RecordError):
        assert err.value.where == where and says in err.value.why
    else:
        assert where.endswith(f"[{err.value.position - 1}]")


def test_illegal_actions_name_the_deal_the_action_and_the_rule() -> None:
    no_iber = _broken(BELA_EXAMPLE, ["deals", 0, "play", 1], "7D")  # seat 1 must beat the 8♦ (iber)
    with pytest.raises(ReplayError) as err:
        replay_family_record(no_iber)
    assert (err.value.deal, err.value.part, err.value.position, err.value.seat) == (1, "play", 2, 1)
    assert "beat" in err.value.rule
    mus = _broken(BELA_EXAMPLE, ["deals", 0, "bids", 3], "pass")
    with pytest.raises(ReplayError) as err:
        replay_family_record(mus)
    assert (err.value.part, err.value.position, err.value.seat) == ("bid", 4, 3) and "mus" in err.value.rule


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("example", [BELA_EXAMPLE, FRENCH_EXAMPLE], ids=["bela", "french"])
def test_replay_command_prints_the_report_and_the_account(
    example: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(example), encoding="utf-8")
    code, out, _ = run_cli(["replay", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out) == family_match_report(replay_family_record(example))
    code, out, _ = run_cli(["replay", str(path)], capsys)
    assert code == 0 and f"Variant: {example['variant']}" in out and "Trick 1:" in out


def test_replay_command_locates_illegal_and_malformed_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_broken(BELA_EXAMPLE, ["deals", 0, "play", 1], "7D")), encoding="utf-8")
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert code == 1 and err.startswith("belote-bot replay: illegal action: deal 1, play 2: seat 1") and not out
    path.write_text(json.dumps(_broken(FRENCH_EXAMPLE, ["deals", 0, "turned"], KeyError)), encoding="utf-8")
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert code == 2 and "malformed record: deals[0].turned" in err and "Traceback" not in err


def test_a_belot_deal_is_reported_and_ends_the_match() -> None:
    from tests.test_family_vectors import _belot_hands

    record = {
        "format": "belote-record/1",
        "variant": "bela",
        "seats": ["a", "b", "c", "d"],
        "deals": [{"dealer": 1, "hands": [[card_str(c) for c in h] for h in _belot_hands()], "bids": ["clubs"]}],
    }
    report = family_match_report(replay_family_record(record))
    assert report["deals"][0] == {
        "dealer": 1, "caller": 2, "contract": "clubs", "multiplier": 1, "declarer": "A", "tricks": {"A": 0, "B": 0},
        "raw": None, "score": {"A": 0, "B": 0}, "hanging": 0, "outcome": "belot", "fell": None, "belot": 3,
    }  # fmt: skip
    assert report["winner"] == "B"
    with_play = copy.deepcopy(record)
    with_play["deals"][0]["play"] = ["AH"]
    with pytest.raises(RecordError, match="belot ends the match"):
        replay_family_record(with_play)
    after = copy.deepcopy(record)
    after["deals"].append(copy.deepcopy(record["deals"][0]) | {"dealer": 2})
    with pytest.raises(RecordError, match="after the match was decided"):
        replay_family_record(after)
