"""A card the first reading asks about where it also reads another card surely at the same index is not named by the
other readings' overruling (docs/scanner.md, "Two cards at one index: no overruling"). The photo is the held-out bench
photo of seed 8377, photo 24, drawn at 1024 pixels and saved as lossless WebP (``training.synth.seeded_photos``): its
first reading asks about an ace of spades at 0.987 and the true ten of spades at 0.990 on the ten's index, and the two
others name the ace, which is not there, at 0.982 and 0.9999."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.cards import card_str, parse_card
from bot.scanner import recognise
from bot.scanner.recognise import OVERRULE, PLACE, SURE, Found, Reading, combined, torn_between
from tests.scan_held import held_back

PHOTO = Path(__file__).resolve().parent / "data" / "scan" / "overruled-lattmann.webp"
PRESENT = {"8C", "8S", "9C", "9H", "9S", "AC", "AD", "AH", "JC", "JS", "KD", "QC", "QH", "QS", "TS"}


def test_the_ace_the_first_reading_could_not_tell_from_the_ten_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    # without the rule the same readings name the ace; the rule moves it alone, and the ten stays asked about
    def without_rule() -> None:
        monkeypatch.setattr(recognise, "torn_between", lambda *_: frozenset())

    _, asked = held_back(PHOTO.read_bytes(), "AS", PRESENT, without_rule)
    assert "TS" in asked


def found(card: str, confidence: float, x: float, y: float = 300.0) -> Found:
    return Found(parse_card(card), confidence, x, y, 0.0)


def names(cards: tuple[Found, ...]) -> list[str]:
    return [card_str(f.card) for f in cards]


def first_asking(ten: float, apart: float) -> Reading:
    """A first reading that names the seven of clubs and asks about the ace of spades at 0.987 and the ten of spades
    at ``ten``, ``apart`` pixels from the ace."""
    return (found("7C", 1.0, 100.0),), (found("AS", 0.987, 500.0), found("TS", ten, 500.0 + apart))


def test_a_card_the_first_reading_is_torn_over_is_not_overruled() -> None:
    reach = PLACE * 1024
    others = [((found("7C", 1.0, 101.0), found("AS", 0.99, 501.0)), ()),
              ((found("7C", 0.999, 99.0), found("AS", 0.9999, 499.0)), ())]
    first = first_asking(0.990, 0.5 * reach)
    assert torn_between(first, 1024) == {parse_card("AS"), parse_card("TS")}
    named, unsure = combined([first, *others], 1024)
    assert names(named) == ["7C"] and names(unsure) == ["TS", "AS"]
    # the other card read under SURE, or farther than PLACE of the photo's side: the two others overrule the first
    for apart_first in (first_asking(SURE - 0.01, 0.5 * reach), first_asking(0.990, 1.1 * reach)):
        assert parse_card("AS") not in torn_between(apart_first, 1024)
        named, unsure = combined([apart_first, *others], 1024)
        assert names(named) == ["7C", "AS"] and names(unsure) == ["TS"]
    # a card the first reading names where it also reads another is no matter for this rule: it is named by two
    named_too = (found("7C", 1.0, 100.0), found("AS", 0.9999, 500.0)), (found("TS", 0.990, 502.0),)
    assert names(combined([named_too, *others], 1024)[0]) == ["7C", "AS"]
    # the others must still each name it at OVERRULE: torn or not, one sure reading does not overrule the first
    weak = [others[0], ((found("7C", 0.999, 99.0), found("AS", OVERRULE - 0.01, 499.0)), ())]
    assert names(combined([first_asking(0.990, 1.1 * reach), *weak], 1024)[0]) == ["7C"]
