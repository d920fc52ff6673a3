"""Store the convolutions of the index network, the reader, the turn network and the court network in 8 bits: the
networks as fitted (float convolutions; the index network's dense layers in 8 bits: training.net.shrink) stay in
training/networks/, and the scanner's copies in bot/scanner/ compute all but their first convolution in 8 bits, about
twice as fast (docs/scanner.md, "The index network in 8 bits", "The reader and the turn network in 8 bits", "The court
network").

    pip install -e '.[train]'
    python -m training.quantize        # bot/scanner/{index,model,turn,court}.onnx, calibrated on the designs learnt
    python -m training.quantize --index index-16.onnx   # a training run's index network alone: index-16-8bit.onnx

The scale of each layer's 8-bit input is calibrated on the patches the scanner itself gives the network (recorded while
it reads photos of the trained designs, drawn with CALIBRATION_SEED, as many as IN_8_BITS says), taken at their 99.999th
percentile rather than their extremes, so that a rare bright patch does not coarsen every other; each output channel's
weights get a scale of their own. Weights are kept to 7 bits: a processor without AVX-512 VNNI sums two products of an
8-bit input and an 8-bit weight in 16 bits, which 8-bit weights can overflow (and 7-bit ones cannot), so the networks
would read otherwise on such a core. The first convolution, its ReLU and its pooling stay in floats: over two input
planes its 8-bit form took three times as long as the float one. The dense layers' 8-bit weights are stored unsigned,
for the same reason (``unsigned_dense_weights``, which ``training.net.shrink`` applies to every network it makes).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bot.scanner import recognise
from training.designs import designs_of, ensure_packages
from training.frames import as_read
from training.synth import seeded_photos

NETWORKS = Path(__file__).resolve().parent / "networks"  # the networks as fitted, in floats
CALIBRATION_SEED = 3


class Stored(NamedTuple):
    """A network stored in 8 bits: its file's name (the same in training/networks/, as fitted, and in bot/scanner/),
    and the photos of the trained designs (read as lettered J Q K) and the patches of them it is calibrated on."""

    name: str
    photos: int
    patches: int | None  # drawn at random from those recorded; None: all of them


# By the name of the scanner's attribute that holds each one's path. The reader calibrated on the 3,968 patches of 24
# photos, as the others are, asked about one card more of the bench's held-out set than in floats (a queen of spades
# at 0.952 where the floats named it at 0.998); on those of 48 photos (all 7,936, in whole batches) it names it. The
# networks of packs lettered В Д П stay in floats: so stored (calibrated on the trained designs drawn with В Д П, 48
# photos) the reader named 883 of the bench's 1,010 such cards and the index network 881, against 885, the cards lost
# being court cards read just over COURT_SURE_VDP (docs/scanner.md, "Tried, not shipped: the networks of packs
# lettered В Д П in 8 bits").
IN_8_BITS = {
    "INDEX": Stored("index.onnx", 24, 3968),
    "MODEL": Stored("model.onnx", 48, None),
    "TURN": Stored("turn.onnx", 24, 3968),
    "COURT_NETWORK": Stored("court.onnx", 24, None),  # 2,048 of the 2,090 windows of 24 photos
}


@contextmanager
def floats_recorded(sources: dict[str, Path]) -> Iterator[dict[str, list[np.ndarray]]]:
    """While open, the scanner reads with the networks ``sources`` (by the name of its attribute that holds each one's
    path) in place of its own, and every batch of patches it gives each is kept, by that name, in the dict yielded."""
    batches: dict[str, list[np.ndarray]] = {attribute: [] for attribute in sources}
    by_path = {path: attribute for attribute, path in sources.items()}
    saved_paths = {attribute: getattr(recognise, attribute) for attribute in sources}
    saved_run_all = recognise.run_all

    def recording(model: Path, outputs: tuple[str, ...], patches: np.ndarray) -> list[np.ndarray]:
        if model in by_path:
            batches[by_path[model]].append(np.array(patches))
        return saved_run_all(model, outputs, patches)

    for attribute, path in sources.items():
        setattr(recognise, attribute, path)
    recognise.run_all = recording
    try:
        yield batches
    finally:
        for attribute, path in saved_paths.items():
            setattr(recognise, attribute, path)
        recognise.run_all = saved_run_all


def calibration_patches(sources: dict[str, Path], photos: int, seed: int) -> dict[str, np.ndarray]:
    """For each network of ``sources`` (as ``floats_recorded``), every patch the scanner gives it on ``photos`` photos
    of the trained designs, all read with those networks."""
    with floats_recorded(sources) as batches:
        for _design, image, _placed in seeded_photos(designs_of("trained"), photos, seed):
            recognise.scan_once(as_read(image), "latin")
    return {attribute: np.concatenate(parts) for attribute, parts in batches.items()}


def chosen(patches: np.ndarray, count: int | None) -> np.ndarray:
    """``count`` of ``patches`` at random (seeded; all if None), as many as fill whole batches of 64."""
    drawn = np.random.default_rng(0).permutation(len(patches))[:count]
    return patches[drawn[: len(drawn) // 64 * 64]]


def first_layer(model: Path) -> list[str]:
    """The names of the network's first convolution and of the ReLU and the pooling that follow it (the court
    network's first ReLU is followed by a second convolution, not by a pooling)."""
    import onnx

    nodes = onnx.load(str(model)).graph.node
    first = next(n for n in nodes if n.op_type == "Conv")
    names = [first.name]
    output = first.output[0]
    for kind in ("Relu", "MaxPool"):
        node = next((n for n in nodes if n.op_type == kind and n.input[0] == output), None)
        if node is None:
            break
        names.append(node.name)
        output = node.output[0]
    return names


