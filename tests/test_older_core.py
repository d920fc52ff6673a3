"""tools/older_core.py, which runs a command as an older x86 core would (the scanner's accuracy tests read the committed
photos so): the sets it hides are hidden from what CPUID answers, a real crash still crashes, and what it is given
to run keeps its environment."""

from __future__ import annotations

import platform
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.older_cores import runnable
from tools import older_core

# What the x86 feature flags say in a process, from CPUID itself (leaf 1: AVX; leaf 7: AVX2, AVX512F, AVX512-VNNI)
CPUID = r"""
#include <cpuid.h>
#include <stdio.h>
int main(void) {
    unsigned a, b, c, d, avx;
    __cpuid_count(1, 0, a, b, c, d);
    avx = c >> 28 & 1;
    __cpuid_count(7, 0, a, b, c, d);
    printf("%s %s %s %s\n", avx ? "AVX" : "", b >> 5 & 1 ? "AVX2" : "", b >> 16 & 1 ? "AVX512F" : "",
           c >> 11 & 1 ? "AVX512-VNNI" : "");
    return 0;
}
"""


@pytest.fixture(scope="module")
def cpuid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A program that prints the feature flags CPUID gives it (run as an older core, its CPUID traps too)."""
    runnable("sse4")
    folder = tmp_path_factory.mktemp("cpuid")
    (folder / "cpuid.c").write_text(CPUID)
    subprocess.run([str(older_core.compiler()), "-O2", "-o", str(folder / "cpuid"), str(folder / "cpuid.c")],
                   check=True, timeout=60)  # fmt: skip
    return folder / "cpuid"


def flags(program: Path, env: dict[str, str] | None = None) -> set[str]:
    done = subprocess.run([str(program)], env=env, capture_output=True, text=True, timeout=60, check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize("core", list(older_core.CORES))
def test_cpuid_answers_without_the_sets_the_core_lacks(core: str, cpuid: Path) -> None:
    runnable(core)
    assert "AVX" in flags(cpuid)  # runnable() asked for more than SSE4
    there = flags(cpuid, older_core.environment(core))
    assert there == {"avx512": {"AVX", "AVX2", "AVX512F"}, "avx2": {"AVX", "AVX2"}, "sse4": set()}[core]


def test_a_real_crash_still_crashes() -> None:
    runnable("sse4")
    crash = subprocess.run([sys.executable, "-c", "import ctypes; ctypes.string_at(0)"],
                           env=older_core.environment("sse4"), capture_output=True, timeout=60)  # fmt: skip
    assert crash.returncode == -signal.SIGSEGV


def test_the_command_keeps_its_environment() -> None:
    runnable("avx2")
    base = {"PATH": "/usr/bin:/bin", "LD_PRELOAD": "libkept.so", "PYTHONFAULTHANDLER": "1", "KEPT": "yes"}
    env = older_core.environment("avx2", base)
    assert env["LD_PRELOAD"].split() == [str(older_core.library()), "libkept.so"]
    assert env["KEPT"] == "yes" and env["BELOTE_CORE"] == "avx2"
    assert "PYTHONFAULTHANDLER" not in env  # its handler would take the trap for a crash


def test_an_unknown_core_is_refused_with_the_known_ones() -> None:
    assert older_core.unavailable("avx10") == "unknown core 'avx10'; known: avx512, avx2, sse4"
    done = subprocess.run([sys.executable, str(older_core.SOURCE.with_suffix(".py")), "avx10", "true"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode != 0 and "avx2" in done.stderr and "sse4" in done.stderr


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({"BELOTE_CORE": "none"}, "BELOTE_CORE must be avx512, avx2 or sse4"),  # as a refused ARCH_SET_CPUID ends it
        ({"LD_PRELOAD": "/nonexistent/older_core.so"}, "cannot be preloaded"),  # it would run as this core
    ],
)
def test_a_process_that_cannot_run_so_is_a_reason_not_a_failure(
    changed: dict[str, str], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # where the kernel or a sandbox refuses to make CPUID trap, or the loader to preload the library, the tests skip
    runnable("avx2")
    environment = older_core.environment
    monkeypatch.setattr(older_core, "environment", lambda core: {**environment(core), **changed})
    reason = older_core.unavailable("avx2")
    assert reason is not None and said in reason


# /proc/cpuinfo's flags of four processors (and of two older ones below), cut to the sets that matter here
EPYC_ZEN2 = "fpu sse4_1 sse4_2 avx f16c avx2 fma bmi2 sha_ni cpuid_fault"
ALDER_LAKE = "fpu sse4_1 sse4_2 avx avx2 fma avx_vnni cpuid_fault"
SKYLAKE_SP = "fpu sse4_1 sse4_2 avx avx2 avx512f avx512dq avx512bw avx512vl cpuid_fault"
CASCADE_LAKE = f"{SKYLAKE_SP} avx512_vnni"


@pytest.mark.parametrize(
    ("flags", "cores"),
    [(EPYC_ZEN2, {"avx2"}), (ALDER_LAKE, set()), (SKYLAKE_SP, {"avx512"}), (CASCADE_LAKE, set()),
     ("fpu sse4_1 sse4_2 popcnt", {"sse4"}), ("fpu sse4_1", set())],
)  # fmt: skip
def test_a_processor_that_is_an_older_core_itself_is_known(
    flags: str, cores: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the accuracy tests read the committed photos once where the processor already takes that core's kernels: a core
    # with VNNI of either kind sums 8-bit products exactly, and is none of them
    monkeypatch.setattr(older_core, "processor_flags", lambda: set(flags.split()))
    assert {core for core in older_core.CORES if older_core.itself(core)} == cores


def test_this_processors_flags_are_read() -> None:
    if sys.platform != "linux" or platform.machine() != "x86_64":
        pytest.skip("/proc/cpuinfo lists x86 flags on Linux on x86 alone")
    assert {"sse2", "sse4_2"} <= older_core.processor_flags()  # every x86-64 machine the scanner runs on has both
