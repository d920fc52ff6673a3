"""The index network's training patches (bot.scanner.frames): from each synthesised photo, the frames the scanner
itself guesses from its ink marks, and frames cut a little off around each visible index, each labelled from the
photo's truth with its card and the correction to the index's true frame, or "not an index".

    python -m training.train --stage index
"""

from __future__ import annotations

import math
from multiprocessing import Pool

import numpy as np

from bot.scanner.frames import correction_to, frame_patches, hypotheses
from bot.scanner.patches import marks, prepare
from training.synth import photo

BACKGROUND = 32
NEAR, OFF_SIZE, OFF_TURN = 0.6, 0.5, 35.0  # a guess this close to a visible index (radii, log size, degrees) reads it
FAR = 1.2  # a guess this far from every index (radii) is "not an index"; in between it is left out
HIDDEN = 0.6  # a guess on an index covered by more than 1 - HIDDEN is "not an index": a rank without its suit
JITTERED = 2  # cuts around each visible index, off by up to half a radius, 0.45 of log size and 20 degrees
BACKGROUND_SHARE = 2  # background guesses kept for each labelled on a card

Corner = tuple[int, float, float, float, float, bool, float]  # card, x, y, radius, degrees, whole, share uncovered
Labelled = tuple[np.ndarray, np.ndarray, np.ndarray]  # patches, card (BACKGROUND: none), correction


def _wrap(degrees: float) -> float:
    return (degrees + 180.0) % 360.0 - 180.0


def _turns(found: np.ndarray, corners: list[Corner], rng: np.random.Generator) -> np.ndarray:
    """The turn each mark is read at, as the first network would give it: near an index, the card's own turn, a few
    degrees off and now and then a step (22.5) off; elsewhere any."""
    out = np.empty(len(found))
    for i, (x, y) in enumerate(found[:, :2].tolist()):
        near = min(corners, key=lambda c: math.hypot(c[1] - x, c[2] - y))
        if math.hypot(near[1] - x, near[2] - y) < 1.5 * near[3]:
            step = float(rng.choice([-22.5, 22.5])) if rng.random() < 0.12 else 0.0
            out[i] = near[4] + rng.normal(0, 7) + step
        else:
            out[i] = rng.uniform(0, 360)
    return out


def photo_patches(seed: int, faces: list[np.ndarray], boxes: list[tuple[int, int, int, int]]) -> Labelled:
    """The labelled frames of one synthesised photo (the same for the same seed)."""
    rng = np.random.default_rng(seed)
    image, placed = photo(rng, faces, boxes, int(rng.integers(8, 33)))
    work = prepare(image)
    s = work.scale
    corners: list[Corner] = [
        (p.card, c.x / s, c.y / s, c.radius / s, c.angle, c.visible and c.share >= 0.999, c.share)
        for p in placed
        for c in p.corners
    ]
    found = marks(work)
    frames: list[tuple[float, float, float, float]] = []
    cards: list[int] = []
    fixes: list[np.ndarray] = []
    background: list[tuple[float, float, float, float]] = []
    for x, y, r, d in hypotheses(found, _turns(found, corners, rng)).tolist() if len(found) else []:
        near = min(corners, key=lambda c: math.hypot(c[1] - x, c[2] - y))
        apart = math.hypot(near[1] - x, near[2] - y) / near[3]
        if near[5] and apart < NEAR and abs(math.log(near[3] / r)) < OFF_SIZE and abs(_wrap(near[4] - d)) < OFF_TURN:
            frames.append((x, y, r, d))
            cards.append(near[0])
            fixes.append(correction_to((x, y, r, d), near[1:5]))
        elif apart > FAR or (near[6] < HIDDEN and apart < NEAR):
            background.append((x, y, r, d))
    for card, x, y, r, d, whole, _ in corners:
        for _ in range(JITTERED if whole else 0):
            dx, dy = rng.uniform(-0.5, 0.5, size=2) * r
            off = (x + dx, y + dy, r * math.exp(rng.uniform(-0.45, 0.45)), d + rng.uniform(-20, 20))
            frames.append(off)
            cards.append(card)
            fixes.append(correction_to(off, (x, y, r, d)))
    order = rng.permutation(len(background))[: max(BACKGROUND_SHARE * len(cards), 20)]
    frames += [background[i] for i in order]
    cards += [BACKGROUND] * len(order)
    fixes += [np.zeros(4, np.float32)] * len(order)
    x = frame_patches(work.planes, np.array(frames, np.float64).reshape(-1, 4))
    return x, np.array(cards, np.int64), np.array(fixes, np.float32).reshape(-1, 4)


def _one(task: tuple[int, int]) -> Labelled:
    from training.train import DESIGNS, faces_of  # the faces, rendered once per process

    seed, design_index = task
    return photo_patches(seed, *faces_of(DESIGNS[design_index]))


def index_dataset(tasks: list[tuple[int, int]], jobs: int) -> Labelled:
    with Pool(jobs) as pool:
        parts = pool.map(_one, tasks, chunksize=8)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]
