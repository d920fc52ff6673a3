"""The scanner's memory stays bounded however many marks each photo has: the networks read a photo's patches in
batches of at most READ_BATCH patches. Read a call per photo instead, onnxruntime kept memory for every new number of
marks, and a bot that had read a few dozen photos held gigabytes. A photo is read on one core, OpenCV's steps as the
networks: the bot reads several at once."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bot.scanner import recognise
from bot.scanner.patches import MAX_MARKS


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(row for row in status if row.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def test_photos_of_many_different_mark_counts_do_not_grow_the_process() -> None:
    rng = np.random.default_rng(5)
    counts = (MAX_MARKS, 37, 900, 1, 1234, 64, 65, 400)
    recognise.run(recognise.MODEL, "card", np.zeros((recognise.READ_BATCH, 2, 64, 48), np.float32))
    recognise.run(recognise.TURN, "turn", np.zeros((recognise.READ_BATCH, 2, 32, 32), np.float32))
    recognise.run_all(recognise.INDEX, ("card", "frame"), np.zeros((recognise.READ_BATCH, 2, 64, 48), np.float32))
    before = _resident_mb()
    for n in counts:
        upright = rng.random((n, 2, 64, 48), np.float32)
        card = recognise.run(recognise.MODEL, "card", upright)
        turn = recognise.run(recognise.TURN, "turn", rng.random((n, 2, 32, 32), np.float32))
        # a row of probabilities for every patch, however many the last batch holds
        assert card.shape == (n, 33) and turn.shape == (n, 16)
        index, frame = recognise.run_all(recognise.INDEX, ("card", "frame"), upright)
        assert index.shape == (n, 33) and frame.shape == (n, 4)
        assert np.allclose(card.sum(axis=1), 1.0, atol=1e-3)
    # the patches themselves are 37 MB at MAX_MARKS; a call of MAX_MARKS patches at once kept over a gigabyte
    assert _resident_mb() - before < 200


def test_a_batch_read_in_pieces_reads_as_it_does_whole() -> None:
    rng = np.random.default_rng(6)
    upright = rng.random((recognise.READ_BATCH * 2 + 3, 2, 64, 48), np.float32)
    pieces = recognise.run(recognise.MODEL, "card", upright)
    whole = recognise._session(recognise.MODEL).run(["card"], {"patches": upright})[0]
    assert np.allclose(pieces, whole, atol=1e-5)


def test_the_last_batch_is_read_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    # blank patches filling it out to a multiple of 16 were a twentieth of the networks' work, for nothing
    session = recognise._session(recognise.MODEL)
    sizes: list[int] = []

    class Counting:
        def get_inputs(self) -> object:
            return session.get_inputs()

        def run(self, outputs: list[str], feed: dict[str, np.ndarray]) -> object:
            sizes.extend(len(batch) for batch in feed.values())
            return session.run(outputs, feed)

    monkeypatch.setattr(recognise, "_session", lambda model: Counting())
    upright = np.random.default_rng(7).random((recognise.READ_BATCH + 5, 2, 64, 48), np.float32)
    assert recognise.run(recognise.MODEL, "card", upright).shape == (recognise.READ_BATCH + 5, 33)
    assert sizes == [recognise.READ_BATCH, 5]


def test_no_patch_reads_as_no_row() -> None:
    card = recognise.run(recognise.MODEL, "card", np.zeros((0, 2, 64, 48), np.float32))
    turn = recognise.run(recognise.TURN, "turn", np.zeros((0, 2, 32, 32), np.float32))
    assert card.shape == (0, 33) and turn.shape == (0, 16)


_BOTH_LETTERS = """
import numpy as np
from bot.scanner import recognise

def resident_mb():
    with open("/proc/self/status") as status:
        return int(next(r for r in status if r.startswith("VmRSS:")).split()[1]) / 1024

rng = np.random.default_rng(1)
upright = rng.random((recognise.MAX_GUESSED, 2, 64, 48), np.float32)
turned = rng.random((recognise.MAX_GUESSED, 2, 32, 32), np.float32)

def read(letters):
    reader, index = recognise.networks(letters)
    recognise.run(recognise.TURN, "turn", turned)
    recognise.run(reader, "card", upright)
    recognise.run_all(index, ("card", "frame"), upright)

read("latin"); read("latin")
before = resident_mb()
read("cyrillic"); read("cyrillic")
print(resident_mb() - before)
"""


def test_the_second_letters_networks_share_the_first_ones_memory() -> None:
    # in a process of its own: the networks of both letters must not have been loaded before it
    done = subprocess.run(
        [sys.executable, "-c", _BOTH_LETTERS], capture_output=True, text=True, timeout=120,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # each network with a memory arena of its own: the networks of packs lettered В Д П added 179 MB; one arena
    # for all, 3 MB
    assert float(done.stdout) < 60


def test_opencv_cuts_and_labels_a_photo_on_one_core() -> None:
    shown = "import cv2; before = cv2.getNumThreads(); import bot.scanner; print(before, cv2.getNumThreads())"
    out = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, check=True,
                         env={**os.environ, "OPENCV_FOR_THREADS_NUM": "4"})
    before, after = map(int, out.stdout.split())
    assert before == 4  # the check would pass on a one-core machine otherwise
    assert after == 1