def quantize(source: Path, out: Path, frames: np.ndarray) -> None:
    """Write ``source`` with its convolutions past the first in 8 bits to ``out``, calibrated on ``frames``."""
    import onnx
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quant_pre_process,
        quantize_static,
    )

    given = onnx.load(str(source)).graph.input[0].name  # "patches", or the court network's "windows"

    class Frames(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.batches = iter(range(0, len(frames), 64))

        def get_next(self) -> dict[str, np.ndarray] | None:
            start = next(self.batches, None)
            return None if start is None else {given: frames[start : start + 64]}

    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared), str(out), Frames(), quant_format=QuantFormat.QDQ,
            op_types_to_quantize=["Conv", "Relu", "MaxPool"], nodes_to_exclude=first_layer(prepared),
            per_channel=True, reduce_range=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.Percentile,
        )  # fmt: skip


def stored_in_8_bits(source: Path, out: Path, patches: np.ndarray) -> None:
    """``quantize``, saying what was written."""
    quantize(source, out, patches)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB), calibrated on {len(patches)} patches")


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
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED, help="the seed of the photos calibrated on")
    parser.add_argument("--out", type=Path, help="where the networks in 8 bits go (default: the scanner's own, in "
                        "bot/scanner/); with --index, the file it goes to")  # fmt: skip
    parser.add_argument("--index", type=Path, help="store this index network alone (as fitted, in floats, e.g. a "
                        "training run's --out), calibrated as the shipped one is; written beside it as NAME-8bit.onnx "
                        "unless --out says where")  # fmt: skip
    args = parser.parse_args()
    ensure_packages()
    sources = {attribute: NETWORKS / stored.name for attribute, stored in IN_8_BITS.items()}
    if args.index:
        stored = IN_8_BITS["INDEX"]
        sources["INDEX"] = args.index
        patches = chosen(calibration_patches(sources, stored.photos, args.seed)["INDEX"], stored.patches)
        stored_in_8_bits(args.index, args.out or args.index.with_name(f"{args.index.stem}-8bit.onnx"), patches)
        return
    recorded: dict[int, dict[str, np.ndarray]] = {}
    for attribute, stored in IN_8_BITS.items():
        if stored.photos not in recorded:  # every network read in floats, as fitted
            recorded[stored.photos] = calibration_patches(sources, stored.photos, args.seed)
        patches = chosen(recorded[stored.photos][attribute], stored.patches)
        out = args.out / stored.name if args.out else getattr(recognise, attribute)
        stored_in_8_bits(sources[attribute], out, patches)


if __name__ == "__main__":
    main()
