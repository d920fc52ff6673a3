"""The scanner's model travels inside the wheel: running the scanner needs no file from the source tree."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.test_packaging import _build_wheel


@pytest.mark.unsalted
def test_the_wheel_carries_the_model(tmp_path: Path) -> None:
    wheel, _ = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        model = archive.getinfo("bot/scanner/model.onnx")
    assert "bot/scanner/recognise.py" in names
    assert 10_000 < model.file_size < 5_000_000  # a small model, as shipped
    assert not any(n.startswith("training/") for n in names)
