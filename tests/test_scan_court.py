"""A number card named where the court network reads a court card's window (or a court card where it reads a number
card's) is asked about (docs/scanner.md, "The court network"). The photos are the held-out bench photos of seed 1889,
photo 0, and seed 2207, photo 32 (``training.synth.seeded_photos`` of the held-out designs), saved as lossless WebP:
without the rule every reading names an ace of diamonds on the blurred index of a lattmann king of diamonds, and an
eight of spades on that of a lattmann jack (B) of spades."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.scanner import recognise
from bot.scanner.frames import COURT_SHIFT, COURT_SPAN, COURT_WIDE, court_windows
from tests.scan_held import held_back

DATA = Path(__file__).resolve().parent / "data" / "scan"


def cards(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize(("photo", "invented", "present", "misses"), [
    ("court-lattmann.webp", "AD", cards("7D 7S 8D 9D 9S KD QC QS TC TH"), 1),
    ("court-second-lattmann.webp", "8S",
     cards("7C 7D 8C 8D 9C 9D 9H 9S AC AH AS JD JH JS KC KD KH QC QH QS TD TH TS"), 2),
])  # fmt: skip
def test_a_number_card_read_on_a_court_cards_index_is_asked_about(
    monkeypatch: pytest.MonkeyPatch, photo: str, invented: str, present: set[str], misses: int
) -> None:
    data = (DATA / photo).read_bytes()
    # every card of these photos shows its index; without the rule the same scan names the invented card and reads
    # every other card alike
    named, _ = held_back(data, invented, present,
                         lambda: monkeypatch.setattr(recognise, "court_gainsaid", lambda *_: set()))  # fmt: skip
    assert len(named) >= len(present) - misses


@pytest.mark.parametrize("degrees", [0.0, 90.0, 202.5])
def test_the_window_holds_the_index_in_its_top_left_and_the_card_beside_it(degrees: float) -> None:
    # a dark dot at an index's centre, and a red one a radius and a half into the card (right of it and under it, as
    # the card points): the window is upright whichever way the card points
    image = np.full((400, 400, 2), 230, np.uint8)
    image[:, :, 1] = 0
    x, y, radius = 200.0, 200.0, 12.0
    a = np.radians(degrees)
    across, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    inside = np.array([x, y]) + 1.5 * radius * (across + down)
    image[198:203, 198:203] = 0
    image[round(inside[1]) - 2 : round(inside[1]) + 3, round(inside[0]) - 2 : round(inside[0]) + 3, 1] = 200
    window = court_windows(image, np.array([[x, y, radius, degrees]]))
    assert window.shape == (1, 2, COURT_WIDE, COURT_WIDE)
    per_radius = COURT_WIDE / COURT_SPAN
    centre = COURT_WIDE / 2

    rows, columns = np.nonzero(window[0, 0] <= 40)
    dot = float(columns.mean()), float(rows.mean())
    assert abs(dot[0] - (centre - COURT_SHIFT[0] * per_radius)) < 1.5
    assert abs(dot[1] - (centre + COURT_SHIFT[1] * per_radius)) < 1.5
    red = np.nonzero(window[0, 1] >= 100)
    assert abs(red[1].mean() - dot[0] - 1.5 * per_radius) < 1.5
    assert abs(red[0].mean() - dot[1] - 1.5 * per_radius) < 1.5
    assert court_windows(image, np.zeros((0, 4))).shape == (0, 2, COURT_WIDE, COURT_WIDE)
