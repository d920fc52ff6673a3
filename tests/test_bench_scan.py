"""bench/scan.py's pooling of many sets: the seeds it reads as the docs name sets, the figures of several sets added up,
and the bound it prints on how often the scanner invents a card (checked against the exact Poisson bound's published
values, computed here by hand)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from tests.bench_scripts import bench_script

bench = bench_script("scan")


def test_seeds_are_read_as_numbers_lists_and_prime_ranges() -> None:
    assert bench.seed_list("7") == [7]
    assert bench.seed_list("11, 13,17") == [11, 13, 17]
    # the 48 held-out sets drawn with the prime seeds from 587 to 887
    primes = bench.seed_list("587-887")
    assert len(primes) == 48 and primes[:3] == [587, 593, 599] and primes[-1] == 887
    assert bench.seed_list("2-12,7") == [2, 3, 5, 7, 11, 7]
    for wrong in ("x", "", "620-630", "5-", "7,x", "7,620-630"):
        with pytest.raises(argparse.ArgumentTypeError, match="587-887"):
            bench.seed_list(wrong)


def test_the_ranks_checked_at_one_are_read_as_rank_letters() -> None:
    assert bench.checked_ranks("AT") == bench.checked_ranks("ta") == frozenset({7, 3})  # RANK_CHARS is 789TJQKA
    assert bench.checked_ranks("A") == frozenset({7})
    assert bench.checked_ranks("") == frozenset()  # none, as before aces were checked at 1.0
    with pytest.raises(argparse.ArgumentTypeError, match="not a rank: 1, X; ranks are 7 8 9 T J Q K A"):
        bench.checked_ranks("A1X")


@pytest.mark.parametrize(
    ("events", "bound"),
    [
        (0, -math.log(0.05)),  # e^-m = 0.05
        (1, 4.7439),  # e^-m (1 + m) = 0.05
        (9, 15.7052),
        (20, 29.0620),
    ],
)
def test_the_invented_rate_bound_is_the_exact_one_sided_poisson_bound(events: int, bound: float) -> None:
    assert bench.rate_bound(events, 10_000) * 10_000 == pytest.approx(bound, abs=1e-3)
    # at that mean, seeing ``events`` or fewer happens 5 % of the time
    mean = bench.rate_bound(events, 1)
    assert sum(math.exp(-mean) * mean**k / math.factorial(k) for k in range(events + 1)) == pytest.approx(0.05, 1e-6)


def test_one_set_with_none_invented_does_not_show_none() -> None:
    # the bench's default held-out set: 1,007 cards, none invented, bounds the rate at one in 336 only
    assert round(1 / bench.rate_bound(0, 1007)) == 336
    with pytest.raises(ValueError):
        bench.rate_bound(0, 0)


def test_sets_are_added_up_and_each_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    first = bench.Tally(photos=40, seen=600, correct=595, unsure=3, wrong_unsure=4, invented=1, wrong_photos=3,
                        flagged_photos=2, court=[200, 198, 1], seconds=8.0, at={0.99: [590, 1]},
                        inventions=["seed 11 photo 3: TD"])
    second = bench.Tally(photos=40, seen=650, correct=640, unsure=5, wrong_unsure=2, invented=0, wrong_photos=2,
                         flagged_photos=2, court=[210, 207, 0], seconds=9.0, at={0.99: [633, 0]}, inventions=[])
    both = bench.pooled(iter([first, second]), [11, 13])
    assert (both.photos, both.seen, both.correct, both.unsure, both.wrong_unsure, both.invented) == (
        80, 1250, 1235, 8, 6, 1)
    assert (both.wrong_photos, both.flagged_photos) == (5, 4)
    assert both.court == [410, 405, 1] and both.seconds == 17.0 and both.at == {0.99: [1223, 1]}
    assert both.inventions == ["seed 11 photo 3: TD"]
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["  seed 11: 600 cards, 595 named correctly, 3 unsure, 1 invented",
                     "  seed 13: 650 cards, 640 named correctly, 5 unsure, 0 invented"]

    bench.report("held-out", "latin", both, listed=True, sets=2)
    out = capsys.readouterr().out
    assert "2 sets, 80 photos, 1250 cards with a visible corner" in out
    assert "named correctly   98.80%  (1235)" in out
    assert "    seed 11 photo 3: TD" in out
    assert "photos with a card invented or missed: 5, of which a count not of whole tricks points out 4" in out
    assert f"under one card in {1 / bench.rate_bound(1, 1250):,.0f} (95 % bound from 1 in 1250 cards)" in out
    assert ("  targets          99% named: no (98.80%); at most 1% asked about: yes (0.64%); none invented: no (1); "
            "under 1 s a photo: yes (0.212 s on this core)") in out


@pytest.mark.parametrize(
    ("correct", "unsure", "invented", "seconds", "verdicts"),
    [
        (990, 10, 0, 99.9, ["99% named: yes (99.00%)", "at most 1% asked about: yes (1.00%)",
                            "none invented: none here", "under 1 s a photo: yes (0.999 s on this core)"]),
        (989, 11, 1, 100.0, ["99% named: no (98.90%)", "at most 1% asked about: no (1.10%)", "none invented: no (1)",
                             "under 1 s a photo: no (1.000 s on this core)"]),
    ],
)
def test_the_targets_are_judged_at_their_bounds(
    correct: int, unsure: int, invented: int, seconds: float, verdicts: list[str]
) -> None:
    counted = bench.Tally(photos=100, seen=1000, correct=correct, unsure=unsure, invented=invented, seconds=seconds)
    assert bench.targets(counted).split("; ") == verdicts
    assert bench.targets(counted, timed=False).split("; ") == verdicts[:3]  # recorded readings have no seconds


def test_the_targets_are_printed_for_the_held_out_designs_alone(capsys: pytest.CaptureFixture[str]) -> None:
    counted = bench.Tally(photos=10, seen=100, correct=99, seconds=5.0)
    for kind, shown in (("held-out", True), ("cyrillic", True), ("trained", False), ("added", False)):
        bench.report(kind, "latin", counted, listed=False)
        assert ("  targets          99% named: yes (99.00%)" in capsys.readouterr().out) == shown


def test_each_networks_seconds_are_counted_on_a_real_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    from bot.scanner import recognise

    monkeypatch.setattr(recognise, "run_all", recognise.run_all)  # count_networks wraps it: undone after the test
    monkeypatch.setattr(bench, "SPENT", {})
    bench.count_networks()
    image = cv2.imread(str(Path(__file__).parent / "data" / "scan" / "colour-lattmann.jpg"))
    scan = recognise.scan_image(image)
    assert scan.cards  # the photo was read
    spent = bench.SPENT
    # every reading finds marks, turns and reads them, and reads indices in their frames
    assert {"turn.onnx", "model.onnx", "index.onnx", "court.onnx"} <= set(spent)
    for seconds, patches, calls in spent.values():
        assert seconds > 0 and patches >= calls >= 1
    # the index network reads far more frames than the court network reads windows (five views of each card named)
    assert spent["index.onnx"][1] > spent["court.onnx"][1] > 0


def test_the_networks_seconds_are_added_up_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    first = bench.Tally(photos=2, seen=30, correct=30, seconds=2.0, networks={"index.onnx": [0.8, 1400, 16]})
    second = bench.Tally(photos=2, seen=30, correct=30, seconds=2.0,
                         networks={"index.onnx": [0.6, 1600, 18], "turn.onnx": [0.2, 500, 2]})
    both = bench.pooled(iter([first, second]), [11, 13])
    assert both.networks == {"index.onnx": [1.4, 3000, 34], "turn.onnx": [0.2, 500, 2]}
    capsys.readouterr()
    bench.report("held-out", "latin", both, listed=False, sets=2)
    out = capsys.readouterr().out.splitlines()
    index = next(line for line in out if "index.onnx" in line)
    assert "0.350 s/photo,   750.0 patches and  8.5 calls a photo, 0.467 ms a patch" in index
    # the largest first, then what no network spent: 4.0 s less 1.6 over 4 photos
    assert out.index(index) < out.index(next(line for line in out if "turn.onnx" in line))
    assert any("the rest" in line and "0.600 s/photo" in line for line in out)
    # a set read without --networks prints no such lines
    bench.report("held-out", "latin", bench.Tally(photos=1, seen=10, correct=10, seconds=1.0), listed=False)
    assert "the rest" not in capsys.readouterr().out
