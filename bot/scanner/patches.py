"""From a photo to the patches the networks read: marks of ink that may be a rank or suit of a card's corner index,
each cut unturned as a small two-plane patch (grey and red) wide enough to hold the whole index whichever way the
card points, from which the first network reads the card's turn; then cut again, upright at that turn and finer,
for the reader (``read_cut``).

Training uses exactly these functions, so the networks learn on the patches they will be shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

WORK_SIDE = 1024  # the photo is read at this size (longer side); positions are given back in the photo's pixels
ANGLES = 16  # the turn is read in steps of 22.5 degrees
PATCH = 32
# A patch covers this many times the mark's size, centred on it: an index is a rank over its suit, so the other
# glyph is at most about 1.3 sizes away in any direction, and the patch holds it however the card is turned.
SPAN = 3.6
# The reader sees the mark again, cut straight from the photo turned upright at the turn the first network reads:
# READ_WIDE pixels over READ_SPAN mark sizes, so an index glyph is read at about its size in the work photo (13 px for
# most) rather than the 9 px it has in the turn's patch; READ_HIGH pixels high, so the other glyph of the index (up
# to 2 sizes above a suit, whose size is the smaller, or below a rank) is whole in it.
READ_WIDE, READ_HIGH = 48, 64
READ_SPAN = 3.6
MIN_MARK, MAX_MARK = 6, 48  # marks (in work pixels) smaller or larger than an index glyph can be
MAX_MARKS = 1500  # a photo of 32 cards has a few hundred; past this the photo is clutter, read the largest
# A straight run of ink this long (work pixels) is the edge or the shadow of a card, not a glyph: an index's strokes
# are shorter (most glyphs are 10-16 px high). Cleared, it no longer joins the index beside it into one large piece.
EDGE = 15
# On a blurred photo a glyph is joined to the next card's shadow by faint ink at the first threshold; a stricter one
# (block and offset of the adaptive threshold) keeps only the darker cores of the ink, where the glyph stands apart.
# Those cores are thinner than the glyphs the reader learnt on, so their readings are trusted less (recognise.decide).
STRICT_BLOCK, STRICT_OFFSET = 15, 20
CLEARED_SPLIT = 3  # the split of the pieces that stand apart once straight runs of ink are cleared
STRICT_SPLIT = 4  # the split of the ink (the last column of a mark) that the strict threshold finds

Float = npt.NDArray[np.float32]
Bytes = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Work:
    """The photo at work size: grey and red planes side by side (H x W x 2), and the factor back to the photo."""

    planes: Bytes
    scale: float

    @property
    def grey(self) -> Bytes:
        return np.ascontiguousarray(self.planes[:, :, 0])


def prepare(image: Bytes, side: int = WORK_SIDE) -> Work:
    """The picture's planes at ``side`` pixels (longer side), and the photo's pixels per plane pixel."""
    image, factor = scaled(image, side)
    return Work(planes_of(image), 1.0 / factor)


def scaled(image: Bytes, side: int = WORK_SIDE) -> tuple[Bytes, float]:
    """The picture at ``side`` pixels (longer side), and by how much it was scaled."""
    h, w = image.shape[:2]
    # a small picture is enlarged too: the marks then have the sizes the networks learnt on
    factor = side / max(h, w)
    if factor != 1.0:
        how = cv2.INTER_AREA if factor < 1.0 else cv2.INTER_LINEAR
        image = np.asarray(cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=how), np.uint8)
    return image, factor


def planes_of(image: Bytes) -> Bytes:
    """A BGR picture's grey and red planes (H x W x 2), unscaled."""
    grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    b, g, r = (image[:, :, i].astype(np.int16) for i in range(3))
    red = np.clip(r - np.maximum(g, b), 0, 255).astype(np.uint8)
    return np.ascontiguousarray(np.dstack([grey, red]))


def _components(ink: Bytes, split: int) -> Float:
    _, _, stats, centroids = cv2.connectedComponentsWithStats(ink)
    return _glyph_sized(stats, centroids, split)


def _glyph_sized(pieces: npt.ArrayLike, centres: npt.ArrayLike, split: int) -> Float:
    """The marks (x, y, size, split) of the connected pieces (OpenCV's stats and centroids) that can be an index
    glyph, found by the ``split``-th split of the ink."""
    stats, centroids = np.asarray(pieces), np.asarray(centres)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    size = np.maximum(w, h)
    # a filled suit (a blurred diamond or heart) covers up to 0.9 of its box; a larger share is a blob
    keep = (size >= MIN_MARK) & (size <= MAX_MARK) & (area >= 15) & (area <= 0.9 * w * h)
    return np.column_stack([centroids[1:][keep], size[keep], np.full(int(keep.sum()), split)]).astype(np.float32)


def _new(found: Float, kept: Float) -> Float:
    """The marks of ``found`` that no mark of ``kept`` already holds (their centres apart by 0.3 of its size)."""
    if len(found) == 0 or len(kept) == 0:
        return found
    gap = np.hypot(found[:, None, 0] - kept[None, :, 0], found[:, None, 1] - kept[None, :, 1])
    return np.asarray(found[(gap > 0.3 * kept[None, :, 2]).all(axis=1)], np.float32)


