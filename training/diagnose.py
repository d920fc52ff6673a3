"""Where the scanner's errors come from, on bench-like photos (seeds never used in training):

    python -m training.diagnose [--photos 12] [--seed 7] [--held-out]

For every visible corner index: is there an ink mark on it (detection), and does the model's best reading of the
marks on it name the card (classification)? Wrong readings are split into a wrong rank, a wrong suit or both; cards
reported that are not in the photo are counted apart, with whether they came from a mark on another card's index
(a misreading) or from a mark away from every index (the background).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import numpy as np

from bot.scanner.patches import marks, prepare
from bot.scanner.recognise import BACKGROUND, read_marks
from training.designs import designs_of, ensure_packages
from training.synth import seeded_photos


def main() -> None:
    parser = argparse.ArgumentParser(description="where the scanner's errors come from")
    parser.add_argument("--photos", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--held-out", action="store_true")
    args = parser.parse_args()
    ensure_packages()
    tally: Counter[str] = Counter()
    designs = designs_of("held-out" if args.held_out else "trained")
    for _design, image, placed in seeded_photos(designs, args.photos, args.seed):
        work = prepare(image)
        found = marks(work)
        p = read_marks(work, found)[0] if len(found) else np.zeros((0, BACKGROUND + 1), np.float32)
        xy = found[:, :2] * work.scale if len(found) else np.zeros((0, 2))
        corners = [(pl.card, c) for pl in placed for c in pl.corners]
        on_index: set[int] = set()
        for card, c in corners:
            near = [i for i in range(len(found)) if math.dist(xy[i], (c.x, c.y)) <= c.radius * 1.1]
            on_index.update(near)
            if not c.visible:
                continue
            tally["visible corners"] += 1
            if not near:
                tally["no mark on the index"] += 1
                continue
            best = max(((i, n) for i in near for n in range(BACKGROUND)), key=lambda t: p[t[0], t[1]])
            read, strength = best[1], float(p[best])
            if strength < 0.2:
                tally["no card reading of 0.2 or more"] += 1
            elif read == card:
                tally["read right" + (" (0.9 or more)" if strength >= 0.9 else " (under 0.9)")] += 1
            elif read % 8 == card % 8:
                tally["wrong suit"] += 1
            elif read // 8 == card // 8:
                tally["wrong rank"] += 1
            else:
                tally["wrong rank and suit"] += 1
        present = {pl.card for pl in placed}
        for i in range(len(found)):
            n = int(p[i, :BACKGROUND].argmax())
            if p[i, n] >= 0.9 and n not in present:
                tally["strong reading (>=0.9) of a card not there, on an index" if i in on_index
                      else "strong reading (>=0.9) of a card not there, off every index"] += 1
    for key, value in sorted(tally.items()):
        print(f"{key:60} {value}")


if __name__ == "__main__":
    main()
