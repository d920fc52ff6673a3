"""For tests run as an older x86 core (tools/older_core.py): skip where this machine cannot, but fail where a C
compiler is missing and the tests are required (CI, make test: BELOTE_REQUIRE_OLDER_CORE), since make test installs
one."""

from __future__ import annotations

import pytest

from tests.pgserver import required
from tools import older_core


def runnable(core: str) -> None:
    reason = older_core.unavailable(core)
    if reason is not None:
        if older_core.compiler() is None and required("BELOTE_REQUIRE_OLDER_CORE"):
            pytest.fail(f"a C compiler is required here (CI or BELOTE_REQUIRE_OLDER_CORE): {reason}")
        pytest.skip(reason)
