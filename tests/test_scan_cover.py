"""A card read on an index another card partly covers is asked about, not named (docs/scanner.md, "A card on a
covered index"). The two photos are held-out bench photos (``training.synth.seeded_photos`` of the held-out designs:
seed 239, photo 34, and seed 241, photo 15, saved at JPEG quality 90) on which the scanner without that check invents
a card: a seven of diamonds on the index of the eight of diamonds, 57 % covered, and a king of clubs on the index of
a king of spades whose suit the next card covers."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.engine.cards import RANK_CHARS, card_str, parse_card, rank_of
from bot.scanner import recognise, scan_bytes, scan_image
from tests.scan_held import held_back

DATA = Path(__file__).resolve().parent / "data" / "scan"


def unchecked(*_: object) -> set[int]:
    """``recognise.uncovered`` with no check: no card held back."""
    return set()

# file -> (the card the check holds back, the cards in the photo)
PHOTOS = {
    "covered-lattmann.jpg": (
        "7D",
        "7H 7S 8C 8D 8H 8S 9C 9D AD AS JC JH JS KD KH KS QC QD QH QS TC TD TH TS",
    ),
    "covered-kde-standard.jpg": ("KC", "7C 7D 7H 7S 8H 8S AS JH JS KH KS QC QS TC TS"),
}
# the photos whose card lies within EDGE of the photo's edge, named under EDGE_SURE without the check: the rule of a
# card named at the photo's edge (docs/scanner.md) asks about it too, and is left out to test the check alone
AT_THE_EDGE = {"covered-lattmann.jpg", "covered-third-lattmann.jpg"}
SHIPPED_EDGE = recognise.EDGE


def edge_alone_asks_about(data: bytes, card: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether, with the rule under test undone, the edge rule alone asks about ``card``."""
    monkeypatch.setattr(recognise, "EDGE", SHIPPED_EDGE)
    scan = scan_bytes(data)
    return card in {card_str(f.card) for f in scan.unsure} and card not in {card_str(f.card) for f in scan.cards}


