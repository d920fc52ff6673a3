"""How long the scanner takes to decode a phone's photo, as JPEG and as HEIC (the format most phones save in), before
any card is read: the chat's path (a large picture decoded at a half, a quarter or an eighth of its size, never under
1024 pixels on its longer side) and the command line's (the whole picture), on one core.

    python bench/photo_decode.py [--side 4032] [--repeat 7]

The photo is a committed test photo enlarged to a phone's size (4032 x 3024 by default, 12 megapixels) and saved
at JPEG quality 90 and HEIC quality 80. Each figure is the best of --repeat runs, each in this process pinned to one
core; the resident memory each format's decode adds (Linux) is measured in a process of its own.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.scanflow import MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS  # noqa: E402
from bot.scanner import decode  # noqa: E402
from bot.scanner.patches import WORK_SIDE  # noqa: E402

PHOTO = ROOT / "tests" / "data" / "scan" / "photo1.jpg"


def phone_photo(side: int) -> np.ndarray:
    image = cv2.imread(str(PHOTO))
    scale = side / max(image.shape[:2])
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    return cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)


def encoded(image: np.ndarray) -> dict[str, bytes]:
    import pillow_heif

    heic = io.BytesIO()
    pillow_heif.from_bytes("BGR", (image.shape[1], image.shape[0]), image.tobytes()).save(heic, quality=80)
    return {"jpeg": cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), "heic": heic.getvalue()}


def best(data: bytes, work_side: int | None, repeat: int) -> tuple[float, tuple[int, ...]]:
    seconds, shape = [], ()
    for _ in range(repeat):
        start = time.perf_counter()
        shape = decode(data, MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, work_side=work_side).shape
        seconds.append(time.perf_counter() - start)
    return min(seconds), shape


def memory_of(path: Path) -> int:
    """The peak resident memory (KB) above the process's resident memory before decoding ``path`` the chat's way, in
    a process of its own: its peak is reset once the decoder is loaded (Linux's clear_refs), then read (VmHWM)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[2]);"
        "from bot.scanner import decode; from bot.scanner.patches import WORK_SIDE;"
        "data = open(sys.argv[1], 'rb').read(); decode(data, work_side=WORK_SIDE);"
        "kb = lambda key: int(next(l for l in open('/proc/self/status') if l.startswith(key)).split()[1]);"
        "open('/proc/self/clear_refs', 'w').write('5'); before = kb('VmRSS:');"
        "decode(data, work_side=WORK_SIDE); print(kb('VmHWM:') - before)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path), str(ROOT)], capture_output=True, check=True)
    return int(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--side", type=int, default=4032, help="the photo's longer side in pixels")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    image = phone_photo(args.side)
    print(f"{platform.processor() or platform.machine()}, OpenCV {cv2.__version__}; a photo of "
          f"{image.shape[1]} x {image.shape[0]} pixels ({image.shape[0] * image.shape[1] / 1e6:.1f} megapixels), "
          f"one core, best of {args.repeat}")
    for name, data in encoded(image).items():
        decode(data, work_side=WORK_SIDE)  # the first decode loads the decoder
        chat, chat_shape = best(data, WORK_SIDE, args.repeat)
        whole, whole_shape = best(data, None, args.repeat)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"photo.{name}"
            path.write_bytes(data)
            memory = memory_of(path)
        print(f"{name:>5}: {len(data) / 2**20:.2f} MB; chat {chat:.3f} s ({chat_shape[1]} x {chat_shape[0]}), "
              f"command line {whole:.3f} s ({whole_shape[1]} x {whole_shape[0]}); the chat's decode adds "
              f"{memory / 1024:.0f} MB resident at its peak")
    print(f"(the process's peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)")


if __name__ == "__main__":
    main()
