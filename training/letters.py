"""Packs printed with Bulgarian index letters: В Д П (вале, дама, поп) for the jack, queen and king, where other
packs print J Q K (or the German B D K). No package of the registries ships such a pack, so one is drawn from a
design that does: in both corner indices of each court card the rank's letter is painted over with the paper around
it, and the Cyrillic letter written in its place, in the letter's ink and at its height (DejaVu Sans Bold, Debian's
fonts-dejavu-core). The suits, the pictures and the other ranks stay as the design draws them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
CYRILLIC = {4: "В", 5: "Д", 6: "П"}  # rank index of bot.engine.cards (7 8 9 10 J Q K A) -> its letter
Box = tuple[int, int, int, int]


def rank_box(face: np.ndarray) -> Box | None:
    """The rank's letter of a face's top-left index (x0, y0, x1, y1, inclusive): the rows of ink from the index's
    top down to the first row without ink, which parts the rank from the suit under it."""
    from training.designs import index_box, inked

    box = index_box(face)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    rows = inked(face[y0 : y1 + 1, x0 : x1 + 1]).any(axis=1)
    inked = np.flatnonzero(rows)
    if len(inked) == 0:
        return None
    top = int(inked[0])
    gap = np.flatnonzero(~rows[top:])
    bottom = top + (int(gap[0]) if len(gap) else len(rows) - top) - 1
    return x0, y0 + top, x1, y0 + bottom


def relettered(face: np.ndarray, letter: str) -> np.ndarray:
    """``face`` (BGRA) with the rank's letter of its top-left index replaced by ``letter``."""
    from PIL import Image, ImageDraw, ImageFont

    box = rank_box(face)
    if box is None:
        return face
    x0, y0, x1, y1 = box
    out = face.copy()
    glyph = out[y0 : y1 + 1, x0 : x1 + 1, :3].reshape(-1, 3)
    ink = glyph[glyph.astype(np.int32).sum(axis=1).argmin()]  # the letter's darkest pixel: its colour
    above, below = out[max(0, y0 - 2), x0 : x1 + 1, :3], out[min(len(out) - 1, y1 + 2), x0 : x1 + 1, :3]
    paper = np.median(np.concatenate([above, below]), axis=0).astype(np.uint8)
    out[max(0, y0 - 1) : y1 + 2, max(0, x0 - 1) : x1 + 2, :3] = paper
    high = y1 - y0 + 1
    font = ImageFont.truetype(str(FONT), 5)
    for size in range(2 * high, 4, -1):  # the largest size whose letter is no taller than the one it replaces
        font = ImageFont.truetype(str(FONT), size)
        left, top, right, bottom = font.getbbox(letter)
        if bottom - top <= high:
            break
    left, top, right, bottom = font.getbbox(letter)
    picture = Image.fromarray(np.ascontiguousarray(out[:, :, 2::-1]))  # BGR -> RGB
    at = ((x0 + x1 + 1) / 2 - (left + right) / 2, y0 - top)
    ImageDraw.Draw(picture).text(at, letter, font=font, fill=tuple(int(c) for c in ink[::-1]))
    out[:, :, :3] = np.asarray(picture)[:, :, ::-1]
    return out


def cyrillic(faces: list[np.ndarray]) -> list[np.ndarray]:
    """The 32 faces (card order) with В Д П in both corner indices of the court cards: the bottom-right index is the
    top-left one of the face turned half round."""
    out = []
    for card, face in enumerate(faces):
        letter = CYRILLIC.get(card & 7)
        if letter:
            face = relettered(face, letter)
            face = np.ascontiguousarray(relettered(np.ascontiguousarray(face[::-1, ::-1]), letter)[::-1, ::-1])
        out.append(face)
    return out
