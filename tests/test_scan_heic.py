"""HEIC, the format phones save photos in, read as the other formats are: the same cards as the JPEG it was made
from, its size bounded from the file's header before anything is decoded, a damaged file refused in one line."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
import pytest

from bot.scanner import MAX_PIXELS, ScanError, decode, scan_bytes
from bot.scanner.patches import WORK_SIDE
from tests.test_scan_cli import refused, run

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "scan"
HEIC = DATA / "photo1.heic"  # photo1.jpg saved as HEIC at quality 90 (tests/data/scan/README)


def heic(image: np.ndarray, quality: int = 90) -> bytes:
    """``image`` (BGR) saved as a phone saves a photo."""
    buffer = io.BytesIO()
    pillow_heif.from_bytes("BGR", (image.shape[1], image.shape[0]), image.tobytes()).save(buffer, quality=quality)
    return buffer.getvalue()


def claiming(data: bytes, width: int, height: int) -> bytes:
    """The HEIC ``data`` with its image-size box (``ispe``: version and flags, then width and height, 32 bits each,
    ISO/IEC 23008-12 6.5.3) saying ``width`` x ``height``: a few kilobytes that claim a huge picture."""
    at = data.index(b"ispe")
    assert data.count(b"ispe") == 1
    return data[: at + 8] + struct.pack(">II", width, height) + data[at + 16 :]


def test_a_heic_photo_names_the_cards_of_the_jpeg_it_was_made_from() -> None:
    jpeg = scan_bytes((DATA / "photo1.jpg").read_bytes())
    read = scan_bytes(HEIC.read_bytes())
    assert [f.card for f in read.cards] == [f.card for f in jpeg.cards] and len(read.cards) >= 8
    assert [f.card for f in read.unsure] == [f.card for f in jpeg.unsure]
    answer = run(str(HEIC), "--contract", "hearts")
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.decode().startswith(f"{len(read.cards)} cards: ")


def test_a_large_heic_is_reduced_by_halves_as_a_jpeg_is() -> None:
    image = cv2.resize(cv2.imread(str(DATA / "photo1.jpg")), (2200, 1650), interpolation=cv2.INTER_CUBIC)
    data = heic(image)
    assert decode(data).shape == (1650, 2200, 3)
    assert decode(data, work_side=WORK_SIDE).shape == (825, 1100, 3)  # a half: a quarter would be under 1024


def test_a_heic_claiming_a_huge_picture_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = claiming(HEIC.read_bytes(), 9000, 8000)  # 72 megapixels; its pixels would not even decode at that size
    with pytest.raises(ScanError) as raised:
        decode(bomb)
    assert raised.value.reason == "pixels" and f"up to {MAX_PIXELS // 1_000_000} megapixels" in str(raised.value)
    file = tmp_path / "IMG_0001.HEIC"
    file.write_bytes(bomb)
    assert "too large" in refused(run(str(file)))


def test_a_heic_whose_size_lies_or_that_is_cut_off_is_refused(tmp_path: Path) -> None:
    data = HEIC.read_bytes()
    with pytest.raises(ScanError) as raised:
        decode(claiming(data, 640, 480))  # within bounds, but not the size its pixels decode to
    assert raised.value.reason == "damaged"
    for cut in (40, 400, len(data) // 2):
        file = tmp_path / f"cut-{cut}.heic"
        file.write_bytes(data[:cut])
        line = refused(run(str(file)))
        assert "not an image that can be read" in line or "damaged" in line, line
        assert "HEIC" in line
    # the HEIF brand on bytes that are no HEIF at all
    with pytest.raises(ScanError) as raised:
        decode(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64))
    assert raised.value.reason == "format"


def test_a_heif_brand_among_the_compatible_ones_is_enough() -> None:
    """ISO/IEC 14496-12 4.3: the major brand may be any other, so long as a compatible brand is one the reader
    knows; some phones write their own first."""
    data = HEIC.read_bytes()
    assert data[8:12] == b"heic" and b"mif1heic" in data[16:28]
    own_brand = data[:8] + b"MiHE" + data[12:]
    assert decode(own_brand).shape == decode(data).shape == (600, 800, 3)
    with pytest.raises(ScanError) as raised:  # the brands of HEIF, the bytes of nothing: libheif's refusal
        decode(b"\x00\x00\x00\x18ftypMiHE\x00\x00\x00\x00MiHEmif1" + bytes(64))
    assert raised.value.reason == "format" and "HEIC" in str(raised.value)


def test_without_the_heic_extra_a_heic_photo_is_refused_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # installed without belote-bot[heic]: the import fails
    with pytest.raises(ScanError) as raised:
        decode(HEIC.read_bytes())
    assert raised.value.reason == "heic" and "belote-bot[heic]" in str(raised.value)
    assert decode((DATA / "photo1.jpg").read_bytes()).shape == (600, 800, 3)  # the other formats need nothing more


def test_the_decode_bench_times_both_formats_at_the_sizes_the_scanner_reads() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "photo_decode.py"), "--side", "2100", "--repeat", "1"],
                          capture_output=True, check=True, timeout=120)
    lines = done.stdout.decode().splitlines()
    assert "2100 x 1575 pixels (3.3 megapixels), one core" in lines[0]
    for name in ("jpeg", "heic"):
        [line] = [line for line in lines if line.strip().startswith(f"{name}:")]
        assert "chat " in line and "(1050 x 788)" in line and "command line " in line and "(2100 x 1575)" in line
