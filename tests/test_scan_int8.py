"""The index network as shipped: its later convolutions in 8 bits (training.quantize), read in the fast layout."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bot.scanner import recognise
from bot.scanner.frames import FRAME_HIGH, FRAME_WIDE


def kernels(model: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """Each kernel the network runs on a batch of frames, opened as the scanner opens it: its operator and the
    element types of its inputs (from onnxruntime's own profile)."""
    options = recognise.session_options()
    options.enable_profiling = True
    options.profile_file_prefix = str(scratch / model.stem)
    session = recognise.open_session(model, options)
    frames = np.random.default_rng(1).random((64, 2, FRAME_HIGH, FRAME_WIDE), dtype=np.float32)
    session.run(None, {session.get_inputs()[0].name: frames})
    events = json.loads(Path(session.end_profiling()).read_text())
    return [
        (e["args"]["op_name"], [next(iter(i)) for i in e["args"].get("input_type_shape", [])])
        for e in events
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")
    ]


def test_the_index_network_computes_all_but_its_first_convolution_in_8_bits(tmp_path: Path) -> None:
    ran = kernels(recognise.INDEX, tmp_path)
    assert [op for op, _ in ran].count("QLinearConv") == 2, ran
    float_convolutions = [types for op, types in ran if op == "Conv"]
    assert len(float_convolutions) == 1 and float_convolutions[0][0] == "float", ran


def test_no_8_bit_pooling_is_left_to_the_slow_kernel(tmp_path: Path) -> None:
    # with onnxruntime's QDQPropagationTransformer the first pooling reads 8 bits in the plain layout (MaxPool on
    # uint8), three times the network's time; pooling in 8 bits belongs in the channels-last kernel (NhwcMaxPool)
    ran = kernels(recognise.INDEX, tmp_path)
    slow = [(op, types) for op, types in ran if op == "MaxPool" and "uint8" in types]
    assert not slow, ran
    assert any(op == "NhwcMaxPool" and "uint8" in types for op, types in ran), ran
