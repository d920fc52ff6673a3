"""The scanner on a small fixed set of synthetic photos (tests/data/scan, made by training/make_test_photos.py):
the counts below are what the shipped scanner reads; a change that names fewer cards, invents more, asks about more
cards that are not in the photo or misses more (a card seen neither named nor asked about) fails here. A question about
a card that is in the photo is not counted against it: its answer is yes, and it saves adding the card by hand. When
a better model is trained, raise the floors to its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.scanner import scan_bytes
from tests.older_cores import runnable
from tests.scan_committed import BATCH, BATCHES, CYRILLIC, DATA, TRUTH, Counts, batch, read, rounding_noise
from tools import older_core

ROOT = Path(__file__).resolve().parent.parent

# (held_out, the photos' batch) -> (at least named correctly, at most invented, at most asked about and not in the
# photo, at most missed). Batch 0: the first twelve photos; batch 1: the twelve added later, so one card is no longer
# the whole margin between two readers. Raised with the index network (each index read in its own frame): named
# 98 -> 104, 75 -> 88, 92 -> 97 and 104 -> 109; with an index alone named from 0.98, 104 -> 105.
# Re-set, not raised, with the index network fitted on 2,400 photos: on these 24 photos it names one card fewer in
# three batches (396 of 449 against 399) and asks about one more card that is not there, where on 1,040 photos drawn
# with other seeds (the bench's sets, 400 more at 1024 pixels and 240 drawn as these are, 800 x 600 and saved at JPEG
# quality 70) it names 0.2 to 1.8 points more in every set and invents 19 cards against 20 (docs/scanner.md, "More
# photos for the index network"). A floor is one network's count card by card; a rule or a cut that changes what the
# same networks read must still meet it. With that network carried on over 1,600 photos drawn at 800, 1024 and 2048
# pixels: named 396 -> 400 (104 -> 105, 97 -> 98, 108 -> 110), missed 37 -> 31, and one more card not in the photo
# asked about on the trained batch 0 (1 -> 2; 9 in all against 9 before), where on the twelve measured sets (7,371
# cards) it asks about 176 such cards against 185 (docs/scanner.md, "Photos of several sizes").
# Re-set with the same networks and three rules (a mark the index network does not bear out, a mark of the cleared
# split alone, each index read in four views): cards asked about that are not there 9 -> 7 (3 -> 1, 4 -> 3, but 2 -> 3
# on the trained batch 0), missed 31 -> 30, and one card named fewer, an ace of diamonds on a trained photo that its
# views read at 0.948 (asked about instead: 110 -> 109); on 18 measured sets (11,469 cards) the rules invent 2 cards
# against 19, ask about 145 absent cards against 258, miss 161 against 179 and name 11,153 against 11,145
# (docs/scanner.md, "Cards the index network does not bear out").
# With the index network carried on over 1,600 photos more: named 399 -> 405 (87 -> 90, 98 -> 101), missed 30 -> 31
# (11 -> 13, 15 -> 13, 3 -> 4), cards asked about that are not there 7 -> 8 (1 -> 2, 3 -> 2, 3 -> 2, 0 -> 2); on the
# 18 measured sets it names 11,182 cards against 11,153, the held-out designs inventing none (docs/scanner.md,
# "Carried on again").
# With the two witnesses of one index (a strong index and a weak mark on it, or a strong mark and a weak index about
# it): named 405 -> 409 (90 -> 92, 101 -> 102, 109 -> 110), the rest unchanged (docs/scanner.md, "Two witnesses of
# one index").
# Batch 2: the held-out designs drawn with В Д П, read with the networks of packs so lettered and a court card named
# from COURT_SURE_VDP (docs/scanner.md, "Networks for packs lettered В Д П"); read as J Q K the same photos name 133
# cards and invent 4. With COURT_SURE_VDP raised from 0.99 to 0.995 (after 7 court cards invented from 0.99 in 240
# photos of those designs, none from 0.995): named 182 -> 177, the five asked about instead.
# Until then each floor was one machine's count card by card, and the same code on another processor broke one: the
# trained batch 0 named 92 on a 2 GHz AVX2 core and 91 on an AVX-512 one. The floors are now what holds read as it is
# and 16 times with noise of 1e-5 on every network input (`python -m tests.scan_committed`, docs/scanner.md, "The same
# code on another processor"): named 92 -> 90 and missed 13 -> 14 on the trained batch 0, named 177 -> 176 with
# В Д П, the rest as they were. With the indices found again at the photo's index size (docs/scanner.md, "Indices
# found again at the photo's index size") the В Д П batch names 179-180 so read: named 176 -> 179.
# Re-set, not raised, with the check of covered indices (docs/scanner.md, "A card on a covered index"): on the trained
# batch 0 it asks about two or three cards of photo4 (small and blurred) that were named, named 90 -> 87; the held-out
# batch 0 keeps its floor (two cards of photo8 asked about). On 66 held-out sets (43,428 cards at 1024 and 800
# pixels) the check takes back 10 of 17 invented cards and asks about 14 that were named rightly: an invented card is
# counted into the score unseen, where a card asked about is answered yes.
# Re-set, not raised, with the stricter check of a photo enlarged to be read (docs/scanner.md, "The check on an
# enlarged photo"): these photos are all 800 x 600, so each is enlarged; the eights of spades of photo6 and photo8 and
# the queen of spades of photo4 are asked about, named 105 -> 103 and, in the noisy trials, 87 -> 85 on the trained
# batch 0. On 60 held-out sets at 800 pixels (38,257 cards) the check so invents 7 cards against 16 and asks about 135
# cards it named; photos of 1024 pixels and more are read as before.
# With each photo read two or three times (docs/scanner.md, "Three readings"), measured again as read and in 16 noisy
# trials: the trained batch 0 names 88-90 (floor 85 -> 88, missed 14 -> 13), the trained batch 1 asks about at most one
# card not there (2 -> 1), and the held-out batch 1 names 101 in two trials of 16 (102 -> 101): the eight of spades of
# photo17, at the edge read once as well: read once, the batch names 101 in 3 of 32 noisy trials (the 4th, 18th and
# 23rd), so the floor of 102 had held its 16 trials by the draws alone. On 123 held-out sets (80,411 cards) the
# readings invent 2 cards against 8 and name 24 more.
# Re-set, not raised, with the court network (docs/scanner.md, "The court network"): the eight of hearts of photo22
# (berlin, a trained design) is asked about, two of its three readings taking the next card's picture, left of its
# index, for its own (the mean of five views 0.999 and 0.95); named 110 -> 109 on the trained batch 1. The rule takes
# back the two cards the held-out sets still invented, court letters read as an ace and an eight.
FLOORS = {
    (True, 0): (103, 0, 2, 1),
    (False, 0): (88, 0, 2, 13),
    (True, 1): (101, 0, 2, 13),
    (False, 1): (109, 0, 1, 4),
    (True, CYRILLIC): (179, 0, 11, 13),
}


def test_every_photo_is_in_a_batch_with_floors() -> None:
    assert len(TRUTH) == 3 * BATCH
    assert {(p["held_out"], batch(p)) for p in TRUTH} == set(FLOORS) == set(BATCHES)
    assert {p["letters"] for p in TRUTH if batch(p) == CYRILLIC} == {"cyrillic"}
    assert {p["letters"] for p in TRUTH if batch(p) != CYRILLIC} == {"latin"}


NAMES = ["held-out designs", "trained designs", "held-out designs, batch 1", "trained designs, batch 1",
         "held-out designs with В Д П"]  # fmt: skip


@pytest.mark.parametrize(("held_out", "number"), BATCHES, ids=NAMES)
def test_accuracy_does_not_drop(held_out: bool, number: int) -> None:
    holds_floors(held_out, number)


@pytest.mark.parametrize(("held_out", "number"), BATCHES, ids=NAMES)
def test_the_floors_hold_with_another_processors_rounding(held_out: bool, number: int) -> None:
    # the floors are for every processor the scanner runs on, not one machine's count card by card
    with rounding_noise(1e-5, seed=100):
        holds_floors(held_out, number)


# Read in a process that onnxruntime, OpenCV and NumPy take for an older core (tools/older_core.py): the committed
# batches' counts (unless told "--no-counts"), OpenCV's list of the instruction sets it found, and a product that shows
# onnxruntime's 8-bit kernel: 255 x 127 over 128 rows, which a core summing them exactly (VNNI, or SSE4's 32-bit sums)
# makes 4,145,280, and AVX2 or AVX-512 without VNNI, whose 16-bit pair sums saturate at 32,767, make 2,097,088.
ON_OLDER_CORE = """
import json
import sys
import cv2
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper
from tests.scan_committed import BATCHES, read
weights = helper.make_tensor("w", TensorProto.INT8, [128, 1], np.full(128, 127, np.int8).tobytes(), raw=True)
graph = helper.make_graph(
    [helper.make_node("MatMulInteger", ["x", "w"], ["y"])], "product",
    [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 128])],
    [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 1])], [weights])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
