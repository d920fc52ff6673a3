"""Every reading of every photo, recorded once, so that rules combining them are counted on the same readings.

    python bench/readings.py record OUT.jsonl [--seed 1597-2339] [--photos 40] [--side 1024] [--only held-out]
                                              [--jobs 2]
    python bench/readings.py count IN.jsonl [IN.jsonl ...] [--list] [--overrule 0.95] [--place 0.012] [--edge 0.012]
                                                    [--vdp-again] [--pair-sure 0.99]

The scanner reads a photo two or three times (bot.scanner.recognise.readings: at the working size, at AGREE_SIDE, and
turned where those two name other cards or both name one weakly) and names a card where two readings name it
(``answer``). ``record`` reads each photo of the sets all three ways, the third even where the first two agree, and
writes one JSON line a photo with its truth; ``count`` puts each photo's readings through the scanner's own
``answer`` and prints the bench's figures (bench/scan.py), which are the bench's own for the same sets: a change to
``answer`` or ``two_of_three`` is measured by counting again, in seconds, where reading the photos again takes an
hour. Recording needs the training extra and the card packages, as bench/scan.py does.

One line a photo (``belote-readings/1``); cards as the engine writes them (``7C``, ``TD``, ``AS``; any spelling
``bot.engine.cards.parse_card`` reads is read):

    {"format": "belote-readings/1", "seed": 1597, "photo": 0, "width": 1024, "height": 768, "kind": "held-out",
     "design": "lattmann", "letters": "latin",
     "present": ["7C", "KD"],        # the cards in the photo
     "visible": ["7C"],              # those with a corner to be seen (the others count as neither named nor missed)
     "readings": [                   # one to three, in the scanner's order: first, second, turned
       {"named": [["7C", 1.0, 312.5, 140.0, 90.0]],   # card, confidence, x, y, angle as bot.scanner.Found has them
        "unsure": [["KD", 0.81, 402.0, 133.5, 270.0]]},
       ...]}

A pack lettered В Д П (``--only cyrillic``, ``letters`` "cyrillic") is read once by the scanner; ``record`` reads it all
three ways too, and ``count`` weighs its first reading alone, as the scanner does, or with ``--vdp-again`` all of them,
as a pack lettered J Q K is weighed. ``kind`` and ``letters`` may be left out (``held-out``, ``latin``). ``width`` and
``height`` are the photo's size in pixels, those of the cards' places, in which two cards read at one index
(``recognise.PLACE``) and a card named at the edge (``recognise.EDGE``) are told. Lines recorded before the edge rule
give only ``side``, the longer side (1024 if left out too): the count leaves the edge rule out for those photos and says
how many there were. ``seed``, ``photo`` and ``design`` only label a card invented. A line that is not such an object
stops the count with its line number and what was wrong.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as the bot reads a photo

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from multiprocessing import Pool
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scan import READ_AS, SETS, Tally, report, seed_list
from bot.engine.cards import card_str, parse_card
from bot.scanner import recognise
from bot.scanner.patches import WORK_SIDE
from bot.scanner.recognise import LETTERS, Found, Reading, at_the_edge, combined, readings
from training.designs import designs_of, ensure_packages
from training.frames import as_read
from training.synth import seeded_photos

FORMAT = "belote-readings/1"


class BadLine(ValueError):
    """A recorded line the count cannot read: where, and what was wrong."""


def encoded(reading: Reading) -> dict[str, list[list[Any]]]:
    def one(f: Found) -> list[Any]:
        return [card_str(f.card), f.confidence, f.x, f.y, f.angle]  # as read: a rule's edge is kept exact

    return {"named": [one(f) for f in reading[0]], "unsure": [one(f) for f in reading[1]]}


def record_set(task: tuple[str, int, int, int]) -> list[str]:
    """The JSON lines of one set: photos 0 to ``photos`` - 1 of ``seed``, of the designs of ``kind``."""
    kind, photos, seed, side = task
    letters = READ_AS.get(kind, "latin")
    lines = []
    for photo, (design, image, placed) in enumerate(seeded_photos(designs_of(kind), photos, seed, side)):
        read = readings(as_read(image), letters, every=True)
        height, width = image.shape[:2]
        lines.append(json.dumps({
            "format": FORMAT, "seed": seed, "photo": photo, "width": width, "height": height, "kind": kind,
            "design": design.name,
            "letters": letters, "present": sorted(card_str(p.card) for p in placed),
            "visible": sorted(card_str(p.card) for p in placed if p.seen),
            "readings": [encoded(r) for r in read],
        }, ensure_ascii=False))
    return lines


def record(out: Path, kind: str, photos: int, seeds: list[int], side: int, jobs: int) -> None:
    ensure_packages()
    tasks = [(kind, photos, seed, side) for seed in seeds]
    pool = Pool(jobs) if jobs > 1 and len(tasks) > 1 else None
    with out.open("w", encoding="utf-8") as f, pool or nullcontext():
        sets = pool.imap(record_set, tasks) if pool else map(record_set, tasks)
        for seed, lines in zip(seeds, sets, strict=True):
            f.write("".join(line + "\n" for line in lines))
            f.flush()  # a long run's sets are kept as they come
            print(f"  seed {seed}: {len(lines)} photos", flush=True)


def confidence(text: str) -> float:
    """A confidence given on the command line: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a confidence is a number from 0 to 1, not {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a confidence is a number from 0 to 1, not {value}")
    return value


def card(value: Any, what: str) -> int:
    if not isinstance(value, str):
        raise BadLine(f"{what}: a card is a string such as \"7C\" or \"TD\", not {value!r}")
    try:
        return parse_card(value)
    except ValueError as error:
        raise BadLine(f"{what}: {error}") from None


def number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadLine(f"{what}: a number, not {value!r}")
    return float(value)


def found_list(value: Any, what: str) -> tuple[Found, ...]:
    if not isinstance(value, list):
        raise BadLine(f"{what}: a list of [card, confidence, x, y, angle], not {value!r}")
    cards = []
    for k, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 5:
            raise BadLine(f"{what}[{k}]: [card, confidence, x, y, angle], not {item!r}")
        confidence = number(item[1], f"{what}[{k}] confidence")
        if not 0.0 <= confidence <= 1.0:
            raise BadLine(f"{what}[{k}]: a confidence from 0 to 1, not {confidence}")
        cards.append(Found(card(item[0], f"{what}[{k}]"), confidence, number(item[2], f"{what}[{k}] x"),
                           number(item[3], f"{what}[{k}] y"), number(item[4], f"{what}[{k}] angle")))
    return tuple(sorted(cards, key=lambda f: f.card))  # a reading lists its cards in card order


def card_set(row: dict[str, Any], key: str) -> set[int]:
    value = row.get(key)
    if not isinstance(value, list):
        raise BadLine(f"{key!r}: a list of cards, not {value!r}")
    return {card(c, key) for c in value}


class Photo(NamedTuple):
    """One recorded line, read."""

    kind: str  # of designs
    letters: str
    present: set[int]
    visible: set[int]
    found: list[Reading]
    where: str  # the photo's label
    longer: int  # its longer side in pixels
    size: tuple[int, int] | None  # its width and height, where the line gives them


def pixels(row: dict[str, Any], key: str) -> int | None:
    """The line's ``key`` ("width", "height" or "side"), if it gives one: a whole number of pixels."""
    value = row.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        what = "longer side" if key == "side" else key
        raise BadLine(f"{key!r}: the photo's {what} in pixels, a whole number, not {value!r}")
    return value


def photo_of(line: str) -> Photo:
    """One recorded line."""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(row, dict):
        raise BadLine(f"a JSON object a photo, not {type(row).__name__}")
    if row.get("format", FORMAT) != FORMAT:
        raise BadLine(f"format {row['format']!r}; this count reads {FORMAT!r}")
    kind = row.get("kind", "held-out")
    if kind not in SETS:
        raise BadLine(f"kind {kind!r}; one of {', '.join(SETS)}")
    present, visible = card_set(row, "present"), card_set(row, "visible")
    if not visible <= present:
        raise BadLine(f"visible cards not present: {' '.join(card_str(c) for c in sorted(visible - present))}")
    read = row.get("readings")
    if not isinstance(read, list) or not 1 <= len(read) <= 3:
        raise BadLine(f"'readings': a list of one to three readings, not {read!r}")
    found: list[Reading] = []
    for k, reading in enumerate(read):
        if not isinstance(reading, dict):
            raise BadLine(f"readings[{k}]: an object with 'named' and 'unsure', not {reading!r}")
        found.append((found_list(reading.get("named", []), f"readings[{k}].named"),
                      found_list(reading.get("unsure", []), f"readings[{k}].unsure")))
    letters = row.get("letters", "latin")
    if letters not in LETTERS:
        raise BadLine(f"letters {letters!r}; one of {', '.join(LETTERS)}")
    if letters == "latin" and len(found) == 1:
        raise BadLine("one reading of a pack lettered J Q K: the scanner reads such a photo two or three times")
    where = f"seed {row.get('seed', '?')} photo {row.get('photo', '?')} ({row.get('design', '?')})"
    width, height, side = pixels(row, "width"), pixels(row, "height"), pixels(row, "side")
    if (width is None) != (height is None):
        raise BadLine("'width' and 'height': both, or neither (then 'side', the longer side)")
    if width is None or height is None:
        return Photo(kind, letters, present, visible, found, where, side or WORK_SIDE, None)
    if side is not None and side != max(width, height):
        raise BadLine(f"'side' {side} is not the longer of 'width' {width} and 'height' {height}")
    return Photo(kind, letters, present, visible, found, where, max(width, height), (width, height))


def count(lines: Iterable[tuple[str, str]], vdp_again: bool = False) -> tuple[dict[str, Tally], int]:
    """Each photo's readings put through the scanner's ``answer`` and counted, by kind of designs; ``lines`` are
    (where, line). A pack lettered В Д П by its first reading alone, as the scanner reads it, unless ``vdp_again``.
    Also how many photos gave no width and height, whose answer leaves out ``at_the_edge``."""
    tallies: dict[str, Tally] = {}
    unplaced = 0
    for where_line, line in lines:
        if not line.strip():
            continue
        try:
            photo = photo_of(line)
        except BadLine as error:
            raise BadLine(f"{where_line}: {error}") from None
        found = photo.found if photo.letters == "latin" or vdp_again else photo.found[:1]
        named, unsure = combined(found, photo.longer)
        if photo.size is None:
            unplaced += 1
        else:
            named, unsure = at_the_edge((named, unsure), *photo.size)
        tallies.setdefault(photo.kind, Tally()).photo(photo.present, photo.visible, named, unsure, photo.where)
    return tallies, unplaced


def lines_of(paths: list[Path]) -> Iterator[tuple[str, str]]:
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for number_, line in enumerate(f, 1):
                yield f"{path.name} line {number_}", line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    rec = verbs.add_parser("record", help="read photos every way and write their readings")
    rec.add_argument("out", type=Path)
    rec.add_argument("--seed", type=seed_list, default=[7])
    rec.add_argument("--photos", type=int, default=60)
    rec.add_argument("--side", type=int, default=1024)
    rec.add_argument("--only", choices=tuple(SETS), default="held-out",
                     help="the designs (those drawn with В Д П are read as a pack so lettered, all three ways)")
    rec.add_argument("--jobs", type=int, default=1, help="sets read at once, each on its own core")
    cnt = verbs.add_parser("count", help="the figures of recorded readings, as the scanner combines them")
    cnt.add_argument("files", type=Path, nargs="+")
    cnt.add_argument("--list", action="store_true", help="name each card invented")
    cnt.add_argument("--overrule", type=confidence, metavar="CONFIDENCE",
                     help="how surely the two others must name a card the first reading does not name "
                          "(recognise.OVERRULE if not given, 0.95)")
    cnt.add_argument("--place", type=confidence, metavar="SHARE",
                     help="within what share of the photo's longer side two cards are read at one index "
                          "(recognise.PLACE if not given; 0: never, as before that rule)")
    cnt.add_argument("--vdp-again", action="store_true",
                     help="weigh every recorded reading of a pack lettered В Д П, as of one lettered J Q K (the "
                          "scanner reads such a pack once: its first reading alone is counted if not given)")
    cnt.add_argument("--edge", type=confidence, metavar="SHARE",
                     help="within what share of the photo's longer side of its edge a card named under "
                          "recognise.EDGE_SURE is asked about (recognise.EDGE if not given; 0: never)")
    cnt.add_argument("--pair-sure", type=confidence, metavar="CONFIDENCE",
                     help="under what confidence a card both first readings name is named only where the turned one "
                          "names it too (recognise.PAIR_SURE if not given, 0.99; 0: never, as before that rule)")
    args = parser.parse_args(argv)
    if args.verb == "record":
        record(args.out, args.only, args.photos, args.seed, args.side, args.jobs)
        return 0
    if args.overrule is not None:
        recognise.OVERRULE = args.overrule
    if args.place is not None:
        recognise.PLACE = args.place
    if args.edge is not None:
        recognise.EDGE = args.edge
    if args.pair_sure is not None:
        recognise.PAIR_SURE = args.pair_sure
    try:
        tallies, unplaced = count(lines_of(args.files), args.vdp_again)
    except (BadLine, OSError) as error:
        print(f"readings: {error}", file=sys.stderr)
        return 2
    if not tallies:
        print("readings: no photo recorded in " + ", ".join(str(p) for p in args.files), file=sys.stderr)
        return 2
    for kind, counted in tallies.items():
        report(kind, READ_AS.get(kind, "latin"), counted, args.list, timed=False)
    if unplaced:
        photos = "1 photo" if unplaced == 1 else f"{unplaced} photos"
        print(f"  {photos} recorded without 'width' and 'height': the edge rule (recognise.EDGE) left out there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
