"""Run a command as an older x86 core would, at this core's speed: the libraries it loads (onnxruntime, OpenCV, NumPy)
are told by CPUID that the processor lacks VNNI (``avx512``), AVX-512 and VNNI (``avx2``) or AVX altogether
(``sse4``), and take that core's kernels (tools/older_core.c, built here with the C compiler on first use):

    python tools/older_core.py avx2 python bench/scan.py --only held-out
    python tools/older_core.py sse4 python -m tests.scan_committed --trials 0

It needs Linux on an x86 processor with CPUID faulting (``cpuid_fault`` in /proc/cpuinfo: Intel since Ivy Bridge,
and most virtual machines on them) and a C compiler (``cc``, or $CC). Python's faulthandler must stay off in the
command (it would take the trap for a crash): PYTHONFAULTHANDLER is cleared.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORES = {"avx512": "AVX-512 without VNNI", "avx2": "AVX2 without AVX-512 or VNNI", "sse4": "SSE4.2 without AVX"}
NEEDS = {"avx512": ("avx512f", "avx512bw", "avx512dq", "avx512vl"), "avx2": ("avx2",), "sse4": ("sse4_2",)}
# what each core lacks, as /proc/cpuinfo names it: a processor that already lacks it is that core itself
LACKS = {"avx512": ("avx512_vnni", "avx_vnni"), "avx2": ("avx512f", "avx512_vnni", "avx_vnni"), "sse4": ("avx",)}
SOURCE = Path(__file__).with_name("older_core.c")


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def unavailable(core: str) -> str | None:
    """Why ``core`` cannot be run as here (None when it can)."""
    if core not in CORES:
        return f"unknown core {core!r}; known: {', '.join(CORES)}"
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return "an older x86 core is shown only on Linux on an x86 processor"
    flags = processor_flags()
    if "cpuid_fault" not in flags:
        return "this processor (or its virtual machine) cannot make CPUID trap: no cpuid_fault in /proc/cpuinfo"
    lacking = [flag for flag in NEEDS[core] if flag not in flags]
    if lacking:
        return f"this processor lacks {', '.join(lacking)} itself"
    if compiler() is None:
        return "no C compiler (cc, or $CC) to build tools/older_core.c"
    # a kernel or sandbox that refuses ARCH_SET_CPUID ends the process; a library the loader cannot preload (from a
    # temporary folder mounted noexec, say) leaves it running as this core: both are found by running one
    loaded = "import ctypes; ctypes.c_int.in_dll(ctypes.CDLL(None), 'belote_older_core')"
    trial = subprocess.run([sys.executable, "-c", loaded], env=environment(core), capture_output=True, text=True)
    if trial.returncode != 0:
        said = trial.stderr.strip().splitlines()
        return f"a process cannot run so here: {said[0] if said else trial.returncode}"
    return None


def processor_flags() -> set[str]:
    """The instruction sets and features /proc/cpuinfo lists for this processor (none where there is no such file)."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def itself(core: str) -> bool:
    """Whether this processor is ``core`` itself: it has what that core has and lacks what it lacks, so its libraries
    already take that core's kernels and a command run as it reads as one run as it is."""
    flags = processor_flags()
    return all(flag in flags for flag in NEEDS[core]) and not any(flag in flags for flag in LACKS[core])


def library() -> Path:
    """The built tools/older_core.c, once per version of its source (named by its hash, so concurrent callers each
    find it whole: each builds to a file of its own and renames it into place)."""
    source = SOURCE.read_bytes()
    built = Path(tempfile.gettempdir()) / f"belote-older-core-{hashlib.sha256(source).hexdigest()[:16]}.so"
    if not built.exists():
        cc = compiler()
        if cc is None:
            raise RuntimeError("no C compiler (cc, or $CC) to build tools/older_core.c")
        part = built.with_name(f"{built.name}.{os.getpid()}")
        subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(part), str(SOURCE)], check=True)
        part.replace(built)
    return built


def environment(core: str, base: dict[str, str] | None = None) -> dict[str, str]:
    """``base`` (this process's environment if not given) for a command run as ``core``."""
    env = dict(os.environ if base is None else base)
    env["LD_PRELOAD"] = " ".join(filter(None, [str(library()), env.get("LD_PRELOAD", "")]))
    env["BELOTE_CORE"] = core
    env.pop("PYTHONFAULTHANDLER", None)
    return env


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in CORES:
        cores = "; ".join(f"{name}: {sets}" for name, sets in CORES.items())
        sys.exit(f"usage: python tools/older_core.py {{{','.join(CORES)}}} COMMAND [ARGUMENT ...] ({cores})")
    core, command = sys.argv[1], sys.argv[2:]
    reason = unavailable(core)
    if reason is not None:
        sys.exit(f"cannot run as an {core} core here: {reason}")
    os.execvpe(command[0], command, environment(core))


if __name__ == "__main__":
    main()
