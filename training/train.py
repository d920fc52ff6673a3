"""Train the scanner's models: synthesise photos of the trained designs, cut the patches the scanner will read
(bot.scanner.patches), label them from the photos' truth, fit the two small convolutional networks of
training/net.py (the turn, then the reader of upright patches) with PyTorch on the CPU and write them as ONNX into
the package. Running the scanner needs only onnxruntime; nothing of PyTorch.

    pip install -e '.[train]'          # torch (CPU), onnx
    python -m training.train           # installs the card packages if missing (as root)

Options: --photos N, --turn-epochs E, --epochs E (the reader's), --reader-width W, --stage both|turn|reader|index,
--seed S, --jobs J, --out PATH (the reader; turn.onnx goes beside it), --splits 2|3|4 and --labels box|near|covered
(the reader's marks and how they are labelled; the defaults, 2 and near, give the shipped reader; the turn network
always learns on the first two splits, labelled near), --sides 800,1024,2048 (the sizes the photos are drawn at),
--teacher PATH (with --stage index: the card learnt half from the truth, half from that network's readings),
--tune PATH and --rate R (with --stage reader or index: carry on the network written at PATH, at that highest rate;
docs/scanner.md gives the commands of the shipped networks). The run is seeded: the same options give the same
photos, the same patches and (on the same machine, library versions and --jobs) the same weights. The patches of each
photo are kept in the cache (training/designs.CACHE), so a second run skips the drawing.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from bot.scanner.patches import (
    ANGLES,
    PATCH,
    READ_HIGH,
    READ_SPAN,
    READ_WIDE,
    SPAN,
    WORK_SIDE,
    Work,
    cut,
    marks,
    patches,
    prepare,
)
from training.designs import (
    CACHE,
    DESIGNS,
    FACES,
    Design,
    design_index_boxes,
    designs_of,
    ensure_packages,
    render_design,
)
from training.frames import as_read, photo_side
from training.quantize import NETWORKS
from training.synth import Placed, spread

BACKGROUND = 32
BACKGROUND_SHARE = 2
COVERED = 0.3  # with --labels covered: an index hidden by more than this share is "not an index"
NO_TURN = -1  # the turn label of a background patch: it has none
MODEL = NETWORKS / "model.onnx"  # the reader, in floats: python -m training.quantize stores the scanner's copy
TURN = "turn.onnx"  # the first network, beside the reader
INDEX = "index.onnx"  # the index network (bot.scanner.frames), beside them
INDEX_EPOCHS = 4
INDEX_PHOTOS = 2400  # 1,200 named 0.2-1.4 points fewer cards on the bench's photos (docs/scanner.md)
HARD_SEED = 9  # --hard: photos drawn apart from the index network's own
INDEX_SEED = 15  # its photos are drawn apart from the other networks' (seed 16 + 15: photos of seed 31)
READER_WIDTH = 24  # the shipped reader; 16 read 2 to 3 points fewer cards on the calibration photos
PATCHES = CACHE / f"patches-{PATCH}-{SPAN}-f{FACES}"  # changes with the cut and the faces: old ones never mixed in
# The reader learns from patches cut wide and unturned (WIDE pixels over WIDE_SPAN sizes), turned at each step by
# the card's turn as bot.scanner.patches.cut turns the photo: wide enough that the upright patch's corners are in it
# at any turn (its diagonal), at about the work photo's own resolution.
WIDE = 84
WIDE_SPAN = 6.1
assert READ_SPAN * math.hypot(1, READ_HIGH / READ_WIDE) <= WIDE_SPAN
WIDE_PATCHES = CACHE / f"wide-{WIDE}-{WIDE_SPAN}-f{FACES}"
_faces: dict[str, tuple[list[np.ndarray], list[tuple[int, int, int, int]]]] = {}


def faces_of(design: Design) -> tuple[list[np.ndarray], list[tuple[int, int, int, int]]]:
    if design.name not in _faces:
        faces = render_design(design)
        _faces[design.name] = (faces, design_index_boxes(faces))
    return _faces[design.name]


def _on_the_index(placed: Placed, corner: int, x: float, y: float) -> bool:
    """Whether the photo point (x, y) falls within the card's index box at ``corner`` (0 top left, 1 the bottom right
    one, upside down), on the card's face: a piece of the next card's edge beside an index does not."""
    u, v, w = np.linalg.solve(placed.homography, np.array([x, y, 1.0]))
    u, v = u / w, v / w
    if corner:
        u, v = placed.size[0] - u, placed.size[1] - v
    x0, y0, x1, y1 = placed.box
    return x0 <= u <= x1 and y0 <= v <= y1


def labels(
    found: np.ndarray, scale: float, placed: list[Placed], within_box: bool = False, covered: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, card, turn) of the marks that are clearly one thing: a mark on a visible index is its card, read at
    the card's turn; a mark away from every index is background. A mark on a covered index is left out, and with
    ``within_box`` so is a mark near an index whose centre is not within the index's box. With ``covered``, a mark
    on an index that another card covers by more than COVERED (a rank without its suit, a suit without its rank) is
    background: it must not be read as a card."""
    rows: list[int] = []
    cards: list[int] = []
    turns: list[int] = []
    corners = [(p, k, c) for p in placed for k, c in enumerate(p.corners)]
    for i, (x, y, _size) in enumerate(found[:, :3]):
        px, py = x * scale, y * scale
        near = [(p, k, c) for p, k, c in corners if math.dist((px, py), (c.x, c.y)) <= c.radius * 1.1]
        if not near:
            rows.append(i)
            cards.append(BACKGROUND)
            turns.append(NO_TURN)
            continue
        p, k, c = min(near, key=lambda n: math.dist((px, py), (n[2].x, n[2].y)))
        if c.visible and (not within_box or _on_the_index(p, k, px, py)):
            rows.append(i)
            cards.append(p.card)
            turns.append(round(c.angle / (360.0 / ANGLES)) % ANGLES)
        elif covered and c.share < 1 - COVERED:
            rows.append(i)
            cards.append(BACKGROUND)
            turns.append(NO_TURN)
    return np.array(rows, np.int64), np.array(cards, np.int64), np.array(turns, np.int64)


