"""The court network (fitted to ``training/networks/court.onnx``, stored for the scanner by ``training.quantize``): is
the card an index belongs to a jack, queen or king, or a number card (7 to 10, or an ace)? It reads the index and the
card about it in a wide window (``bot.scanner.frames.court_windows``): a court card's picture begins beside its index,
a number card is white there or shows a pip. The scanner asks about a number card that the window reads as a court
card, and about a court card read as a number card (docs/scanner.md, "The court network"): the last cards it invented
were court letters read, blurred, as another rank of their suit (a B read as an 8, a K as an A).

    python -m training.court            # 3,600 photos of the eighteen trained designs, six epochs (about 50 minutes)
    python -m training.quantize         # the scanner's copy, bot/scanner/court.onnx, its convolutions in 8 bits

Each photo's visible corner indices (at most 15 % covered) are cut at their true frame and twice more a little off
(as the scanner's own frames are), labelled from the photo's truth. The run is seeded; the windows are kept in the
cache (training/designs.CACHE), so a second run starts fitting at once.
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from bot.engine.cards import rank_of
from bot.scanner.frames import COURT_WIDE, court_windows
from bot.scanner.patches import prepare
from bot.scanner.recognise import COURT
from training.designs import CACHE, Design, design_index_boxes, designs_of, ensure_packages, render_design
from training.frames import work_corners
from training.quantize import NETWORKS
from training.synth import bench_seed, spread

SHOWN = 0.85  # an index so much uncovered or more is cut; a covered one is the check of covered indices' business
JITTERED = 2  # windows about each index besides its true frame
OFF, OFF_SIZE, OFF_TURN = 0.12, 0.1, 6.0  # their spread: radii, log size, degrees

Decks = list[tuple[Design, list[np.ndarray], list[tuple[int, int, int, int]]]]
_decks: Decks = []


def _load() -> None:
    global _decks
    _decks = [(d, faces, design_index_boxes(faces)) for kind in ("trained", "added") for d in designs_of(kind)
              for faces in [render_design(d)]]  # fmt: skip


def windows_of(task: tuple[int, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """Photo ``k`` of ``seed`` (of each trained design in turn): its windows and their cards."""
    seed, k = task
    _, faces, boxes = _decks[k % len(_decks)]
    rng = np.random.default_rng(bench_seed(seed, k))
    image, placed = spread(rng, faces, boxes, 1024)
    work = prepare(image)
    shown = [c for c in work_corners(placed, work.scale) if c[6] >= SHOWN]
    if not shown:
        return None
    frames, cards = [], []
    for card, x, y, r, degrees, _, _ in shown:
        frames.append((x, y, r, degrees))
        for _ in range(JITTERED):
            dx, dy = rng.normal(0, OFF * r, 2)
            frames.append((x + dx, y + dy, r * math.exp(rng.normal(0, OFF_SIZE)), degrees + rng.normal(0, OFF_TURN)))
        cards += [card] * (1 + JITTERED)
    return court_windows(work.planes, np.asarray(frames)), np.asarray(cards)


def dataset(seed: int, photos: int, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    """The windows of ``photos`` photos and their labels (1: a jack, queen or king), drawn once and cached."""
    kept = CACHE / f"court-{seed}-{photos}-{COURT_WIDE}.npz"
    if not kept.exists():
        ensure_packages()
        _load()
        with Pool(jobs, initializer=_load) as pool:
            drawn = [r for r in pool.imap(windows_of, [(seed, k) for k in range(photos)], chunksize=8) if r]
        kept.parent.mkdir(parents=True, exist_ok=True)
        np.savez(kept, x=np.concatenate([w for w, _ in drawn]), y=np.concatenate([c for _, c in drawn]))
    with np.load(kept) as stored:
        x, cards = stored["x"], stored["y"]
    return x, np.isin([rank_of(int(c)) for c in cards], COURT).astype(np.int64)


def fit(x: np.ndarray, y: np.ndarray, epochs: int, seed: int) -> object:
    """The network fitted on the windows ``x`` (a twentieth held back and read after each epoch)."""
    import torch
    from torch import nn

    from training.net import learn

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(3)
    order = rng.permutation(len(x))
    held, taught = order[: len(x) // 20], order[len(x) // 20 :]
    network = court_net()
    optimiser = torch.optim.AdamW(network.parameters(), 2e-3, weight_decay=1e-4)
    batch = 128
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 2e-3, total_steps=epochs * (len(taught) // batch))
    loss_of = nn.CrossEntropyLoss()

    def scaled(rows: np.ndarray, lit: bool) -> torch.Tensor:
        t = torch.from_numpy(x[rows]).float() / 255.0
        if lit:  # light and contrast vary from photo to photo
            n = len(rows)
            gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1))).float()
            shift = torch.from_numpy(rng.uniform(-0.15, 0.15, (n, 1, 1, 1))).float()
            t = (t - 0.5) * gain + 0.5 + shift
        return t

    for epoch in range(epochs):
        network.train()
        start = time.time()
        rng.shuffle(taught)
        for i in range(0, len(taught) - batch + 1, batch):
            rows = taught[i : i + batch]
            learn(loss_of(network(scaled(rows, True)), torch.from_numpy(y[rows])), optimiser, schedule)
        network.eval()
        with torch.no_grad():
            read = torch.cat([network(scaled(held[i : i + 512], False)).argmax(1) for i in range(0, len(held), 512)])
        right = float((read.numpy() == y[held]).mean())
        print(f"epoch {epoch + 1}: {time.time() - start:.0f} s, {right:.4f} of the held-back windows read right",
              flush=True)
    return network


def court_net() -> object:
    """Four blocks of two 3x3 convolutions (16, 32, 64, 64 channels), each halving the window (48 to 3), then 64
    units and the two answers: a number card, a court card."""
    from torch import nn

    def block(into: int, out: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(into, out, 3, padding=1), nn.BatchNorm2d(out), nn.ReLU(),
            nn.Conv2d(out, out, 3, padding=1), nn.BatchNorm2d(out), nn.ReLU(), nn.MaxPool2d(2),
        )  # fmt: skip

    return nn.Sequential(
        block(2, 16), block(16, 32), block(32, 64), block(64, 64),
        nn.Flatten(), nn.Linear(64 * 9, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 2),
    )  # fmt: skip


def export(network: object, out: Path) -> None:
    """The network as ONNX: windows (n, 2, 48, 48) in 0-1, out "court", each window's probability of a court card."""
    import torch
    from torch import nn

    class Court(nn.Module):
        def __init__(self, inner: nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, windows: torch.Tensor) -> torch.Tensor:
            return self.inner(windows).softmax(1)[:, 1]

    assert isinstance(network, nn.Module)
    network.eval()
    torch.onnx.export(
        Court(network), (torch.zeros(1, 2, COURT_WIDE, COURT_WIDE),), str(out), input_names=["windows"],
        output_names=["court"], dynamic_axes={"windows": {0: "windows"}, "court": {0: "windows"}}, opset_version=17,
        dynamo=False,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description="fit the scanner's court network")
    parser.add_argument("--photos", type=int, default=3600)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=501)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=NETWORKS / "court.onnx",
                        help="in floats; python -m training.quantize then stores the scanner's copy")  # fmt: skip
    args = parser.parse_args()
    x, y = dataset(args.seed, args.photos, args.jobs)
    print(f"{len(x)} windows, {y.mean():.3f} of them of court cards", flush=True)
    export(fit(x, y, args.epochs, args.seed), args.out)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
