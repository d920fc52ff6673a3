"""Card scanner accuracy and speed on synthetic photos of 8-32 spread cards, the held-out designs (never trained
on) apart from the trained ones, the designs added since the shipped networks learnt (seen by none of them but the
third network of the check of covered indices), and the held-out designs drawn with the Bulgarian index letters
В Д П (training.letters), read as a pack so lettered (--letters cyrillic: the reader and index network carried on over
such packs).

    python bench/scan.py [--photos 60] [--seed 7 | --seed 587-887 --jobs 2] [--side 1024] [--sure 0.99]
                         [--also 0.995,0.999] [--only held-out|trained|added|cyrillic] [--letters latin|cyrillic]
                         [--reader PATH] [--turn PATH] [--index PATH] [--no-index] [--with-reader PATH]
                         [--with-index PATH] [--cover PATH] [--no-cover] [--court PATH] [--no-court]
                         [--misread-sure 0.99] [--strict-as-any] [--cleared-alone-names] [--checked-at-one AT]
                         [--list] [--networks] [--worst] [--memory]

For each set (several sets, --seed 11,13 or --seed 587-887, are pooled after a line each): of the cards whose corner can
be seen in the photo, how many were named correctly (and surely), how many were flagged unsure, how many were missed;
how many cards were named that are not in the photo at all (invented); and the seconds per photo on one core; then a
bound on how often it invents a card (with none invented in one set of 1,000 cards, the rate may still be one card in
334). Last, how many photos had a card invented or missed (each unsure card answered rightly), and how many of those a
count not of whole tricks gives away, as the chat's answer points it out. --worst times instead the bounded worst case:
a 12-megapixel picture of thousands of glyphs and lines, of which the scanner examines MAX_MARKS. Needs the training
extra and the card packages (training/designs.py installs them). --with-reader reads each mark with a second reader as
well and takes the geometric mean of the two (the patches cut once, read by both), --with-index likewise every frame the
index network reads (its corrections averaged); --strict-as-any lets the marks of the strict threshold's split vote like
any other (docs/scanner.md compares readers so). --list names each card invented: its photo, the true card whose index
lies nearest and how much of that index other cards cover. --memory prints the process's resident memory as it reads the
photos instead: it must level off, whatever each photo holds. --no-index reads without the index network (each index
read in its own frame), as the scanner did before it; --no-cover names the cards the check of step 10 would ask about
(docs/scanner.md, "A card on a covered index"), and --cover reads that check with another network in place of its
first (index-cover.onnx; its second and third, index-cover-hard.onnx and index-cover-all.onnx, still read beside
it). --no-court names the cards the court network gainsays (docs/scanner.md, "The court network"), --court reads
with another court network (training/court.py --out). --misread-sure reads a glyph as one of an index of its rank in
another suit only on an index read so surely (recognise.MISREAD_SURE; 0.99 as before it). --cleared-alone-names names
a card read at two marks of the cleared split and no other, as before recognise.CLEARED_ALONE_NAMES.
--networks prints where a photo's seconds go: each network's seconds, patches and calls a photo, and the rest (finding
and cutting the marks, the rules), on one core; as an older core, it shows which network to make smaller.
--checked-at-one says which ranks are checked even when named at 1.0 (recognise.CHECKED_AT_ONE: AT, aces and tens; A as
before tens were, '' as before aces were). --side 2048 draws the same layouts twice as large: their blur, noise and
JPEG blocks, as many pixels, shrink by half when the scanner reduces the photo to 1024 pixels, as they do in a phone's
photo of 3000-4000 pixels; --side 800 draws them smaller and saves them again at JPEG quality 70, as a chat sends a
small photo (the committed test photos are so): enlarged to 1024, their blur, noise and JPEG blocks grow with them.

The first line says what the figures were read on: the processor, the instruction sets OpenCV finds on it (a feature
marked ? is not there) and the versions of the packages that read. Another processor reads a few readings at the edge
of a rule otherwise (docs/scanner.md, "The same code on another processor"), so a figure carries its machine. As an
older x86 core would read, at this core's speed (its libraries told that the processor lacks AVX-512 and VNNI, or AVX
altogether; the first line then says so):

    python tools/older_core.py avx2 python bench/scan.py
    python tools/older_core.py sse4 python bench/scan.py --worst
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as the bot reads a photo

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.scanflow import TRICK
from bot.engine.cards import RANK_CHARS, card_str, rank_of
from bot.scanner import scan_image
from bot.scanner.recognise import COURT, LETTERS, Found  # COURT: the ranks whose letters differ from pack to pack
from tools.older_core import CORES
from training.designs import DESIGNS, designs_of, ensure_packages
from training.frames import as_read
from training.synth import Placed, nearest_corner, seeded_photos

SETS = {  # the sets of designs the bench reports apart
    "held-out": "held-out designs",
    "trained": "trained designs",
    "added": "designs added since the shipped networks learnt, seen by the check's third network alone",
    "cyrillic": "held-out designs drawn with the Bulgarian letters В Д П",
}
READ_AS = {"cyrillic": "cyrillic"}  # the letters each set is read with, as its pack would be asked for (else latin)
LETTERED = {"latin": "J Q K", "cyrillic": "В Д П"}


@dataclass
class Tally:
    """What the scanner made of one set of photos, or of several pooled."""

    photos: int = 0
    seen: int = 0  # cards with a visible corner
    correct: int = 0
    unsure: int = 0
    wrong_unsure: int = 0  # asked about, not in the photo
    invented: int = 0
    wrong_photos: int = 0  # photos with a card invented or one with a visible corner neither named nor asked about
    flagged_photos: int = 0  # of those, the photos whose count is off by other than whole tricks
    court: list[int] = field(default_factory=lambda: [0, 0, 0])  # jacks, queens, kings: visible, named, invented
    seconds: float = 0.0
    at: dict[float, list[int]] = field(default_factory=dict)  # threshold -> [named correctly, invented]
    inventions: list[str] = field(default_factory=list)
    networks: dict[str, list[float]] = field(default_factory=dict)  # network -> [seconds, patches, calls] (--networks)

    def add(self, other: Tally) -> None:
        for name in ("photos", "seen", "correct", "unsure", "wrong_unsure", "invented", "wrong_photos",
                     "flagged_photos", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.court = [a + b for a, b in zip(self.court, other.court, strict=True)]
        for threshold, (named_at, invented_at) in other.at.items():
            counts = self.at.setdefault(threshold, [0, 0])
            counts[0] += named_at
            counts[1] += invented_at
        self.inventions += other.inventions
        for name, spent in other.networks.items():
            self.networks[name] = [a + b for a, b in zip(self.networks.get(name, [0.0, 0.0, 0.0]), spent, strict=True)]

    def photo(self, present: set[int], visible: set[int], named: tuple[Found, ...], unsure: tuple[Found, ...],
              where: str, placed: list[Placed] | None = None) -> None:
        """Count one photo's answer: ``present`` its cards, ``visible`` those with a corner to be seen, ``where`` the
        photo as an invented card is listed (with the true index nearest it, where its ``placed`` cards are known)."""
        self.photos += 1
        cards = {f.card for f in named}
        doubtful = {f.card for f in unsure}
        invented = cards - present
        lost = visible - cards - doubtful  # neither named nor asked about
        self.seen += len(visible)
        self.correct += len(cards & visible)
        self.invented += len(invented)
        self.unsure += len(doubtful & visible)
        self.wrong_unsure += len(doubtful - present)
        # a won pile is whole tricks: the answer points out a count off by other than fours (bot.core.scanflow)
        if invented or lost:
            self.wrong_photos += 1
            self.flagged_photos += (len(invented) - len(lost)) % TRICK != 0  # each unsure card answered rightly
        self.court[0] += sum(rank_of(c) in COURT for c in visible)
        self.court[1] += sum(rank_of(c) in COURT for c in cards & visible)
        self.court[2] += sum(rank_of(c) in COURT for c in invented)
        for f in named:
            if f.card not in present:
                near = f", {nearest_index(placed, f.x, f.y)}" if placed else ""
                self.inventions.append(f"{where}: {card_str(f.card)} at {f.confidence:.4f}{near}")
        for threshold, counts in self.at.items():
            read = {f.card for f in (*named, *unsure) if f.confidence >= threshold}
            counts[0] += len(read & visible)
            counts[1] += len(read - present)


def tally(task: tuple[str, int, int, tuple[float, ...], int, str]) -> Tally:
    """One set read: photos 0 to ``photos`` - 1 of ``seed``, of the designs of ``kind``."""
    kind, photos, seed, others, side, letters = task
    counted = Tally(at={t: [0, 0] for t in others})
    SPENT.clear()  # a worker reads one set after another: each set's networks counted apart
    for photo, (design, image, placed) in enumerate(seeded_photos(designs_of(kind), photos, seed, side)):
        image = as_read(image)  # a photo smaller than the scanner reads, compressed again as a chat sends it
        start = time.process_time()
        scan = scan_image(image, letters)
        counted.seconds += time.process_time() - start
        counted.photo({p.card for p in placed}, {p.card for p in placed if p.seen}, scan.cards, scan.unsure,
                      f"seed {seed} photo {photo} ({design.name})", placed)
    counted.networks = {name: list(spent) for name, spent in SPENT.items()}
    return counted


SPENT: dict[str, list[float]] = {}  # network file -> [seconds, patches, calls] in this process (--networks)


def count_networks() -> None:
    """Every network call of the scanner timed (process seconds, one core) and counted into SPENT."""
    from bot.scanner import recognise

    run_all = recognise.run_all

    def counted(model: Path, outputs: tuple[str, ...], patches: Any) -> Any:
        start = time.process_time()
        out = run_all(model, outputs, patches)
        spent = SPENT.setdefault(model.name, [0.0, 0.0, 0.0])
        spent[0] += time.process_time() - start
        spent[1] += len(patches)
        spent[2] += 1
        return out

    recognise.run_all = counted


def rate_bound(events: int, trials: int, confidence: float = 0.95) -> float:
    """The rate under which a count of ``events`` in ``trials`` says the true rate lies, with ``confidence`` (the
    exact Poisson bound: the rate at which ``events`` or fewer would be seen only 1 - ``confidence`` of the time).
    With none invented in 1,000 cards the rate may still be as high as one in 334: one set cannot show "none"."""
    if trials <= 0:
        raise ValueError("no trials")

    def at_most(mean: float) -> float:  # P(Poisson(mean) <= events)
        term = total = math.exp(-mean)
        for k in range(1, events + 1):
            term *= mean / k
            total += term
        return total

    low, high = 0.0, float(events + 10 + 10 * math.sqrt(events + 1))
    for _ in range(100):  # at_most falls as the mean grows
        mid = (low + high) / 2
        low, high = (mid, high) if at_most(mid) > 1 - confidence else (low, mid)
    return high / trials


# The card scanner's targets on photos of designs held out of training: at least this share named correctly, at most
# this share asked about, none invented, and under this many seconds a photo on one core.
TARGET_NAMED, TARGET_UNSURE, TARGET_SECONDS = 0.99, 0.01, 1.0
HELD_OUT = ("held-out", "cyrillic")  # the sets drawn from the held-out designs, which the targets are judged on


def targets(counted: Tally, timed: bool = True) -> str:
    """Each target, and whether these photos meet it (none invented only says none was: the bound says how rare)."""
    named, unsure = counted.correct / counted.seen, counted.unsure / counted.seen
    parts = [
        f"{TARGET_NAMED:.0%} named: {'yes' if named >= TARGET_NAMED else 'no'} ({named:.2%})",
        f"at most {TARGET_UNSURE:.0%} asked about: {'yes' if unsure <= TARGET_UNSURE else 'no'} ({unsure:.2%})",
        f"none invented: {'none here' if counted.invented == 0 else f'no ({counted.invented})'}",
    ]
    if timed:
        seconds = counted.seconds / counted.photos
        parts.append(f"under {TARGET_SECONDS:.0f} s a photo: {'yes' if seconds < TARGET_SECONDS else 'no'} "
                     f"({seconds:.3f} s on this core)")
    return "; ".join(parts)


def report(kind: str, letters: str, counted: Tally, listed: bool, sets: int = 1, timed: bool = True) -> None:
    names = ", ".join(d.name for d in designs_of(kind))
    seen, correct, unsure, invented = counted.seen, counted.correct, counted.unsure, counted.invented
    what = f"{sets} sets, {counted.photos} photos" if sets > 1 else f"{counted.photos} photos"
    print(f"{SETS[kind]} ({names}), read as lettered {LETTERED[letters]}: {what}, {seen} cards with a visible corner")
    print(f"  named correctly  {correct / seen:7.2%}  ({correct})")
    print(f"  flagged unsure   {unsure / seen:7.2%}  ({unsure}; plus {counted.wrong_unsure} unsure guesses not in the "
          "photo)")
    print(f"  missed           {(seen - correct - unsure) / seen:7.2%}  ({seen - correct - unsure})")
    print(f"  invented         {invented}")
    if listed:
        for line in counted.inventions:
            print(f"    {line}")
    bound = rate_bound(invented, seen)
    print(f"  invented rate    under one card in {1 / bound:,.0f} (95 % bound from {invented} in {seen} cards)")
    print(f"  photos with a card invented or missed: {counted.wrong_photos}, of which a count not of whole tricks "
          f"points out {counted.flagged_photos}")
    if timed:  # not where recorded readings are counted
        print(f"  seconds/photo    {counted.seconds / counted.photos:.3f} (one core)")
    court = counted.court
    print(f"  jacks, queens and kings: {court[1]} of {court[0]} named correctly, {court[2]} invented")
    if kind in HELD_OUT:
        print(f"  targets          {targets(counted, timed)}")
    for threshold, (named_at, invented_at) in counted.at.items():
        print(f"  named from {threshold}: {named_at / seen:7.2%} correctly, {invented_at} invented")
    if counted.networks and timed:
        photos = counted.photos
        for name, (spent, patches, calls) in sorted(counted.networks.items(), key=lambda kv: -kv[1][0]):
            each = f"{1000 * spent / max(patches, 1):.3f} ms a patch"
            print(f"    {name:22} {spent / photos:.3f} s/photo, {patches / photos:7.1f} patches and "
                  f"{calls / photos:4.1f} calls a photo, {each}")
        rest = counted.seconds - sum(spent for spent, _, _ in counted.networks.values())
        print(f"    {'the rest':22} {rest / photos:.3f} s/photo (finding and cutting the marks, the rules)")


def run(
    kind: str,
    photos: int,
    seeds: list[int],
    others: tuple[float, ...] = (),
    side: int = 1024,
    letters: str | None = None,
    listed: bool = False,
    jobs: int = 1,
) -> None:
    """Read the sets of ``seeds`` (``jobs`` at a time) and print their figures: each set on a line, then pooled."""
    letters = letters or READ_AS.get(kind, "latin")
    tasks = [(kind, photos, seed, others, side, letters) for seed in seeds]
    if jobs > 1 and len(tasks) > 1:
        with Pool(jobs) as pool:  # forked after main() set the networks and rules: each reader reads alike
            sets = pool.imap(tally, tasks)
            counted = pooled(sets, seeds)
    else:
        counted = pooled(map(tally, tasks), seeds)
    report(kind, letters, counted, listed, len(seeds))


def pooled(sets: Iterator[Tally], seeds: list[int]) -> Tally:
    """The sets' figures added up, each set's printed as it comes when there are several."""
    counted = Tally()
    for seed, one in zip(seeds, sets, strict=True):
        if len(seeds) > 1:
            print(f"  seed {seed}: {one.seen} cards, {one.correct} named correctly, {one.unsure} unsure, "
                  f"{one.invented} invented", flush=True)
        counted.add(one)
    return counted


def seed_list(text: str) -> list[int]:
    """Seeds as the docs name sets: comma-separated, each a number or A-B, every prime from A to B (the held-out
    sets measured since seed 211 are drawn with prime seeds)."""

    def prime(n: int) -> bool:
        return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))

    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            some = [n for n in range(int(low), int(high) + 1) if prime(n)] if dash else [int(low)]
        except ValueError:
            some = []
        if not some:
            raise argparse.ArgumentTypeError(
                f"no seed in {part.strip()!r}: give e.g. 7, or 11,13, or 587-887 (the primes between)")
        seeds += some
    return seeds


def checked_ranks(text: str) -> frozenset[int]:
    """``--checked-at-one``'s ranks, as letters of RANK_CHARS (``AT``), none if empty."""
    unknown = sorted(set(text.upper()) - set(RANK_CHARS))
    if unknown:
        raise argparse.ArgumentTypeError(f"not a rank: {', '.join(unknown)}; ranks are {' '.join(RANK_CHARS)}")
    return frozenset(RANK_CHARS.index(rank) for rank in text.upper())


