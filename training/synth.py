"""Synthetic photos of won cards spread on a table, with their ground truth.

Card faces (training/designs.py) are laid out in rows and fans, each card a little turned from the last so that its
corner index stays visible as people spread them; whole groups turned any way, a perspective for the camera, shadows,
uneven light, a colour cast, blur, noise and JPEG artefacts. The truth says, for each card, where its two corner
indices are and whether they can be seen (no later card covers them).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from training.designs import Box, Design, design_index_boxes, render_design

RANK_ROWS = (0.04, 0.15, 0.26, 0.37)  # the rank's rows of an index box: its upper part, the suit under it


@dataclass
class Corner:
    x: float
    y: float
    angle: float  # degrees: the direction of the card's top, 0 = up in the photo, clockwise
    visible: bool
    radius: float  # half the index's diagonal, photo pixels
    share: float = 1.0  # how much of the index no later card covers (of a 7 x 7 grid of points on its box)
    rank_share: float = 1.0  # how much of its rank, the box's upper part, no later card covers (7 x 4 points)


@dataclass
class Placed:
    card: int
    corners: list[Corner] = field(default_factory=list)  # top-left index, then the bottom-right one (upside down)
    homography: np.ndarray = field(default_factory=lambda: np.eye(3))
    box: Box = (0, 0, 0, 0)
    size: tuple[int, int] = (0, 0)  # face width, height

    @property
    def seen(self) -> bool:
        return any(c.visible for c in self.corners)


def nearest_corner(placed: Sequence[Placed], x: float, y: float) -> tuple[Placed, Corner] | None:
    """The card and the corner index (seen or not) whose centre lies nearest the photo point (x, y); None on an empty
    table. To say what a card the scanner invented was read on."""
    corners = [(p, c) for p in placed for c in p.corners]
    return min(corners, key=lambda pc: (pc[1].x - x) ** 2 + (pc[1].y - y) ** 2, default=None)


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.integers(4)
    base = rng.integers(20, 230, size=3).astype(np.float32)
    small = rng.normal(0, 1, size=(rng.integers(3, 12), rng.integers(3, 12), 3)).astype(np.float32)
    image = base + cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * rng.uniform(5, 40)
    if kind == 1:  # wood: stripes along one direction
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        theta = rng.uniform(0, math.pi)
        phase = (xx * math.cos(theta) + yy * math.sin(theta)) / rng.uniform(6, 30)
        image += (np.sin(phase + np.sin(phase / 7) * 3) * rng.uniform(8, 30))[..., None]
    elif kind == 2:  # cloth: fine grain
        image += rng.normal(0, rng.uniform(4, 15), size=(h, w, 1)).astype(np.float32)
    elif kind == 3:  # clutter: lines and blobs that are not cards
        for _ in range(rng.integers(3, 15)):
            colour = tuple(float(c) for c in rng.integers(0, 255, size=3))
            p1 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                p2 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.line(image, p1, p2, colour, int(rng.integers(1, 6)))
            else:
                axes = (int(rng.integers(3, 40)), int(rng.integers(3, 40)))
                cv2.ellipse(image, p1, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    return np.clip(image, 0, 255)


def _perspective(rng: np.random.Generator, w: int, h: int, amount: float) -> np.ndarray:
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-amount, amount, size=(4, 2)).astype(np.float32) * np.float32([w, h])
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _apply(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    v = m @ np.array([x, y, 1.0])
    return float(v[0] / v[2]), float(v[1] / v[2])


def _index_points(
    p: Placed, steps: Sequence[float], flip: bool, rows: Sequence[float] | None = None
) -> list[tuple[float, float]]:
    """A grid of points (at ``steps`` of its width, and of its height or at ``rows`` of it) on the card's index box, in
    face pixels; ``flip``: on the other index, upside down in the opposite corner."""
    x0, y0, x1, y1 = p.box
    fw, fh = p.size
    pts = [(x0 + (x1 - x0) * u, y0 + (y1 - y0) * v) for u in steps for v in (steps if rows is None else rows)]
    return [(fw - x, fh - y) for x, y in pts] if flip else pts


def index_shares(p: Placed, labels: np.ndarray, k: int, flip: bool) -> tuple[float, float]:
    """How much of card ``k``'s index (the other one with ``flip``) shows where ``labels`` says which card each photo
    pixel shows: of a 7 x 7 grid on its box, and of 7 x 4 on its rank, the box's upper part (RANK_ROWS)."""
    steps = np.linspace(0.05, 0.95, 7)
    grid = [_apply(p.homography, x, y) for x, y in _index_points(p, steps, flip)]
    rank = [_apply(p.homography, x, y) for x, y in _index_points(p, steps, flip, RANK_ROWS)]
    return _uncovered(grid, labels, k), _uncovered(rank, labels, k)


def _uncovered(points: list[tuple[float, float]], labels: np.ndarray, k: int) -> float:
    """The share of the photo points that show card ``k`` (within the photo, no later card over them)."""
    h, w = labels.shape
    return sum(1 for x, y in points if 0 <= x < w and 0 <= y < h and labels[int(y), int(x)] == k) / len(points)


