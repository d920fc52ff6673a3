"""Training's choices that a run's photos and a network's start rest on: each photo's size drawn from its seed (not
from its place, where the designs take turns), a small photo compressed again as a chat sends it, and the reader and
the index network read back from their ONNX files to learn further. The last need PyTorch and onnx (the ``train``
extra) and are skipped without them."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.scanner import recognise
from bot.scanner.patches import marks, prepare, tensor
from training.designs import DESIGNS, designs_of
from training.frames import (
    CHAT_QUALITY,
    COVERED_CUTS,
    NEAR,
    Corner,
    as_read,
    covered_frames,
    photo_side,
)
from training.letters import FONT
from training.train import trained_designs

DATA = Path(__file__).parent / "data" / "scan"
# Tests that draw photos need the card designs' packages, which training installs (training.designs.ensure_packages)
# and running the bot does not
needs_designs = pytest.mark.skipif(
    not all(design.path.exists() for design in DESIGNS) or shutil.which("rsvg-convert") is None or not FONT.exists(),
    reason="the card designs are not installed: python -c 'import training.designs as d; d.ensure_packages()'",
)


def test_a_run_draws_the_trained_designs_never_a_held_out_one() -> None:
    every, first, cyrillic = (trained_designs(drawn) for drawn in ("all", "first", "cyrillic"))
    assert len(first) == 9 and set(first) < set(every)  # the first networks' nine, then the designs added since
    assert [DESIGNS[i].name for i in first][:2] == ["anglo_poker", "bellot"]
    assert set(first) < set(cyrillic) and len(cyrillic) == 15  # ... or with six of them drawn with В Д П
    assert all(DESIGNS[i].letters == "cyrillic" for i in set(cyrillic) - set(first))
    held_out = {i for i, d in enumerate(DESIGNS) if d.held_out}
    assert {DESIGNS[i].name for i in held_out} == {
        "lattmann", "kde-standard", "lattmann-cyrillic", "kde-standard-cyrillic"
    }  # fmt: skip
    assert held_out.isdisjoint(every) and held_out.isdisjoint(cyrillic)
    assert set(every) | set(cyrillic) | held_out == set(range(len(DESIGNS)))
    drawn_as_is = [d for d in DESIGNS if not d.letters]
    assert len({d.path for d in drawn_as_is}) == len(drawn_as_is)  # no design twice, but relettered
    # a relettered design is one of the others with its court cards' letters redrawn, held out if that one is
    for lettered in (d for d in DESIGNS if d.letters):
        (source,) = [d for d in drawn_as_is if d.path == lettered.path]
        assert lettered.name == source.name + "-cyrillic" and lettered.held_out == source.held_out
    # the bench's sets are one split of the designs, each once
    kinds = ("held-out", "trained", "added", "cyrillic", "cyrillic-trained")
    sets = [designs_of(kind) for kind in kinds]
    assert [d.name for d in sets[0]] == ["lattmann", "kde-standard"] and sets[1] == [DESIGNS[i] for i in first]
    assert [d.name for d in sets[3]] == ["lattmann-cyrillic", "kde-standard-cyrillic"]
    assert sorted(d.name for s in sets for d in s) == sorted(d.name for d in DESIGNS)
    with pytest.raises(ValueError, match="held-out, trained, added, cyrillic"):
        designs_of("all")


def test_each_photo_size_is_drawn_from_its_seed_and_every_design_gets_every_size() -> None:
    sides = (800, 1024, 2048)
    seeds = [31 * 1_000_003 + k for k in range(900)]
    drawn = [photo_side(seed, sides) for seed in seeds]
    assert drawn == [photo_side(seed, sides) for seed in seeds]  # the same run draws the same sizes
    assert set(drawn) == set(sides)
    assert min(Counter(drawn).values()) > 900 / 3 * 0.8
    for designs in (len(trained_designs(drawn)) for drawn in ("all", "first", "cyrillic")):
        for design in range(designs):  # photo k is of the k % n-th design: each design is drawn at each size
            assert {drawn[k] for k in range(design, len(drawn), designs)} == set(sides)
    # one size only: every photo at it
    assert {photo_side(seed, (1024,)) for seed in seeds[:50]} == {1024}


def test_a_photo_smaller_than_the_scanner_reads_is_compressed_again_and_a_larger_one_is_left_as_it_is() -> None:
    rng = np.random.default_rng(5)
    small = rng.integers(0, 256, (600, 800, 3), dtype=np.uint8)
    again = as_read(small)
    assert again.shape == small.shape and again.dtype == np.uint8
    _, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, CHAT_QUALITY])
    assert np.array_equal(again, cv2.imdecode(data, cv2.IMREAD_COLOR))
    assert not np.array_equal(again, small)
    large = rng.integers(0, 256, (768, 1024, 3), dtype=np.uint8)
    assert as_read(large) is large


def test_covered_cuts_lie_about_partly_covered_indices_alone_and_never_nearer_another_index() -> None:
    # card, x, y, radius, degrees, whole, share uncovered
    whole: Corner = (0, 100.0, 100.0, 20.0, 0.0, True, 1.0)
    half: Corner = (1, 300.0, 100.0, 20.0, 30.0, False, 0.5)
    hidden: Corner = (2, 500.0, 100.0, 20.0, 0.0, False, 0.1)  # too little shows to be read as any card
    barely: Corner = (3, 700.0, 100.0, 20.0, 0.0, False, 0.9)  # covered under 15 %: left out, as in the guesses
    cuts = [covered_frames([whole, half, hidden, barely], np.random.default_rng(seed)) for seed in range(20)]
    # each cut off as a whole index's are, but within NEAR radii (a corner of the jitter's square is further)
    assert all(0 < len(some) <= COVERED_CUTS for some in cuts) and sum(map(len, cuts)) > 20 * COVERED_CUTS * 0.7
    for x, y, r, d in (cut for some in cuts for cut in some):
        assert np.hypot(x - 300, y - 100) < NEAR * 20 and 20 * 0.6 < r < 20 * 1.6 and 10 <= d <= 50
    # beside another index, a cut nearer that one is left out: it would teach that index as "not an index"
    neighbour: Corner = (4, 306.0, 100.0, 20.0, 30.0, True, 1.0)
    near = [cut for seed in range(20) for cut in covered_frames([half, neighbour], np.random.default_rng(seed))]
    assert 0 < len(near) < sum(map(len, cuts)) * 0.7
    assert all(np.hypot(x - 300, y - 100) < np.hypot(x - 306, y - 100) for x, y, _, _ in near)


def test_the_reader_read_back_from_its_file_reads_as_the_file_does() -> None:
    torch = pytest.importorskip("torch")
    from training.net import Reader, read_back
    from training.quantize import NETWORKS

    work = prepare(cv2.imread(str(DATA / "photo0.jpg")))
    upright, _turns, _read = recognise.read_upright(work, marks(work))
    fitted = NETWORKS / "model.onnx"  # as fitted: the scanner's copy computes its convolutions in 8 bits
    probabilities = recognise.run(fitted, "card", upright)
    net = read_back(Reader(24), fitted)
    with torch.no_grad():
        logits = net.eval()(torch.from_numpy(upright)).numpy()
    # the file gives the softmax of the logits over the temperature fitted when it was written
    onnx = pytest.importorskip("onnx")
    graph = onnx.load(str(fitted)).graph
    constant = next(n for n in graph.node if n.op_type == "Constant")
    temperature = float(onnx.numpy_helper.to_array(constant.attribute[0].t))
    scaled = np.exp((logits - logits.max(axis=1, keepdims=True)) / temperature)
    assert np.abs(scaled / scaled.sum(axis=1, keepdims=True) - probabilities).max() < 1e-4


def test_a_network_in_8_bits_is_not_carried_on_but_says_which_to_carry_on() -> None:
    # the scanner's copies compute their convolutions in 8 bits; more learning starts from the networks as fitted
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from training.net import IndexNet, Reader, read_back

    with pytest.raises(ValueError, match="training/networks/"):
        read_back(Reader(24), recognise.MODEL)
    with pytest.raises(ValueError, match="training/networks/"):
        read_back(IndexNet(24), recognise.INDEX)


# the shipped network as fitted, and the one of 16 channels kept to go on from (docs/scanner.md, "Carried on a third
# time")
@pytest.mark.parametrize("name", ["index.onnx", "index-16.onnx"])
def test_an_index_network_read_back_from_its_file_reads_as_the_file_does(name: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bot.scanner.frames import frame_patches, hypotheses
    from bot.scanner.patches import tensor
    from training.net import IndexNet, first_width, read_back
    from training.quantize import NETWORKS

    work = prepare(cv2.imread(str(DATA / "photo0.jpg")))
    found = marks(work)
    frames = hypotheses(found[:, :3], np.zeros(len(found)))[:256]
    x = tensor(frame_patches(work.planes, frames))
    fitted = NETWORKS / name  # as fitted: the scanner's copy computes its convolutions in 8 bits
    probabilities, correction = recognise.run_all(fitted, ("card", "frame"), x)
    net = read_back(IndexNet(first_width(fitted)), fitted)  # as wide as the file, whatever width it ships at
    net.train()  # learning: its normalisations stay as the file has them, so the batch's statistics change nothing
    with torch.no_grad():
        logits, fix = net.eval()(torch.from_numpy(x))
    agree = (logits.numpy().argmax(axis=1) == probabilities.argmax(axis=1)).mean()
    assert agree > 0.97  # the file computes its dense layers in 8 bits, the network in floats
    assert np.abs(fix.numpy() - correction).mean() < 0.02
    net.train()
    assert not any(m.training for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d))


def test_the_vdp_reader_in_8_bits_reads_back_for_more_learning() -> None:
    # the reader of packs lettered В Д П is shipped with its dense layers in 8 bits (training.net.shrink); --tune
    # rebuilds it from that file, so it must read back to the network that reads as the file does
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from training.net import Reader, read_back

    work = prepare(cv2.imread(str(DATA / "photo24.jpg")))  # a held-out design drawn with В Д П
    upright, _turns, _read = recognise.read_upright(work, marks(work))
    probabilities = recognise.run(recognise.MODEL_VDP, "card", upright)
    net = read_back(Reader(24), recognise.MODEL_VDP)
    with torch.no_grad():
        logits = net.eval()(torch.from_numpy(upright)).numpy()
    assert (logits.argmax(axis=1) == probabilities.argmax(axis=1)).mean() > 0.97  # 8 bits in the file, floats here


def test_a_narrower_index_network_learns_from_its_teachers_readings(tmp_path: Path) -> None:
    # --teacher: the teacher's card probabilities, read over the patches as the scanner reads them, are half the
    # card's loss of a narrower network
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bot.scanner.frames import frame_patches, hypotheses
    from training.net import fit_index, teacher_cards
    from training.quantize import NETWORKS

    work = prepare(cv2.imread(str(DATA / "photo0.jpg")))
    found = marks(work)
    x = frame_patches(work.planes, hypotheses(found[:, :3], np.zeros(len(found))))[:600]
    taught = teacher_cards(NETWORKS / "index.onnx", x)
    read = recognise.run(NETWORKS / "index.onnx", "card", tensor(x))
    assert taught.shape == (len(x), recognise.BACKGROUND + 1)
    assert np.abs(taught - read).max() < 1e-5 and np.allclose(taught.sum(axis=1), 1.0, atol=1e-4)
    # a student of half the width fitted on them is written and reads every patch
    out = tmp_path / "student.onnx"
    card = taught.argmax(axis=1).astype(np.int64)
    fit_index(x, card, np.zeros((len(x), 4), np.float32), epochs=1, seed=1, threads=1, out=out, width=12,
              teacher=NETWORKS / "index.onnx")  # fmt: skip
    assert recognise.run(out, "card", tensor(x)).shape == (len(x), recognise.BACKGROUND + 1)


def test_a_network_narrowed_keeps_the_channels_the_next_layer_leans_on(tmp_path: Path) -> None:
    # --tune a wider network with a narrower --reader-width: where the channels left out are ones no later layer
    # uses, the narrowed network reads exactly as the wide one
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bot.scanner.frames import FRAME_HIGH, FRAME_WIDE
    from training.net import OPSET, Exported, IndexNet, first_width, narrowed, read_back

    torch.manual_seed(3)
    wide = IndexNet(24).eval()
    convs = [m for m in wide.body if isinstance(m, torch.nn.Conv2d)]
    dense = next(m for m in wide.body if isinstance(m, torch.nn.Linear))
    cells = (FRAME_HIGH // 8) * (FRAME_WIDE // 8)
    unused = [torch.arange(1, 24, 3), torch.arange(0, 48, 3), torch.arange(2, 96, 3)]  # a third of each layer's
    with torch.no_grad():
        convs[1].weight[:, unused[0]] = 0.0
        convs[2].weight[:, unused[1]] = 0.0
        dense.weight.view(dense.out_features, 96, cells)[:, unused[2]] = 0.0
        for norm in (m for m in wide.body if isinstance(m, torch.nn.BatchNorm2d)):  # statistics of a trained one
            norm.running_mean.uniform_(-0.5, 0.5)
            norm.running_var.uniform_(0.5, 2.0)
    written = tmp_path / "wide.onnx"
    torch.onnx.export(Exported(wide, 1.0, as_is=True).eval(), (torch.zeros(1, 2, FRAME_HIGH, FRAME_WIDE),),
                      str(written), input_names=["patches"], output_names=["card", "frame"], opset_version=OPSET,
                      dynamo=False)  # fmt: skip
    assert first_width(written) == 24
    narrow = narrowed(written, 16)
    assert [m.out_channels for m in narrow.body if isinstance(m, torch.nn.Conv2d)] == [16, 32, 64]
    x = torch.randn(32, 2, FRAME_HIGH, FRAME_WIDE)
    with torch.no_grad():
        card, frame = read_back(IndexNet(24), written).eval()(x)
        narrow_card, narrow_frame = narrow.eval()(x)
        assert torch.allclose(card, narrow_card, atol=1e-4) and torch.allclose(frame, narrow_frame, atol=1e-4)
        # one channel more left out, and it reads otherwise
        assert not torch.allclose(card, narrowed(written, 15).eval()(x)[0], atol=1e-2)
    assert narrow.frozen_norms  # its normalisations are folded, as a network read back


@needs_designs
def test_a_photos_frames_are_kept_and_read_back_from_the_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from training import designs, frames

    monkeypatch.setattr(designs, "CACHE", tmp_path)
    design = trained_designs()[0]
    task = (11, design, False, 800, False, False)
    drawn = frames._one(task)
    kept = list(frames.frames_folder().iterdir())
    assert [p.name for p in kept] == [f"{DESIGNS[design].name}-11-800.npz"]
    assert frames.frames_folder().parent == tmp_path
    with np.load(kept[0]) as f:  # written whole, and read from there the second time
        assert np.array_equal(f["x"], drawn[0])
    np.savez(kept[0], x=drawn[0][:1], card=drawn[1][:1], turn=drawn[2][:1])
    again = frames._one(task)
    assert len(again[0]) == 1 and len(drawn[0]) > 1
    # with the index's covered labels, the same photo is kept apart
    frames._one((11, design, True, 800, False, False))
    assert len(list(frames.frames_folder().iterdir())) == 2


@needs_designs
def test_an_index_network_of_a_training_run_is_stored_in_8_bits_beside_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # python -m training.quantize --index PATH: that network alone, calibrated on the patches the scanner gives it,
    # written beside it; the scanner's own networks are left as they are
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("sympy")  # onnxruntime's quantisation infers shapes with it (the train extra brings it)
    import sys

    from bot.scanner.frames import frame_patches, hypotheses
    from training import quantize

    fitted = tmp_path / "run.onnx"
    shutil.copy(quantize.NETWORKS / "index.onnx", fitted)
    shipped = recognise.INDEX.read_bytes()
    monkeypatch.setitem(quantize.IN_8_BITS, "INDEX", quantize.Stored("index.onnx", 2, 256))  # two photos: quick
    monkeypatch.setattr(sys, "argv", ["quantize", "--index", str(fitted)])
    quantize.main()
    stored = tmp_path / "run-8bit.onnx"
    assert recognise.INDEX.read_bytes() == shipped
    work = prepare(cv2.imread(str(DATA / "photo0.jpg")))
    found = marks(work)
    x = tensor(frame_patches(work.planes, hypotheses(found[:, :3], np.zeros(len(found)))[:512]))
    in_8_bits, in_floats = (recognise.run(path, "card", x).argmax(axis=1) for path in (stored, fitted))
    assert (in_8_bits == in_floats).mean() > 0.95
    assert any(n.op_type == "QuantizeLinear" for n in onnx.load(str(stored)).graph.node)
