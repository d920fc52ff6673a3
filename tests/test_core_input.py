"""Input a person can type or a broken disk can cause: every case gets a clear answer and changes nothing, instead
of an exception that leaves the person without one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.core.payload import decode, encode
from bot.storage.sqlite import StorageError

from .core_helpers import ANA, BORIS, CHAT, VERA, make_host, shut

SUPERSCRIPTS = ["²", "³", "¹", "٣", "𝟐", "1²"]  # str.isdigit says yes to all of these; int() refuses most


@pytest.mark.parametrize("digit", SUPERSCRIPTS)
async def test_superscript_and_foreign_digits_are_answered_not_raised(tmp_path: Path, digit: str) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new", [f"timer={digit}"])
    assert not opened.ok and opened.text == "timer takes one of: 0-3600.", opened.text
    opened = await host.command(CHAT, ANA, "new", [f"target_score={digit}"])
    assert not opened.ok and opened.text.startswith("target_score takes one of: "), opened.text
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    version = table.version
    for name, args in [("join", [digit]), ("addbot", [digit]), ("removebot", [digit]), ("set", ["timer", digit]),
                       ("set", ["target_score", digit]), ("addbot", [digit, "easy"])]:
        who = BORIS if name == "join" else ANA
        answer = await host.command(CHAT, who, name, args)
        assert not answer.ok and answer.text, (name, args)
    assert table.version == version
    await shut(host, storage)


async def test_a_declaration_switch_with_a_foreign_digit_is_refused(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    await host.idle()
    version = table.version
    # The payload's own check refuses anything but ASCII; the table's log check does too.
    answer = await host.press(ANA, f"v1:{table.table_id}:{version:x}:d:²")
    assert not answer.ok and table.version == version
    table.apply({"e": "toggle", "seat": 0, "what": "d1"})
    with pytest.raises(ValueError):
        table.apply({"e": "toggle", "seat": 0, "what": "d²"})
    assert decode(encode(table.table_id, version, "d:0")).action == "d:0"
    await shut(host, storage)


def full_disk(*args: object, **kwargs: object) -> None:
    raise StorageError(f"database write failed: {sqlite3.OperationalError('database or disk is full')}")


async def test_a_full_disk_while_opening_a_table_is_answered_and_leaves_the_chat_free(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    real = storage._transaction
    storage._transaction = full_disk  # type: ignore[method-assign,assignment]
    answer = await host.command(CHAT, ANA, "new")
    assert not answer.ok and answer.text == "That could not be saved, so nothing changed. Please try again."
    assert host.table_for_chat(CHAT) is None
    storage._transaction = real  # type: ignore[method-assign]
    opened = await host.command(CHAT, ANA, "new")
    assert opened.ok, opened.text
    await shut(host, storage)


async def test_a_full_disk_while_opening_stores_the_row_but_not_the_log(tmp_path: Path) -> None:
    host, storage, _outbox = await make_host(tmp_path / "db.sqlite3")
    real_append = storage.append_event

    async def failing_append(*args: object, **kwargs: object) -> None:
        full_disk()

    storage.append_event = failing_append  # type: ignore[method-assign]
    answer = await host.command(CHAT, ANA, "new")
    assert not answer.ok and "could not be saved" in answer.text
    assert host.table_for_chat(CHAT) is None
    storage.append_event = real_append  # type: ignore[method-assign]
    assert (await host.command(CHAT, ANA, "new")).ok
    await shut(host, storage)


async def test_a_full_disk_while_saving_a_player_is_answered_and_seats_nobody(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    version = table.version
    real = storage.save_player

    async def failing_save(*args: object, **kwargs: object) -> None:
        full_disk()

    storage.save_player = failing_save  # type: ignore[method-assign]
    join = await host.command(CHAT, VERA, "join")
    linked = await host.join(table.table_id, VERA)
    lobby = outbox.latest[f"{table.table_id}:lobby"]
    pressed = await host.press(VERA, next(b.payload for row in lobby.buttons for b in row
                                           if decode(b.payload).action == "j"))
    for answer in (join, linked, pressed):
        assert not answer.ok and "could not be saved" in answer.text
    assert table.version == version and table.seat_of(VERA.user_id) is None
    storage.save_player = real  # type: ignore[method-assign]
    assert (await host.command(CHAT, VERA, "join")).ok
    await shut(host, storage)