def layout(rng: np.random.Generator, n: int, w: int, h: int, card_h: float) -> list[np.ndarray]:
    """Affine placements (face pixels of a card card_h tall, centred on 0,0 -> photo) of n cards in 1-3 groups."""
    groups = 1 if n < 10 else int(rng.integers(1, 4))
    cuts = sorted(rng.choice(np.arange(1, n), size=groups - 1, replace=False).tolist()) if groups > 1 else []
    sizes = np.diff([0, *cuts, n]).tolist()
    out: list[np.ndarray] = []
    for count in sizes:
        card_w = card_h / 1.45
        step = card_w * rng.uniform(0.17, 0.38)
        fan = rng.uniform(0, 9) if rng.random() < 0.6 else 0.0  # degrees between neighbours
        turn = rng.uniform(0, 360)
        span = step * (count - 1)
        cx, cy = rng.uniform(0.3 * w, 0.7 * w), rng.uniform(0.3 * h, 0.7 * h)
        for i in range(count):
            local = -span / 2 + i * step
            a = math.radians(turn + fan * (i - (count - 1) / 2) + rng.normal(0, 1.5))
            g = math.radians(turn)
            x = cx + local * math.cos(g) + rng.normal(0, 2)
            y = cy + local * math.sin(g) + abs(i - (count - 1) / 2) * fan * 0.6 + rng.normal(0, 2)
            m = np.array([[math.cos(a), -math.sin(a), x], [math.sin(a), math.cos(a), y], [0, 0, 1]])
            if rng.random() < 0.08:  # a card put down the other way round
                m = m @ np.diag([-1.0, -1.0, 1.0])
            out.append(m)
    return out


def photo(
    rng: np.random.Generator, faces: list[np.ndarray], boxes: list[Box], n: int, size: tuple[int, int] = (1024, 768)
) -> tuple[np.ndarray, list[Placed]]:
    """A JPEG-degraded BGR photo of n distinct cards of one design, and where each card is."""
    w, h = size if rng.random() < 0.7 else size[::-1]
    canvas = _background(rng, h, w)
    labels = np.full((h, w), -1, np.int16)
    cards = rng.choice(32, size=n, replace=False)
    card_h = rng.uniform(150, 260) * (0.8 if n > 20 else 1.0) * max(size) / 1024
    camera = _perspective(rng, w, h, rng.uniform(0, 0.08))
    placed: list[Placed] = []
    shadow_dx, shadow_dy = rng.uniform(-6, 6, size=2)
    for k, (card, m) in enumerate(zip(cards, layout(rng, n, w, h, card_h), strict=True)):
        face = faces[card]
        fh, fw = face.shape[:2]
        s = card_h / fh
        to_centre = np.array([[s, 0, -s * fw / 2], [0, s, -s * fh / 2], [0, 0, 1]])
        hom = camera @ m @ to_centre
        warped = cv2.warpPerspective(face, hom, (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3].astype(np.float32) / 255
        shade = cv2.GaussianBlur(alpha, (0, 0), rng.uniform(2, 6))
        shade = cv2.warpAffine(shade, np.float32([[1, 0, shadow_dx], [0, 1, shadow_dy]]), (w, h))
        canvas *= (1 - 0.45 * shade)[..., None]
        canvas = canvas * (1 - alpha[..., None]) + warped[:, :, :3] * alpha[..., None]
        labels[alpha > 0.5] = k
        placed.append(Placed(int(card), homography=hom, box=boxes[card], size=(fw, fh)))
    for k, p in enumerate(placed):
        for flip in (False, True):
            pts = _index_points(p, (0.1, 0.5, 0.9), flip)
            mapped = [_apply(p.homography, x, y) for x, y in pts]
            visible = _uncovered(mapped, labels, k) == 1.0
            cx, cy = mapped[4]
            # the card's top direction at the index: from the centre point to one a little above it on the face
            ux, uy = pts[4][0], pts[4][1] + (10 if flip else -10)
            tx, ty = _apply(p.homography, ux, uy)
            angle = math.degrees(math.atan2(tx - cx, -(ty - cy))) % 360
            radius = 0.625 * math.dist(mapped[0], mapped[8])
            p.corners.append(Corner(cx, cy, angle, visible, radius, *index_shares(p, labels, k, flip)))
    # light: a slope across the table, a colour cast, then the camera's blur, noise and compression
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = rng.uniform(0, 2 * math.pi)
    slope = (xx * math.cos(theta) + yy * math.sin(theta)) / max(w, h)
    light = rng.uniform(0.55, 1.0) + rng.uniform(0, 0.45) * slope
    canvas = canvas * light[..., None] * rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    sigma = rng.uniform(0, 1.6)
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    canvas += rng.normal(0, rng.uniform(0, 8), size=canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), placed


def spread(
    rng: np.random.Generator, faces: list[np.ndarray], boxes: list[Box], side: int = 1024
) -> tuple[np.ndarray, list[Placed]]:
    """A photo of 8 to 32 cards of one design, ``side`` pixels on its longer side, drawn from ``rng``: every photo of
    training and of the bench is drawn so."""
    return photo(rng, faces, boxes, int(rng.integers(8, 33)), (side, side * 3 // 4))


def bench_seed(seed: int, k: int) -> int:
    """The seed photo ``k`` of a bench set is drawn from (``seeded_photos``)."""
    return seed * 7919 + k


def seeded_photos(
    designs: Sequence[Design], photos: int, seed: int, side: int = 1024
) -> Iterator[tuple[Design, np.ndarray, list[Placed]]]:
    """Photo k of ``photos``: of the k-th design in turn, 8 to 32 cards, drawn from seed * 7919 + k at ``side``
    pixels (the longer side). The bench's photos, and those the scanner is diagnosed and calibrated on. The designs
    are rendered at the call, before the first photo is drawn."""
    decks = [(design, faces, design_index_boxes(faces)) for design in designs for faces in [render_design(design)]]

    def drawn(k: int) -> tuple[Design, np.ndarray, list[Placed]]:
        design, faces, boxes = decks[k % len(decks)]
        image, placed = spread(np.random.default_rng(bench_seed(seed, k)), faces, boxes, side)
        return design, image, placed

    return map(drawn, range(photos))
