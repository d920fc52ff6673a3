"""/score and /sheet of Bela and French deals on Discord, through real discord.py objects against the fake gateway:
a Bela answer's "Add" button survives a restart and writes on the channel's Bela sheet, which keeps falls as a dash
and held points; two presses at the same instant add one line."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.adapters.discord.calculator import compact, expand
from bot.calculator import score_text
from bot.calculator.family_sheet import FamilySheet
from bot.calculator.sheets import load_sheet
from tests.discord_fakes import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, EPHEMERAL, FakeDiscord, FakeUser, button_ids
from tests.test_discord_adapter import start_bot

ANSWERED = (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE)
LINE = "bela mi 92 zvanje 50 bela"


def test_a_family_deal_fits_a_button_and_comes_back_the_same() -> None:
    answer = score_text("bela vi zvali 100 mi quint:A vi quint:K vi jače stiglja_value=100")
    request = answer.request.to_json()
    custom_id = compact(request)
    assert custom_id is not None and custom_id.startswith("s:b") and len(custom_id) <= 100
    back = expand(custom_id)
    assert back is not None
    sheet = FamilySheet("bela")
    line = sheet.add(back)
    assert line.answer is not None and line.answer.result.score == answer.result.score


async def sheet_of(running: object, channel: int) -> FamilySheet:
    stored = await running.storage.get_sheet("discord", str(channel))  # type: ignore[attr-defined]
    sheet = load_sheet(stored)
    assert isinstance(sheet, FamilySheet)
    return sheet


async def test_a_bela_deal_is_scored_and_added_to_the_bela_sheet_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana = FakeUser(fake.next_id(), "Ana", "hr", manager=True)
    channel = fake.add_channel()
    await fake.command(ana, channel, "belot", "lang", language="hr", scope="channel")
    new = fake.reply(await fake.command(ana, channel, "sheet", "new", team_a="Mi", team_b="Vi", game="bela"))
    assert "Bela: Mi \\| Vi" in new["embeds"][0]["description"]  # Discord markup escapes the bar
    record = await fake.command(ana, channel, "score", line=LINE)
    answer = fake.reply(record)
    assert record.response_type in ANSWERED and not answer["flags"] & EPHEMERAL
    assert answer["embeds"][0]["title"] == "Bela: Mi 162 : Vi 70 (prošli)"
    (add,) = list(button_ids(answer))

    await running.stop()
    running = await start_bot(fake, db)
    await fake.press(ana, int(answer["id"]), add)
    await running.settle()
    assert [line.score for line in (await sheet_of(running, channel)).lines] == [(162, 70)]

    # A fall by hand, a deal typed on the sheet, a correction and an undo.
    await fake.command(ana, channel, "sheet", "add", entry="— 162")
    await fake.command(ana, channel, "sheet", "add", entry="Vi zvali 81")
    await fake.command(ana, channel, "sheet", "fix", number=3, entry="Vi zvali 100")
    sheet = await sheet_of(running, channel)
    assert [line.shown for line in sheet.lines] == [("162", "70"), ("—", "162"), ("62", "100")]
    await fake.command(ana, channel, "sheet", "undo")
    assert len((await sheet_of(running, channel)).lines) == 2
    wrong = fake.reply(await fake.command(ana, channel, "sheet", "add", entry="belote nous 92"))
    assert wrong["flags"] & EPHEMERAL and wrong["content"].splitlines() == [
        "ovaj list vodi partiju igre Bela; redak igre Francuski belot ne pripada na nj",
        "/sheet new s game: Francuski belot otvara list za tu igru; ovaj ostaje u /sheet history."]
    # Doing what it says: a French sheet takes the line, and the Bela sheet comes back from the history whole.
    await fake.command(ana, channel, "sheet", "new", game="french")
    await fake.command(ana, channel, "sheet", "add", entry="belote nous 92")
    french = load_sheet(await running.storage.get_sheet("discord", str(channel)))
    assert isinstance(french, FamilySheet) and french.variant == "french" and len(french.lines) == 1
    history = fake.reply(await fake.command(ana, channel, "sheet", "history"))["content"].splitlines()
    [replaced] = [line for line in history if "zamijenjena novom listom" in line]
    await fake.command(ana, channel, "sheet", "restore", number=int(replaced.split(".")[0]))
    assert [line.shown for line in (await sheet_of(running, channel)).lines] == [("162", "70"), ("—", "162")]
    bad = fake.reply(await fake.command(ana, channel, "score", line="bela mi 90 zvanj 50"))
    assert bad["flags"] & EPHEMERAL and "'zvanje'" in bad["content"]
    assert not fake.errors
    await running.stop()


async def test_two_people_pressing_add_on_a_bela_answer_at_once_add_it_once(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    ivo = FakeUser(fake.next_id(), "Ivo", "en-US")
    channel = fake.add_channel()
    await fake.command(ana, channel, "sheet", "new", game="french")
    answer = fake.reply(await fake.command(ana, channel, "score", line="belote pris 65 belote"))
    (add,) = list(button_ids(answer))
    seen = dict(answer)
    first, second = await asyncio.gather(
        fake.press(ana, int(answer["id"]), add, seen=seen), fake.press(ivo, int(answer["id"]), add, seen=seen)
    )
    await running.settle()
    sheet = await sheet_of(running, channel)
    assert [line.score for line in sheet.lines] == [(20, 162)] and sheet.variant == "french"
    # One of the two is told privately that it is already on the sheet (at once, or after a deferral when busy).
    told = [m for r in (first, second) for m in fake.private_messages(r)]
    assert len(told) == 1 and "already" in told[0]["content"]
    await running.stop()


async def test_the_button_form_scores_a_bela_deal(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    vera = FakeUser(fake.next_id(), "Vera", "en-US")
    channel = fake.add_channel()
    opened = await fake.command(vera, channel, "score")
    form_id = opened.original_id or 0
    for action in ("c6", "dB"):  # Bela, called by team B
        (cid,) = [b for b in button_ids(fake.messages[form_id]) if b.endswith(":" + action)]
        await fake.press(vera, form_id, cid)
    assert not [b for b in button_ids(fake.messages[form_id]) if b.endswith(":m2")], "Bela has no contra"
    (go_id,) = [b for b in button_ids(fake.messages[form_id]) if b.endswith(":go")]
    pressed = await fake.press(vera, form_id, go_id)
    assert pressed.modal is not None
    submitted = await fake.submit(vera, channel, pressed.modal["custom_id"],
                                  {"points": "70", "a": "carre:J", "b": "belote", "valat": ""})
    answer = fake.reply(submitted)
    expected = score_text("bela vi zvali 70 bela mi četiri dečka")
    assert answer["embeds"][0]["title"] == expected.summary("bg")  # the channel's language
    assert expected.result.score == (382, 0)
    assert list(button_ids(answer)), "the answer can go onto a sheet"
    await running.stop()