product = int(session.run(None, {"x": np.full((1, 128), 255, np.uint8)})[0][0, 0])
print(json.dumps({"sets": cv2.getCPUFeaturesLine().split(), "product": product,
                  "counts": [] if "--no-counts" in sys.argv else [read(*key) for key in BATCHES]}))
"""
EXACT, SATURATED = 255 * 127 * 128, 64 * 32_767  # 64 pairs of 2 x 255 x 127 = 64,770 each, or 32,767 each


@pytest.mark.parametrize("core", list(older_core.CORES))
def test_the_floors_hold_on_older_cores(core: str) -> None:
    # the noise above stands for another core's rounding; this is that core's own kernels, at this core's speed
    runnable(core)
    # On a processor that is such a core itself, test_accuracy_does_not_drop reads the batches with these very kernels
    # (50 s of a test worker's time on an AVX2 core): the kernels are still shown to be that core's, the counts not
    # read twice.
    itself = older_core.itself(core)
    command = [sys.executable, "-c", ON_OLDER_CORE, *(["--no-counts"] if itself else [])]
    done = subprocess.run(command, env=older_core.environment(core), cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=True)  # fmt: skip
    answer = json.loads(done.stdout.splitlines()[-1])
    available = {name.lstrip("*") for name in answer["sets"] if not name.endswith("?")}
    lacks = {"avx512": {"AVX512-CLX", "AVX_VNNI"}, "avx2": {"AVX512-SKX", "AVX_VNNI"}, "sse4": {"AVX"}}[core]
    has = {"avx512": "AVX512-SKX", "avx2": "AVX2", "sse4": "SSE4.2"}[core]
    assert has in available and not available & lacks, answer["sets"]
    # onnxruntime took a kernel without VNNI (AVX-512's or AVX2's), or SSE4's, which sums in 32 bits
    assert answer["product"] == (EXACT if core == "sse4" else SATURATED)
    for key, counts in zip([] if itself else BATCHES, answer["counts"], strict=True):
        assert not short_of_floors(key, tuple(counts)), f"batch {key} as an {core} core: {counts}"


def holds_floors(held_out: bool, number: int) -> None:
    assert not short_of_floors((held_out, number), read(held_out, number))


def short_of_floors(key: tuple[bool, int], counts: Counts) -> list[str]:
    """How the ``counts`` read of the batch ``key`` fall short of its floors (none when they hold)."""
    visible, correct, invented, wrongly_asked, missed = counts
    least_correct, most_invented, most_wrongly_asked, most_missed = FLOORS[key]
    checks = (
        (visible == 0, "no card visible"),
        (correct < least_correct, f"{correct} of {visible} named correctly, was {least_correct}"),
        (invented > most_invented, f"{invented} cards invented, was {most_invented}"),
        (wrongly_asked > most_wrongly_asked, f"asked about {wrongly_asked} cards not there, was {most_wrongly_asked}"),
        (missed > most_missed, f"{missed} cards seen and missed, was {most_missed}"),
    )
    return [failure for short, failure in checks if short]


def test_the_same_photo_reads_the_same() -> None:
    data = (DATA / TRUTH[0]["file"]).read_bytes()
    assert scan_bytes(data) == scan_bytes(data)


def test_a_pack_lettered_vdp_is_read_better_as_such() -> None:
    # What --letters cyrillic (вдп in a chat) is for: read as J Q K, a bold В is taken for an 8 and the court cards
    # are lost; the networks carried on over packs drawn with В Д П name more of the same photos and invent fewer.
    _, as_vdp, invented_as_vdp, _, _ = read(True, CYRILLIC)
    _, as_latin, invented_as_latin, _, _ = read(True, CYRILLIC, "latin")
    assert as_vdp > as_latin and invented_as_vdp < invented_as_latin