def nearest_index(placed: list[Placed], x: float, y: float) -> str:
    """The true index nearest a point of the photo: its card, how far (in its radii) and how much of it is covered."""
    found = nearest_corner(placed, x, y)
    if found is None:
        return "no card there"
    card, corner = found
    away = math.hypot(corner.x - x, corner.y - y) / corner.radius
    covered = f"{1 - corner.share:.0%} of it covered ({1 - corner.rank_share:.0%} of its rank)"
    return f"on the index of the {card_str(card.card)} {away:.1f} radii away, {covered}"


def machine() -> str:
    """The processor, its instruction sets as OpenCV finds them, and the versions of the packages that read."""
    import platform

    import cv2
    import onnxruntime as ort  # type: ignore[import-untyped]

    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        lines = cpuinfo.read_text().splitlines()
        names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
        model = names[0] if names else model
    versions = f"onnxruntime {ort.__version__}, OpenCV {cv2.__version__}, NumPy {np.__version__}"
    core = os.environ.get("BELOTE_CORE")  # run by tools/older_core.py: the sets OpenCV lists with "?" are hidden
    older = f", as a core with {CORES[core]} (tools/older_core.py)," if core in CORES else ""
    return f"read on {model} ({cv2.getCPUFeaturesLine()}){older} with {versions}"


