"""Store the index network's convolutions in 8 bits: the network as fitted (float convolutions, 8-bit dense layers:
training.net.shrink) stays in training/networks/, and the scanner's copy in bot/scanner/ computes all but its first
convolution in 8 bits, about twice as fast (docs/scanner.md, "The index network in 8 bits").

    pip install -e '.[train]'
    python -m training.quantize        # bot/scanner/index.onnx, calibrated on photos of the designs it learnt

The scale of each layer's 8-bit input is calibrated on the frames the scanner itself reads (recorded while it reads
CALIBRATION_PHOTOS photos of the trained designs, drawn with CALIBRATION_SEED), taken at their 99.999th percentile
rather than their extremes, so that a rare bright frame does not coarsen every other; each output channel's weights
get a scale of their own. Weights are kept to 7 bits: a processor without AVX-512 VNNI sums two products of an 8-bit
input and an 8-bit weight in 16 bits, which 8-bit weights can overflow (and 7-bit ones cannot), so the networks would
read otherwise on such a core. The first convolution, its ReLU and its pooling stay in floats: over two input planes
its 8-bit form took three times as long as the float one. The dense layers' 8-bit weights are stored unsigned, for the
same reason (``unsigned_dense_weights``, which ``training.net.shrink`` applies to every network it makes).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from bot.scanner import recognise
from training.designs import designs_of, ensure_packages
from training.frames import as_read
from training.synth import seeded_photos

NETWORKS = Path(__file__).resolve().parent / "networks"  # the index networks as fitted, in floats
CALIBRATION_PHOTOS = 24
CALIBRATION_SEED = 3
CALIBRATION_FRAMES = 3968  # 62 batches of 64, drawn from the recorded frames
# (the float network, the scanner's copy, the pack's letters, the designs calibrated on). The index network of packs
# lettered В Д П stays in floats: so stored (calibrated on the trained designs drawn with В Д П) it named 883 of the
# bench's 1,010 such cards against 885, and missed one card more of the committed В Д П photos than their floor.
INDEX_NETWORKS = ((NETWORKS / "index.onnx", recognise.INDEX, "latin", "trained"),)


@contextmanager
def float_index_recorded(source: Path, letters: str) -> Iterator[list[np.ndarray]]:
    """While open, the scanner reads a pack lettered ``letters`` with the float index network at ``source``, and
    every batch of frames it gives that network is kept in the list yielded."""
    batches: list[np.ndarray] = []
    attribute = "INDEX" if letters == "latin" else "INDEX_VDP"
    saved_path, saved_run_all = getattr(recognise, attribute), recognise.run_all

    def recording(model: Path, outputs: tuple[str, ...], patches: np.ndarray) -> list[np.ndarray]:
        if model == source:
            batches.append(np.array(patches))
        return saved_run_all(model, outputs, patches)

    setattr(recognise, attribute, source)
    recognise.run_all = recording
    try:
        yield batches
    finally:
        setattr(recognise, attribute, saved_path)
        recognise.run_all = saved_run_all


def calibration_frames(source: Path, letters: str, kind: str, photos: int, seed: int) -> np.ndarray:
    """CALIBRATION_FRAMES of the frames the scanner reads with the network at ``source`` on ``photos`` photos of the
    designs ``kind``, chosen at random (seeded)."""
    with float_index_recorded(source, letters) as batches:
        for _design, image, _placed in seeded_photos(designs_of(kind), photos, seed):
            recognise.scan_image(as_read(image), letters)
    frames = np.concatenate(batches)
    chosen = np.random.default_rng(0).permutation(len(frames))[:CALIBRATION_FRAMES]
    return frames[chosen[: len(chosen) // 64 * 64]]


def first_layer(model: Path) -> list[str]:
    """The names of the network's first convolution and of the ReLU and pooling that follow it."""
    import onnx

    nodes = onnx.load(str(model)).graph.node
    first = next(n for n in nodes if n.op_type == "Conv")
    names = [first.name]
    output = first.output[0]
    for kind in ("Relu", "MaxPool"):
        node = next(n for n in nodes if n.op_type == kind and n.input[0] == output)
        names.append(node.name)
        output = node.output[0]
    return names


def quantize(source: Path, out: Path, frames: np.ndarray) -> None:
    """Write ``source`` with its convolutions past the first in 8 bits to ``out``, calibrated on ``frames``."""
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quant_pre_process,
        quantize_static,
    )

    class Frames(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.batches = iter(range(0, len(frames), 64))

        def get_next(self) -> dict[str, np.ndarray] | None:
            start = next(self.batches, None)
            return None if start is None else {"patches": frames[start : start + 64]}

    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared), str(out), Frames(), quant_format=QuantFormat.QDQ,
            op_types_to_quantize=["Conv", "Relu", "MaxPool"], nodes_to_exclude=first_layer(prepared),
            per_channel=True, reduce_range=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.Percentile,
        )  # fmt: skip


def unsigned_dense_weights(model: Path) -> int:
    """Rewrite ``model``'s 8-bit dense layers (onnxruntime's dynamic quantisation: MatMulInteger) from signed weights
    to the same weights unsigned, 128 higher over a zero point of 128, and return how many it rewrote. The products are
    the very same integers; but onnxruntime multiplies an unsigned input by a signed weight, on a core with AVX2 and
    without VNNI, summing two products at a time in 16 bits, which saturate (255 × 127 twice is over 32,767), while
    it widens an unsigned weight to 16 bits first and sums exactly on every core. Already unsigned, a layer is left."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model))
    tensors = {t.name: t for t in graph.graph.initializer}
    rewritten = 0
    for node in graph.graph.node:
        if node.op_type != "MatMulInteger" or tensors[node.input[1]].data_type != onnx.TensorProto.INT8:
            continue
        for name in (node.input[1], node.input[3]):  # the weights, then their zero point
            signed = numpy_helper.to_array(tensors[name]).astype(np.int16)
            tensors[name].CopyFrom(numpy_helper.from_array((signed + 128).astype(np.uint8), name))
        rewritten += 1
    if rewritten:
        onnx.save(graph, str(model))
    return rewritten


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=CALIBRATION_PHOTOS, help="photos to calibrate on")
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    args = parser.parse_args()
    ensure_packages()
    for source, out, letters, kind in INDEX_NETWORKS:
        frames = calibration_frames(source, letters, kind, args.photos, args.seed)
        quantize(source, out, frames)
        print(f"wrote {out} ({out.stat().st_size // 1024} KB), calibrated on {len(frames)} frames of {kind} designs")


if __name__ == "__main__":
    main()
