"""The container recipe, checked without a container engine (none runs here): the Dockerfile builds from exactly
the files the package is built from, runs as a user of its own, starts the real command, and its HEALTHCHECK
command, run for real against a running ``belote-bot run`` with the image's settings, answers 0 when ready and 1
on a standby; compose.yaml starts the bot after a healthy PostgreSQL whose data is on a volume."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml

from bot.cli.main import COMMANDS
from bot.cli.run import serve_all
from bot.config import load_settings
from bot.storage.factory import is_postgres
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.ops_helpers import free_port, wait_ready, wait_standby
from tests.test_packaging import SOURCES

ROOT = Path(__file__).resolve().parent.parent


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, arguments), continuation lines joined and comments left out."""
    text = (ROOT / "Dockerfile").read_text()
    joined = re.sub(r"\\\n\s*", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in instructions():
        if keyword == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", rest)))
    return env


def exec_form(rest: str) -> list[str]:
    value = json.loads(rest)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), rest
    return value


def test_the_image_is_built_from_the_package_sources_and_runs_the_real_command_as_its_own_user() -> None:
    steps = instructions()
    assert steps[0] == ("FROM", "python:3.11-slim")
    copied = {word.rstrip("/") for keyword, rest in steps if keyword == "COPY" for word in rest.split()[:-1]}
    assert copied == set(SOURCES)
    assert any(keyword == "RUN" and "pip install ." in rest for keyword, rest in steps)
    users = [rest for keyword, rest in steps if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert any(keyword == "RUN" and "useradd" in rest and users[-1] in rest for keyword, rest in steps)
    [cmd] = [exec_form(rest) for keyword, rest in steps if keyword == "CMD"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[cmd[0]] == "bot.cli.main:main" and cmd[1:] == ["run"] and "run" in COMMANDS
    assert (ROOT / "Procfile").read_text().split(":", 1)[1].strip() == " ".join(cmd)  # the same command
    env = image_env()
    settings = load_settings(env_file=None, **{k.removeprefix("BELOTE_").lower(): v for k, v in env.items()
                                               if k.startswith("BELOTE_")})
    assert (settings.health_port, settings.health_listen) == (8080, "0.0.0.0")
    exposed = [rest for keyword, rest in steps if keyword == "EXPOSE"]
    assert exposed == [str(settings.health_port)]


async def run_probe(env: dict[str, str], *args: str) -> tuple[int, str]:
    """The image's HEALTHCHECK command, with its exec form's arguments, in a process of its own."""
    [check] = [rest for keyword, rest in instructions() if keyword == "HEALTHCHECK"]
    command = exec_form(check.split(" CMD ", 1)[1])
    assert command[:1] == ["python"]
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *command[1:], *args, env={**clean, **env}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_the_healthcheck_command_answers_ready_and_standby_as_the_running_bot_says(tmp_path: Path) -> None:
    env = image_env()
    port_a, port_b = free_port(), free_port()
    async with FakeTelegram() as tg:
        def settings(port: int) -> Any:
            return load_settings(env_file=None, telegram_token=TOKEN, telegram_base_url=tg.root_url,
                                 database=str(tmp_path / "belote.sqlite3"), health_port=port,
                                 health_listen=env["BELOTE_HEALTH_LISTEN"])

        stop = asyncio.Event()
        a = asyncio.create_task(serve_all(settings(port_a), 0.0, stop))
        b = asyncio.create_task(serve_all(settings(port_b), 0.0, stop))
        try:
            await wait_ready(port_a)
            await wait_standby(port_b)
            image = {**env, "BELOTE_HEALTH_PORT": str(port_a)}
            status, out = await run_probe(image)
            assert status == 0 and json.loads(out)["ready"] is True, out
            status, out = await run_probe({**image, "BELOTE_HEALTH_PORT": str(port_b)})
            assert (status, out.strip()) == (1, "not ready (503): standby: another process holds the lease")
            status, out = await run_probe({**image, "BELOTE_HEALTH_PORT": str(port_b)}, "--live")
            assert status == 0 and json.loads(out) == {"alive": True, "role": "standby"}
        finally:
            stop.set()
            assert await asyncio.wait_for(a, 20) == 0
            assert await asyncio.wait_for(b, 20) == 0
    status, out = await run_probe({**image, "BELOTE_HEALTH_PORT": str(port_a)})
    assert status == 1 and out.startswith(f"no answer from http://127.0.0.1:{port_a}/readyz"), out
    status, out = await run_probe({})
    assert status == 2 and "BELOTE_HEALTH_PORT is not set" in out and "Traceback" not in out


def test_compose_starts_the_bot_after_a_healthy_postgresql_kept_on_a_volume() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "bot"}
    db, bot = services["db"], services["bot"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    [volume] = db["volumes"]
    name, _, mounted = volume.partition(":")
    assert mounted == "/var/lib/postgresql/data" and name in compose["volumes"]
    assert bot["build"] == "." and bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert bot["restart"] == "unless-stopped"  # a process that lost its lease exits, and comes back as a standby
    assert bot["expose"] == [image_env()["BELOTE_HEALTH_PORT"]]
    # The URL the bot gets once compose has put the password in: a PostgreSQL database on the db service.
    env = {key: re.sub(r"\$\{POSTGRES_PASSWORD[^}]*\}", "s3cret", value) for key, value in bot["environment"].items()}
    settings = load_settings(env_file=None, database=env["BELOTE_DATABASE"])
    assert is_postgres(settings.database) and "@db:5432/" in settings.database
    assert db["environment"]["POSTGRES_USER"] in settings.database and db["environment"]["POSTGRES_DB"] in \
        settings.database.rsplit("/", 1)[1]
    # Tokens come from the operator's .env, never from the file.
    assert re.fullmatch(r"\$\{BELOTE_TELEGRAM_TOKEN:-\}", bot["environment"]["BELOTE_TELEGRAM_TOKEN"])
