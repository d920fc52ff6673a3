"""The package list lives here because the catalogs stay in ``locales/`` at the top of the repository (one place
for translators) yet must travel inside the wheel: ``locales/<lang>/LC_MESSAGES`` is packaged as
``bot/locales/<lang>/LC_MESSAGES``, where ``bot.i18n`` looks first. Everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import find_packages, setup

# Each catalog folder is listed as a (data-only) package, so setuptools copies its .po files without warning.
root = Path(__file__).parent
catalogs = sorted(f"bot.locales.{p.parent.name}.LC_MESSAGES" for p in root.glob("locales/*/LC_MESSAGES"))

setup(
    packages=[*find_packages(include=["bot", "bot.*"]), "bot.locales", *(c.rsplit(".", 1)[0] for c in catalogs),
              *catalogs],
    package_dir={"bot.locales": "locales"},
)
