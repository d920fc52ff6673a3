"""The bench's scripts (bench/*.py, run as files, not a package), loaded for tests of their pieces."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_script(name: str) -> ModuleType:
    """bench/``name``.py as a module (registered, so its dataclasses and pickled workers find it)."""
    module_name = f"{name}_bench"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
