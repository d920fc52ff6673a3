"""A card read in its frame only where the frame's centre lies outside the photo is asked about, not named
(docs/scanner.md, "An index the photo's edge cuts in half"); so is a card the readings name under 1.0 within about an
index's radius of the edge ("A card named at the photo's edge"). The photos are held-out bench photos
(``training.synth.seeded_photos`` of the held-out designs, saved at JPEG quality 90): seed 643, photo 4, on which the
scanner without the first rule names a ten of diamonds at 1.0 from what the left edge leaves of an eight of diamonds'
index; and seed 7817, photo 2, drawn at 1280 pixels, on which it names a queen of spades at 0.997 from what the left
edge leaves of a king of spades' index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.engine.cards import RANK_CHARS, card_str, parse_card
from bot.scanner import recognise, scan_bytes
from bot.scanner.recognise import BACKGROUND, CUT_INSIDE, EDGE, EDGE_SURE, INDEX_VOTE, Found, at_the_edge, cut_off
from tests.scan_held import held_back

DATA = Path(__file__).resolve().parent / "data" / "scan"


def cards(text: str) -> set[str]:
    return set(text.split())


# every card of the photo, and those with a corner index wholly in view
PRESENT = cards("7C 7D 7H 7S 8C 8D 8S 9C 9D 9H 9S AC AD AH JC JD JH JS KC KD KS QC QD TC TH TS")
SEEN = cards("7D 7S 8C 8D 8S 9H 9S AC JC JD JH JS KC KS QC QD TC TH")


def test_a_card_read_on_an_index_the_photos_edge_cuts_in_half_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (DATA / "cut-lattmann.jpg").read_bytes()
    # the photo was drawn for this rule when only aces were checked at 1.0: a ten is too now ("A ten checked at 1.0"),
    # and the check takes the ten of diamonds back as well, so this rule is shown as it stands alone
    shipped = recognise.CHECKED_AT_ONE
    monkeypatch.setattr(recognise, "CHECKED_AT_ONE", shipped - {RANK_CHARS.index("T")})
    # without the rule the same scan names the ten of diamonds, and every other card is read alike
    named, _ = held_back(data, "TD", PRESENT, lambda: monkeypatch.setattr(recognise, "cut_off", lambda *_: set()))
    assert len(named & SEEN) >= len(SEEN) - 1
    # the frame that reads it is centred left of the photo
    assert [f.x < 0 for f in scan_bytes(data).cards if card_str(f.card) == "TD"] == [True]
    # without this rule, the ten checked at 1.0 asks about it too
    monkeypatch.setattr(recognise, "CHECKED_AT_ONE", shipped)
    assert "TD" in {card_str(f.card) for f in scan_bytes(data).unsure}


def readings(*frames: tuple[str, float]) -> np.ndarray:
    """Each frame's reading (frames x 33): its card at the reading, "not an index" at the rest."""
    q = np.full((len(frames), BACKGROUND + 1), 0.0, np.float32)
    for row, (card, reading) in enumerate(frames):
        q[row, parse_card(card)] = reading
        q[row, BACKGROUND] = 1.0 - reading
    return q


def test_only_a_card_read_nowhere_but_outside_the_photo_is_cut_off() -> None:
    assert CUT_INSIDE == 0.0
    frames = np.array([[-5, 370, 23, 90], [300, 200, 20, 0], [599.5, 100, 20, 0], [400, 801, 20, 0],
                       [300, 400, 20, 0], [0, 400, 20, 0]], np.float64)  # fmt: skip
    q = readings(("TD", 1.0), ("9S", 1.0), ("KH", 0.99), ("7C", INDEX_VOTE - 0.01), ("KH", 0.9), ("QS", INDEX_VOTE))
    # a photo 600 wide, 800 high: the ten of diamonds and the king of hearts are read outside it; the king of hearts
    # is read inside it too, and the seven of clubs too weakly to vote; the queen of spades' frame lies on the edge
    assert cut_off(frames, q, 800, 600) == {parse_card("TD")}
    assert cut_off(frames[:0], q[:0], 800, 600) == set()


def test_a_card_named_under_one_at_the_photos_edge_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (DATA / "edge-1280-lattmann.jpg").read_bytes()
    present = cards("7C 7S 8S 9C 9D 9H 9S AC AD AH AS JC JD JH KD KS QC QH TC TH TS")
    seen = cards("7C 7S 8S 9C 9D 9H 9S AC AD AH AS JH KD QC QH TC TH TS")
    # read under EDGE_SURE where the left edge cuts the king of spades' index, within EDGE of the longer side of it
    queen = [f for f in scan_bytes(data).unsure if card_str(f.card) == "QS"]
    assert len(queen) == 1 and 0 < queen[0].x <= EDGE * 1280 and queen[0].confidence < EDGE_SURE
    # without the rule the same scan names the queen of spades, and every other card is read alike
    named, _ = held_back(data, "QS", present, lambda: monkeypatch.setattr(recognise, "EDGE", 0.0))
    assert named >= seen - {"QS"}


def test_only_a_card_named_under_edge_sure_near_an_edge_is_asked_about() -> None:
    def at(card: str, confidence: float, x: float, y: float) -> Found:
        return Found(parse_card(card), confidence, x, y, 0.0)

    reach = EDGE * 800  # a photo 600 wide, 800 high
    near = [at("QS", 0.997, reach - 1, 400), at("9H", 0.99, 300, 800 - reach + 1), at("KD", 0.9, 600 - reach + 0.5, 10),
            at("AC", 0.9, 300, reach - 1)]  # fmt: skip
    whole = [at("7C", 0.997, reach + 1, 400), at("8D", EDGE_SURE, 2, 400), at("TS", 0.95, 300, 800 - reach - 1)]
    unsure = (at("JC", 0.5, 3, 3),)
    named = tuple(sorted(near + whole, key=lambda f: f.card))
    kept, asked = at_the_edge((named, unsure), 600, 800)
    assert {card_str(f.card) for f in kept} == {"7C", "8D", "TS"}
    assert {card_str(f.card) for f in asked} == {"QS", "9H", "KD", "AC", "JC"}
    # the reach is a share of the longer side: on a photo twice the size the seven of clubs is within it
    assert "7C" not in {card_str(f.card) for f in at_the_edge((named, unsure), 1200, 1600)[0]}
