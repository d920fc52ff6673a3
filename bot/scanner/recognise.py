"""Read the cards of a photo: decode it within bounds, run the model over every mark at every turn, keep each
card's best reading. A card read below SURE is reported as unsure, never counted; one below UNSURE is not reported.
A pack has each card once, so a card read at several places (its two corners) is one card.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime as ort  # type: ignore[import-untyped]

from .patches import ANGLES, features, marks, prepare

MODEL = Path(__file__).with_name("model.onnx")
MAX_BYTES = 25 * 1024 * 1024  # a phone's photo is 2-8 MB
MAX_PIXELS = 50_000_000  # and 12-48 megapixels
SURE = 0.9
UNSURE = 0.4
BACKGROUND = 32


class ScanError(ValueError):
    """The input cannot be read as a photo (the message says why, in one line)."""


@dataclass(frozen=True, slots=True)
class Found:
    """One card read: the card (bot.engine.cards numbering), how sure, and where its index is in the photo."""

    card: int
    confidence: float
    x: float
    y: float
    angle: float  # degrees clockwise from up: the direction the card's top points


@dataclass(frozen=True, slots=True)
class Scan:
    width: int
    height: int
    cards: tuple[Found, ...]  # read surely, in card order
    unsure: tuple[Found, ...]  # read below SURE: shown to the player, not counted


@lru_cache(maxsize=1)
def _session() -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # a chat bot serves many; one core per photo
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(MODEL), options, providers=["CPUExecutionProvider"])


def decode(data: bytes) -> npt.NDArray[np.uint8]:
    """The photo's pixels (BGR), or ScanError saying what is wrong with the bytes."""
    if len(data) > MAX_BYTES:
        raise ScanError(f"the file is {len(data) / 2**20:.1f} MB; photos up to {MAX_BYTES // 2**20} MB are read")
    if not data:
        raise ScanError("the file is empty; give a photo (JPEG, PNG or WebP)")
    raw = np.frombuffer(data, np.uint8)
    # the size from the header first, so a small file that claims a huge picture is refused before decoding
    header = cv2.imdecode(raw, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None:
        raise ScanError("this is not an image that can be read; give a photo (JPEG, PNG or WebP)")
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS:
        raise ScanError(f"the picture is too large; up to {MAX_PIXELS // 1_000_000} megapixels are read")
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if image is None:
        raise ScanError("the image is damaged and cannot be read; give a photo (JPEG, PNG or WebP)")
    return np.asarray(image, np.uint8)


def scan_bytes(data: bytes) -> Scan:
    return scan_image(decode(data))


def scan_image(image: npt.NDArray[np.uint8]) -> Scan:
    height, width = image.shape[:2]
    work = prepare(image)
    found = marks(work)
    if len(found) == 0:
        return Scan(width, height, (), ())
    session = _session()
    x = features(work, found)
    probabilities = session.run(None, {session.get_inputs()[0].name: x})[1]
    p = np.asarray(probabilities, np.float32).reshape(len(found), ANGLES, BACKGROUND + 1)[:, :, :BACKGROUND]
    best: dict[int, Found] = {}
    flat = p.reshape(len(found), -1)
    for mark in range(len(found)):
        at = int(flat[mark].argmax())
        confidence = float(flat[mark, at])
        if confidence < UNSURE:
            continue
        turn, card = divmod(at, BACKGROUND)
        if card not in best or confidence > best[card].confidence:
            mx, my, _ = found[mark]
            best[card] = Found(
                card, round(confidence, 4), round(float(mx) * work.scale, 1), round(float(my) * work.scale, 1),
                turn * 360.0 / ANGLES,
            )
    ordered = sorted(best.values(), key=lambda f: f.card)
    return Scan(
        width,
        height,
        tuple(f for f in ordered if f.confidence >= SURE),
        tuple(f for f in ordered if f.confidence < SURE),
    )
