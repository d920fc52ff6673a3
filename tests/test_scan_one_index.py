"""Two cards read at one index: a card a reading names under PLACE_SURE where the same reading asks about another card
at SURE or more, within PLACE of the photo's longer side, is asked about in that reading (docs/scanner.md, "Two
cards read at one index"). The photos are held-out bench photos drawn at 1280 pixels and saved at JPEG quality 90
(``training.synth.seeded_photos``: seed 7459, photo 39, and seed 7603, photo 2) on which every reading named a
card that is not there, while it asked about the true card at the same index."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.cards import parse_card
from bot.scanner import recognise
from bot.scanner.recognise import PLACE, PLACE_SURE, SURE, Found, one_index_one_card
from tests.scan_held import held_back

DATA = Path(__file__).resolve().parent / "data" / "scan"

# file -> (the ghost the rule holds back, the true card asked about at its index, the cards in the photo)
PHOTOS = {
    # a nine of spades at 0.9996 on a nine of clubs' index 29 % covered, the nine of clubs asked about at 0.995
    "one-index-1280-kde-standard.jpg": (
        "9S", "9C", "7C 7S 8D 8H 8S 9C 9D 9H AC AD AH AS JC JD JH JS KC KD KH KS QD QH QS TC TD TH",
    ),
    # a lattmann ace of spades at 0.990 on a seven of spades' index, the seven asked about at 0.971
    "one-index-1280-lattmann.jpg": (
        "AS", "7S", "7C 7D 7H 7S 8C 8H 9C 9H 9S AC AD JD JH JS KC KD KH KS QD QH QS TC TH",
    ),
}


@pytest.mark.parametrize("file", sorted(PHOTOS))
def test_a_card_read_where_another_is_asked_about_is_asked_about_too(
    file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ghost, true, present = PHOTOS[file][0], PHOTOS[file][1], set(PHOTOS[file][2].split())
    # without the rule the same readings name the ghost, and only the rule moves it: every other card is read alike
    data = (DATA / file).read_bytes()
    _, asked = held_back(data, ghost, present, lambda: monkeypatch.setattr(recognise, "PLACE", 0.0))
    assert true in asked


def found(card: str, confidence: float, x: float, y: float = 100.0) -> Found:
    return Found(parse_card(card), confidence, x, y, 0.0)


def test_one_reading_asks_about_both_cards_read_at_one_index() -> None:
    reach = PLACE * 1280
    named = (found("9S", 0.9996, 500.0), found("AH", 0.998, 900.0))
    unsure = (found("9C", 0.995, 500.0 + 0.9 * reach),)
    assert one_index_one_card((named, unsure), 1280) == ((named[1],), (unsure[0], named[0]))
    # farther than PLACE of the photo's side: two indices; the same distance on a smaller photo is farther
    apart = (found("9C", 0.995, 500.0 + 1.1 * reach),)
    assert one_index_one_card((named, apart), 1280) == (named, apart)
    assert one_index_one_card((named, unsure), 1000) == (named, unsure)
    # the card asked about under SURE, or the card named at PLACE_SURE or more: nothing moves
    weak = (found("9C", SURE - 0.01, 500.0),)
    assert one_index_one_card((named, weak), 1280) == (named, weak)
    sure = (found("9S", PLACE_SURE, 500.0),)
    assert one_index_one_card((sure, unsure), 1280) == (sure, unsure)
