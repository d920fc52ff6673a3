"""The networks as shipped: the later convolutions of the index network, the reader and the turn network in 8 bits
(training.quantize), read in the fast layout, and every 8-bit product summed exactly on every x86 core. The last is
seen on the cores themselves: the dense layers run as onnxruntime runs them on a core with AVX2 and without VNNI
(whose 16-bit pair sums saturate for a signed weight) and on an SSE4.1 core, emulated by ``qemu-x86_64`` (Debian's
qemu-user): skipped without it, but a failure under ``make test`` and in CI (BELOTE_REQUIRE_QEMU, CI), which install
it."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnx.utils
import pytest
from onnx import numpy_helper

from bot.scanner import recognise
from tests.pgserver import required
from training.quantize import IN_8_BITS, NETWORKS

SHIPPED = sorted(Path(recognise.__file__).parent.glob("*.onnx"))


def kernels(model: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """Each kernel the network runs on a batch of frames, opened as the scanner opens it: its operator and the
    element types of its inputs (from onnxruntime's own profile)."""
    options = recognise.session_options()
    options.enable_profiling = True
    options.profile_file_prefix = str(scratch / model.stem)
    session = recognise.open_session(model, options)
    patches = session.get_inputs()[0]
    frames = np.random.default_rng(1).random((64, *patches.shape[1:]), dtype=np.float32)
    session.run(None, {patches.name: frames})
    events = json.loads(Path(session.end_profiling()).read_text())
    return [
        (e["args"]["op_name"], [next(iter(i)) for i in e["args"].get("input_type_shape", [])])
        for e in events
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")
    ]


@pytest.mark.parametrize("attribute", IN_8_BITS)
def test_the_network_computes_all_but_its_first_convolution_in_8_bits(attribute: str, tmp_path: Path) -> None:
    fitted = onnx.load(str(NETWORKS / IN_8_BITS[attribute].name)).graph.node  # in floats, as training wrote it
    convolutions = sum(node.op_type == "Conv" for node in fitted)
    assert convolutions >= 3
    ran = kernels(getattr(recognise, attribute), tmp_path)
    assert [op for op, _ in ran].count("QLinearConv") == convolutions - 1, ran
    float_convolutions = [types for op, types in ran if op == "Conv"]
    assert len(float_convolutions) == 1 and float_convolutions[0][0] == "float", ran


@pytest.mark.parametrize("attribute", IN_8_BITS)
def test_no_8_bit_pooling_is_left_to_the_slow_kernel(attribute: str, tmp_path: Path) -> None:
    # with onnxruntime's QDQPropagationTransformer the first pooling reads 8 bits in the plain layout (MaxPool on
    # uint8), three times the network's time; pooling in 8 bits belongs in the channels-last kernel (NhwcMaxPool)
    ran = kernels(getattr(recognise, attribute), tmp_path)
    slow = [(op, types) for op, types in ran if op == "MaxPool" and "uint8" in types]
    assert not slow, ran
    assert any(op == "NhwcMaxPool" and "uint8" in types for op, types in ran), ran


def test_every_8_bit_weight_is_multiplied_exactly_on_every_x86_core(tmp_path: Path) -> None:
    # onnxruntime multiplies an unsigned 8-bit input by a signed 8-bit weight, on a core with AVX2 and without VNNI,
    # two products at a time summed in 16 bits: a signed weight must keep to 7 bits (2 x 255 x 64 = 32,640 fits), as
    # the convolutions' do; the dense layers' weights are unsigned, which it widens to 16 bits first
    dense = 0
    for model in SHIPPED:
        for tensor in onnx.load(str(model)).graph.initializer:
            if tensor.data_type == onnx.TensorProto.INT8:
                weights = numpy_helper.to_array(tensor)
                lowest, highest = int(weights.min()), int(weights.max())
                assert lowest >= -64 and highest <= 64, f"{model.name} {tensor.name}: {lowest}..{highest}"
        ran = [(op, types) for op, types in kernels(model, tmp_path) if "MatMul" in op and "uint8" in types]
        assert all("int8" not in types for _op, types in ran), (model.name, ran)
        dense += len(ran)
    assert dense >= 8  # three in each index network, two in the reader of packs lettered В Д П


# Runs each (network, input, output) of its arguments with onnxruntime on one thread and saves the outputs.
RUN = """
import sys
import numpy as np
import onnxruntime as ort
options = ort.SessionOptions()
options.intra_op_num_threads = options.inter_op_num_threads = 1
for model, x, out in zip(*[iter(sys.argv[1:])] * 3):
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    np.savez(out, *session.run(None, {session.get_inputs()[0].name: np.load(x)}))
"""
# qemu's models of an x86 core, each taking another of onnxruntime's 8-bit kernels
CORES = {"Haswell": "AVX2 without VNNI", "Nehalem": "SSE4.1"}


@pytest.fixture
def qemu() -> str:
    """qemu-x86_64, to run a process as on an older core: where it is required (make test, CI) its absence fails the
    test, else skips it."""
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("onnxruntime's x86 kernels: an x86 host only")
    found = shutil.which("qemu-x86_64")
    if found is None:
        if required("BELOTE_REQUIRE_QEMU"):
            pytest.fail("qemu-x86_64 (Debian's qemu-user) is required here (CI or BELOTE_REQUIRE_QEMU) but missing")
        pytest.skip("qemu-x86_64 (qemu-user) missing")
    return found


def saturating(signed: np.ndarray) -> np.ndarray:
    """Inputs to a dense layer of ``signed`` weights (rows in, columns out) that its 16-bit pair sums would saturate:
    a row a column among the four with the most, 1 (quantised to 255) at both inputs of every pair of rows whose two
    weights sum to over 128, 0 elsewhere (and a row of ones)."""
    pairs = signed[0::2].astype(np.int32)[: len(signed) // 2] + signed[1::2].astype(np.int32)[: len(signed) // 2]
    over = pairs > 128
    columns = np.argsort(-over.sum(axis=0))[:4]
    rows = [np.repeat(over[:, column], 2).astype(np.float32) for column in columns]
    x = np.zeros((len(rows) + 1, len(signed)), np.float32)
    for at, row in enumerate(rows):
        x[at, : len(row)] = row
    x[-1] = 1.0
    return x


def dense_layers(model: Path, scratch: Path) -> list[tuple[Path, Path]]:
    """Each 8-bit dense layer of ``model`` cut out with all that follows it (a network from the layer's float input to
    the outputs), and an input that a core summing pairs in 16 bits would saturate."""
    graph = onnx.load(str(model)).graph
    tensors = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    quantised_from = {n.output[0]: n.input[0] for n in graph.node if n.op_type == "DynamicQuantizeLinear"}
    cut = []
    for at, node in enumerate(n for n in graph.node if n.op_type == "MatMulInteger"):
        signed = tensors[node.input[1]].astype(np.int16) - tensors[node.input[3]].astype(np.int16)
        part, x = scratch / f"{model.stem}-{at}.onnx", scratch / f"{model.stem}-{at}.npy"
        onnx.utils.extract_model(str(model), str(part), [quantised_from[node.input[0]]], [o.name for o in graph.output])
        np.save(x, saturating(signed))
        cut.append((part, x))
    return cut


def test_the_dense_layers_read_alike_on_every_x86_core(qemu: str, tmp_path: Path) -> None:
    cut = [layer for model in SHIPPED for layer in dense_layers(model, tmp_path)]
    assert len(cut) >= 8
    outputs = {}
    for core in (None, *CORES):
        emulated = [qemu, "-cpu", core] if core else []
        # A host may force NumPy's OpenBLAS onto its own kernels (OPENBLAS_CORETYPE=Haswell, say): inherited by a
        # process on an emulated Nehalem, that dies at import on an AVX instruction. Left out, OpenBLAS picks by the
        # processor, as on a real older core.
        env = {k: v for k, v in os.environ.items() if not (core and k == "OPENBLAS_CORETYPE")}
        runs = [str(p) for part, x in cut for p in (part, x, tmp_path / f"{part.stem}-{core}.npz")]
        subprocess.run(
            [*emulated, sys.executable, "-c", RUN, *runs],
            check=True,
            capture_output=True,
            timeout=300,
            env=env,
        )
        outputs[core] = [dict(np.load(tmp_path / f"{part.stem}-{core}.npz")) for part, _x in cut]
    for core, name in CORES.items():
        for (part, _x), here, there in zip(cut, outputs[None], outputs[core], strict=True):
            for key in here:
                off = float(np.abs(here[key] - there[key]).max())
                assert off < 1e-5, f"{part.stem}, output {key}: off by {off:.2g} on a core with {name}"