def memory(photos: int, seed: int) -> None:
    """The process's resident memory after each tenth of ``photos`` photos of every design, read in turn as lettered
    J Q K and В Д П, so that both letters' networks hold their memory."""

    def resident_mb() -> float:
        with open("/proc/self/status") as status:
            return int(next(r for r in status if r.startswith("VmRSS:")).split()[1]) / 1024

    drawn = seeded_photos(DESIGNS, photos, seed)
    print(f"before the first photo: {resident_mb():.0f} MB")
    for k, (_design, image, _placed) in enumerate(drawn):
        scan_image(image, LETTERS[k % len(LETTERS)])
        if k == 0 or (k + 1) % max(1, photos // 10) == 0:
            print(f"after {k + 1:3} photos: {resident_mb():.0f} MB")


def geometric_mean(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Two networks' probabilities (a row a patch), combined: a card keeps only what both read."""
    mean = np.sqrt(np.maximum(p, 1e-9) * np.maximum(q, 1e-9))
    return np.asarray(mean / mean.sum(axis=1, keepdims=True), np.float32)


def pair_with(second: Path) -> None:
    """The scanner reads each mark with the reader and ``second`` and keeps the geometric mean of the two."""
    from bot.scanner import recognise

    def read_marks(work: Any, found: np.ndarray, model: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
        upright, turns, read = recognise.read_upright(work, found)  # cut once, read by both
        p, q = (recognise.run(m, "card", upright) for m in (model or recognise.MODEL, second))
        return recognise.with_plain(len(found), read, geometric_mean(p, q)), turns

    recognise.read_marks = read_marks


def index_pair_with(second: Path) -> None:
    """Every frame the index network (latin letters) reads is read by ``second`` too: the geometric mean of their
    cards, the mean of their corrections."""
    from bot.scanner import recognise

    alone = recognise.run_all

    def run_all(model: Path, outputs: tuple[str, ...], patches: np.ndarray) -> list[np.ndarray]:
        first = alone(model, outputs, patches)
        if model != recognise.INDEX:
            return first
        other = alone(second, outputs, patches)
        pairs = zip(outputs, first, other, strict=True)
        return [geometric_mean(a, b) if name == "card" else (a + b) / 2 for name, a, b in pairs]

    recognise.run_all = run_all


def worst() -> None:
    """The work per photo is bounded by MAX_MARKS whatever the picture holds: time a picture that reaches it."""
    import cv2

    from bot.scanner.patches import MAX_MARKS, marks, prepare

    rng = np.random.default_rng(0)
    image = np.full((3024, 4032, 3), 230, np.uint8)
    for _ in range(9000):
        at = (int(rng.integers(0, 4000)), int(rng.integers(30, 3024)))
        colour = tuple(int(c) for c in rng.integers(0, 200, size=3))
        cv2.putText(image, str(rng.choice(list("7891JQKA0"))), at, cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(1, 2.2)),
                    colour, 3)
    for _ in range(200):
        a, b = (tuple(int(v) for v in rng.integers(0, 4000, size=2)) for _ in range(2))
        cv2.line(image, a, b, (40, 40, 40), 6)
    found = len(marks(prepare(image)))
    scan_image(image)  # the models loaded
    start = time.process_time()
    scan_image(image)
    print(f"worst case: {found} marks examined (bound {MAX_MARKS}), {time.process_time() - start:.2f} s (one core)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--seed", type=seed_list, default=[7], help="the set's seed, or several sets pooled: "
                        "comma-separated, A-B for every prime from A to B (e.g. 587-887, the 48 held-out sets of "
                        "docs/scanner.md)")
    parser.add_argument("--jobs", type=int, default=1, help="sets read at once, each on its own core")
    parser.add_argument("--sure", type=float, help="the confidence from which a card is named (the shipped one if not "
                        "given): it trades named cards for invented ones")
    parser.add_argument("--also", default="", help="other thresholds to report, e.g. 0.995,0.999 (read on the same "
                        "scans; from 0.4, where unsure cards start)")
    parser.add_argument("--only", choices=tuple(SETS), help="one set of designs (each in turn if not given)")
    parser.add_argument("--side", type=int, default=1024, help="the photos' longer side in pixels: the same layouts "
                        "drawn larger, their blur, noise and JPEG blocks as many pixels, so smaller once the scanner "
                        "reduces the photo to 1024 (as a phone's photo is); a smaller one is saved again at "
                        "JPEG 70, as a chat sends it")
    parser.add_argument("--letters", choices=("latin", "cyrillic"), help="read every set as a pack lettered J Q K "
                        "(latin) or В Д П (cyrillic); if not given, the В Д П set as cyrillic and the others as latin")
    parser.add_argument("--reader", type=Path, help="another reader model than the shipped one (a training run's), "
                        "for the letters read")
    parser.add_argument("--turn", type=Path, help="another turn model than the shipped one")
    parser.add_argument("--index", type=Path, help="another index network than the shipped one, for the letters read")
    parser.add_argument("--no-index", action="store_true", help="read the marks alone, no index read in its frame")
    parser.add_argument("--with-reader", type=Path, help="a second reader, its readings combined with the first's")
    parser.add_argument("--with-index", type=Path, help="a second index network, its readings of every frame combined "
                        "with the first's (lettered J Q K)")
    parser.add_argument("--cover", type=Path, help="another network in place of the first of the check of covered "
                        "indices")
    parser.add_argument("--no-cover", action="store_true", help="no check of covered indices")
    parser.add_argument("--court", type=Path, help="another court network than the shipped one")
    parser.add_argument("--no-court", action="store_true", help="no card asked about for the court network's reading")
    parser.add_argument("--misread-sure", type=float, help="how surely an index must be read for a glyph on it read as "
                        "its rank in another suit to be asked about (the shipped MISREAD_SURE if not given)")
    parser.add_argument("--strict-as-any", action="store_true",
                        help="the strict threshold's marks vote like any other (no STRICT_VOTE rule)")
    parser.add_argument("--cleared-alone-names", action="store_true",
                        help="a card read at two marks of the cleared split and no other is named, as before")
    parser.add_argument("--checked-at-one", type=checked_ranks, metavar="RANKS",
                        help="the ranks checked even when named at 1.0, e.g. AT (shipped), A (as before tens were) or "
                        "'' (none, as before aces were)")
    parser.add_argument("--list", action="store_true", help="name each card invented, and the true index nearest it")
    parser.add_argument("--networks", action="store_true", help="where a photo's seconds go: each network's, and the "
                        "rest")
    parser.add_argument("--worst", action="store_true", help="time the bounded worst case instead")
    parser.add_argument("--memory", action="store_true", help="the resident memory as the photos are read instead")
    args = parser.parse_args()
    from bot.scanner import recognise

    print(machine(), flush=True)

    if args.sure is not None:
        recognise.SURE = args.sure
    if args.reader is not None:
        recognise.MODEL = recognise.MODEL_VDP = args.reader
    if args.index is not None:
        recognise.INDEX = recognise.INDEX_VDP = args.index
    recognise.TURN = args.turn or recognise.TURN
    if args.no_index:
        recognise.PRUNE = -1.0  # no mark leads to a frame
    recognise.COVER = args.cover or recognise.COVER
    if args.no_cover:
        recognise.uncovered = lambda *_: set()
    recognise.COURT_NETWORK = args.court or recognise.COURT_NETWORK
    if args.no_court:
        recognise.court_gainsaid = lambda *_: set()
    if args.misread_sure is not None:
        recognise.MISREAD_SURE = args.misread_sure
    recognise.CLEARED_ALONE_NAMES = args.cleared_alone_names
    if args.checked_at_one is not None:
        recognise.CHECKED_AT_ONE = args.checked_at_one
    if args.with_reader is not None:
        pair_with(args.with_reader)
    if args.with_index is not None:
        index_pair_with(args.with_index)
    if args.networks:
        count_networks()  # before the sets are forked: each worker counts its own calls
    if args.strict_as_any:
        recognise.STRICT_SPLIT = -1  # no mark is of the strict split: each votes from UNSURE and names alone
    if args.worst:
        worst()
        return
    ensure_packages()
    if args.memory:
        memory(args.photos, args.seed[0])
        return
    others = tuple(float(t) for t in args.also.split(",") if t)
    for kind in SETS:
        if args.only in (None, kind):
            run(kind, args.photos, args.seed, others, args.side, args.letters, args.list, args.jobs)


if __name__ == "__main__":
    main()