@pytest.mark.parametrize("file", sorted(PHOTOS))
def test_a_card_on_a_covered_index_is_asked_about(file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    card, present = PHOTOS[file][0], set(PHOTOS[file][1].split())
    data = (DATA / file).read_bytes()
    monkeypatch.setattr(recognise, "EDGE", 0.0)
    # nor a card named weakly twice and not by the turned reading, which without the check asks about the seven of
    # diamonds of covered-lattmann.jpg too (tests/test_scan_pair.py)
    monkeypatch.setattr(recognise, "PAIR_SURE", 0.0)
    # without the check the same networks name that card, and only the check moves it: every other card is read alike
    held_back(data, card, present, lambda: monkeypatch.setattr(recognise, "uncovered", unchecked))
    assert edge_alone_asks_about(data, card, monkeypatch) == (file in AT_THE_EDGE)


def test_a_pack_lettered_v_d_p_is_read_without_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's network learnt the letters J Q K only: a pack lettered В Д П is left to its own networks."""
    checked: list[str] = []
    plain = recognise.uncovered

    def uncovered(*args: object) -> set[int]:
        checked.append("latin")
        return plain(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(recognise, "uncovered", uncovered)
    data = (DATA / "covered-kde-standard.jpg").read_bytes()
    scan_bytes(data, "cyrillic")
    assert checked == []
    scan_bytes(data)
    assert len(checked) in (2, 3)  # once in each reading of the photo


def test_a_photo_enlarged_to_be_read_is_checked_more_strictly() -> None:
    """A held-out bench photo drawn at 800 pixels and saved at JPEG 70, as a chat sends a small photo (seed 613, photo
    0): the scanner enlarges it to 1024 pixels, and the check reads a seven of spades on the whole index of the eight
    of spades at 0.51, over COVERED_INDEX but under COVERED_INDEX_ENLARGED. The same picture enlarged beforehand, so
    that the scanner reads it at its own size, is read alike but for that threshold: the seven is named there."""
    data = (DATA / "enlarged-lattmann.jpg").read_bytes()
    present = {"8C", "8H", "8S", "9H", "AH", "KS", "QH", "TD"}
    scan = scan_bytes(data)
    named = {card_str(f.card) for f in scan.cards}
    asked = {card_str(f.card) for f in scan.unsure}
    assert named <= present, f"invented: {sorted(named - present)}"
    assert asked == {"7S"}
    picture = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    height, width = picture.shape[:2]
    assert max(height, width) < 1024
    enlarged = cv2.resize(picture, (1024, round(height * 1024 / width)), interpolation=cv2.INTER_LINEAR)
    as_large = scan_image(enlarged)
    assert {card_str(f.card) for f in as_large.cards} == named | {"7S"}
    assert not as_large.unsure


def test_the_second_network_of_the_check_takes_back_what_the_first_lets_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A held-out bench photo (seed 31, photo 37, saved at JPEG quality 95) on which an ace of diamonds is read on a
    covered index: the first network of the check reads it over COVERED_INDEX, the second far under, and the
    geometric mean of the check's networks asks about it. With the first network alone the same scan names it."""
    present = {"8D", "9D", "AC", "AS", "JC", "JH", "JS", "KC", "KD", "KH", "KS", "QH", "QS", "TS"}  # corners in view
    assert recognise.check_networks(False) == (recognise.COVER, recognise.COVER_HARD, recognise.COVER_ALL)
    held_back(
        (DATA / "covered-second-kde-standard.jpg").read_bytes(),
        "AD",
        present,
        lambda: monkeypatch.setattr(recognise, "check_networks", lambda enlarged: (recognise.COVER,)),
    )


# file -> (the card the third network holds back, the cards in the photo)
THIRD = {
    "covered-third-kde-standard.jpg": ("7H", "7C 7D 7S 8D 8H 8S 9D 9S AC AD AS JC JH JS KC KD KS QC QH QS TH TS"),
    "covered-third-lattmann.jpg": ("AH", "7H 8D 8H 8S 9D 9S AC AS JC JD JH KD KH KS QC QD QH QS TD TH"),
}


@pytest.mark.parametrize("file", sorted(THIRD))
def test_the_third_network_of_the_check_takes_back_what_the_two_let_through(
    file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two held-out bench photos (seed 1873 photo 9 saved at JPEG quality 90, seed 2081 photo 14 at 85): a seven of
    hearts on a seven of diamonds' index 12 % covered, an ace of hearts on a king of hearts' index 29 % covered. On the
    photos as drawn, the geometric mean of the check's first two networks reads them at 0.65 and 0.53, over 0.4, and
    that of the three at 0.47 and 0.44, under COVERED_INDEX. With the two at 0.4, as shipped before the third, the
    same scan names the card and reads every other card alike."""
    card, present = THIRD[file][0], set(THIRD[file][1].split())
    # the court network (docs/scanner.md, "The court network") asks about the ace of hearts on the king's index too:
    # left out, so that the check's networks are what is tested
    monkeypatch.setattr(recognise, "court_gainsaid", lambda *_: set())

    def two_networks() -> None:
        monkeypatch.setattr(recognise, "check_networks", lambda enlarged: (recognise.COVER, recognise.COVER_HARD))
        monkeypatch.setattr(recognise, "COVERED_INDEX", 0.4)

    data = (DATA / file).read_bytes()
    monkeypatch.setattr(recognise, "EDGE", 0.0)
    held_back(data, card, present, two_networks)
    assert edge_alone_asks_about(data, card, monkeypatch) == (file in AT_THE_EDGE)


def test_the_check_reads_the_geometric_mean_of_its_networks() -> None:
    assert recognise.mean_read([0.5]) == pytest.approx(0.5)
    assert recognise.mean_read([0.9, 0.1]) == pytest.approx(0.3)
    assert recognise.mean_read([1.0, 0.0]) < 1e-4  # either network reading it nowhere is enough
    assert recognise.mean_read([0.9, 0.3, 0.3]) == pytest.approx(0.081 ** (1 / 3))  # three networks alike
    assert recognise.check_networks(True) == (recognise.COVER,)  # an enlarged photo: the first alone
    assert all(network.is_file() for network in recognise.check_networks(False))


# file -> (the card checked at 1.0, the cards in the photo)
CHECKED = {
    "ace-lattmann.jpg": ("AC", "7S 8D 8H 9C 9D 9S AH JD JH JS KC KH QC QD QH QS TC TD TH TS"),
    "ace-1280-lattmann.jpg": ("AH", "7H 7S 9D 9H AS JH JS KD KS QD TC TH TS"),
    "ten-1280-kde-standard.webp": (
        "TC", "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S AD AH AS JC JD JH JS KC KD KH KS QC QD QH QS TD TH TS"
    ),
}
ACES = {file: checked for file, checked in CHECKED.items() if checked[0].startswith("A")}


@pytest.mark.parametrize("file", sorted(ACES))
def test_an_ace_is_checked_even_when_named_at_one(file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two held-out bench photos (seed 4463 photo 8 at 1024 pixels, seed 4507 photo 20 at 1280, saved at JPEG quality
    85): the next card covers the "10" of a ten of clubs' index (49 %) and of a ten of hearts' (53 %), and what is left,
    the suit, is read as that suit's ace by an ink mark and by the index in its frame, each at 0.99 or more, so the ace
    is named at 1.0 in every reading. The check reads it at 0.11 to 0.32 and at 0.01 (and the true ace of hearts of the
    first photo at 1.0): an ace is checked at 1.0 too, and asked about. With aces checked under 1.0 only, the same
    scan names it and reads every other card alike."""
    checked_at_one_holds_back(file, monkeypatch)


def test_a_ten_is_checked_even_when_named_at_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A held-out bench photo (seed 7333 photo 1 at 1280 pixels, saved as lossless WebP so that its pixels are the
    bench's): the next card covers 41 % of a king of clubs' index and 89 % of its letter, and the sliver of the K left
    beside the club is read as the "10" of the ten of clubs, named at 1.0 by the first two readings. The check reads
    it low: a ten is checked at 1.0 too, and asked about. With aces alone checked at 1.0, as before, the same scan names
    it and reads every other card alike."""
    checked_at_one_holds_back("ten-1280-kde-standard.webp", monkeypatch)


def checked_at_one_holds_back(file: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card of ``file`` (CHECKED) is asked about; checked under 1.0 only where its rank is, it is named."""
    card, present = CHECKED[file][0], set(CHECKED[file][1].split())
    assert {RANK_CHARS.index("A"), RANK_CHARS.index("T")} == recognise.CHECKED_AT_ONE
    unchecked = recognise.CHECKED_AT_ONE - {rank_of(parse_card(card))}
    held_back((DATA / file).read_bytes(), card, present,
              lambda: monkeypatch.setattr(recognise, "CHECKED_AT_ONE", unchecked))