def _draw(
    seed: int, design_index: int, splits: int = 2, kind: str = "near", side: int = WORK_SIDE
) -> tuple[Work, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One synthesised photo (the same for the same seed), drawn ``side`` pixels wide and read as the scanner reads it
    (training.frames.as_read): its work planes, its marks (of the first ``splits`` splits of the ink), and the
    labelled ones (``kind`` as --labels names it)."""
    rng = np.random.default_rng(seed)
    faces, boxes = faces_of(DESIGNS[design_index])
    image, placed = spread(rng, faces, boxes, side)
    work = prepare(as_read(image))
    # the shipped networks learnt on the marks of the first two splits: a reader fitted on those of the third as well
    # (glyphs freed from a card's edge, but also pieces of edges beside an index, labelled as its card) read fewer
    # cards of the calibration photos; on all four with box or covered labels, see docs/scanner.md
    found = marks(work, splits=splits)
    return (work, found, *labels(found, work.scale, placed, kind != "near", kind == "covered"))


Labelled = tuple[np.ndarray, np.ndarray, np.ndarray]  # patches, their card (BACKGROUND: none), their turn


def _cached(kept: Path, make: Callable[[], Labelled]) -> Labelled:
    """The labelled patches of one photo from the cache, or made and kept there."""
    if kept.exists():
        with np.load(kept) as f:
            return f["x"], f["card"], f["turn"]
    x, card, turn = make()
    kept.parent.mkdir(parents=True, exist_ok=True)
    np.savez(kept, x=x, card=card, turn=turn)
    return x, card, turn


def _thinned(card: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The rows to keep: every index mark and BACKGROUND_SHARE of the other marks (pips, pictures, the table) for
    each, drawn at random."""
    background = np.flatnonzero(card == BACKGROUND)
    wanted = min(len(background), BACKGROUND_SHARE * int((card < BACKGROUND).sum()))
    return np.sort(np.concatenate([np.flatnonzero(card < BACKGROUND), rng.choice(background, wanted, replace=False)]))


def sample(args: tuple[int, int]) -> Labelled:
    """The labelled patches of one synthesised photo (from the cache when it was drawn before)."""
    seed, design_index = args

    def make() -> Labelled:
        work, found, rows, card, turn = _draw(seed, design_index)
        x = patches(work, found)[rows] if len(rows) else np.zeros((0, 2, PATCH, PATCH), np.uint8)
        return x, card, turn

    return _cached(PATCHES / f"{DESIGNS[design_index].name}-{seed}.npz", make)


def sample_wide(args: tuple[int, int, int, str, int]) -> Labelled:
    """The reader's patches of one synthesised photo, drawn ``side`` pixels wide: each index mark, and
    BACKGROUND_SHARE background marks for each, cut wide and unturned (WIDE x WIDE x 2), with their card and turn
    (cached like ``sample``), from the marks of the first ``splits`` splits of the ink, labelled as ``kind`` says
    (--labels)."""
    seed, design_index, splits, kind, side = args

    def make() -> Labelled:
        work, found, rows, card, turn = _draw(seed, design_index, splits, kind, side)
        keep = _thinned(card, np.random.default_rng(seed))
        x = np.zeros((len(keep), WIDE, WIDE, 2), np.uint8)
        for i, (mx, my, size) in enumerate(found[rows[keep], :3]):
            x[i] = cut(work.planes, float(mx), float(my), float(size), 0.0, WIDE, WIDE, WIDE_SPAN)
        return x, card[keep], turn[keep]

    folder = WIDE_PATCHES
    if (splits, kind) != (2, "near"):  # other marks or labels: their own cache, never mixed with the shipped one
        folder = folder.with_name(f"{folder.name}-s{splits}-{kind}")
    name = f"{DESIGNS[design_index].name}-{seed}" + ("" if side == WORK_SIDE else f"-{side}")
    return _cached(folder / f"{name}.npz", make)


# --designs: the sets of designs (training.designs.designs_of) a run draws
DRAWN = {
    "first": ("trained",),
    "cyrillic": ("trained", "cyrillic-trained"),
    "letters": ("cyrillic-trained",),
    "all": ("trained", "added"),
}


def trained_designs(drawn: str = "first") -> list[int]:
    """The designs a run draws (their places in DESIGNS), never a held-out one: the first nine, which the shipped
    networks learnt on ("first"); with those of them drawn with В Д П ("cyrillic"); those drawn with В Д П alone
    ("letters"); or with the nine added since ("all")."""
    kept = [d for kind in DRAWN[drawn] for d in designs_of(kind)]
    return [i for i, d in enumerate(DESIGNS) if d in kept]


def _tasks(seed: int, photos: int, drawn: str) -> list[tuple[int, int]]:
    """Each photo's seed and design: the trained designs take turns."""
    trained = trained_designs(drawn)
    for i in trained:
        faces_of(DESIGNS[i])  # render once before the workers start
    return [(seed * 1_000_003 + k, trained[k % len(trained)]) for k in range(photos)]


def dataset(seed: int, photos: int, jobs: int, drawn: str) -> Labelled:
    with Pool(jobs) as pool:
        parts = pool.map(sample, _tasks(seed, photos, drawn), chunksize=8)
    x, card, turn = (np.concatenate([p[i] for p in parts]) for i in range(3))
    keep = _thinned(card, np.random.default_rng(seed))
    return x[keep], card[keep], turn[keep]


def wide_dataset(
    seed: int,
    photos: int,
    jobs: int,
    splits: int = 2,
    kind: str = "near",
    sides: tuple[int, ...] = (WORK_SIDE,),
    drawn: str = "first",
) -> Labelled:
    """The reader's patches of the same photos as ``dataset`` (background already thinned photo by photo), each
    drawn at one of ``sides`` (training.frames.photo_side)."""
    tasks = [(s, d, splits, kind, photo_side(s, sides)) for s, d in _tasks(seed, photos, drawn)]
    with Pool(jobs) as pool:
        parts = pool.imap(sample_wide, tasks, chunksize=8)
        xs, cards, turns = zip(*parts, strict=True)
    return np.concatenate(xs), np.concatenate(cards), np.concatenate(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description="train the card scanner's model")
    parser.add_argument("--photos", type=int, help="photos to draw (default 3600, with --stage index 2400: each gives "
                        "the index network some 225 frames)")
    parser.add_argument("--turn-epochs", type=int, default=4, help="epochs of the first network (the turn)")
    parser.add_argument("--epochs", type=int, default=8, help="epochs of the reader")
    parser.add_argument("--reader-width", type=int, default=READER_WIDTH, help="channels of the reader's first layer")
    parser.add_argument("--stage", choices=("both", "turn", "reader", "index"), default="both",
                        help="both: the turn and the reader; index: the index network alone (written to --out, "
                        "training/networks/index.onnx by default, then python -m training.quantize)")
    parser.add_argument("--index-epochs", type=int, default=INDEX_EPOCHS, help="epochs of the index network")
    parser.add_argument("--sides", default=str(WORK_SIDE), help="the reader's and the index network's photos: drawn "
                        "at these sizes (longer side, comma-separated, each photo's drawn from its seed); those "
                        f"smaller than the scanner's {WORK_SIDE} are saved again as a chat sends them, those larger "
                        "are reduced")
    parser.add_argument("--tune", type=Path, help="with --stage reader or index: that network goes on learning from "
                        "the one written there, at --rate; an index network wider than --reader-width is first cut "
                        "down to it (training.net.narrowed)")
    parser.add_argument("--rate", type=float, default=2e-3, help="the reader's or the index network's highest "
                        "learning rate")
    parser.add_argument("--index-covered", action="store_true", help="the index network's frames on an index covered "
                        "by more than 15 %% are all kept as \"not an index\" (the network of the scanner's "
                        "covered-index check)")
    parser.add_argument("--covered-cuts", action="store_true", help="with --index-covered: cuts about each index "
                        "covered by 15-70 %% kept as \"not an index\" as well, as a whole index's are kept as its card")
    parser.add_argument("--rank-covered", action="store_true", help="with --index-covered: an index counts as "
                        "covered as much as its rank is (a ten's \"1\" covered leaves a \"0\" read as another rank)")
    parser.add_argument("--hard", type=int, default=0, help="with --stage index: read this many photos more with the "
                        "scanner and add the cuts of every card the check of covered indices reads there, labelled "
                        "from the truth (training.hard)")
    parser.add_argument("--designs", choices=tuple(DRAWN), default="first", help="the trained designs to draw: the "
                        "first nine, which the shipped networks first learnt on; cyrillic, with six of them drawn "
                        "with В Д П; letters, those six alone (the networks that read packs lettered В Д П); or "
                        "all, with the nine added since (tried, not shipped: docs/scanner.md, \"More designs\")")
    parser.add_argument("--int8", action="store_true", help="with --stage reader: store the reader's dense layers in 8 "
                        "bits, as the index network's always are (the reader of packs lettered В Д П is shipped so)")
    parser.add_argument("--teacher", type=Path, help="with --stage index: learn the card half from the truth, half "
                        "from this network's readings (in floats, e.g. training/networks/index.onnx), as a narrower "
                        "network (--reader-width) does")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help=f"where the network goes (default {MODEL}, the turn network "
                        f"{TURN} and the index network {INDEX} beside it, in floats: python -m training.quantize then "
                        "stores the scanner's copies)")
    parser.add_argument("--splits", type=int, default=2, choices=(2, 3, 4), help="the reader's marks: ink splits")
    parser.add_argument("--labels", choices=("box", "near", "covered"), default="near",
                        help="box: an index mark's centre must be on the index's box; near: anywhere near the index; "
                        "covered: box, and a mark on a mostly covered index is not an index")
    args = parser.parse_args()
    if args.tune and args.stage not in ("reader", "index"):
        parser.error("--tune goes on from one network: give --stage reader or --stage index")
    if (args.covered_cuts or args.rank_covered) and not args.index_covered:
        parser.error("--covered-cuts and --rank-covered go with --index-covered")
    if args.int8 and args.stage != "reader":
        parser.error("--int8 is for the reader (--stage reader); the index network is always stored so")
    args.photos = args.photos or (INDEX_PHOTOS if args.stage == "index" else 3600)
    sides = tuple(int(side) for side in args.sides.split(","))
    ensure_packages()
    from training.net import fit, fit_index, fit_reader, shrink

    def loaded(make: Callable[[int, int, int], Labelled], unit: str = "patches", on: str = "on cards") -> Labelled:
        start = time.time()
        x, card, other = make(args.seed, args.photos, args.jobs)
        print(f"{args.photos} photos, {len(card)} {unit} ({int((card < BACKGROUND).sum())} {on}) in "
              f"{time.time() - start:.0f} s", flush=True)
        return x, card, other

    if args.stage == "index":
        from training.frames import index_dataset

        out = args.out or NETWORKS / INDEX  # in floats; python -m training.quantize stores the scanner's copy
        x, card, fix = loaded(
            lambda s, n, j: index_dataset(
                _tasks(s + INDEX_SEED, n, args.designs),
                j,
                args.index_covered,
                sides,
                args.covered_cuts,
                args.rank_covered,
            ),
            "frames",
            "on an index",
        )
        if args.hard:
            from training.hard import hard_dataset

            hard = hard_dataset(_tasks(args.seed + HARD_SEED, args.hard, args.designs), args.jobs, sides)
            x, card, fix = (np.concatenate([a, b]) for a, b in zip((x, card, fix), hard, strict=True))
        fit_index(x, card, fix, epochs=args.index_epochs, seed=args.seed, threads=args.jobs, out=out,
                  width=args.reader_width, start=args.tune, rate=args.rate, teacher=args.teacher)
        shrink(out)
        print(f"wrote {out} ({out.stat().st_size // 1024} KB)")
        return
    args.out = args.out or MODEL

    if args.stage in ("both", "turn"):
        x, card, turn = loaded(lambda s, n, j: dataset(s, n, j, args.designs))
        fit(x, card, turn, epochs=args.turn_epochs, seed=args.seed, threads=args.jobs, out=args.out.with_name(TURN))
        del x
    if args.stage in ("both", "reader"):
        x, card, turn = loaded(lambda s, n, j: wide_dataset(s, n, j, args.splits, args.labels, sides, args.designs))
        fit_reader(x, WIDE_SPAN, card, turn, epochs=args.epochs, seed=args.seed, threads=args.jobs, out=args.out,
                   width=args.reader_width, start=args.tune, rate=args.rate)  # fmt: skip
        if args.int8:
            shrink(args.out)
    written = args.out if args.stage != "turn" else args.out.with_name(TURN)
    print(f"wrote {written} ({written.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
