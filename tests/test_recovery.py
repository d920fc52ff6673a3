"""Recovery: a host process killed with SIGKILL in the middle of a deal loses nothing; a new process on the same
database rebuilds the table from its log, finishes the match, and the final record equals an uninterrupted replay
of the same logged actions. On both storage backends: a SQLite file and a PostgreSQL database."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bot.engine import Bid, Match, Play, parse_call, parse_card, parse_rules
from bot.engine.record import match_to_record
from bot.engine.shuffle import LEGACY_SCHEME
from bot.storage.factory import is_postgres, open_storage
from tests.storage_backends import fetch

ROOT = Path(__file__).resolve().parent.parent


def _events(db: Path | str) -> list[tuple[int, str]]:
    rows = fetch(str(db), "SELECT seq, data FROM events ORDER BY table_id, seq")
    return [(int(seq), str(data)) for seq, data in rows]


def _replay(events: list[dict[str, object]]) -> Match:
    """An uninterrupted replay of the logged actions on a fresh match with the logged seed and dealer."""
    rules: dict[str, object] = {}
    match: Match | None = None
    for event in events:
        if event["e"] == "open":
            rules = dict(event["options"]["rules"])  # type: ignore[index]
        elif event["e"] == "set" and event["key"] not in ("timer", "away", "level", "lang"):
            rules[str(event["key"])] = event["value"]
        elif event["e"] == "start":
            scheme = str(event.get("scheme", LEGACY_SCHEME))  # a start logged before schemes: the old dealing
            seed = int(event["seed"]) if scheme == LEGACY_SCHEME else str(event["seed"])  # type: ignore[call-overload]
            match = Match(parse_rules(rules), seed, int(event["dealer"]), scheme=scheme)  # type: ignore[call-overload]
        elif event["e"] == "bid":
            assert match is not None
            match.apply(Bid(parse_call(str(event["call"]))))
        elif event["e"] == "play":
            assert match is not None
            match.apply(
                Play(parse_card(str(event["card"])), tuple(event.get("declare", ())), bool(event.get("belote")))  # type: ignore[arg-type]
            )
    assert match is not None
    return match


def _worker(db: Path | str, pause: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.recovery_worker", str(db), str(pause)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_sigkill_mid_deal_then_restart_finishes_the_same_match(database: str) -> None:
    import json

    db = database
    # Bots move every 20 ms, so even a one-deal match (36 actions) leaves a wide window after the fifth card.
    first = _worker(db, 0.02)
    assert first.stdout is not None
    line = first.stdout.readline()
    assert line.startswith("opened "), line + (first.stderr.read() if first.stderr else "")
    table_id = line.split()[1]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.01)
        if sum('"e":"play"' in data for _, data in _events(db)) >= 5:
            break
    os.kill(first.pid, signal.SIGKILL)
    first.wait(10)
    assert first.returncode == -signal.SIGKILL

    at_kill = [json.loads(data) for _, data in _events(db)]
    killed = _replay(at_kill)
    assert not killed.over, "the process must die mid-match"
    assert killed.deal.phase in ("auction", "play")
    seqs = [seq for seq, _ in _events(db)]
    assert seqs == list(range(1, len(seqs) + 1)), "the log has no gap"

    second = _worker(db, 0.0)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    assert f"recovered {table_id}" in out and f"finished {table_id}" in out

    events = [json.loads(data) for _, data in _events(db)]
    assert events[: len(at_kill)] == at_kill, "nothing logged before the kill was lost or changed"
    replayed = _replay(events)
    assert replayed.over
    [(record,)] = fetch(db, f"SELECT record FROM matches WHERE table_id = '{table_id}'")
    stored = json.loads(record)
    assert stored == match_to_record(replayed, stored["seats"], reveal=True)  # a finished match shows its seed
    assert len(stored["deals"]) == len(replayed.deals)


SIGTERM_SCRIPT = """
import argparse, asyncio, sys, types
from bot.core.messages import ChatRef, UserRef

async def serve(host, settings):
    async def sink(msg):
        return None
    host.add_sink("telegram", sink)
    chat, ana = ChatRef("telegram", "-5"), UserRef("telegram", "1", "Ana")
    await host.command(chat, ana, "new")
    await host.command(chat, ana, "leave")
    for _ in range(4):
        await host.command(chat, ana, "addbot")
    await host.command(chat, ana, "start")
    print("ready", flush=True)
    await asyncio.Event().wait()

fake = types.ModuleType("bot.adapters.telegram")
fake.serve = serve
sys.modules["bot.adapters.telegram"] = fake
from bot.cli import run
sys.exit(run.main(argparse.Namespace(bot_pause=0.005)))
"""


def test_sigterm_stops_run_cleanly_and_a_restart_resumes_every_logged_action(tmp_path: Path, database: str) -> None:
    import asyncio
    import json

    import asyncpg

    db = database
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BELOTE_TELEGRAM_TOKEN": "1:x", "BELOTE_DATABASE": str(db),
           "BELOTE_BOT_LEVEL": "random", "BELOTE_TURN_SECONDS": "0", "BELOTE_BOT_ONLY_TABLES": "1"}
    env.pop("BELOTE_DISCORD_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-c", SIGTERM_SCRIPT], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    # Stop it mid-match: once a card has been played (polled, not a fixed sleep, so a busy machine cannot race it).
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if (is_postgres(db) or Path(db).exists()) and any('"e":"play"' in data for _, data in _events(db)):
                break
        except (sqlite3.OperationalError, asyncpg.UndefinedTableError):  # the schema is not there yet
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err

    logged = [json.loads(data) for _, data in _events(db)]
    seqs = [seq for seq, _ in _events(db)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert any(e["e"] == "play" for e in logged)

    from bot.config import Settings
    from bot.core.host import Host
    async def resume() -> tuple[int, int]:
        storage = open_storage(db)
        await storage.open()
        host = Host(storage, Settings(_env_file=None, turn_seconds=0, bot_level="random", bot_only_tables=True))  # type: ignore[call-arg]
        await host.start()
        from bot.core.messages import ChatRef

        table_id = host.table_for_chat(ChatRef("telegram", "-5"))
        assert table_id is not None
        table = host.table(table_id)
        assert table is not None
        version = table.version
        await host.idle()
        finished = table.status
        await host.close()
        await storage.close()
        return version, 1 if finished == "finished" else 0

    version, finished = asyncio.run(resume())
    assert version == len(logged)  # every logged action is part of the resumed table
    assert finished == 1
