"""A card named weakly twice: where the first two readings both name a card under PAIR_SURE, the turned reading is read
too, and the card is named only where it names it as well, but on a photo the scanner enlarges (docs/scanner.md, "A
card named weakly twice"). The photo is the held-out bench photo of seed 8837, photo 18, drawn at 1024 pixels and
saved as lossless WebP (``training.synth.seeded_photos``; saved at JPEG quality 90, the first two readings no longer
name the queen): the next card covers two-thirds of the B of a lattmann jack of spades, which the first two readings
name the queen of spades at 0.974 and 0.988, naming the same cards, and the turned reading the jack at 0.9999."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.cards import parse_card
from bot.scanner import recognise, scan_bytes
from bot.scanner.recognise import PAIR_SURE, Found, Reading, combined, needs_third
from tests.scan_held import as_text

DATA = Path(__file__).resolve().parent / "data" / "scan"
PHOTO = DATA / "pair-lattmann.webp"
PRESENT = {"7D", "7H", "7S", "9C", "9S", "AD", "AH", "AS", "JD", "JH", "JS", "KC", "KD", "KH", "KS", "QC", "QD",
           "TC", "TD", "TH"}  # fmt: skip


def test_the_queen_read_on_a_covered_jack_is_asked_about_with_the_jack(monkeypatch: pytest.MonkeyPatch) -> None:
    named, asked = as_text(scan_bytes(PHOTO.read_bytes()))
    assert named <= PRESENT, f"invented: {sorted(named - PRESENT)}"
    assert {"QS", "JS"} <= asked  # the true card is among the questions
    # as before the rule: the first two readings name the same cards, so the turned one is not read and the queen is
    # named; every card named with the rule is named without it
    monkeypatch.setattr(recognise, "PAIR_SURE", 0.0)
    before, asked_before = as_text(scan_bytes(PHOTO.read_bytes()))
    assert before == named | {"QS"} and not asked_before



@pytest.mark.parametrize(
    ("file", "ghost", "undone"),
    [("covered-lattmann.jpg", "7D", {"EDGE": 0.0, "uncovered": lambda *_: set()}),
     ("colour-lattmann.jpg", "8D", {"PLACE": 0.0, "colour_gainsaid": lambda *_: set()})],
)  # fmt: skip
def test_the_rule_alone_takes_back_cards_that_other_rules_were_made_for(
    file: str, ghost: str, undone: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the seven of diamonds on a covered index (without the check of covered indices, tests/test_scan_cover.py) and an
    # eight of clubs read as diamonds (without the colour of the ink, tests/test_scan_colour.py): each is named weakly
    # by the first two readings and not by the turned one
    for name, value in undone.items():
        monkeypatch.setattr(recognise, name, value)
    data = (DATA / file).read_bytes()
    named, asked = as_text(scan_bytes(data))
    assert ghost in asked and ghost not in named
    monkeypatch.setattr(recognise, "PAIR_SURE", 0.0)
    assert as_text(scan_bytes(data)) == (named | {ghost}, asked - {ghost})


def found(card: str, confidence: float, x: float) -> Found:
    return Found(parse_card(card), confidence, x, 100.0, 0.0)


def reading(*named: Found) -> Reading:
    return named, ()


SURE_ACE = found("AH", 1.0, 900.0)


def test_a_card_both_first_readings_name_weakly_calls_for_the_turned_reading() -> None:
    first, second = reading(found("QS", 0.974, 500.0), SURE_ACE), reading(found("QS", 0.988, 501.0), SURE_ACE)
    assert needs_third(first, second, 1024) and needs_third(first, second, 4032)
    # one of the two at PAIR_SURE or more: they agree, and one is sure enough
    assert not needs_third(first, reading(found("QS", PAIR_SURE, 501.0), SURE_ACE), 1024)
    # other cards named: read as always, enlarged or not
    assert needs_third(first, reading(SURE_ACE), 1024) and needs_third(first, reading(SURE_ACE), 800)
    assert not needs_third(reading(SURE_ACE), reading(SURE_ACE), 1024)
    # a photo enlarged to be read: its readings are weaker, and two that agree are left as they are
    assert not needs_third(first, second, 800)


def test_a_card_named_weakly_twice_is_named_only_where_the_turned_reading_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    weak = [reading(found("QS", 0.974, 500.0), SURE_ACE), reading(found("QS", 0.988, 501.0), SURE_ACE)]
    jack = reading(found("JS", 0.9999, 500.0), SURE_ACE)
    named, unsure = combined([*weak, jack], 1024)
    assert [f.card for f in named] == [parse_card("AH")]
    assert {f.card for f in unsure} == {parse_card("QS"), parse_card("JS")}
    # the turned reading names it too, even weakly: named by three
    queen_too = reading(found("QS", 0.96, 500.0), SURE_ACE)
    assert {f.card for f in combined([*weak, queen_too], 1024)[0]} == {parse_card("QS"), parse_card("AH")}
    # one of the first two names it at PAIR_SURE: no third is needed, and none is weighed
    sure_once = [weak[0], reading(found("QS", PAIR_SURE, 501.0), SURE_ACE)]
    assert {f.card for f in combined([*sure_once, jack], 1024)[0]} == {parse_card("QS"), parse_card("AH")}
    # where the first two name other cards, a card both name weakly still needs the turned reading
    other = [reading(found("QS", 0.974, 500.0), SURE_ACE, found("7C", 1.0, 300.0)), weak[1]]
    named, _ = combined([*other, reading(found("7C", 1.0, 300.0), SURE_ACE)], 1024)
    assert {f.card for f in named} == {parse_card("7C"), parse_card("AH")}
    # on a photo enlarged to be read, or as before the rule: the two readings name it
    assert parse_card("QS") in {f.card for f in combined([*weak, jack], 800)[0]}
    monkeypatch.setattr(recognise, "PAIR_SURE", 0.0)
    assert parse_card("QS") in {f.card for f in combined([*weak, jack], 1024)[0]}
