"""`belote-bot verify` on Bela and French belote records (formats §7.3, docs/fairness.md): 0, 1 naming the first deal
that does not follow from the seed (or the commitment that does not match), 2 for a malformed record."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.engine import PASS, Bid
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_to_record, replay_family_record
from bot.engine.game import VARIANTS, parse_variant_rules

ROOT = Path(__file__).resolve().parent.parent


def played(variant: str, seed: str, deals: int = 3, pass_first: bool = False) -> dict[str, Any]:
    """The record of a match played by random legal actions, stopped after ``deals`` deals, its seed revealed. With
    ``pass_first`` everyone passes in the first deal (in French belote, passed out)."""
    match = VARIANTS[variant].new_match(parse_variant_rules(variant, {}), seed=seed)
    assert isinstance(match, FamilyMatch)
    pick = random.Random(seed)
    while not match.over and len(match.deals) <= deals:
        if len(match.deals) == deals and match.deal.phase == "auction" and not match.deal.calls:
            break
        first_deal = len(match.deals) == 1
        if pass_first and first_deal and Bid(PASS) in match.legal_actions():
            match.apply(Bid(PASS))
        else:
            match.apply(pick.choice(match.legal_actions()))
    return family_match_to_record(match, ["Ana", "Boris", "Vera", "Goran"], reveal=True)


def verify(tmp_path: Path, record: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_a_record_written_by_a_match_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    record = played(variant, f"v-{variant}", pass_first=True)
    assert record["dealing"]["seed"] == f"v-{variant}" and len(record["dealing"]["commitment"]) == 64
    if variant == "french":
        assert len(record["deals"][0]["hands"][0]) == 5  # the passed-out deal lists five cards each
        assert len(record["deals"][1]["hands"][0]) == 8
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 0, err
    assert f"matches the commitment {record['dealing']['commitment']}" in out
    assert f"Every hand of the {len(record['deals'])} deals follows from it" in out
    replay_family_record(record)  # and it is a record the replay takes


def swap(record: dict[str, Any], deal: int, a: tuple[int, int], b: tuple[int, int]) -> None:
    hands = record["deals"][deal]["hands"]
    hands[a[0]][a[1]], hands[b[0]][b[1]] = hands[b[0]][b[1]], hands[a[0]][a[1]]


@pytest.mark.parametrize(
    ("variant", "a", "b"),
    [
        ("bela", (0, 0), (1, 0)),  # a card of the first six
        ("bela", (2, 7), (3, 6)),  # talon cards of two seats
        ("bela", (1, 6), (1, 7)),  # a seat's own talon in another order
        ("french", (0, 0), (3, 4)),  # a card of the first five
        ("french", (0, 7), (2, 6)),  # cards received after the bidding
    ],
)
def test_a_swapped_card_names_the_first_deal_that_does_not_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, a: tuple[int, int], b: tuple[int, int]
) -> None:
    record = played(variant, f"s-{variant}")
    deal = next(i for i, d in enumerate(record["deals"]) if len(d["hands"][0]) == 8 and i > 0)
    swap(record, deal, a, b)
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 1 and out == ""
    assert f"deal {deal + 1} does not follow from the seed: seat {min(a[0], b[0])} holds" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_a_french_turned_card_that_is_not_the_seeds_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played("french", "t", pass_first=True)
    first = record["deals"][0]  # passed out: five cards each, the turned card and the stock out of the record
    every = {c for h in first["hands"] for c in h} | {first["turned"]}
    first["turned"] = next(r + s for s in "CDHS" for r in "789TJQKA" if r + s not in every)
    status, _, err = verify(tmp_path, record, capsys)
    assert status == 1
    assert f"deal 1 does not follow from the seed: the turned card is {first['turned']}, the seed turns" in err


@pytest.mark.parametrize("variant", ["bela", "french"])
def test_a_seed_that_is_not_the_committed_one_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    record = played(variant, "c")
    record["dealing"]["seed"] = "another"
    status, _, err = verify(tmp_path, record, capsys)
    assert status == 1 and "the seed does not match the commitment" in err


@pytest.mark.parametrize(
    ("variant", "change", "said"),
    [
        ("bela", lambda r: r.pop("dealing"), "dealing: absent"),
        ("french", lambda r: r["dealing"].pop("seed"), "dealing.seed: absent"),
        ("bela", lambda r: r["deals"][1].update(dealer=(r["deals"][1]["dealer"] + 2) % 4), "deals[1].dealer: must be"),
        ("bela", lambda r: r["deals"][0].update(turned="AS"), "deals[0].turned: a Bela deal has no turned card"),
        ("french", lambda r: r["deals"][0].pop("turned"), "deals[0].turned: missing"),
        ("french", lambda r: r["deals"][0]["hands"][2].__setitem__(1, "XX"), "deals[0].hands[2][1]"),
        ("bela", lambda r: r["deals"][0]["hands"][0].pop(), "deals[0].hands[0]: must hold 8 cards"),
        ("french", lambda r: r.update(rules={"iber": False}), "rules.iber: not a table option of french"),
        ("bela", lambda r: r["deals"][0].update(bids=["pass", "pass", "pass", "pass"]), "deals[0].bids[3]"),
        ("french", lambda r: r["deals"][0].update(bids=["pass"] * 8), "deals[0].hands[0]: lists 8 cards, but after"),
    ],
)
def test_a_malformed_family_record_exits_2_saying_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, change: Any, said: str
) -> None:
    broken = copy.deepcopy(played(variant, "m"))
    change(broken)
    status, out, err = verify(tmp_path, broken, capsys)
    assert status == 2 and out == ""
    assert said in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_the_installed_command_verifies_a_family_record(tmp_path: Path) -> None:
    path = tmp_path / "bela.json"
    path.write_text(json.dumps(played("bela", "cli")), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "follows from it" in done.stdout and done.stderr == ""
