"""The index network's training patches (bot.scanner.frames): from each synthesised photo, the frames the scanner
itself guesses from its ink marks, and frames cut a little off around each visible index, each labelled from the
photo's truth with its card and the correction to the index's true frame, or "not an index".

    python -m training.train --stage index
"""

from __future__ import annotations

import hashlib
import math
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from bot.scanner.frames import correction_to, frame_patches, hypotheses
from bot.scanner.patches import WORK_SIDE, marks, prepare
from training.synth import Placed, spread

BACKGROUND = 32
NEAR, OFF_SIZE, OFF_TURN = 0.6, 0.5, 35.0  # a guess this close to a visible index (radii, log size, degrees) reads it
FAR = 1.2  # a guess this far from every index (radii) is "not an index"; in between it is left out
HIDDEN = 0.6  # a guess on an index covered by more than 1 - HIDDEN is "not an index": a rank without its suit
# With --index-covered: from 15 % covered (a part of an index may read as another card), every such guess kept
COVERED_HIDDEN = 0.85
# With --covered-cuts as well: COVERED_CUTS cuts about each index covered by 15-70 %, "not an index" too, where the
# index network's correction takes a frame (the guesses alone seldom land on a covered index's own frame); such indices
# are few, one or two a photo, so each gives more cuts than a whole one
COVERED_SHOWN = 0.3
COVERED_CUTS = 6
JITTERED = 2  # cuts around each visible index, off by up to half a radius, 0.45 of log size and 20 degrees
BACKGROUND_SHARE = 2  # background guesses kept for each labelled on a card
CHAT_QUALITY = 70  # a photo drawn smaller than the scanner reads is saved again at this quality, as a chat sends it

Corner = tuple[int, float, float, float, float, bool, float]  # card, x, y, radius, degrees, whole, share uncovered
Labelled = tuple[np.ndarray, np.ndarray, np.ndarray]  # patches, card (BACKGROUND: none), correction
Frame = tuple[float, float, float, float]  # centre x, centre y, radius, degrees


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


def work_corners(placed: list[Placed], scale: float, rank: bool = False) -> list[Corner]:
    """The photo's corner indices in work pixels (the photo's divided by ``scale``), each with whether it is wholly
    visible and how much of it shows; with ``rank``, that share is at most its rank's (a ten whose "1" is covered shows
    most of its index, and its "0" reads as another rank)."""
    return [
        (
            p.card,
            c.x / scale,
            c.y / scale,
            c.radius / scale,
            c.angle,
            c.visible and c.share >= 0.999,
            min(c.share, c.rank_share) if rank else c.share,
        )
        for p in placed
        for c in p.corners
    ]


def nearest(corners: list[Corner], x: float, y: float) -> tuple[Corner, float]:
    """The corner index whose centre is nearest (x, y), and how far, in its radii."""
    near = min(corners, key=lambda c: math.hypot(c[1] - x, c[2] - y))
    return near, math.hypot(near[1] - x, near[2] - y) / near[3]


def reads_whole(near: Corner, apart: float, radius: float, degrees: float) -> bool:
    """Whether a frame ``apart`` radii from ``near``, of that radius and turn, is a cut of that wholly visible index:
    NEAR it, within OFF_SIZE of its log size and OFF_TURN of its turn."""
    turned = abs(_wrap(near[4] - degrees))
    return near[5] and apart < NEAR and abs(math.log(near[3] / radius)) < OFF_SIZE and turned < OFF_TURN


def frame_labels(
    guesses: list[Frame], corners: list[Corner], hidden: float = HIDDEN
) -> tuple[list[Frame], list[int], list[np.ndarray], list[tuple[Frame, bool]]]:
    """The scanner's guessed frames (x, y, radius, degrees; work pixels) sorted by the photo's truth: those on a
    wholly visible index, with its card and the correction to its true frame; then, in the guesses' order, those that
    are "not an index", each with whether it lies on an index covered by more than 1 - ``hidden`` (else it is FAR
    from every index). A guess between, or on an index covered less, is left out: neither surely its card nor surely
    not."""
    on: list[Frame] = []
    cards: list[int] = []
    fixes: list[np.ndarray] = []
    not_index: list[tuple[Frame, bool]] = []
    for x, y, r, d in guesses:
        near, apart = nearest(corners, x, y)
        if reads_whole(near, apart, r, d):
            on.append((x, y, r, d))
            cards.append(near[0])
            fixes.append(correction_to((x, y, r, d), near[1:5]))
        elif near[6] < hidden and apart < NEAR:
            not_index.append(((x, y, r, d), True))
        elif apart > FAR:
            not_index.append(((x, y, r, d), False))
    return on, cards, fixes, not_index


