"""A table's game: chosen with a word after /belot or game=..., switched in the lobby, remembered by the chat;
options checked by the game's own model; old logs and old databases stay Bulgarian."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.core.messages import ChatRef
from bot.core.payload import decode
from bot.core.table import Options, TableError, check_option, replay
from bot.engine import Match
from bot.engine.bela import BelaMatch
from bot.engine.french import FrenchMatch
from bot.storage.sqlite import MIGRATIONS, SqliteStorage
from tests.core_helpers import ANA, BORIS, CHAT, make_host, shut


def lobby_payload(outbox: object, table_id: str, action: str) -> str:
    lobby = outbox.latest[f"{table_id}:lobby"]  # type: ignore[attr-defined]
    return next(b.payload for row in lobby.buttons for b in row if decode(b.payload).action == action)


@pytest.mark.parametrize(
    ("words", "game", "match_type", "target"),
    [
        (["bela"], "bela", BelaMatch, 1001),
        (["БЕЛА"], "bela", BelaMatch, 1001),
        (["french"], "french", FrenchMatch, 1000),
        (["belote"], "french", FrenchMatch, 1000),
        (["game=french", "target_score=500"], "french", FrenchMatch, 500),
        (["белот"], "bulgarian", Match, 151),
        ([], "bulgarian", Match, 151),
    ],
)
async def test_a_word_after_belot_names_the_game(
    tmp_path: Path, words: list[str], game: str, match_type: type, target: int
) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", words)
        assert opened.ok, opened.text
        for _ in range(3):
            await host.command(CHAT, ANA, "addbot")
        await host.command(CHAT, ANA, "start")
        table = host.table(opened.table_id)
        assert table is not None and table.game == game
        assert isinstance(table.match, match_type) and table.rules.target_score == target
    finally:
        await shut(host, storage)


async def test_an_unknown_game_word_is_refused_naming_the_games(tmp_path: Path) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    try:
        answer = await host.command(CHAT, ANA, "new", ["chess"])
        assert not answer.ok and "chess" in answer.text and "bela" in answer.text and "French belote" in answer.text
        bad = await host.command(CHAT, ANA, "new", ["game=chess"])
        assert not bad.ok and "bulgarian, bela, french" in bad.text
        assert host.table_for_chat(CHAT) is None
    finally:
        await shut(host, storage)


async def test_options_are_checked_by_the_games_own_model(tmp_path: Path) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    try:
        wrong = await host.command(CHAT, ANA, "new", ["bela", "contra_blocks_bidding=true"])
        assert not wrong.ok and "contra_blocks_bidding" in wrong.text and "end_rule" in wrong.text
        opened = await host.command(CHAT, ANA, "new", ["bela", "end_rule=na_dosta", "target_score=501"])
        assert opened.ok, opened.text
        refused = await host.command(CHAT, ANA, "set", ["tie", "share"])
        assert not refused.ok and "pad, visi" in refused.text
        assert (await host.command(CHAT, ANA, "set", ["tie", "visi"])).ok
        table = host.table(opened.table_id)
        assert table is not None
        assert table.options.rules == {"end_rule": "na_dosta", "target_score": 501, "tie": "visi"}
        assert not (await host.command(CHAT, ANA, "set", ["target_score", "0"])).ok  # each option keeps its range
    finally:
        await shut(host, storage)


def test_check_option_takes_the_games_keys() -> None:
    assert check_option("stiglja_value", "100", game="bela") == 100
    assert check_option("capot_bonus", "88", game="french") == 88
    with pytest.raises(ValueError, match="capot_bonus: unknown option"):
        check_option("capot_bonus", "88", game="bela")
    with pytest.raises(ValueError, match="target_score: must be 1-3000"):
        check_option("target_score", "5000", game="french")


async def test_the_game_button_switches_the_game_drops_foreign_options_and_is_remembered(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["contra_blocks_bidding=true", "target_score=101"])
        table_id = opened.table_id
        await host.command(CHAT, BORIS, "join")
        old = lobby_payload(outbox, table_id, "g")
        switched = await host.press(ANA, old)
        assert switched.ok, switched.text
        table = host.table(table_id)
        assert table is not None and table.game == "bela"
        # The Bulgarian contra option means nothing in Bela; the target is an option of both.
        assert table.options.rules == {"target_score": 101}
        assert "Bela (Croatian)" in outbox.latest[f"{table_id}:lobby"].text
        # Boris pressed the same (older) button: the game changed since, so his press changes nothing.
        version = table.version
        stale = await host.press(BORIS, old)
        assert not stale.ok and "Бела (хърватска)" in stale.text and table.version == version  # Boris reads Bulgarian
        # Someone who does not sit at the table may not switch it.
        from tests.core_helpers import VERA

        outsider = await host.press(VERA, lobby_payload(outbox, table_id, "g"))
        assert not outsider.ok and table.game == "bela"
        # The options menu offers the game's own options.
        await host.press(ANA, lobby_payload(outbox, table_id, "o"))
        menu = outbox.latest[f"{table_id}:opts"].text + str(outbox.latest[f"{table_id}:opts"].buttons)
        assert "na prolaz" in menu and "Contra" not in menu
        await host.command(CHAT, ANA, "stop")
        # The chat's next table offers the game it chose last.
        again = await host.command(CHAT, ANA, "new")
        second = host.table(again.table_id)
        assert second is not None and second.game == "bela"
    finally:
        await shut(host, storage)


def test_a_log_written_before_tables_had_a_game_is_a_bulgarian_table() -> None:
    events = [
        {"e": "open", "options": {"rules": {"target_score": 101}, "timer": 0, "away": "bot_turn", "level": "random",
                                  "lang": "en"}, "user": "1"},
        *({"e": "bot", "seat": s, "level": "random"} for s in range(4)),
        {"e": "start", "seed": 7, "dealer": 0},
    ]
    table = replay("t1", ChatRef("test", "1"), "1", events)
    assert table.game == "bulgarian" and isinstance(table.match, Match) and table.rules.target_score == 101
    with pytest.raises(TableError, match="unknown game"):
        Options.from_json({**events[0]["options"], "game": "chess"})  # type: ignore[dict-item]


async def test_a_database_from_before_games_keeps_its_matches_as_bulgarian(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for version, script in enumerate(MIGRATIONS[:3], 1):
        conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={version};\nCOMMIT;")
    conn.execute("INSERT INTO matches VALUES ('m1', 'test', '-1', '{}', 152, 90, 0, 9, 0)")
    conn.execute("INSERT INTO match_players VALUES ('m1', 'test', '-1', '7', 'Ana', 0, 1, 152, 9)")
    conn.commit()
    conn.close()
    storage = SqliteStorage(path)
    await storage.open()
    try:
        old = await storage.player_stats("test", "7", game="bulgarian")
        assert old is not None and old.matches == 1 and old.wins == 1
        assert await storage.player_stats("test", "7", game="bela") is None
        assert await storage.get_chat_game("test", "-1") is None
        await storage.set_chat_game("test", "-1", "french")
        assert await storage.get_chat_game("test", "-1") == "french"
    finally:
        await storage.close()


async def test_a_bot_level_that_does_not_play_the_game_hands_its_seat_to_the_random_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Bots of every level sit at a Bela table: each plays it, or (a level written only for the Bulgarian game)
    gives its seat to the random bot once, instead of failing on every turn."""
    import logging

    host, storage, _ = await make_host(tmp_path / "db.sqlite3", bot_level="medium")
    try:
        with caplog.at_level(logging.WARNING):
            opened = await host.command(CHAT, ANA, "new", ["bela", "target_score=301"])
            await host.command(CHAT, ANA, "leave")
            for level in ("easy", "medium", "hard", "random"):
                await host.command(CHAT, ANA, "addbot", [level])
            host.settings.bot_only_tables = True
            await host.command(CHAT, ANA, "start")
            await host.idle()
        assert await storage.match_record(opened.table_id) is not None
        failures = [r for r in caplog.records if "failed; playing a legal move" in r.getMessage()]
        assert not failures, failures[0].getMessage()
    finally:
        await shut(host, storage)


async def test_the_card_tracker_reads_a_bela_deal_from_the_seats_view(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela", "tracker=on"])
        for _ in range(3):
            await host.command(CHAT, ANA, "addbot")
        await host.command(CHAT, ANA, "start")
        await host.idle()
        table = host.table(opened.table_id)
        assert table is not None and table.match is not None
        asked = 0
        while table.status == "playing" and asked < 3:
            hand = outbox.latest[f"{opened.table_id}:h0:{ANA.user_id}"]
            actions = {decode(b.payload).action: b.payload for row in hand.buttons for b in row}
            moves = [p for a, p in actions.items() if a[:2] in ("c:", "p:")]
            if "k" in actions:
                deal = table.match.deal
                played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
                answer = await host.press(ANA, actions["k"])
                assert answer.ok and answer.text.count("played:") == len({c >> 3 for c in played})
                asked += 1
            await host.press(ANA, moves[0])
            await host.idle()
        assert asked == 3
    finally:
        await shut(host, storage)
