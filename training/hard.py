"""The check's hard cases: every card the scanner names under confidence 1.0 on synthesised photos, with the cuts the
check of covered indices reads for it (bot.scanner.recognise.check_cuts), whether the card is in the photo, and each
cut labelled from the photo's truth as the index network's frames are (training.frames). The check is asked about
one card a photo, and the cards it must take back are a few in a thousand of those: drawn from many photos, they
are what the check's network is carried on over (``--stage index --hard``), and what a network for it is measured on
without reading the photos again.

    python -m training.hard --set held-out --seeds 587,593 --photos 40 [--side 800] --out DIR   # the bench's photos
    python -m training.hard --measure DIR/*.npz [--network NET] [--at 0.3,0.7,0.1]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from bot.scanner import recognise
from bot.scanner.frames import correction_to, frame_patches
from bot.scanner.patches import Work
from training.designs import DESIGNS, designs_of
from training.frames import FAR, NEAR, Corner, as_read, nearest, reads_whole, work_corners
from training.synth import Placed, bench_seed, spread

BACKGROUND = 32
# A cut on an index covered by more than 15 % is "not an index", as the check's network learnt (COVERED_HIDDEN)
SHOWN = 0.85
RIGHT, INVENTED, ELSEWHERE = 0, 1, 2  # named and visible; not in the photo; in it with no corner seen
REPEAT = 3  # each hard cut is shown this many times an epoch: a few in a hundred of the frames


@dataclass
class Checked:
    """One card the check read: its cuts' patches and frames, each cut's label from the truth and the correction to
    its index's true frame (BACKGROUND and zeros where it is "not an index"; -1 where neither is sure)."""

    card: int
    at_index: bool
    enlarged: bool
    kind: int  # RIGHT, INVENTED or ELSEWHERE
    shipped: float  # what the shipped check reads of it (recognise.check_reading)
    patches: np.ndarray
    labels: np.ndarray
    fixes: np.ndarray


def label(frame: np.ndarray, corners: list[Corner]) -> tuple[int, np.ndarray]:
    """A cut's card from the truth: the card of a whole index it lies on (with the correction to that index's frame),
    "not an index" on an index covered by more than 1 - SHOWN or far from every index, -1 in between."""
    x, y, r, d = (float(v) for v in frame)
    near, apart = nearest(corners, x, y)
    if reads_whole(near, apart, r, d):
        return near[0], correction_to((x, y, r, d), near[1:5])
    if (near[6] < SHOWN and apart < NEAR) or apart > FAR:
        return BACKGROUND, np.zeros(4, np.float32)
    return -1, np.zeros(4, np.float32)


def read(image: np.ndarray, placed: list[Placed]) -> tuple[set[int], list[Checked]]:
    """The cards the scanner names in ``image`` before the check, and the cards the check reads."""
    found: list[Checked] = []
    check = recognise.uncovered
    visible = {p.card for p in placed if p.seen}
    present = {p.card for p in placed}

    def recorded(work: Work, named: tuple[recognise.Found, ...], *rest: np.ndarray) -> set[int]:
        asked, cuts = recognise.check_cuts(named, *rest, recognise.checked_at_one(work))
        corners = work_corners(placed, work.scale)
        enlarged = work.scale < 1.0
        patches = [frame_patches(work.planes, cut) for cut in cuts]
        sizes, networks = [len(cut) for cut in cuts], recognise.check_networks(enlarged)
        readings = recognise.check_readings(np.concatenate(patches), asked, sizes, networks) if cuts else []
        for (card, at_index), cut, x, shipped in zip(asked, cuts, patches, readings, strict=True):
            labelled = [label(frame, corners) for frame in cut]
            kind = RIGHT if card in visible else INVENTED if card not in present else ELSEWHERE
            found.append(Checked(card, at_index, enlarged, kind, shipped,
                                 x, np.array([c for c, _ in labelled]), np.array([f for _, f in labelled])))
        return check(work, named, *rest)

    recognise.uncovered = recorded  # type: ignore[assignment]
    try:
        scan = recognise.scan_once(image)
    finally:
        recognise.uncovered = check  # type: ignore[assignment]
    asked = {f.card for f in scan.unsure}
    named = {f.card for f in scan.cards} | {c.card for c in found if c.card in asked}
    return named, found


def bench_photo(task: tuple[str, int, int, int]) -> tuple[dict[str, int], list[Checked]]:
    """Photo ``k`` of a bench set (bench/scan.py draws it alike: training.synth.seeded_photos), read: its counts
    before the check (visible cards, named right, invented) and the cards checked."""
    from training.train import faces_of

    kind, seed, side, k = task
    designs = designs_of(kind)
    faces, boxes = faces_of(designs[k % len(designs)])
    image, placed = spread(np.random.default_rng(bench_seed(seed, k)), faces, boxes, side)
    named, checked = read(as_read(image), placed)
    visible = {p.card for p in placed if p.seen}
    present = {p.card for p in placed}
    counts = {"seen": len(visible), "right": len(named & visible), "invented": len(named - present)}
    return counts, checked


def training_photo(task: tuple[int, int, int]) -> list[Checked]:
    """A photo drawn as training.frames draws one (its seed, design and side), read: the cards checked."""
    from training.train import faces_of

    seed, design_index, side = task
    faces, boxes = faces_of(DESIGNS[design_index])
    image, placed = spread(np.random.default_rng(seed), faces, boxes, side)
    return read(as_read(image), placed)[1]


