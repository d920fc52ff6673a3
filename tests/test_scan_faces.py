"""The faces that training and the benchmark draw into photos: every card rendered FACE_HEIGHT tall, even where the
SVG element's box is far taller than the card (as in many of the decks used: lattmann's eights, KDE's
ancient-egyptians), and a face cached too small by an older render drawn again. Needs ``rsvg-convert`` (Debian's
librsvg2-bin, which training installs): skipped without it, but a failure under ``make test`` and in CI
(BELOTE_REQUIRE_RSVG, CI), which install it."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.pgserver import required
from training import designs
from training.designs import FACE_HEIGHT, Design, render_face


@pytest.fixture(autouse=True)
def rsvg() -> None:
    """These tests need rsvg-convert: where it is required (make test, CI) its absence fails them, else skips them."""
    if shutil.which("rsvg-convert") is None:
        if required("BELOTE_REQUIRE_RSVG"):
            pytest.fail("rsvg-convert (Debian's librsvg2-bin) is required here (CI or BELOTE_REQUIRE_RSVG) but missing")
        pytest.skip("rsvg-convert (librsvg2-bin) missing")


HAND_MADE = Design("hand-made", "none", Path("deck.svgz"), "aisleriot", "none")  # its path set where it is written


def deck_svg(hidden_below: int) -> str:
    """A deck of 32 cards 60 x 90, each a group that also holds an unpainted rectangle ``hidden_below`` units under
    the card: the group's box, which ``rsvg-convert -h`` scales, is that much taller than the card."""
    groups = []
    for card in range(32):
        x, element = 10 + 80 * card, HAND_MADE.element(card)  # the ids render_design asks for: club_7, ...
        groups.append(
            f'<g id="{element}"><rect x="{x}" y="10" width="60" height="90" rx="5" fill="#fff" stroke="#000"/>'
            f'<text x="{x + 5}" y="30" font-size="16">{element.split("_")[1][0].upper()}</text>'
            f'<rect x="{x}" y="{100 + hidden_below}" width="60" height="10" fill="none"/></g>'
        )
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="2600" height="1200">{"".join(groups)}</svg>'


def card_height(png: Path) -> int:
    image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    rows = np.flatnonzero((image[:, :, 3] > 0).any(axis=1))
    return int(rows[-1] - rows[0] + 1)


def test_a_card_in_a_box_seven_times_its_height_is_still_drawn_face_height_tall(tmp_path: Path) -> None:
    svg = tmp_path / "deck.svg"
    svg.write_text(deck_svg(hidden_below=500))
    png = tmp_path / "face.png"
    face = render_face(svg, "spade_8", png)
    assert FACE_HEIGHT - 2 <= face.shape[0] <= FACE_HEIGHT + 2
    assert face.shape[1] == pytest.approx(FACE_HEIGHT * 60 / 90, abs=3)  # the card's own shape, not the box's
    assert card_height(png) == face.shape[0]  # the file kept is the good render, so the cache holds it


def test_a_design_renders_all_32_faces_tall_and_draws_again_a_face_cached_too_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(designs, "CACHE", tmp_path / "cache")
    svgz = tmp_path / "deck.svgz"
    svgz.write_bytes(gzip.compress(deck_svg(hidden_below=300).encode()))
    deck = replace(HAND_MADE, path=svgz)
    faces = designs.render_design(deck)
    assert len(faces) == 32
    assert all(FACE_HEIGHT - 2 <= f.shape[0] <= FACE_HEIGHT + 2 for f in faces)

    # the render of the code before render_face: the group's box FACE_HEIGHT tall, the card a quarter of it
    folder = tmp_path / "cache" / "hand-made"
    small = folder / "09.png"  # the eight of diamonds
    old = ["rsvg-convert", f"--export-id={HAND_MADE.element(9)}", "-h", str(FACE_HEIGHT), str(folder / "deck.svg")]
    subprocess.run([*old, "-o", str(small)], check=True)
    assert card_height(small) < FACE_HEIGHT // 2
    again = designs.render_design(deck)
    assert FACE_HEIGHT - 2 <= again[9].shape[0] <= FACE_HEIGHT + 2
    assert card_height(small) >= FACE_HEIGHT - 2
