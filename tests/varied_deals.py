"""``BELOTE_TEST_SALT=<anything>`` gives every fixed seed other cards: a check that no test depends on which cards a
seed happens to deal (the shuffle may change; a test must hold for every deal).

With the salt set, a match deals from its seed mixed with the salt, and every ``random.Random(seed)`` (the bots, the
tests' own choices) draws from the seed mixed with the salt. A table's seed from the host is random on every run
anyway. Python child processes are salted the same way through ``tests/salted/sitecustomize.py``: on PYTHONPATH,
and added to the PYTHONPATH of a child started with its own environment, so parent and child agree on a deal.

Without the variable nothing changes. Hunt with, for example::

    for i in $(seq 30); do BELOTE_TEST_SALT=$i nice pytest -n 2 -p no:cacheprovider; done
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

VARIABLE = "BELOTE_TEST_SALT"
# What the salt replaces, for the tests that check the dealing itself (``unsalted``).
_REAL: dict[str, Any] = {}


def apply() -> None:
    """Salt this process's deals and random generators, and its Python children's generators, if the variable is set."""
    salt = os.environ.get(VARIABLE)
    if not salt:
        return
    salt_randoms()
    _salt_children()
    from bot.engine.match import Match

    if getattr(Match, "_salted", False):
        return
    real_start_deal = Match.start_deal
    salt_number = int.from_bytes(salt.encode()[-8:].rjust(8, b"\0"), "big") % 2**31 + 1

    def salted_start_deal(self: Match, hands: Any = None) -> Any:
        if hands is not None:
            return real_start_deal(self, hands)
        seed = self.seed
        # Whatever the shuffle is, it now sees another seed of the same type.
        self.seed = seed ^ salt_number if isinstance(seed, int) else f"{seed}/{salt}"
        try:
            return real_start_deal(self)
        finally:
            self.seed = seed

    _REAL["start_deal"] = real_start_deal
    Match.start_deal = salted_start_deal  # type: ignore[method-assign]
    Match._salted = True  # type: ignore[attr-defined]


def _with_salt(env: dict[str, str]) -> dict[str, str]:
    here = str(Path(__file__).with_name("salted"))
    root = str(Path(__file__).parent.parent)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if here in paths:
        return env
    return {**env, "PYTHONPATH": os.pathsep.join([here, root, *paths])}


def _salt_children() -> None:
    if getattr(subprocess.Popen, "_salted", False):
        return
    os.environ.update(_with_salt(dict(os.environ)))
    real_init = subprocess.Popen.__init__

    def salted_init(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        env = kwargs.get("env")
        if env is not None and VARIABLE in env:
            kwargs["env"] = _with_salt(dict(env))
        real_init(self, *args, **kwargs)

    subprocess.Popen.__init__ = salted_init  # type: ignore[method-assign]
    subprocess.Popen._salted = True  # type: ignore[attr-defined]


def salt_on_import() -> None:
    """For a child: salt ``random.Random`` now and the match once ``bot.engine.match`` is imported (importing it
    here would slow every child's start)."""
    if not os.environ.get(VARIABLE):
        return
    salt_randoms()

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
            if name != "bot.engine.match":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            loader = spec.loader if spec else None
            if spec is None or loader is None:
                return spec
            real_exec = loader.exec_module

            def exec_module(module: Any) -> None:
                real_exec(module)
                apply()

            loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())


def salt_randoms() -> None:
    """Only ``random.Random(seed)``: cheap enough for the start of every child process."""
    salt = os.environ.get(VARIABLE)
    if not salt or getattr(random.Random, "_salted", False):
        return
    real_seed = random.Random.seed

    def salted_seed(self: random.Random, a: Any = None, version: int = 2) -> None:
        if isinstance(a, int | str | bytes | bytearray | float):
            a = f"{salt}/{type(a).__name__}/{a!r}"
            version = 2
        real_seed(self, a, version)

    _REAL["seed"] = real_seed
    random.Random.seed = salted_seed  # type: ignore[method-assign]
    random.Random._salted = True  # type: ignore[attr-defined]


def unsalted(monkeypatch: Any) -> None:
    """For one test that checks the dealing itself (which cards a seed must give, a wheel that must import only
    itself): the real shuffle and generators, and children started without the salt. Nothing to do unsalted."""
    if not os.environ.get(VARIABLE):
        return
    from bot.engine.match import Match

    if "start_deal" in _REAL:
        monkeypatch.setattr(Match, "start_deal", _REAL["start_deal"])
    if "seed" in _REAL:
        monkeypatch.setattr(random.Random, "seed", _REAL["seed"])
    monkeypatch.delenv(VARIABLE)
    # The salt's own entries (this process may have inherited them from the one that started it, as xdist's workers do).
    salted = {str(Path(__file__).with_name("salted")), str(Path(__file__).parent.parent)}
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in salted]
    if kept:
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(kept))
    else:
        monkeypatch.delenv("PYTHONPATH", raising=False)
