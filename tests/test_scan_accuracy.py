"""The scanner on a small fixed set of synthetic photos (tests/data/scan, made by training/make_test_photos.py):
the counts below are what the shipped model reads; a change that reads fewer cards, invents more or doubts more
fails here. When a better model is trained, raise the floors to its figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine.cards import card_str
from bot.scanner import scan_bytes

DATA = Path(__file__).resolve().parent / "data" / "scan"
TRUTH = json.loads((DATA / "truth.json").read_text())

# held_out -> (at least named correctly, at most invented, at most unsure), over that set's photos
FLOORS = {True: (98, 0, 12), False: (73, 0, 15)}


def read(held_out: bool) -> tuple[int, int, int, int]:
    visible = correct = invented = unsure = 0
    for photo in (p for p in TRUTH if p["held_out"] == held_out):
        scan = scan_bytes((DATA / photo["file"]).read_bytes())
        named = {card_str(f.card) for f in scan.cards}
        visible += len(photo["visible"])
        correct += len(named & set(photo["visible"]))
        invented += len(named - set(photo["present"]))
        unsure += len(scan.unsure)
    return visible, correct, invented, unsure


@pytest.mark.parametrize("held_out", [True, False], ids=["held-out designs", "trained designs"])
def test_accuracy_does_not_drop(held_out: bool) -> None:
    visible, correct, invented, unsure = read(held_out)
    least_correct, most_invented, most_unsure = FLOORS[held_out]
    assert visible > 0
    assert correct >= least_correct, f"{correct} of {visible} named correctly, was {least_correct}"
    assert invented <= most_invented, f"{invented} cards invented, was {most_invented}"
    assert unsure <= most_unsure, f"{unsure} unsure, was {most_unsure}"


def test_the_same_photo_reads_the_same() -> None:
    data = (DATA / TRUTH[0]["file"]).read_bytes()
    assert scan_bytes(data) == scan_bytes(data)
