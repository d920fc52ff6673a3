"""Card designs for the scanner's training and measurement: which Debian package ships each, and how its faces are
rendered to PNG.

Each design is one SVG file of a Debian package. ``ensure_packages`` installs the packages with apt-get when they
are missing (as root; otherwise it says which command to run), and ``render_design`` draws the 32 faces of the
belote pack with ``rsvg-convert`` (package librsvg2-bin) into a cache folder. None of this is needed to run the
scanner: only training and the benchmark's photo synthesis use it.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5", "librsvg2-bin", "fonts-dejavu-core")
AISLERIOT = Path("/usr/share/aisleriot/cards")
KDE = Path("/usr/share/carddecks")
FACE_HEIGHT = 300
# Bumped when the faces drawn change, so that patches cut from photos of the old faces are never mixed in
# (training.train's caches): 2 since every face is rendered with its card FACE_HEIGHT tall (render_face).
FACES = 2
CACHE = Path(os.environ.get("BELOTE_SCAN_CACHE", Path.home() / ".cache" / "belote-scan"))

# rank index of bot.engine.cards (7 8 9 10 J Q K A) -> the SVG's name of that rank
_AISLERIOT_RANKS = ("7", "8", "9", "10", "jack", "queen", "king", "1")
_SUITS = ("club", "diamond", "heart", "spade")  # bot.engine.cards suit order: clubs, diamonds, hearts, spades


@dataclass(frozen=True)
class Design:
    name: str
    package: str
    path: Path
    scheme: str  # "aisleriot": club_king; "kde": king_club
    licence: str
    held_out: bool = False
    first: bool = True  # one of the nine trained designs the shipped networks learnt on; the others are added since
    letters: str = ""  # "cyrillic": the design's court cards drawn with В Д П (training.letters), not its own letters

    def element(self, card: int) -> str:
        suit, rank = _SUITS[card >> 3], _AISLERIOT_RANKS[card & 7]
        return f"{suit}_{rank}" if self.scheme == "aisleriot" else f"{rank}_{suit}"


def _a(name: str, held_out: bool = False, first: bool = True) -> Design:
    return Design(name, "gnome-cards-data", AISLERIOT / f"{name}.svgz", "aisleriot", "GPL-3+", held_out, first)


def _k(folder: str, file: str, licence: str, held_out: bool = False, first: bool = True) -> Design:
    path = KDE / f"svg-{folder}" / file
    return Design(f"kde-{folder}", "kdegames-card-data-kf5", path, "kde", licence, held_out, first)


DESIGNS: tuple[Design, ...] = (
    _a("anglo_poker"),
    _a("bellot"),
    _a("berlin"),
    _a("neoclassical"),
    _a("ornamental"),
    _a("rheinland"),
    _a("simplistic"),
    _a("tigullio"),
    _k("tigullio-international", "tigullio-international.svgz", "LGPL-2+"),
    # added since: the shipped networks never learnt on them, so the benchmark reports them apart as well (training
    # draws them with --designs all)
    _a("anglo", first=False),
    _a("anglo_modern", first=False),
    _a("atlasnye", first=False),
    _a("dondorf", first=False),
    _a("paris", first=False),
    _a("plastic", first=False),
    _k("ancient-egyptians", "Ancient_Egyptians.svgz", "GPL-2+", first=False),
    _k("jolly-royal", "jolly-royal.svgz", "GPL-2+", first=False),
    _k("nicu-white", "white.svgz", "GPL-2+", first=False),
    # never seen in training: the benchmark and tests report them apart
    _a("lattmann", held_out=True),
    _k("standard", "standard.svgz", "GPL-2+", held_out=True),
)
# The Bulgarian letters В Д П drawn on designs whose corner letters can be found and painted over cleanly (the others
# put a second, smaller letter beside the rank, or their court cards' corners are not found alike on all three);
# training draws the trained ones with --designs cyrillic, the benchmark reports the held-out ones apart.
CYRILLIC_SUFFIX = "-cyrillic"
DESIGNS += tuple(
    replace(d, name=d.name + CYRILLIC_SUFFIX, letters="cyrillic")
    for d in DESIGNS
    if d.name in ("anglo_poker", "berlin", "neoclassical", "rheinland", "simplistic", "tigullio", "lattmann",
                  "kde-standard")
)  # fmt: skip


KINDS = ("held-out", "trained", "added", "cyrillic", "cyrillic-trained")


def designs_of(kind: str) -> list[Design]:
    """One set of designs: "held-out" (never trained on), "trained" (the nine the shipped networks learnt on),
    "added" (trained designs added since, which those networks never saw); "cyrillic" (the held-out designs drawn
    with В Д П) or "cyrillic-trained" (trained designs so drawn)."""
    if kind not in KINDS:
        raise ValueError(f"no set of designs {kind!r}: {', '.join(KINDS)}")
    return [d for d in DESIGNS if kind_of(d) == kind]


def kind_of(design: Design) -> str:
    """The one set of designs (KINDS) a design belongs to."""
    if design.letters:
        return "cyrillic" if design.held_out else "cyrillic-trained"
    return "held-out" if design.held_out else "trained" if design.first else "added"


def ensure_packages() -> None:
    """Install the Debian packages that ship the designs, the SVG renderer and the letters' font, if any is
    missing."""
    from training.letters import FONT

    missing = [d.path for d in DESIGNS if not d.path.exists()]
    if not missing and shutil.which("rsvg-convert") and FONT.exists():
        return
    command = ["apt-get", "install", "-y", "--no-install-recommends", *PACKAGES]
    if os.geteuid() != 0:
        raise SystemExit("card designs missing; install them with: sudo " + " ".join(command))
    subprocess.run(["apt-get", "update"], check=True)
    subprocess.run(command, check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def _flatten(png: Path) -> np.ndarray:
    """A BGRA face cropped to its card (the alpha channel marks the card)."""
    image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"{png}: not an RGBA render")
    ys, xs = np.nonzero(image[:, :, 3] > 0)
    return np.ascontiguousarray(image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def render_design(design: Design) -> list[np.ndarray]:
    """The 32 faces (BGRA, about FACE_HEIGHT pixels tall), in card order, rendered once into the cache (a design
    drawn with other letters: its own design's faces, relettered)."""
    if design.letters:
        from training.letters import cyrillic

        return cyrillic(render_design(replace(design, name=design.name.removesuffix(CYRILLIC_SUFFIX), letters="")))
    folder = CACHE / design.name
    faces: list[np.ndarray] = []
    svg = folder / "deck.svg"
    for card in range(32):
        png = folder / f"{card:02d}.png"
        face = _flatten(png) if png.exists() else None
        if face is None or face.shape[0] < 0.9 * FACE_HEIGHT:  # drawn too small (before render_face): again
            folder.mkdir(parents=True, exist_ok=True)
            if not svg.exists():
                with _written_whole(svg) as part:
                    part.write_bytes(gzip.decompress(design.path.read_bytes()))
            face = render_face(svg, design.element(card), png)
        ratio = face.shape[0] / face.shape[1]
        if not 1.25 < ratio < 1.65:
            raise ValueError(f"{design.name}: card {card} renders as {face.shape[1]}x{face.shape[0]}, not a card")
        faces.append(face)
    return faces


def render_face(svg: Path, element: str, png: Path) -> np.ndarray:
    """One face, FACE_HEIGHT pixels tall, rendered from the element of that id into ``png``.

    ``rsvg-convert -h`` sets the height of the element's whole box, and in many decks that box is far taller than
    the card (lattmann's eight of spades: 6.8 times, kde-ancient-egyptians' queen of clubs: 14 times), so the card
    came out 21 to 250 pixels tall and was drawn into photos enlarged and blurred. It is drawn again at the height
    that makes the card itself FACE_HEIGHT."""
    height = FACE_HEIGHT
    for _ in range(3):  # the card's height grows with the box's, nearly in proportion (strokes snap to pixels)
        with _written_whole(png) as part:
            subprocess.run(["rsvg-convert", f"--export-id={element}", "-h", str(height), str(svg), "-o", str(part)],
                           check=True)  # fmt: skip
        face = _flatten(png)
        if face.shape[0] >= FACE_HEIGHT - 2:
            break
        height = round(height * FACE_HEIGHT / face.shape[0])
    return face


@contextmanager
def _written_whole(path: Path) -> Iterator[Path]:
    """A name of this process's to write a file of the cache under, put in place in one step once written: two runs
    that draw the same design at once (the bench in two shells, training beside the bench) never read a half-written
    face."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        yield part
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)


Box = tuple[int, int, int, int]


def design_index_boxes(faces: list[np.ndarray]) -> list[Box]:
    """Each face's corner index; a face whose corner cannot be read takes the design's median box."""
    found = [index_box(face) for face in faces]
    known = np.array([b for b in found if b is not None])
    median = tuple(int(v) for v in np.median(known, axis=0))
    return [b if b is not None else median for b in found]  # type: ignore[misc]


INK = 170  # on a face's grey (``inked``), darker than this is ink


def inked(face: np.ndarray) -> np.ndarray:
    """Where a face (BGRA, or a piece of one) has ink: its grey over white paper, under INK."""
    alpha = face[:, :, 3:4] / 255.0
    gray = cv2.cvtColor((face[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    return np.asarray(gray < INK)


def index_box(face: np.ndarray) -> Box | None:
    """The top-left corner index of a face (x0, y0, x1, y1): the ink found in its corner, the frame left out."""
    h, w = face.shape[:2]
    ink = inked(face).astype(np.uint8)
    x_max, y_max = int(0.26 * w), int(0.36 * h)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink[:y_max, :x_max])
    boxes = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x <= 1 or y <= 1 or x + bw >= x_max - 1 or y + bh >= y_max - 1
        if not touches and area >= 6 and max(bw, bh) >= 0.03 * w:
            boxes.append((x, y, x + bw, y + bh))
    if not boxes:
        return None
    top = min(b[1] for b in boxes)
    # the rank and the suit under it: what starts within the corner's top index height
    keep = [b for b in boxes if b[1] < top + 0.2 * h]
    return (min(b[0] for b in keep), top, max(b[2] for b in keep), max(b[3] for b in keep))
