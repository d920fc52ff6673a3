"""The scanner on the committed photos of tests/data/scan (made by training/make_test_photos.py), batch by batch, and
the floors that tests/test_scan_accuracy.py may hold it to on any processor:

    python -m tests.scan_committed [--trials 16] [--noise 1e-5]

Another processor computes the networks with other instructions (AVX2 or AVX-512, with or without VNNI), so their
readings differ in the last bits of a float, and a reading at the edge of a rule can name a card on one machine and
ask about it on another: the same code named 92 cards of the trained batch 0 on a 2 GHz AVX2 core and 91 on an
AVX-512 one. This reads every batch once as it is, then ``trials`` times with noise of ``noise`` (a normal spread)
added to every network input, as another processor's rounding would give, and prints each batch's lowest count named
and highest counts invented, asked about and not in the photo, and missed: the floors that hold under that noise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from bot.engine.cards import card_str
from bot.scanner import recognise, scan_bytes

DATA = Path(__file__).resolve().parent / "data" / "scan"
TRUTH: list[dict[str, object]] = json.loads((DATA / "truth.json").read_text())
BATCH = 12  # photos per batch, as training/make_test_photos.py writes them
CYRILLIC = 2  # the batch of the held-out designs drawn with В Д П, read as a pack so lettered
BATCHES = ((True, 0), (False, 0), (True, 1), (False, 1), (True, CYRILLIC))  # (held_out, batch)

Counts = tuple[int, int, int, int, int]  # visible, named correctly, invented, asked about and absent, missed


def batch(photo: dict[str, object]) -> int:
    return TRUTH.index(photo) // BATCH


def read(held_out: bool, number: int, letters: str | None = None) -> Counts:
    """Visible, named correctly, invented, asked about and not in the photo, missed: each photo of the batch read with
    its pack's letters, or with ``letters``."""
    visible = correct = invented = wrongly_asked = missed = 0
    for photo in (p for p in TRUTH if p["held_out"] == held_out and batch(p) == number):
        scan = scan_bytes((DATA / str(photo["file"])).read_bytes(), letters or str(photo["letters"]))
        named = {card_str(f.card) for f in scan.cards}
        asked = {card_str(f.card) for f in scan.unsure}
        seen, present = set(photo["visible"]), set(photo["present"])  # type: ignore[call-overload]
        visible += len(seen)
        correct += len(named & seen)
        invented += len(named - present)
        wrongly_asked += len(asked - present)
        missed += len(seen - named - asked)
    return visible, correct, invented, wrongly_asked, missed


@contextmanager
def rounding_noise(spread: float, seed: int) -> Iterator[None]:
    """Every network input within gets normal noise of ``spread`` added (the scanner's own code otherwise)."""
    plain = recognise.run_all
    rng = np.random.default_rng(seed)

    def noisy(model: Path, outputs: tuple[str, ...], patches: recognise.Float) -> list[recognise.Float]:
        return plain(model, outputs, patches + rng.normal(0.0, spread, patches.shape).astype(np.float32))

    recognise.run_all = noisy  # type: ignore[assignment]
    try:
        yield
    finally:
        recognise.run_all = plain  # type: ignore[assignment]


def floors(trials: int, spread: float) -> dict[tuple[bool, int], tuple[int, int, int, int]]:
    """Each batch's (least named, most invented, most asked about and absent, most missed) as read plainly and in
    ``trials`` noisy readings."""
    runs = [{key: read(*key) for key in BATCHES}]
    print("as it is: " + ", ".join(f"{run[1:]}" for run in runs[0].values()), flush=True)
    for trial in range(trials):
        with rounding_noise(spread, trial):
            runs.append({key: read(*key) for key in BATCHES})
        print(f"trial {trial + 1}/{trials}: " + ", ".join(f"{run[1:]}" for run in runs[-1].values()), flush=True)
    return {
        key: (
            min(run[key][1] for run in runs),
            max(run[key][2] for run in runs),
            max(run[key][3] for run in runs),
            max(run[key][4] for run in runs),
        )
        for key in BATCHES
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="the committed photos' floors that hold on any processor")
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--noise", type=float, default=1e-5, help="the spread of the noise added to network inputs")
    args = parser.parse_args()
    print("batches (held out, batch):", ", ".join(str(key) for key in BATCHES))
    for key, floor in floors(args.trials, args.noise).items():
        print(f"{key}: {floor}")


if __name__ == "__main__":
    main()
