"""The host commits to a match's seed when it starts and reveals it only when the match is over or stopped."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import ClassVar

import pytest

from bot.ai.simple import RandomAgent
from bot.cli.main import main
from bot.core.messages import OutMessage
from bot.engine import Action, Observation
from bot.protocol.messages import act_message

from .core_helpers import ANA, CHAT, make_host, shut

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


class Watcher(RandomAgent):
    """A random bot that keeps everything it was shown: the observation and its belote-agent/1 message."""

    seen: ClassVar[list[str]] = []

    def act(self, observation: Observation) -> Action:
        Watcher.seen.append(repr(observation) + json.dumps(act_message(observation)))
        return super().act(observation)


def _seed_of(messages: list[OutMessage]) -> str:
    found = {m for msg in messages if msg.key.endswith(":end") for m in HEX64.findall(msg.text)}
    commitments = {m for msg in messages if msg.key.endswith(":lobby") for m in HEX64.findall(msg.text)}
    seeds = [s for s in found if hashlib.sha256(s.encode()).hexdigest() in commitments]
    assert len(seeds) == 1, (found, commitments)
    return seeds[0]


@pytest.mark.unsalted
async def test_the_commitment_shows_at_the_start_and_the_seed_only_in_the_end_view(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    Watcher.seen = []
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", agent_factory=lambda level, seed: Watcher(seed),
                                           bot_only_tables=True)  # four bots play the whole match
    opened = await host.command(CHAT, ANA, "new", ["target_score=51"])
    assert (await host.command(CHAT, ANA, "leave")).ok
    for _ in range(4):
        await host.command(CHAT, ANA, "addbot")
    assert (await host.command(CHAT, ANA, "start")).ok
    table = host.table(opened.table_id)
    assert table is not None and table.match is not None
    seed = str(table.match.seed)
    first_lobby = next(m for m in outbox.messages if m.key.endswith(":lobby") and "SHA-256" in m.text)
    assert hashlib.sha256(seed.encode()).hexdigest() in first_lobby.text
    await host.idle()
    assert table.status == "finished"
    ends = [i for i, m in enumerate(outbox.messages) if m.key.endswith(":end")]
    assert len(ends) == 1 and seed in outbox.messages[ends[0]].text
    assert _seed_of(outbox.messages) == seed
    before = outbox.messages[: ends[0]]
    assert len(before) > 20 and not [m.key for m in before if seed in m.text]
    assert Watcher.seen and not [s for s in Watcher.seen if seed in s]
    assert seed not in caplog.text
    # The stored record carries the seed, and verifies.
    record = await storage.match_record(opened.table_id)
    assert record is not None and record["dealing"]["seed"] == seed
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 0, capsys.readouterr().err
    await shut(host, storage)


async def test_a_match_stopped_early_reveals_its_seed(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    await host.idle()
    table = host.table(opened.table_id)
    assert table is not None and table.match is not None and table.status == "playing"
    seed = str(table.match.seed)
    assert not [m.key for m in outbox.messages if seed in m.text]
    assert (await host.command(CHAT, ANA, "stop")).ok
    end = outbox.latest[f"{opened.table_id}:end"]
    assert "stopped" in end.text and seed in end.text
    assert _seed_of(outbox.messages) == seed
    await shut(host, storage)