def hard_dataset(tasks: list[tuple[int, int]], jobs: int, sides: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The labelled cuts of every card the check reads on the photos of ``tasks`` (seed, design), each drawn at one
    of ``sides`` (training.frames.photo_side), repeated REPEAT times; cuts whose label is not sure are left out."""
    from training.frames import photo_side

    with Pool(jobs) as pool:
        parts = pool.map(training_photo, [(s, d, photo_side(s, sides)) for s, d in tasks], chunksize=8)
    checked = [c for part in parts for c in part]
    invented = sum(c.kind == INVENTED for c in checked)
    print(f"{len(tasks)} photos read: {len(checked)} cards checked, {invented} of them invented", flush=True)
    x = np.concatenate([c.patches for c in checked])
    card = np.concatenate([c.labels for c in checked])
    fix = np.concatenate([c.fixes for c in checked])
    sure = card >= 0
    return tuple(np.concatenate([a[sure]] * REPEAT) for a in (x, card, fix))


def saved(path: Path, checked: list[Checked], **counts: np.ndarray) -> None:
    """The cards checked, their cuts one after another (``start`` gives each card's first)."""
    sizes = [len(c.patches) for c in checked]
    np.savez_compressed(
        path,
        card=np.array([c.card for c in checked], np.int64),
        at_index=np.array([c.at_index for c in checked], bool),
        enlarged=np.array([c.enlarged for c in checked], bool),
        kind=np.array([c.kind for c in checked], np.int64),
        shipped=np.array([c.shipped for c in checked], np.float32),
        start=np.cumsum([0, *sizes])[:-1].astype(np.int64),
        patches=np.concatenate([c.patches for c in checked]) if checked else np.zeros((0, 2, 64, 48), np.uint8),
        labels=np.concatenate([c.labels for c in checked]) if checked else np.zeros(0, np.int64),
        fixes=np.concatenate([c.fixes for c in checked]) if checked else np.zeros((0, 4), np.float32),
        **counts,
    )


def measured(
    path: Path, networks: tuple[Path, ...] | None, at_index: float, enlarged: float, ink: float
) -> tuple[int, int, int]:
    """A recorded set's cards with a visible corner, named correctly and invented, had the check read with
    ``networks`` (the geometric mean of their readings; the recorded shipped readings if None) at these thresholds
    (recognise.COVERED_INDEX, COVERED_INDEX_ENLARGED, COVERED_INK)."""
    with np.load(path) as f:
        d = {key: f[key] for key in f.files}
    readings = d["shipped"]
    if networks and len(d["card"]):
        asked = [(int(card), bool(on_index)) for card, on_index in zip(d["card"], d["at_index"], strict=True)]
        sizes = np.diff([*d["start"].tolist(), len(d["patches"])]).tolist()
        readings = np.array(recognise.check_readings(d["patches"], asked, sizes, networks))
    limit = np.where(d["at_index"], np.where(d["enlarged"], enlarged, at_index), ink)
    taken = readings < limit
    right = int(d["right"].sum()) - int((taken & (d["kind"] == RIGHT)).sum())
    return int(d["seen"].sum()), right, int(d["invented"].sum()) - int((taken & (d["kind"] == INVENTED)).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--set", default="held-out", help="the bench's set of designs (bench/scan.py --only)")
    parser.add_argument("--seeds", help="the bench seeds, comma-separated: record those sets")
    parser.add_argument("--measure", type=Path, nargs="+", help="recorded sets: the cards named and invented had the "
                        "check read with --network at --at (recognise's thresholds by default)")
    parser.add_argument("--network", type=Path, action="append", help="with --measure: another network for the "
                        "check; given twice or more, the check reads the geometric mean of theirs")
    parser.add_argument("--at", default=f"{recognise.COVERED_INDEX},{recognise.COVERED_INDEX_ENLARGED},"
                        f"{recognise.COVERED_INK}", help="at an index, at an index on an enlarged photo, from the ink")
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--side", type=int, default=1024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="with --seeds, a folder: one file a set, SET-SEED-SIDE.npz")
    args = parser.parse_args()
    if args.measure:
        limits = tuple(float(v) for v in args.at.split(","))
        total = np.zeros(3, np.int64)
        for path in args.measure:
            counts = measured(path, tuple(args.network or ()), *limits)
            total += counts
            print(f"{path.name}: {counts[0]} cards, {counts[1]} named correctly, {counts[2]} invented")
        print(f"all {len(args.measure)}: {total[0]} cards, {total[1]} named correctly, {total[2]} invented")
        return
    if not args.seeds or not args.out:
        parser.error("give --seeds and --out to record sets, or --measure FILES")
    args.out.mkdir(parents=True, exist_ok=True)
    with Pool(args.jobs) as pool:
        for seed in (int(s) for s in args.seeds.split(",")):
            tasks = [(args.set, seed, args.side, k) for k in range(args.photos)]
            results = pool.map(bench_photo, tasks, chunksize=4)
            checked = [c for _, cs in results for c in cs]
            counts = {key: np.array([r[0][key] for r in results]) for key in ("seen", "right", "invented")}
            path = args.out / f"{args.set}-{seed}-{args.side}.npz"
            saved(path, checked, **counts)
            print(f"{path.name}: {int(counts['seen'].sum())} cards, {len(checked)} checked, "
                  f"{sum(c.kind == INVENTED for c in checked)} of them invented", flush=True)


if __name__ == "__main__":
    main()
