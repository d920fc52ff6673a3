"""The geometry of reading an index in its own frame (bot.scanner.frames): the three guesses from a mark, the
network's correction and its inverse, and one reading per index. Values worked by hand."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.scanner.frames import (
    FRAME_HIGH,
    FRAME_WIDE,
    SCALE_LIMIT,
    VIEWS,
    corrected,
    correction_to,
    distinct,
    frame_patches,
    hypotheses,
    views,
)


def test_a_mark_gives_its_index_as_rank_as_suit_and_as_the_whole_index() -> None:
    # a mark 10 pixels high at (100, 100) on a card standing upright, and the same on a card whose top points right
    found = np.array([[100, 100, 10, 1], [100, 100, 10, 1]], np.float32)
    frames = hypotheses(found, np.array([0.0, 90.0]))
    assert frames.shape == (6, 4)
    upright, right = frames[:3], frames[3:]
    # the rank: the index's centre 0.4 sizes below it (down the card), radius 0.95 sizes
    assert upright[0] == pytest.approx([100, 104, 9.5, 0])
    # the suit: 0.88 sizes above it, radius 1.5 sizes; the whole index: the mark itself, radius 0.65 sizes
    assert upright[1] == pytest.approx([100, 91.2, 15, 0])
    assert upright[2] == pytest.approx([100, 100, 6.5, 0])
    # the card's top to the right: "above" is to the right in the photo
    assert right[0] == pytest.approx([96, 100, 9.5, 90])
    assert right[1] == pytest.approx([108.8, 100, 15, 90])
    assert hypotheses(np.zeros((0, 4), np.float32), np.zeros(0)).shape == (0, 4)


def test_a_mark_gives_its_index_at_a_radius_given_whatever_its_own_size() -> None:
    # half a glyph (size 5) and two glyphs joined (size 30), both where a 20-pixel index's rank would be: each guess
    # is of radius 20, the mark as far from its centre as a mark of the size that guess takes (rank 0.4 / 0.95 radii
    # below the centre, suit 0.88 / 1.5 above, the whole index at it)
    found = np.array([[100, 100, 5, 1], [300, 100, 30, 1]], np.float32)
    frames = hypotheses(found, np.array([0.0, 90.0]), np.array([20.0, 20.0]))
    assert frames.shape == (6, 4)
    assert frames[0] == pytest.approx([100, 100 + 0.4 / 0.95 * 20, 20, 0])
    assert frames[1] == pytest.approx([100, 100 - 0.88 / 1.5 * 20, 20, 0])
    assert frames[2] == pytest.approx([100, 100, 20, 0])
    # the card's top to the right
    assert frames[3] == pytest.approx([300 - 0.4 / 0.95 * 20, 100, 20, 90])
    assert frames[4] == pytest.approx([300 + 0.88 / 1.5 * 20, 100, 20, 90])
    # the guesses from a mark of the size they take are the plain ones
    plain = hypotheses(found[:1], np.zeros(1))
    assert hypotheses(found[:1], np.zeros(1), np.array([0.95 * 5.0]))[0] == pytest.approx(plain[0])


def test_the_correction_takes_a_cut_frame_to_the_index_and_back() -> None:
    truth = (250.0, 180.0, 14.0, 30.0)
    for frame in ((255.0, 176.0, 12.0, 22.5), (244.0, 186.0, 17.0, 45.0), (250.0, 180.0, 14.0, 30.0)):
        fix = correction_to(frame, truth)
        assert corrected(np.array([frame]), fix[None, :])[0] == pytest.approx(truth)
    # across and up in the cut frame's own directions: a card turned 90 degrees, the index 7 pixels below the cut
    # centre in the photo is 7 pixels to its right on the card; 1 radius (7 pixels) across
    fix = correction_to((100.0, 100.0, 7.0, 90.0), (100.0, 107.0, 7.0, 90.0))
    assert fix == pytest.approx([1.0, 0.0, 0.0, 0.0], abs=1e-6)
    # a turn across north is the short way round
    assert correction_to((0.0, 0.0, 5.0, 350.0), (0.0, 0.0, 5.0, 10.0))[3] == pytest.approx(1.0)


def test_a_wild_correction_is_clipped() -> None:
    frame = np.array([[100.0, 100.0, 10.0, 0.0]])
    moved = corrected(frame, np.array([[50.0, -50.0, 9.0, 40.0]], np.float32))[0]
    assert moved[0] == pytest.approx(110.0) and moved[1] == pytest.approx(110.0)  # one radius each way at most
    assert moved[2] == pytest.approx(10.0 * np.exp(SCALE_LIMIT))
    assert moved[3] == pytest.approx(30.0)


def test_one_reading_per_index_the_most_confident_kept() -> None:
    frames = np.array([[100, 100, 10, 0], [103, 101, 11, 0], [130, 100, 10, 0], [131, 98, 4, 0]], np.float64)
    kept = distinct(frames, np.array([0.7, 0.9, 0.5, 0.95], np.float32))
    # 1 beats 0 (3.2 pixels apart, within half a radius); 3 and 2 are 2.2 pixels apart but 3's radius is 4: the
    # same index only within half the smaller radius, so both stay
    assert kept.tolist() == [3, 1, 2]


def test_frames_are_cut_upright_at_the_network_size() -> None:
    planes = np.zeros((200, 200, 2), np.uint8)
    planes[90:100, 95:105, 0] = 255  # a bright block above the centre of the frame
    out = frame_patches(planes, np.array([[100.0, 100.0, 10.0, 0.0], [100.0, 100.0, 10.0, 180.0]]))
    assert out.shape == (2, 2, FRAME_HIGH, FRAME_WIDE)
    top, bottom = out[:, 0, : FRAME_HIGH // 2].mean(axis=(1, 2)), out[:, 0, FRAME_HIGH // 2 :].mean(axis=(1, 2))
    assert top[0] > bottom[0]  # upright: the block in the upper half
    assert bottom[1] > top[1]  # the card upside down: turned, the block is in the lower half
    assert frame_patches(planes, np.zeros((0, 4))).shape == (0, 2, FRAME_HIGH, FRAME_WIDE)


def test_the_index_networks_work_is_bounded_whatever_the_photo_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture of glyphs and lines everywhere, every mark taken as a possible index and every frame as read a card:
    the index network still reads at most three frames of MAX_GUESSED marks, then MAX_LIVE frames a round, then at most
    MAX_LIVE indices found again in each of the VIEWS; and as much again for the marks guessed from at the photo's
    index size. That is one reading of the photo; it is read two or three times (``scan_image``)."""
    from bot.scanner import recognise

    rng = np.random.default_rng(3)
    image = np.full((1500, 2000, 3), 225, np.uint8)
    for _ in range(2500):
        at = (int(rng.integers(0, 1980)), int(rng.integers(20, 1500)))
        cv2.putText(image, str(rng.choice(list("7891JQKA0"))), at, cv2.FONT_HERSHEY_SIMPLEX,
                    float(rng.uniform(0.5, 1.1)), (30, 30, 30), 2)  # fmt: skip
    read: list[int] = []
    real = recognise.run_all

    def spy(model: Path, outputs: tuple[str, ...], patches: np.ndarray) -> list[np.ndarray]:
        if model == recognise.INDEX:
            read.append(len(patches))
        return real(model, outputs, patches)

    monkeypatch.setattr(recognise, "run_all", spy)
    monkeypatch.setattr(recognise, "PRUNE", 1.01)  # every mark leads to frames
    monkeypatch.setattr(recognise, "KEEP", 0.0)  # every frame is moved and read again
    recognise.scan_once(image)
    guessed, live, views = 3 * recognise.MAX_GUESSED, recognise.MAX_LIVE, len(recognise.VIEWS)
    per_reading = 2 * (2 + recognise.ROUNDS)
    assert len(read) == per_reading
    first, again = read[: len(read) // 2], read[len(read) // 2 :]  # then again at the photo's index size
    assert first[:-1] == [guessed] + [live] * recognise.ROUNDS
    assert 0 < again[0] <= guessed and again[0] % 3 == 0 and again[1:-1] == [live] * recognise.ROUNDS
    for found in (first[-1], again[-1]):
        assert 0 < found <= views * live and found % views == 0
    once = sum(read)
    read.clear()
    recognise.scan_image(image)
    assert len(read) in (2 * per_reading, 3 * per_reading) and max(read) <= guessed
    assert sum(read) <= 3 * once * 1.1  # each reading bounded alike (the turned canvas holds a few more marks)


def test_an_index_is_seen_again_a_tenth_of_its_radius_off_each_way() -> None:
    # an index of radius 10 at (100, 50) on an upright card, and one at (300, 50) on a card whose top points right
    frames = np.array([[100.0, 50.0, 10.0, 0.0], [300.0, 50.0, 10.0, 90.0]])
    seen = views(frames)
    assert seen.shape == (len(VIEWS) * 2, 4)
    upright, right = seen[0::2], seen[1::2]  # view by view, each view all the frames
    # upright: across is +x, up is -y; each view 1.2 pixels off, radius and turn kept
    assert np.allclose(upright, [[101.2, 50, 10, 0], [98.8, 50, 10, 0], [100, 48.8, 10, 0], [100, 51.2, 10, 0]])
    # top to the right: across is +y, up is +x
    assert np.allclose(right, [[300, 51.2, 10, 90], [300, 48.8, 10, 90], [301.2, 50, 10, 90], [298.8, 50, 10, 90]])


def test_the_views_agree_on_a_card_only_where_every_view_reads_it() -> None:
    from bot.scanner.recognise import BACKGROUND, INDEX_VOTE, agreed

    readings = np.zeros((5, 2, BACKGROUND + 1), np.float32)
    readings[:, 0, 3] = 0.99  # the first index: every view reads card 3
    readings[:, 0, BACKGROUND] = 0.01
    readings[0, 1, 7] = 0.99  # the second: one view reads card 7, the four others "not an index"
    readings[0, 1, BACKGROUND] = 0.01
    readings[1:, 1, BACKGROUND] = 0.9
    readings[1:, 1, 7] = 0.1
    one = agreed(readings)
    assert one.shape == (2, BACKGROUND + 1) and np.allclose(one.sum(axis=1), 1.0, atol=1e-5)
    assert one[0, 3] > 0.98  # read alike in every view: as it was
    assert one[1].argmax() == BACKGROUND and one[1, 7] < INDEX_VOTE  # read once: no longer a card that votes
