"""tools/older_core.py, which runs a command as an older x86 core would (the scanner's accuracy tests read the committed
photos so): the sets it hides are hidden from what CPUID answers, a real crash still crashes, and what it is given
to run keeps its environment."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.older_cores import runnable
from tools import older_core

# What the x86 feature flags say in a process, from CPUID itself (leaf 1: AVX; leaf 7: AVX2, AVX512F, AVX512-VNNI)
CPUID = """
import ctypes, mmap, sys
# push rbx; mov r8, rdx; mov eax, edi; mov ecx, esi; cpuid; mov [r8], eax; mov [r8+4], ebx; mov [r8+8], ecx;
# pop rbx; ret (CPUID overwrites rdx, the third argument: it is kept in r8)
code = bytes([0x53, 0x49, 0x89, 0xD0, 0x89, 0xF8, 0x89, 0xF1, 0x0F, 0xA2, 0x41, 0x89, 0x00, 0x41, 0x89, 0x58, 0x04,
              0x41, 0x89, 0x48, 0x08, 0x5B, 0xC3])
page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
page.write(code)
call = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint32 * 3))(
    ctypes.addressof(ctypes.c_char.from_buffer(page)))
def cpuid(leaf, sub):
    out = (ctypes.c_uint32 * 3)()
    call(leaf, sub, ctypes.pointer(out))
    return list(out)
_, _, ecx1 = cpuid(1, 0)
_, ebx7, ecx7 = cpuid(7, 0)
print(" ".join(name for name, on in (("AVX", ecx1 >> 28 & 1), ("AVX2", ebx7 >> 5 & 1), ("AVX512F", ebx7 >> 16 & 1),
                                     ("AVX512-VNNI", ecx7 >> 11 & 1)) if on))
"""


def flags(env: dict[str, str] | None = None) -> set[str]:
    done = subprocess.run([sys.executable, "-c", CPUID], env=env, capture_output=True, text=True, timeout=60,
                          check=True)  # fmt: skip
    return set(done.stdout.split())


@pytest.mark.parametrize("core", list(older_core.CORES))
def test_cpuid_answers_without_the_sets_the_core_lacks(core: str) -> None:
    runnable(core)
    assert "AVX" in flags()  # runnable() asked for more than SSE4
    there = flags(older_core.environment(core))
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
