"""Reading a card's whole corner index in its own frame: its centre, its size and the way the card points.

An ink mark is a rank, a suit, or (blurred or small) a whole index; from each mark and the turn the first network
reads, three guesses of the index's frame are cut (``hypotheses``). The index network (``index.onnx``) reads each
cut: which card, or "not a card index", and how far the true frame is from the cut one. A cut read as a card is moved
by that correction and read again (``refined``): from a patch cut at the index's own centre, size and turn, a card
of a design never trained on is read right far more often than from a glyph cut at that glyph's size (docs/scanner.md,
"Reading the index in its frame").

Training cuts its patches with these same functions (training/frames.py).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .patches import Bytes, Float, cut, stacked

FRAME_WIDE, FRAME_HIGH = 48, 64
# The patch spans FRAME_SPAN index radii (half the index's diagonal) across, and 4/3 of that high: the whole index
# with a margin, whichever glyph the mark was.
FRAME_SPAN = 2.0
# Where the index's centre is from a mark, along the card's up direction, and the index's radius, both in mark sizes
# (measured on the marks of 80 photos of the trained designs, the medians): the mark is the rank (the centre below
# it), the suit (above it), or the whole index.
GUESSES: tuple[tuple[float, float], ...] = ((-0.4, 0.95), (0.88, 1.5), (0.0, 0.65))
WHOLE = 2  # GUESSES[WHOLE]: the mark as the whole index
# The network's correction is in radii of the cut frame (across and up), the log of the radius, and 20-degree steps
# of the turn; it is clipped to these, so a wild reading cannot send a cut off the photo.
SHIFT_LIMIT, SCALE_LIMIT, TURN_LIMIT = 1.0, 0.7, 1.5
TURN_STEP = 20.0
# Two frames whose centres lie within SAME_INDEX of the smaller radius are one index read twice (``distinct``).
SAME_INDEX = 0.5
# An index found is read again in four frames about its own, moved across and up by a tenth of its radius (as
# corrections: across, up, log radius, turn): a glyph read as a card in one frame is rarely read the same in the
# four others, where a true index is.
VIEWS: tuple[tuple[float, float, float, float], ...] = (
    (0.12, 0.0, 0.0, 0.0), (-0.12, 0.0, 0.0, 0.0), (0.0, 0.12, 0.0, 0.0), (0.0, -0.12, 0.0, 0.0),
)

Frames = npt.NDArray[np.float64]  # (n, 4): centre x, centre y, radius (work pixels), degrees clockwise from up


def hypotheses(
    found: Float, degrees: npt.NDArray[np.float64], radius: npt.NDArray[np.float64] | None = None
) -> Frames:
    """Three frames for each mark (x, y, size) read at ``degrees``: as its rank, as its suit, as the whole index. With
    ``radius`` (one for each mark), each is the frame of an index of that radius whatever the mark's size (the mark
    placed in it alike)."""
    if len(found) == 0:
        return np.zeros((0, 4))
    a = np.radians(degrees)
    up_x, up_y = np.sin(a), -np.cos(a)  # the card's top, in photo pixels
    x, y, size = (found[:, i].astype(np.float64) for i in range(3))
    out = []
    for up, guess in GUESSES:
        s = size if radius is None else radius / guess
        out.append(np.column_stack([x + up * s * up_x, y + up * s * up_y, guess * s, degrees]))
    return np.stack(out, axis=1).reshape(-1, 4)


def frame_patches(planes: Bytes, frames: Frames) -> Bytes:
    """Each frame cut upright from the work planes: (frames, 2, FRAME_HIGH, FRAME_WIDE)."""
    if len(frames) == 0:
        return np.zeros((0, 2, FRAME_HIGH, FRAME_WIDE), np.uint8)
    return stacked([cut(planes, float(x), float(y), float(r), float(d), FRAME_WIDE, FRAME_HIGH, FRAME_SPAN)
                    for x, y, r, d in frames])  # fmt: skip


def corrected(frames: Frames, correction: Float) -> Frames:
    """The frames moved by the network's corrections (across and up in radii, log radius, turn in TURN_STEPs)."""
    c = correction.astype(np.float64)
    across = np.clip(c[:, 0], -SHIFT_LIMIT, SHIFT_LIMIT) * frames[:, 2]
    up = np.clip(c[:, 1], -SHIFT_LIMIT, SHIFT_LIMIT) * frames[:, 2]
    a = np.radians(frames[:, 3])
    x = frames[:, 0] + across * np.cos(a) + up * np.sin(a)
    y = frames[:, 1] + across * np.sin(a) - up * np.cos(a)
    radius = frames[:, 2] * np.exp(np.clip(c[:, 2], -SCALE_LIMIT, SCALE_LIMIT))
    degrees = frames[:, 3] + TURN_STEP * np.clip(c[:, 3], -TURN_LIMIT, TURN_LIMIT)
    return np.column_stack([x, y, radius, degrees])


def views(frames: Frames) -> Frames:
    """Each frame moved by each of the VIEWS: (len(VIEWS) * frames, 4), view by view."""
    return np.concatenate([corrected(frames, np.tile(np.asarray(v, np.float32), (len(frames), 1))) for v in VIEWS])


# The court network's window (``court_windows``): COURT_WIDE pixels square over COURT_SPAN radii, its centre moved
# from the index's by COURT_SHIFT (across and up, radii) into the card, so that it holds the index and what the card
# shows beside and under it: a court card's picture, a number card's white or its pips.
COURT_WIDE = 48
COURT_SPAN = 5.0
COURT_SHIFT = (0.8, -0.8)


def court_windows(planes: Bytes, frames: Frames) -> Bytes:
    """The court network's window about each index frame: (frames, 2, COURT_WIDE, COURT_WIDE), grey then red."""
    if len(frames) == 0:
        return np.zeros((0, 2, COURT_WIDE, COURT_WIDE), np.uint8)
    shift = np.tile(np.asarray((*COURT_SHIFT, 0.0, 0.0), np.float32), (len(frames), 1))
    return stacked([cut(planes, float(x), float(y), float(r), float(d), COURT_WIDE, COURT_WIDE, COURT_SPAN)
                    for x, y, r, d in corrected(frames, shift)])  # fmt: skip


def correction_to(frame: tuple[float, float, float, float], truth: tuple[float, float, float, float]) -> Float:
    """What the network should answer for a cut at ``frame`` of the index whose true frame is ``truth``
    (training's target; ``corrected`` undoes it)."""
    x, y, r, d = frame
    tx, ty, tr, td = truth
    a = math.radians(d)
    dx, dy = tx - x, ty - y
    across = (dx * math.cos(a) + dy * math.sin(a)) / r
    up = (dx * math.sin(a) - dy * math.cos(a)) / r
    turn = ((td - d + 180.0) % 360.0 - 180.0) / TURN_STEP
    return np.array([across, up, math.log(tr / r), turn], np.float32)


def distinct(frames: Frames, confidence: Float) -> npt.NDArray[np.int64]:
    """The frames that are each a different index: the most confident first, any other whose centre is within half
    a radius of one kept is the same index read again."""
    kept: list[int] = []
    for i in np.argsort(-confidence, kind="stable").tolist():
        x, y, r = frames[i, :3]
        if all(math.hypot(x - frames[j, 0], y - frames[j, 1]) > SAME_INDEX * min(r, frames[j, 2]) for j in kept):
            kept.append(i)
    return np.array(kept, np.int64)
