"""Training's labels of the index network's frames (training.frames.frame_labels), on corners placed by hand: a guess
on a wholly visible index is its card with the correction to the index's true frame; one on an index another card
covers by more than 1 - HIDDEN, or far from every index, is "not an index" (the first marked as covered, which
--index-covered keeps them all); the rest (too far off in turn or size, between NEAR and FAR, on an index covered a
little) are left out."""

from __future__ import annotations

import numpy as np

from bot.scanner.frames import correction_to
from training.frames import COVERED_HIDDEN, FAR, HIDDEN, NEAR, OFF_SIZE, OFF_TURN, frame_labels

# card, x, y, radius, degrees, wholly visible, share uncovered
WHOLE = (31, 100.0, 100.0, 20.0, 0.0, True, 1.0)
HALF_HIDDEN = (5, 300.0, 100.0, 20.0, 90.0, False, HIDDEN - 0.1)
EDGE_HIDDEN = (9, 500.0, 100.0, 20.0, 0.0, False, (HIDDEN + COVERED_HIDDEN) / 2)
CORNERS = [WHOLE, HALF_HIDDEN, EDGE_HIDDEN]

ON = (105.0, 100.0, 20.0, 5.0)  # a little off the whole index
HALF = (300.0, 105.0, 20.0, 90.0)  # on the index another card hides by more than 1 - HIDDEN
EDGE = (500.0, 100.0, 20.0, 0.0)  # on the index covered less: by more than 1 - COVERED_HIDDEN only
TABLE = (700.0, 700.0, 20.0, 0.0)
PAST_FAR = (100.0, 100.0 + (FAR + 0.2) * 20.0, 20.0, 0.0)
LEFT_OUT = [
    (100.0, 100.0, 20.0, OFF_TURN + 25.0),  # the whole index, at the wrong turn
    (100.0, 100.0, 20.0 * float(np.exp(OFF_SIZE + 0.2)), 0.0),  # at the wrong size
    (100.0, 100.0 + (NEAR + FAR) / 2 * 20.0, 20.0, 0.0),  # between NEAR and FAR: the next glyph, or the index
]


def test_each_guess_is_its_card_not_an_index_or_left_out() -> None:
    frames, cards, fixes, not_index = frame_labels([TABLE, ON, HALF, EDGE, PAST_FAR, *LEFT_OUT], CORNERS)
    assert frames == [ON] and cards == [31]
    np.testing.assert_allclose(fixes[0], correction_to(ON, WHOLE[1:5]))
    assert fixes[0][0] < 0 and fixes[0][3] < 0, "the true frame is to the left, turned back"
    assert not_index == [(TABLE, False), (HALF, True), (PAST_FAR, False)], "in the guesses' order; EDGE left out"


def test_covered_labels_call_an_index_covered_a_little_not_an_index() -> None:
    _, _, _, not_index = frame_labels([TABLE, ON, HALF, EDGE, *LEFT_OUT], CORNERS, COVERED_HIDDEN)
    assert not_index == [(TABLE, False), (HALF, True), (EDGE, True)]
