"""Marks and the geometry of the reader's patches (bot.scanner.patches): a glyph touching the edge of the next card
of a fan is a mark of its own, and so is a blurred suit joined to the next card's shadow; a glyph on a card turned any
way comes out upright when cut at the card's turn, whole and centred, at the size the reader expects; the same cut
made in two steps (a wide unturned patch, then turned, as training makes it) gives the same patch as one cut from the
photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.engine.cards import parse_card
from bot.scanner.patches import (
    READ_HIGH,
    READ_SPAN,
    READ_WIDE,
    Work,
    cut,
    marks,
    planes_of,
    read_cut,
    read_patches,
)
from bot.scanner.recognise import read_marks

DATA = Path(__file__).parent / "data" / "scan"

SIZE = 14.0  # the mark's size in the photo, pixels
CENTRE = (200.0, 150.0)


def photo_with_seven(degrees: float) -> np.ndarray:
    """A white 400 x 300 two-plane photo with a black "7" centred on CENTRE, the card's top turned ``degrees``
    clockwise from up (the glyph turned with it)."""
    planes = np.full((300, 400, 2), 255, np.uint8)
    planes[:, :, 1] = 0
    grey = np.ascontiguousarray(planes[:, :, 0])
    # the glyph SIZE pixels high: FONT_HERSHEY_SIMPLEX at scale 0.5 is about 12 px for a digit, at 0.6 about 14
    (w, h), _ = cv2.getTextSize("7", cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
    cv2.putText(grey, "7", (round(CENTRE[0] - w / 2), round(CENTRE[1] + h / 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 2)
    turn = cv2.getRotationMatrix2D(CENTRE, -degrees, 1.0)  # negative: clockwise
    grey = cv2.warpAffine(grey, turn, (400, 300), flags=cv2.INTER_LINEAR, borderValue=255)
    planes[:, :, 0] = grey
    return planes


def upright(planes: np.ndarray, degrees: float) -> np.ndarray:
    return read_cut(planes, *CENTRE, SIZE, degrees)[:, :, 0].astype(np.int16)


@pytest.mark.parametrize("degrees", [0.0, 22.5, 90.0, 157.5, 180.0, 292.5])
def test_a_turned_glyph_is_cut_upright_at_its_turn(degrees: float) -> None:
    reference = upright(photo_with_seven(0.0), 0.0)
    assert reference.shape == (READ_HIGH, READ_WIDE)
    assert reference.min() < 80, "the glyph is in the patch"
    turned = photo_with_seven(degrees)
    right = np.abs(upright(turned, degrees) - reference).mean()
    wrong = np.abs(upright(turned, -degrees) - reference).mean()  # the other way round
    assert right < 6, f"cut at its turn the glyph is upright (mean difference {right:.1f})"
    if degrees % 180:
        assert wrong > 3 * right, "turning the other way does not stand it up"


def test_the_glyph_is_centred_and_the_patch_spans_its_sizes() -> None:
    ink = upright(photo_with_seven(0.0), 0.0) < 128
    rows, columns = np.nonzero(ink)
    assert abs(rows.mean() - READ_HIGH / 2) < 3 and abs(columns.mean() - READ_WIDE / 2) < 3
    # READ_WIDE pixels over READ_SPAN sizes: the glyph's height in the patch is its size times that zoom
    zoom = READ_WIDE / (READ_SPAN * SIZE)
    assert abs((rows.max() - rows.min() + 1) - SIZE * zoom) <= 3


def test_two_steps_as_in_training_give_the_photo_s_cut() -> None:
    planes = photo_with_seven(67.5)
    found = np.array([[*CENTRE, SIZE]], np.float32)
    direct = read_patches(Work(planes, 1.0), found, np.array([67.5], np.float32))[0, 0].astype(np.int16)
    wide_side, wide_span = 84, 6.1
    wide = cut(planes, *CENTRE, SIZE, 0.0, wide_side, wide_side, wide_span)
    stepped = read_cut(wide, wide_side / 2, wide_side / 2, wide_side / wide_span, 67.5)
    assert np.abs(stepped[:, :, 0].astype(np.int16) - direct).mean() < 4


# The glyphs 8 A K 9 as OpenCV 5.0 draws them (cv2.putText, Hershey simplex at 0.6, 2 px thick, ink 20 on 235), each
# on a 32 x 32 tile with its bottom left at (4, 24), and their text sizes: OpenCV 5.1 draws them a pixel larger and
# otherwise, which moved these marks by a pixel or two, so the photo is built from the tiles, not drawn anew.
GLYPHS = cv2.imread(str(Path(__file__).resolve().parent / "data" / "scan" / "glyphs-8AK9.png"), cv2.IMREAD_GRAYSCALE)
GLYPH_SIZES = {"8": (12, 16), "A": (13, 16), "K": (12, 16), "9": (12, 16)}


def fanned_edge_photo(glyph: str, degrees: float, edge: bool = True) -> Work:
    """A light 400 x 300 photo with a glyph and (``edge``) a card's edge with its shadow touching it, as an index
    touches the next card of a fan: a dark band 3 px wide and 300 px long, turned ``degrees``."""
    grey = np.full((300, 400), 235, np.uint8)
    w, h = GLYPH_SIZES[glyph]
    x0, y0 = 190, 160  # the glyph's bottom left
    tile = 32 * "8AK9".index(glyph)
    grey[y0 - 24 : y0 + 8, x0 - 4 : x0 + 28] = GLYPHS[:, tile : tile + 32]
    if edge:  # along the glyph's right side, one pixel into it
        direction = np.array([np.sin(np.radians(degrees)), -np.cos(np.radians(degrees))])
        anchor = np.array([x0 + w - 1, y0 - h / 2])
        a, b = anchor - 150 * direction, anchor + 150 * direction
        cv2.line(grey, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), 60, 3)
    return Work(np.dstack([grey, np.zeros_like(grey)]), 1.0)


@pytest.mark.parametrize(("glyph", "degrees"), [("8", 0.0), ("A", 10.0), ("K", 170.0), ("9", 25.0)])
def test_a_glyph_touching_the_next_card_s_edge_is_a_mark_of_its_own(glyph: str, degrees: float) -> None:
    (alone,) = marks(fanned_edge_photo(glyph, degrees, edge=False))
    found = marks(fanned_edge_photo(glyph, degrees))
    near = found[np.hypot(found[:, 0] - alone[0], found[:, 1] - alone[1]) < 3]
    assert len(near), f"the {glyph} beside the edge is found (alone: {alone.tolist()}, marks: {found.tolist()})"
    assert np.abs(near[:, 2] - alone[2]).min() <= 2, "at the glyph's own size, not the edge's"


def test_a_blurred_suit_joined_to_the_next_card_s_shadow_is_a_mark_of_the_strict_threshold() -> None:
    """A corner of a blurred synthetic photo (fan-club.png, 96 x 96, a kde-standard ten of clubs, README there): its
    club, centred, touches the edge and shadow of the next card. The first three splits of the ink find no mark on it;
    the stricter threshold of the fourth does, and the reader names the card from it."""
    work = Work(planes_of(cv2.imread(str(DATA / "fan-club.png"))), 1.0)

    def on_the_club(found: np.ndarray) -> np.ndarray:
        return found[(np.hypot(found[:, 0] - 48.5, found[:, 1] - 48.5) < 4) & (found[:, 2] <= 16)]

    assert len(on_the_club(marks(work, splits=3))) == 0, "joined to the shadow, the club is no mark of its own"
    found = marks(work)
    club = on_the_club(found)
    assert len(club) == 1, f"the strict threshold frees the club (marks: {found.round(1).tolist()})"
    readings, _ = read_marks(work, club)
    assert int(readings[0].argmax()) == parse_card("TC") and readings[0].max() >= 0.99, "read as the ten of clubs"


def test_the_marks_the_first_network_reads_as_no_index_are_not_read_again() -> None:
    """The reader reads only the marks the turn network does not call "not an index" at PLAIN or more; the others keep
    "not an index" (1.0) as their reading. On a committed photo most marks are so, and the reader, run on them all,
    reads none of those as a card at 0.3 or more: the reading the rule skips is one it would not have used."""
    from bot.scanner import recognise
    from bot.scanner.patches import patches, prepare, tensor

    work = prepare(cv2.imread(str(DATA / "photo0.jpg")))
    found = marks(work)
    first, _turn = recognise.run_all(recognise.TURN, ("card", "turn"), tensor(patches(work, found)))
    plain = first[:, recognise.BACKGROUND] >= recognise.PLAIN
    assert plain.mean() > 0.4, f"{plain.sum()} of {len(found)} marks read as no index by the first network"
    readings, turns = read_marks(work, found)
    assert (readings[plain, recognise.BACKGROUND] == 1.0).all()
    assert (readings[plain, : recognise.BACKGROUND] == 0.0).all()
    assert np.allclose(readings[~plain].sum(axis=1), 1.0, atol=1e-4)
    degrees = turns.astype(np.float32) * 360 / recognise.ANGLES
    whole = recognise.run(recognise.MODEL, "card", tensor(read_patches(work, found, degrees)))
    assert whole[plain, : recognise.BACKGROUND].max() < 0.3
    assert np.allclose(readings[~plain], whole[~plain], atol=1e-5)
