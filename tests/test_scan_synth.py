"""The truth of a synthesised photo, as the bench reads it: the corner index nearest a point of the photo
(``training.synth.nearest_corner``, which ``bench/scan.py --list`` names for each card the scanner invents)."""

from __future__ import annotations

from training.synth import Corner, Placed, nearest_corner


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
