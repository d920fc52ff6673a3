"""Train the scanner's model: synthesise photos of the trained designs, cut the patches the scanner will read,
label them from the ground truth, fit a small neural network (scikit-learn) and write it as ONNX into the package.

    pip install -e '.[train]'          # scikit-learn, skl2onnx
    python -m training.train           # installs the card packages if missing (as root), about 15 minutes on 2 cores

Options: --photos N (default 700), --seed S, --jobs J, --out PATH.
"""

from __future__ import annotations

import argparse
import math
import pickle
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from bot.scanner.patches import ANGLES, features, marks, prepare
from training.designs import CACHE, DESIGNS, Design, design_index_boxes, ensure_packages, render_design
from training.synth import Placed, photo

BACKGROUND = 32
MODEL = Path(__file__).resolve().parent.parent / "bot" / "scanner" / "model.onnx"
_faces: dict[str, tuple[list[np.ndarray], list[tuple[int, int, int, int]]]] = {}


def faces_of(design: Design) -> tuple[list[np.ndarray], list[tuple[int, int, int, int]]]:
    if design.name not in _faces:
        faces = render_design(design)
        _faces[design.name] = (faces, design_index_boxes(faces))
    return _faces[design.name]


def labels(found: np.ndarray, scale: float, placed: list[Placed], rng: np.random.Generator) -> list[tuple[int, int]]:
    """(row, class) pairs: a mark on a visible index, turned within 12 degrees of upright, is its card; a mark away
    from every index is background at a few random turns; the rest is left out as neither clearly."""
    out: list[tuple[int, int]] = []
    corners = [(p.card, c) for p in placed for c in p.corners]
    for i, (x, y, _size) in enumerate(found):
        px, py = x * scale, y * scale
        near = [(card, c) for card, c in corners if math.dist((px, py), (c.x, c.y)) <= c.radius * 1.1]
        if not near:
            for a in rng.choice(ANGLES, size=1):
                out.append((i * ANGLES + int(a), BACKGROUND))
            continue
        card, c = min(near, key=lambda n: math.dist((px, py), (n[1].x, n[1].y)))
        if not c.visible:
            continue
        for a in range(ANGLES):
            off = abs((a * 360.0 / ANGLES - c.angle + 180) % 360 - 180)
            if off <= 12:
                out.append((i * ANGLES + a, card))
            elif off >= 34 and rng.random() < 0.25:
                out.append((i * ANGLES + a, BACKGROUND))
    return out


def synthesised(seed: int, design: Design) -> tuple[np.ndarray, list[Placed], np.random.Generator]:
    """A training photo, kept in the cache so that changing the features does not mean drawing every photo again."""
    rng = np.random.default_rng(seed)
    stem = CACHE / "photos" / f"{design.name}-{seed}"
    if stem.with_suffix(".pkl").exists():
        image = cv2.imread(str(stem.with_suffix(".png")), cv2.IMREAD_COLOR)
        placed, state = pickle.loads(stem.with_suffix(".pkl").read_bytes())
        rng.bit_generator.state = state
        return image, placed, rng
    faces, boxes = faces_of(design)
    image, placed = photo(rng, faces, boxes, int(rng.integers(8, 33)))
    stem.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(stem.with_suffix(".png")), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    stem.with_suffix(".pkl").write_bytes(pickle.dumps((placed, rng.bit_generator.state)))
    return image, placed, rng


def sample(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, design_index = args
    image, placed, rng = synthesised(seed, DESIGNS[design_index])
    work = prepare(image)
    found = marks(work)
    rows = labels(found, work.scale, placed, rng)
    x = features(work, found)
    idx = np.array([r for r, _ in rows], np.int64)
    return x[idx], np.array([c for _, c in rows], np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description="train the card scanner's model")
    parser.add_argument("--photos", type=int, default=700)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    ensure_packages()
    trained = [i for i, d in enumerate(DESIGNS) if not d.held_out]
    for i in trained:
        faces_of(DESIGNS[i])  # render once before the workers start
    start = time.time()
    tasks = [(args.seed * 1_000_003 + k, trained[k % len(trained)]) for k in range(args.photos)]
    with Pool(args.jobs) as pool:
        parts = pool.map(sample, tasks, chunksize=4)
    x = np.vstack([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    print(f"{args.photos} photos, {len(y)} patches ({(y < BACKGROUND).sum()} on cards) in {time.time() - start:.0f} s")

    from skl2onnx import to_onnx
    from sklearn.neural_network import MLPClassifier

    start = time.time()
    model = MLPClassifier(hidden_layer_sizes=(256,), max_iter=40, early_stopping=True, random_state=args.seed)
    model.fit(x, y)
    print(f"fitted in {time.time() - start:.0f} s, held-back score {model.best_validation_score_:.4f}")
    onnx = to_onnx(model, x[:1], options={id(model): {"zipmap": False}}, target_opset=17)
    args.out.write_bytes(onnx.SerializeToString())
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
