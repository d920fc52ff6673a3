"""The Bulgarian letters В Д П drawn over a design's J Q K (training.letters), on a face drawn here: only the court
cards' rank letters change, in both corners, in the letter's own ink and no taller than it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.letters import FONT, cyrillic, rank_box

pytest.importorskip("PIL")
if not FONT.exists():
    pytest.skip(f"the letters' font {FONT} is not installed (Debian fonts-dejavu-core)", allow_module_level=True)

RED, BLACK = (20, 20, 210), (25, 25, 25)


def face(letter: str, ink: tuple[int, int, int]) -> np.ndarray:
    """A white card 210 x 300 (BGRA) with ``letter`` over a round suit in its top-left corner, and the same turned
    half round in the bottom-right one."""
    card = np.full((300, 210, 4), 255, np.uint8)
    for turned in (False, True):
        side = card[::-1, ::-1] if turned else card
        corner = np.ascontiguousarray(side[:, :, :3])
        cv2.putText(corner, letter, (9, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 3)
        cv2.circle(corner, (20, 58), 8, ink, -1)
        side[:, :, :3] = corner
    return card


def changed(before: np.ndarray, after: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(np.any(before != after, axis=2))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def test_only_the_court_cards_rank_letters_are_redrawn_in_both_corners_in_their_ink() -> None:
    ranks = "789TJQKA"
    faces = [face(ranks[card & 7], RED if card >> 3 in (1, 2) else BLACK) for card in range(32)]
    out = cyrillic(faces)
    for card in range(32):
        if card & 7 not in (4, 5, 6):  # 7 8 9 10 and the ace are left as drawn
            assert np.array_equal(out[card], faces[card])
            continue
        box = rank_box(faces[card])
        assert box is not None
        x0, y0, x1, y1 = box
        assert y1 < 50 and x1 < 45  # the rank above the suit, not the suit
        top = changed(faces[card][:150], out[card][:150])
        assert x0 - 1 <= top[0] and y0 - 1 <= top[1] and top[2] <= x1 + 1 and top[3] <= y1 + 1
        bottom = changed(faces[card][150:][::-1, ::-1], out[card][150:][::-1, ::-1])
        assert bottom == top  # the other corner alike, turned half round
        letter = out[card][y0 : y1 + 1, x0 : x1 + 1, :3].astype(int)
        dark = letter.sum(axis=2) < 3 * 170
        assert dark.sum() > 40  # a letter is written where the old one was painted over
        ys = np.flatnonzero(dark.any(axis=1))
        assert ys[-1] - ys[0] + 1 >= 0.75 * (y1 - y0 + 1)  # at about its height
        ink = letter[dark].mean(axis=0)
        red = card >> 3 in (1, 2)
        assert (ink[2] - ink[0] > 100) == red  # hearts and diamonds keep their red letter
        for corner in (lambda f: f, lambda f: f[::-1, ::-1]):  # the suits under the letters untouched
            assert np.array_equal(corner(out[card])[45:75, :45], corner(faces[card])[45:75, :45])
    # the three letters differ from one another
    jack, queen, king = (out[c][:50, :45] for c in (4, 5, 6))
    assert not np.array_equal(jack, queen) and not np.array_equal(queen, king)
