"""/score and /sheet on Discord: the real calculator behind slash commands and a restart-proof "Add" button."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.adapters.discord.calculator import compact, expand
from bot.calculator import ScoreSheet, score, score_text
from bot.calculator.text import parse_text
from tests.discord_fakes import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    MODAL,
    FakeDiscord,
    FakeUser,
    button_ids,
    buttons,
    message_text,
)
from tests.test_discord_adapter import start_bot

LINE = "hearts 102 60 belote A"
ANSWERED = (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE)


def test_a_deal_fits_a_button_and_comes_back_the_same() -> None:
    request = parse_text("всичко коз 154 терца вие 50 ние реконтра")
    custom_id = compact(request)
    assert custom_id is not None and len(custom_id) <= 100
    again = expand(custom_id)
    assert again is not None
    line = ScoreSheet().add(again)
    assert line.answer is not None
    assert line.answer.result == score_text("всичко коз 154 терца вие 50 ние реконтра").result


async def test_score_a_line_then_add_it_to_the_sheet_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana = FakeUser(fake.next_id(), "Ana", "bg")
    channel = fake.add_channel()
    record = await fake.command(ana, channel, "score", line=LINE)
    answer = fake.reply(record)
    # Answered at once, or deferred first when the event loop lags (a busy machine): the channel sees it either way.
    assert record.response_type in ANSWERED and not answer["flags"] & EPHEMERAL, "the channel sees the answer"
    expected = score_text(LINE)
    assert answer["embeds"][0]["title"] == expected.summary("bg")
    assert all(step.split()[0] in message_text(answer) for step in expected.explanation("bg")[:1])
    (add,) = list(button_ids(answer))

    # The same deal through the command's options gives the same answer.
    form = await fake.command(ana, channel, "score", contract="hearts", points=102, declared_a="belote")
    assert fake.reply(form)["embeds"][0]["title"] == expected.summary("bg")

    await running.stop()
    running = await start_bot(fake, db)
    added = await fake.press(ana, int(answer["id"]), add)
    await running.settle()
    assert not list(button_ids(fake.messages[int(answer["id"])])), "one deal adds one line"
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None
    sheet = ScoreSheet.from_json(stored)
    assert [line.score for line in sheet.lines] == [expected.result.score]
    shown = fake.public(channel)[-1]
    assert "1" in message_text(shown) and added.response_type is not None
    await running.stop()


async def test_sheet_add_undo_fix_and_errors(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    await fake.command(boris, channel, "sheet", "new", team_a="Us", team_b="Them")
    await fake.command(boris, channel, "sheet", "add", entry="90 72")
    await fake.command(boris, channel, "sheet", "add", entry="hearts 102")
    await fake.command(boris, channel, "sheet", "fix", number=1, entry="80 82")
    await fake.command(boris, channel, "sheet", "undo")
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None
    sheet = ScoreSheet.from_json(stored)
    assert sheet.teams == ("Us", "Them") and [line.score for line in sheet.lines] == [(80, 82)]
    bad = await fake.command(boris, channel, "score", line="hearts 300 elephants")
    reply = fake.reply(bad)
    assert reply["flags"] & EPHEMERAL, "a deal that cannot be scored is explained privately"
    assert "points" in reply["content"] or "elephants" in reply["content"]
    assert not fake.errors
    await running.stop()


async def test_the_button_form_and_its_points_pop_up_survive_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    vera = FakeUser(fake.next_id(), "Vera", "en-US")
    channel = fake.add_channel()
    opened = await fake.command(vera, channel, "score")
    form_id = opened.original_id or 0
    assert fake.ephemeral_owner[form_id] == vera.id, "the form is private to who opened it"
    go = next(b for b in buttons(fake.messages[form_id]) if b["custom_id"].endswith(":go"))
    assert go.get("disabled"), "no points before a contract is chosen"
    for action in ("c2", "m2", "dB"):  # hearts, contra, declared by team B
        (cid,) = [b for b in button_ids(fake.messages[form_id]) if b.endswith(":" + action)]
        await fake.press(vera, form_id, cid)
    (go_id,) = [b for b in button_ids(fake.messages[form_id]) if b.endswith(":go")]
    pressed = await fake.press(vera, form_id, go_id)
    assert pressed.response_type == MODAL and pressed.modal is not None
    before = await fake.submit(vera, channel, pressed.modal["custom_id"], {"points": "70", "a": "belote", "b": ""})
    assert fake.reply(before)["embeds"], "answered once, by the bot, before the restart too"

    await running.stop()
    running = await start_bot(fake, db)
    submitted = await fake.submit(vera, channel, pressed.modal["custom_id"], {"points": "70", "a": "belote", "b": ""})
    answer = fake.reply(submitted)
    expected = score(
        {"contract": "hearts", "multiplier": 2, "declarer": "B", "points": {"B": 70}, "declarations": {"A": ["belote"]}}
    )
    assert answer["embeds"][0]["title"] == expected.summary("bg")
    assert not answer["flags"] & EPHEMERAL
    assert not fake.errors
    await running.stop()


async def test_a_number_that_is_not_one_gets_a_private_answer(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    for entry, shows in (("² 5", "²"), ("90 ٧٢", "0-9"), ("hearts " + "9" * 3000, "3000")):
        record = await fake.command(boris, channel, "sheet", "add", entry=entry)
        reply = fake.reply(record)
        assert reply["flags"] & EPHEMERAL and shows in reply["content"], reply["content"]
    assert await running.storage.get_sheet("discord", str(channel)) is None
    await running.stop()


async def test_only_the_keeper_or_a_manager_replaces_or_undoes_and_a_restore_brings_it_back(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")  # starts the sheet: its keeper
    boris = FakeUser(fake.next_id(), "Boris", "en-US")  # a member
    vera = FakeUser(fake.next_id(), "Vera", "en-US", manager=True)  # may manage the server
    channel = fake.add_channel()

    async def lines() -> list[tuple[int, int]]:
        stored = await running.storage.get_sheet("discord", str(channel))
        assert stored is not None
        return [line.score for line in ScoreSheet.from_json(stored).lines]

    await fake.command(ana, channel, "sheet", "new", team_a="Us", team_b="Them")
    await fake.command(boris, channel, "sheet", "add", entry="90 72")  # anyone may add a line
    await fake.command(ana, channel, "sheet", "add", entry="10 6")
    for sub, options in (("undo", {}), ("new", {}), ("fix", {"number": 1, "entry": "0 0"})):
        refused = fake.reply(await fake.command(boris, channel, "sheet", sub, **options))
        assert refused["flags"] & EPHEMERAL and "Ana" in refused["content"], refused["content"]
    assert await lines() == [(90, 72), (10, 6)], "a member's undo, new sheet or correction changes nothing"

    await fake.command(ana, channel, "sheet", "undo")  # the keeper
    assert await lines() == [(90, 72)]
    await fake.command(vera, channel, "sheet", "new")  # a manager, not the keeper
    assert await lines() == []
    history = fake.reply(await fake.command(boris, channel, "sheet", "history"))
    rows = history["content"].splitlines()
    assert rows[1].startswith("2.") and "Us 90 : 72 Them, 1 lines" in rows[1] and "Vera" in rows[1]
    assert rows[2].startswith("1.") and "Us 100 : 78 Them, 2 lines" in rows[2] and "Ana" in rows[2]

    await fake.command(vera, channel, "sheet", "add", entry="5 5")
    refused = fake.reply(await fake.command(ana, channel, "sheet", "restore", number=1))
    assert "Vera" in refused["content"] and await lines() == [(5, 5)]
    restored = fake.reply(await fake.command(vera, channel, "sheet", "restore", number=1))
    assert not restored["flags"] & EPHEMERAL and await lines() == [(90, 72), (10, 6)]
    await fake.command(ana, channel, "sheet", "undo")  # Ana keeps the restored sheet again
    assert await lines() == [(90, 72)]
    missing = fake.reply(await fake.command(vera, channel, "sheet", "restore", number=9))
    assert missing["flags"] & EPHEMERAL and "9" in missing["content"]
    help_text = fake.reply(await fake.command(boris, channel, "sheet", "help"))["content"]
    assert "/sheet history" in help_text and "/sheet restore" in help_text
    assert not fake.errors
    await running.stop()


async def test_five_people_adding_lines_at_the_same_instant_each_get_their_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    channel = fake.add_channel()
    people = [FakeUser(fake.next_id(), name, "en-US") for name in ("Ana", "Boris", "Vera", "Georgi", "Dana")]
    await asyncio.gather(
        *(fake.command(p, channel, "sheet", "add", entry=f"{10 + i} {20 + i}") for i, p in enumerate(people))
    )
    await running.settle()
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None
    lines = sorted(line.score for line in ScoreSheet.from_json(stored).lines)
    assert lines == [(10 + i, 20 + i) for i in range(5)]
    keeper = await running.storage.get_sheet_keeper("discord", str(channel))
    assert keeper is not None and keeper[1] in {p.name for p in people}
    await running.stop()


async def test_two_people_pressing_add_to_the_sheet_at_once_add_the_deal_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    answer = fake.reply(await fake.command(ana, channel, "score", line=LINE))
    (add,) = list(button_ids(answer))
    seen = dict(answer)
    first, second = await asyncio.gather(
        fake.press(ana, int(answer["id"]), add, seen=seen), fake.press(boris, int(answer["id"]), add, seen=seen)
    )
    await running.settle()
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None and len(ScoreSheet.from_json(stored).lines) == 1, "one deal, one line"
    # the later press is told why, privately (at once, or after a deferral when the bot is busy)
    told = [m for r in (first, second) for m in fake.private_messages(r)]
    assert len(told) == 1 and told[0]["flags"] & EPHEMERAL and "already" in told[0]["content"]
    await running.stop()