def marks(work: Work, splits: int = 4) -> Float:
    """Centres, sizes and the split that found them (x, y, size, split 1-4) of the ink marks that could be a rank or
    suit of an index, from the ink split four ways (training draws its marks from the first ``splits=2``)."""
    ink = np.asarray(
        cv2.adaptiveThreshold(work.grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 8), np.uint8
    )
    # the thickened ink joins the 1 and 0 of a 10 ...
    found = _components(np.asarray(cv2.dilate(ink, np.ones((2, 2), np.uint8)), np.uint8), 1)
    # ... but also an index to the edge of its card, or of the card under it: the ink as it is finds those glyphs
    # again (a mark both find is kept once) ...
    _, piece, stats, centroids = cv2.connectedComponentsWithStats(ink)
    found = np.vstack([found, _new(_glyph_sized(stats, centroids, 2), found)])
    # ... and in a fan, each index touches the edge (and shadow) of the next card, in one piece too large for a mark:
    # with the straight runs of ink cleared from those pieces alone, the glyph is a piece of its own
    large = np.flatnonzero(np.maximum(stats[1:, 2], stats[1:, 3]) > MAX_MARK) + 1 if splits > 2 else np.zeros(0, int)
    if len(large):
        within = np.where(np.isin(piece, large), ink, 0).astype(np.uint8)
        runs = cv2.HoughLinesP(within, 1, np.pi / 180, threshold=EDGE, minLineLength=EDGE, maxLineGap=2)
        for x1, y1, x2, y2 in np.asarray(runs if runs is not None else []).reshape(-1, 4).tolist():
            cv2.line(within, (x1, y1), (x2, y2), 0, 3)
        found = np.vstack([found, _new(_components(within, CLEARED_SPLIT), found)])
    # ... and on a blurred photo a glyph joined to the next card's shadow by faint ink stands apart in the darker cores
    if splits > 3:
        cores = cv2.adaptiveThreshold(
            work.grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, STRICT_BLOCK, STRICT_OFFSET
        )
        found = np.vstack([found, _new(_components(np.asarray(cores, np.uint8), STRICT_SPLIT), found)])
    if len(found) > MAX_MARKS:
        found = found[np.argsort(-found[:, 2])[:MAX_MARKS]]
    return found


def patches(work: Work, found: Float) -> Bytes:
    """Every mark cut upright, centred on it, SPAN mark sizes wide: (marks, 2, PATCH, PATCH), grey then red."""
    out = np.empty((len(found), PATCH, PATCH, 2), np.uint8)
    for i, (x, y, size) in enumerate(found[:, :3]):
        zoom = PATCH / (SPAN * float(size))
        m = np.array([[zoom, 0.0, PATCH / 2 - zoom * x], [0.0, zoom, PATCH / 2 - zoom * y]], np.float64)
        out[i] = cv2.warpAffine(
            work.planes, m, (PATCH, PATCH), flags=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2))


def tensor(stack: Bytes) -> Float:
    """The network's input from patches: the grey plane brought to zero mean and unit contrast (light and camera
    vary), the red plane scaled as it is (red ink is what tells hearts and diamonds from spades and clubs)."""
    x = stack.astype(np.float32)
    grey = x[:, :1]
    mean = grey.mean(axis=(2, 3), keepdims=True)
    std = grey.std(axis=(2, 3), keepdims=True)
    x[:, :1] = (grey - mean) / (std + 8.0)
    x[:, 1:] = x[:, 1:] / 64.0
    return x


def cut(
    planes: Bytes, x: float, y: float, size: float, degrees: float, wide: int, high: int, span: float
) -> Bytes:
    """One patch (high x wide x planes) centred on (x, y), ``span`` sizes wide, turned so that a card whose top
    points ``degrees`` clockwise from up stands upright. The reader's patches are cut with it from the photo, and in
    training from a larger unturned patch (training.train), so both see the same geometry."""
    zoom = wide / (span * size)
    m = cv2.getRotationMatrix2D((x, y), degrees, zoom)  # counter-clockwise about the mark: the card's top goes up
    m[0, 2] += wide / 2 - x
    m[1, 2] += high / 2 - y
    flags = cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(planes, m, (wide, high), flags=flags, borderMode=cv2.BORDER_REPLICATE), np.uint8)


def read_cut(planes: Bytes, x: float, y: float, size: float, degrees: float) -> Bytes:
    """The reader's patch of one mark (READ_HIGH x READ_WIDE x planes), upright at the card's turn."""
    return cut(planes, x, y, size, degrees, READ_WIDE, READ_HIGH, READ_SPAN)


def stacked(cuts: list[Bytes]) -> Bytes:
    """Patches cut one by one (each high x wide x planes) as the networks take them: (patches, planes, high, wide)."""
    return np.ascontiguousarray(np.stack(cuts).transpose(0, 3, 1, 2))


def read_patches(work: Work, found: Float, degrees: Float) -> Bytes:
    """Every mark cut upright at its turn for the reader: (marks, 2, READ_HIGH, READ_WIDE), grey then red."""
    if len(found) == 0:
        return np.zeros((0, 2, READ_HIGH, READ_WIDE), np.uint8)
    return stacked([read_cut(work.planes, float(x), float(y), float(size), float(d))
                    for (x, y, size), d in zip(found[:, :3], degrees, strict=True)])  # fmt: skip