def as_read(image: np.ndarray) -> np.ndarray:
    """A synthesised photo as the scanner gets it: one smaller than the scanner reads at saved again at CHAT_QUALITY
    (a chat's small photo has been compressed twice); ``prepare`` then takes it to the scanner's size."""
    if max(image.shape[:2]) >= WORK_SIDE:
        return image
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, CHAT_QUALITY])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def photo_patches(
    seed: int,
    faces: list[np.ndarray],
    boxes: list[tuple[int, int, int, int]],
    covered: bool = False,
    side: int = WORK_SIDE,
    covered_cuts: bool = False,
    rank_covered: bool = False,
) -> Labelled:
    """The labelled frames of one synthesised photo (the same for the same seed), drawn ``side`` pixels wide and read
    as the scanner reads it (``as_read``).
    With ``covered``, a guess on an index covered by more than 1 - COVERED_HIDDEN is "not an index" and every such
    guess is kept, apart from the background's sample (the network of the scanner's covered-index check learnt so:
    docs/scanner.md); with ``covered_cuts`` as well, so are the cuts of ``covered_frames``; with ``rank_covered``, an
    index counts as covered as much as its rank is (``work_corners``)."""
    rng = np.random.default_rng(seed)
    image, placed = spread(rng, faces, boxes, side)
    work = prepare(as_read(image))
    corners = work_corners(placed, work.scale, rank_covered)
    found = marks(work)
    guesses = hypotheses(found, _turns(found, corners, rng)).tolist() if len(found) else []
    frames, cards, fixes, not_index = frame_labels(guesses, corners, COVERED_HIDDEN if covered else HIDDEN)
    for card, x, y, r, d, whole, _ in corners:
        for _ in range(JITTERED if whole else 0):
            dx, dy = rng.uniform(-0.5, 0.5, size=2) * r
            off = jittered(x + dx, y + dy, r, d, rng)
            frames.append(off)
            cards.append(card)
            fixes.append(correction_to(off, (x, y, r, d)))
    background = [frame for frame, on_covered in not_index if not (covered and on_covered)]
    kept = [frame for frame, on_covered in not_index if covered and on_covered]
    if covered and covered_cuts:
        kept += covered_frames(corners, rng)
    order = rng.permutation(len(background))[: max(BACKGROUND_SHARE * len(cards), 20)]
    frames += [background[i] for i in order] + kept
    cards += [BACKGROUND] * (len(order) + len(kept))
    fixes += [np.zeros(4, np.float32)] * (len(order) + len(kept))
    x = frame_patches(work.planes, np.array(frames, np.float64).reshape(-1, 4))
    return x, np.array(cards, np.int64), np.array(fixes, np.float32).reshape(-1, 4)


def jittered(x: float, y: float, r: float, d: float, rng: np.random.Generator) -> Frame:
    """A cut at (x, y) of an index of radius ``r`` turned ``d``, off by up to 0.45 of log size and 20 degrees (the
    centre, off by up to half a radius, is drawn by the caller first)."""
    return x, y, r * math.exp(rng.uniform(-0.45, 0.45)), d + rng.uniform(-20, 20)


def covered_frames(corners: list[Corner], rng: np.random.Generator) -> list[Frame]:
    """COVERED_CUTS cuts about each partly covered index (COVERED_SHOWN to COVERED_HIDDEN of it shows), off as the
    whole indices' JITTERED are; a cut whose nearest index is another one, or NEAR radii or more from its own, is left
    out."""
    out: list[Frame] = []
    for corner in corners:
        _, x, y, r, d, _, share = corner
        if not COVERED_SHOWN <= share < COVERED_HIDDEN:
            continue
        for _ in range(COVERED_CUTS):
            dx, dy = rng.uniform(-0.5, 0.5, size=2) * r
            cx, cy = x + dx, y + dy
            near = min(corners, key=lambda c: math.hypot(c[1] - cx, c[2] - cy))
            if near is corner and math.hypot(dx, dy) < NEAR * r:
                out.append(jittered(cx, cy, r, d, rng))
    return out


def frames_folder() -> Path:
    """Where the frames of each photo are kept: named after the code that draws, reads and labels them, so that a
    change to the synthesiser, to the scanner's guesses or to these labels never reads frames made otherwise."""
    from bot.scanner import frames, patches
    from training import designs, synth

    digest = hashlib.sha256()
    for module in (frames, patches, synth, designs):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(Path(__file__).read_bytes())
    return designs.CACHE / f"frames-{digest.hexdigest()[:12]}"


def _one(task: tuple[int, int, bool, int, bool, bool]) -> Labelled:
    """The labelled frames of one photo, from the cache when it was drawn before (training.train._cached)."""
    from training.train import DESIGNS, _cached, faces_of  # the faces, rendered once per process

    seed, design_index, covered, side, covered_cuts, rank_covered = task
    faces = faces_of(DESIGNS[design_index])
    kind = "".join(flag for flag, on in (("c", covered), ("u", covered_cuts), ("r", rank_covered)) if on)
    name = f"{DESIGNS[design_index].name}-{seed}-{side}{'-' + kind if kind else ''}.npz"
    return _cached(
        frames_folder() / name,
        lambda: photo_patches(
            seed, *faces, covered=covered, side=side, covered_cuts=covered_cuts, rank_covered=rank_covered
        ),
    )


def photo_side(seed: int, sides: tuple[int, ...]) -> int:
    """The size a photo is drawn at, one of ``sides`` drawn from its seed: not from its place in the list, where the
    designs take turns and one design would always be drawn at one size."""
    return sides[int(np.random.default_rng([seed, 1]).integers(len(sides)))]


def index_dataset(
    tasks: list[tuple[int, int]],
    jobs: int,
    covered: bool = False,
    sides: tuple[int, ...] = (WORK_SIDE,),
    covered_cuts: bool = False,
    rank_covered: bool = False,
) -> Labelled:
    with Pool(jobs) as pool:
        work = [(seed, design, covered, photo_side(seed, sides), covered_cuts, rank_covered) for seed, design in tasks]
        parts = pool.map(_one, work, chunksize=8)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]
