"""The installed distribution: a wheel built from the source, installed (not editable) into a fresh virtual
environment, answers in Bulgarian, because the gettext catalogs travel inside it.

The wheel is built without build isolation and installed without dependencies, and the new environment borrows the
dependencies (pydantic, Babel, ...) from the test's own environment through a path file, so the test needs no
index and stays quick. The test's own ``bot`` (an editable install) is kept out: only the path is borrowed, not the
path files that hook the editable install in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "README.md", "bot", "locales")


def _run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _build_wheel(tmp: Path) -> tuple[Path, str]:
    source = tmp / "source"
    source.mkdir()
    for name in (n for n in SOURCES if (ROOT / n).exists()):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.sqlite3"))
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = tmp / "dist"
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-v",
                 "-w", dist, source, cwd=tmp)
    (wheel,) = dist.glob("belote_bot-*.whl")
    return wheel, built.stdout + built.stderr


@pytest.mark.unsalted
def test_installed_wheel_answers_in_bulgarian_and_carries_only_bot(tmp_path: Path) -> None:
    wheel, log = _build_wheel(tmp_path)
    assert "project.license" not in log and "SetuptoolsDeprecationWarning" not in log, log
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert {n.split("/")[0] for n in names} == {"bot", wheel.name.split("-")[0] + "-0.1.0.dist-info"}
    for lang in ("bg", "en"):
        for po in (ROOT / "locales" / lang / "LC_MESSAGES").glob("*.po"):
            assert f"bot/locales/{lang}/LC_MESSAGES/{po.name}" in names

    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path)
                .stdout.strip())
    (site / "borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel,
         cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"  # not the source folder: nothing found beside the working directory
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BELOTE_", "PYTHON"))}
    where = _run(python, "-c", "import bot.i18n as i; print(i.__file__); print(i.LOCALES_DIR)", cwd=elsewhere, env=env)
    module, locales = where.stdout.split()
    assert module.startswith(str(env_dir)) and locales.startswith(str(env_dir)), where.stdout

    answer = _run(env_dir / "bin" / "belote-bot", "score", "купа 102 60 белот ние", cwd=elsewhere, env=env)
    assert answer.stdout.splitlines()[0] == "Ние 12 : Вие 6 (изкарана игра)"
    assert "Обявилите (Ние) имат повече" in answer.stdout
