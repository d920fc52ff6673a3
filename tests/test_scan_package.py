"""The scanner's models travel inside the wheel: running the scanner needs no file from the source tree."""

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
        models = [archive.getinfo(f"bot/scanner/{name}.onnx") for name in ("turn", "model", "index")]
        vdp = [archive.getinfo(f"bot/scanner/{name}-vdp.onnx") for name in ("model", "index")]
        cover = archive.getinfo("bot/scanner/index-cover.onnx")
        hard = archive.getinfo("bot/scanner/index-cover-hard.onnx")
        third = archive.getinfo("bot/scanner/index-cover-all.onnx")
        court = archive.getinfo("bot/scanner/court.onnx")
    assert "bot/scanner/recognise.py" in names
    # the three networks (the card's turn, its reader, the index read in its frame) are small, as shipped: a few MB
    # at most together
    assert all(m.file_size > 10_000 for m in models)
    assert sum(m.file_size for m in models) < 5_000_000
    # and the reader and index network of packs lettered В Д П, their dense layers in 8 bits: under 2 MB more
    assert all(m.file_size > 10_000 for m in vdp)
    assert sum(m.file_size for m in vdp) < 2_000_000
    # and the index network that checks the cards named for covered indices, its dense layers in 8 bits: under 1 MB
    assert 10_000 < cover.file_size < 1_000_000
    # and the second network of that check, carried on from it over the cards the scanner checks: as small
    assert 10_000 < hard.file_size < 1_000_000
    # and its third, carried on from the second over all eighteen trained designs: as small
    assert 10_000 < third.file_size < 1_000_000
    # and the court network, which reads whether an index belongs to a jack, queen or king: under 1 MB
    assert 10_000 < court.file_size < 1_000_000
    assert not any(n.startswith("training/") for n in names)
