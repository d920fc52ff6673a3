"""From a photo to the patches the model reads: marks of ink that may be a card's corner index, each seen turned
every way (a card on the table may point anywhere), as HOG features plus where the red is.

Training (training/train.py) uses exactly these functions, so the model learns on the patches it will be shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

WORK_SIDE = 1024  # the photo is read at this size (longer side); positions are given back in the photo's pixels
ANGLES = 16  # turns tried per mark: every 22.5 degrees
PATCH = 32
SPAN = 2.4  # a patch covers this many times the mark's size, from a little above the mark to the suit under a rank
DROP = 0.4  # the patch is centred this far (in mark sizes) below the mark, where the suit of an index is
MIN_MARK, MAX_MARK = 6, 48  # marks (in work pixels) smaller or larger than an index glyph can be
MAX_MARKS = 1500  # a photo of 32 cards has a few hundred; past this the photo is clutter, read the largest

Float = npt.NDArray[np.float32]
CELL, BINS = 4, 9
FEATURES = (PATCH // CELL) ** 2 * BINS + 16 + 64


@dataclass(frozen=True)
class Work:
    """The photo at work size: grey, how red each pixel is, and the factor back to the photo's pixels."""

    grey: npt.NDArray[np.uint8]
    red: npt.NDArray[np.uint8]
    scale: float


def prepare(image: npt.NDArray[np.uint8]) -> Work:
    h, w = image.shape[:2]
    factor = min(1.0, WORK_SIDE / max(h, w))
    if factor < 1.0:
        image = np.asarray(
            cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA), np.uint8
        )
    grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    b, g, r = (image[:, :, i].astype(np.int16) for i in range(3))
    red = np.clip(r - np.maximum(g, b), 0, 255).astype(np.uint8)
    return Work(grey, red, 1.0 / factor)


def marks(work: Work) -> Float:
    """Centres and sizes (x, y, size) of the ink marks that could be a rank or suit of an index."""
    ink = cv2.adaptiveThreshold(work.grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 8)
    ink = cv2.dilate(ink, np.ones((2, 2), np.uint8))  # joins the 1 and 0 of a 10
    _, _, stats, centroids = cv2.connectedComponentsWithStats(ink)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    size = np.maximum(w, h)
    keep = (size >= MIN_MARK) & (size <= MAX_MARK) & (area >= 15) & (area <= 0.8 * w * h)
    found = np.column_stack([centroids[1:][keep], size[keep]]).astype(np.float32)
    if len(found) > MAX_MARKS:
        found = found[np.argsort(-found[:, 2])[:MAX_MARKS]]
    return found


def _patch_stack(plane: npt.NDArray[np.uint8], found: Float, side: int) -> npt.NDArray[np.uint8]:
    """Every mark at every turn, each a side x side patch, stacked in rows (mark-major)."""
    out = np.empty((len(found) * ANGLES * side, side), np.uint8)
    row = 0
    for x, y, size in found:
        zoom = side / (SPAN * float(size))
        for a in range(ANGLES):
            m = cv2.getRotationMatrix2D((float(x), float(y)), a * 360.0 / ANGLES, zoom)
            m[0, 2] += side / 2 - x
            m[1, 2] += side / 2 - y - DROP * float(size) * zoom
            out[row : row + side] = cv2.warpAffine(
                plane, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            row += side
    return out


def _gradient_histograms(stack: npt.NDArray[np.uint8]) -> Float:
    """Histograms of gradient directions per 8x8 cell (HOG without its block overlap), unit length per patch."""
    p = stack.reshape(-1, PATCH, PATCH).astype(np.float32)
    n = len(p)
    gx = np.zeros_like(p)
    gy = np.zeros_like(p)
    gx[:, :, 1:-1] = p[:, :, 2:] - p[:, :, :-2]
    gy[:, 1:-1, :] = p[:, 2:, :] - p[:, :-2, :]
    magnitude = np.sqrt(gx * gx + gy * gy)
    direction = (np.degrees(np.arctan2(gy, gx)) % 180.0) * (BINS / 180.0)
    bins = np.minimum(direction.astype(np.int64), BINS - 1)
    cells = PATCH // CELL
    cell_of = (np.arange(PATCH) // CELL)[:, None] * cells + (np.arange(PATCH) // CELL)[None, :]
    index = (np.arange(n)[:, None, None] * cells * cells + cell_of[None]) * BINS + bins
    hist = np.bincount(index.ravel(), weights=magnitude.ravel(), minlength=n * cells * cells * BINS)
    hist = np.sqrt(hist.reshape(n, -1).astype(np.float32))
    norm: Float = hist / (np.linalg.norm(hist, axis=1, keepdims=True) + 1e-3)
    return norm


def features(work: Work, found: Float) -> Float:
    """One row per (mark, turn): gradient histograms of the grey patch, a coarse 8x8 grey and a 4x4 map of red."""
    if len(found) == 0:
        return np.zeros((0, FEATURES), np.float32)
    grey = _patch_stack(work.grey, found, PATCH)
    hog = _gradient_histograms(grey)
    coarse = cv2.resize(grey, (8, len(found) * ANGLES * 8), interpolation=cv2.INTER_AREA).reshape(-1, 64)
    coarse = coarse.astype(np.float32)
    coarse = (coarse - coarse.mean(axis=1, keepdims=True)) / (coarse.std(axis=1, keepdims=True) + 8.0)
    red = _patch_stack(work.red, found, 8).reshape(-1, 4, 2, 4, 2).astype(np.float32).mean(axis=(2, 4)) / 255
    return np.hstack([hog, coarse, red.reshape(-1, 16)]).astype(np.float32)
