"""Training's labels of the marks (training.train.labels), on a card placed by hand: a mark on a visible index is its
card at the card's turn, one away from every index is "not a card index", one on a covered index is left out; with
``within_box``, so is a mark beside an index (the next card's edge), whose centre is off the index's box; with
``covered``, a mark on an index mostly covered by another card is "not a card index"."""

from __future__ import annotations

import numpy as np

from training.synth import Corner, Placed
from training.train import BACKGROUND, NO_TURN, labels

FACE = (100, 145)  # the face's width and height, in its own pixels
BOX = (5, 5, 20, 40)  # the index box on the face: x0, y0, x1, y1
SHIFT = (200.0, 100.0)  # the card lies unturned, its face's top left at this photo point


def card(visible: tuple[bool, bool] = (True, True), share: tuple[float, float] = (1.0, 1.0)) -> Placed:
    """The king of spades (31), upright, its top-left index at photo (212.5, 122.5) and its other one at (287.5,
    222.5)."""
    homography = np.array([[1.0, 0.0, SHIFT[0]], [0.0, 1.0, SHIFT[1]], [0.0, 0.0, 1.0]])
    centre = ((BOX[0] + BOX[2]) / 2, (BOX[1] + BOX[3]) / 2)
    corners = [
        Corner(SHIFT[0] + centre[0], SHIFT[1] + centre[1], 0.0, visible[0], 19.0, share[0]),
        Corner(SHIFT[0] + FACE[0] - centre[0], SHIFT[1] + FACE[1] - centre[1], 180.0, visible[1], 19.0, share[1]),
    ]
    return Placed(31, corners, homography, BOX, FACE)


def test_marks_on_beside_and_away_from_an_index() -> None:
    found = np.array(
        [
            [210.0, 115.0, 12.0, 1.0],  # the rank of the top-left index
            [223.0, 122.0, 12.0, 1.0],  # beside it, off the box: the edge of the card over this one
            [288.0, 230.0, 12.0, 3.0],  # the suit of the other index, upside down
            [400.0, 400.0, 12.0, 2.0],  # the table
        ],
        np.float32,
    )
    rows, cards, turns = labels(found, 1.0, [card()])
    assert rows.tolist() == [0, 1, 2, 3] and cards.tolist() == [31, 31, 31, BACKGROUND]
    assert turns.tolist() == [0, 0, 8, NO_TURN]  # 180 degrees: 8 steps of 22.5
    rows, cards, _ = labels(found, 1.0, [card()], within_box=True)
    assert rows.tolist() == [0, 2, 3] and cards.tolist() == [31, 31, BACKGROUND], "the mark beside the box is left out"


def test_a_covered_index_is_left_out_and_the_work_scale_applies() -> None:
    found = np.array([[105.0, 57.5, 6.0], [144.0, 115.0, 6.0]], np.float32)  # at half the photo's size
    rows, cards, _ = labels(found, 2.0, [card(visible=(False, True))], within_box=True)
    assert rows.tolist() == [1] and cards.tolist() == [31]


def test_a_mostly_covered_index_is_not_an_index_with_covered_labels() -> None:
    # The rank of the top-left index, whose suit another card hides (half the box seen), and the suit of the other
    # index, only its edge covered (nine tenths seen).
    found = np.array([[210.0, 115.0, 12.0, 4.0], [288.0, 230.0, 12.0, 4.0]], np.float32)
    placed = [card(visible=(False, False), share=(0.5, 0.9))]
    rows, cards, turns = labels(found, 1.0, placed, within_box=True)
    assert rows.tolist() == [], "without covered labels both are left out"
    rows, cards, turns = labels(found, 1.0, placed, within_box=True, covered=True)
    assert rows.tolist() == [0] and cards.tolist() == [BACKGROUND] and turns.tolist() == [NO_TURN]
    rows, cards, _ = labels(found, 1.0, [card(share=(0.5, 0.9))], within_box=True, covered=True)
    assert cards.tolist() == [31, 31], "an index counted visible is its card whatever the finer share says"
