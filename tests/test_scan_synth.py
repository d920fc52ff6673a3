"""The truth of a synthesised photo, as the bench reads it: the corner index nearest a point of the photo
(``training.synth.nearest_corner``, which ``bench/scan.py --list`` names for each card the scanner invents), and how
much of an index and of its rank another card covers (``training.synth.index_shares``)."""

from __future__ import annotations

import numpy as np

from training.frames import COVERED_HIDDEN, frame_labels, work_corners
from training.synth import Corner, Placed, index_shares, nearest_corner


def test_the_corner_nearest_a_point_is_found_among_every_card_and_both_its_corners() -> None:
    seven = Placed(0, [Corner(100.0, 100.0, 0.0, True, 20.0), Corner(180.0, 260.0, 180.0, False, 20.0, 0.4)])
    king = Placed(31, [Corner(130.0, 100.0, 0.0, True, 20.0, 0.69), Corner(210.0, 260.0, 180.0, True, 20.0)])
    table = [seven, king]

    def at(x: float, y: float) -> tuple[int, int] | None:  # (the card, which of its corners)
        found = nearest_corner(table, x, y)
        return None if found is None else (found[0].card, found[0].corners.index(found[1]))

    assert at(126.0, 104.0) == (31, 0)
    assert at(112.0, 90.0) == (0, 0)
    assert at(185.0, 250.0) == (0, 1)  # a covered corner counts too
    assert at(200.0, 262.0) == (31, 1)
    assert nearest_corner([], 10.0, 10.0) is None


def test_a_ten_whose_one_is_covered_shows_most_of_its_index_and_little_of_its_rank() -> None:
    # a card face 100 x 150 with its index box at (10, 10)-(30, 50): the rank in the upper part, the suit under it
    ten = Placed(3, homography=np.eye(3), box=(10, 10, 30, 50), size=(100, 150))
    labels = np.zeros((150, 100), np.int16)  # card 0, the ten, shows everywhere
    share, rank_share = index_shares(ten, labels, 0, flip=False)
    assert (share, rank_share) == (1.0, 1.0)
    labels[:27, :15] = 1  # the next card over the ten's "1": the left quarter of the index, down to the rank's foot
    share, rank_share = index_shares(ten, labels, 0, flip=False)
    assert share == 1 - 6 / 49, "two columns of three rows of the 7 x 7 grid"
    assert rank_share == 1 - 8 / 28, "two columns of the rank's four rows"
    assert share > COVERED_HIDDEN > rank_share, "covered too little to count, but for its rank"
    labels[:] = 0
    labels[123:, 85:] = 1  # the other index is upside down in the opposite corner: its "1" is at the right, its foot up
    assert index_shares(ten, labels, 0, flip=True) == (1 - 6 / 49, 1 - 8 / 28)
    assert index_shares(ten, labels, 0, flip=False) == (1.0, 1.0)
    labels[:] = 0
    labels[31:51, :] = 1  # the suit alone covered: all of the rank shows
    share, rank_share = index_shares(ten, labels, 0, flip=False)
    assert share < COVERED_HIDDEN and rank_share == 1.0


def test_with_rank_covered_an_index_counts_as_covered_as_its_rank() -> None:
    ten = Placed(3, [Corner(100.0, 100.0, 0.0, False, 20.0, share=0.9, rank_share=0.7)])
    suit_covered = Placed(4, [Corner(300.0, 100.0, 0.0, False, 20.0, share=0.6, rank_share=1.0)])
    assert [c[6] for c in work_corners([ten, suit_covered], 1.0)] == [0.9, 0.6]
    assert [c[6] for c in work_corners([ten, suit_covered], 1.0, rank=True)] == [0.7, 0.6]
    # so a guess on the ten's index, left out before, is "not an index" to the check's network
    on_ten = (100.0, 102.0, 20.0, 0.0)
    for rank, expected in ((False, []), (True, [(on_ten, True)])):
        corners = work_corners([ten, suit_covered], 1.0, rank=rank)
        assert frame_labels([on_ten], corners, COVERED_HIDDEN)[3] == expected
