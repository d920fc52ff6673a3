"""``/score`` with a photo on Discord, through the real discord.py client and the fake Discord: the attachment is
downloaded from the CDN, read, corrected by its sender's buttons only, and scored; a restart keeps the buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bot.calculator.score import score
from bot.calculator.sheets import load_sheet
from bot.engine.cards import card_symbol
from bot.engine.play import CARD_POINTS
from bot.scanner import scan_bytes
from tests.discord_fakes import (
    DEFERRED_UPDATE,
    EPHEMERAL,
    FakeDiscord,
    FakeUser,
    InteractionRecord,
    button_ids,
    message_text,
    wait_until,
)
from tests.test_discord_adapter import start_bot

PHOTO = (Path(__file__).resolve().parent / "data" / "scan" / "photo1.jpg").read_bytes()


def action(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[-1]


async def answered(fake: FakeDiscord, record: InteractionRecord) -> dict[str, Any]:
    """The interaction's answer once it is filled in (a photo is read after the command is acknowledged)."""
    await wait_until(lambda: bool(fake.reply(record)["content"]), what="the photo's answer")
    return fake.reply(record)


def button(message: dict[str, Any], wanted: str) -> str:
    found = [b for b in button_ids(message) if action(b) == wanted]
    assert found, f"no button {wanted!r} in {[action(b) for b in button_ids(message)]}"
    return found[0]


async def test_a_photo_is_read_corrected_and_scored_by_its_sender_only(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana, boris = FakeUser(fake.next_id(), "Ana", "en-US"), FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    record = await fake.command(ana, channel, "score", photo=fake.upload(PHOTO, "cards.jpg"))
    answer = await answered(fake, record)
    assert not answer["flags"] & EPHEMERAL and fake.downloads, "read from the CDN, answered in the channel"
    read = scan_bytes(PHOTO)
    mid = int(answer["id"])
    # Boris may not answer for Ana: a private note, nothing changes.
    shown = message_text(fake.messages[mid])
    other = await fake.press(boris, mid, button(fake.messages[mid], "a"))
    await running.settle()
    assert fake.ephemeral_owner.get(other.original_id or 0) == boris.id
    assert message_text(fake.messages[mid]) == shown
    # Ana drops every unsure card and adds one the scanner missed; a restart in the middle changes nothing.
    for _ in read.unsure:
        await fake.press(ana, mid, button(fake.messages[mid], "n"))
    added = next(c for c in range(32) if c not in {f.card for f in read.cards})
    await fake.press(ana, mid, button(fake.messages[mid], "a"))
    await running.stop()
    running = await start_bot(fake, db)
    for wanted in (f"s{added >> 3}", f"c{added}", "g", "k2", "ta", "tb", "l0"):
        await fake.press(ana, mid, button(fake.messages[mid], wanted))
        await running.settle()
    cards = {f.card for f in read.cards} | {added}
    points = sum(CARD_POINTS[2][c] for c in cards)
    scored = score({"contract": "hearts", "declarer": "B", "points": {"A": points}})
    text = message_text(fake.messages[mid])
    assert any(scored.summary(lang) in text for lang in ("bg", "en")), text
    # As a typed deal's answer, it may go on the channel's sheet: the request in the button, added once.
    [add] = list(button_ids(fake.messages[mid]))
    assert not add.startswith("sc1:")
    await fake.press(ana, mid, add)
    await running.settle()
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None and [line.score for line in load_sheet(stored).lines] == [scored.result.score]
    await running.stop()


async def test_a_file_too_large_or_not_an_image_is_refused_unread(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    vera = FakeUser(fake.next_id(), "Vera", "en-US")
    channel = fake.add_channel()
    fake.attachment_size_limit = 50 * 2**20  # a boosted server takes larger files than the scanner reads
    big = await fake.command(vera, channel, "score", photo=fake.upload(bytes(11 * 2**20), "big.jpg"))
    text = await fake.command(vera, channel, "score", photo=fake.upload(b"hello", "notes.txt", "text/plain"))
    await running.settle()
    assert "too large" in message_text(fake.reply(big)) and fake.reply(big)["flags"] & EPHEMERAL
    assert "cannot be read as a photo" in message_text(fake.reply(text))
    assert not fake.downloads
    blank = cv2.imencode(".png", np.full((300, 400, 3), 230, np.uint8))[1].tobytes()
    empty = await fake.command(vera, channel, "score", photo=fake.upload(blank, "table.png", "image/png"))
    shown = message_text(await answered(fake, empty))
    assert "No cards found" in shown or "няма намерени карти" in shown
    await running.stop()


async def test_a_heic_attachment_is_read_as_the_jpeg_it_was_made_from(fake: FakeDiscord, tmp_path: Path) -> None:
    heic = (Path(__file__).resolve().parent / "data" / "scan" / "photo1.heic").read_bytes()
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    record = await fake.command(ana, fake.add_channel(), "score",
                                photo=fake.upload(heic, "IMG_0412.HEIC", None))  # no type: known by its name
    shown = message_text(await answered(fake, record))
    read = scan_bytes(PHOTO)
    assert read.cards and fake.downloads
    [line] = [line for line in shown.splitlines() if f"({len(read.cards)}):" in line]  # "Cards read (15): ..."
    assert line.split(":", 1)[1].split() == [card_symbol(f.card) for f in read.cards]
    assert f"{' '.join(card_symbol(f.card) + '?' for f in read.unsure)}" in shown and read.unsure
    await running.stop()


async def test_letters_vdp_reads_a_bulgarian_pack_with_its_own_networks(fake: FakeDiscord, tmp_path: Path) -> None:
    vdp = (Path(__file__).resolve().parent / "data" / "scan" / "photo24.jpg").read_bytes()  # drawn with В Д П
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = FakeUser(fake.next_id(), "Ana", "en-US")
    channel = fake.add_channel()
    # the command as registered offers the letters beside the photo
    [score_command] = [c for c in fake.commands if c["name"] == "score"]
    [letters] = [o for o in score_command["options"] if o["name"] == "letters"]
    assert {c["value"] for c in letters["choices"]} == {"latin", "cyrillic"}

    async def read(**letters: str) -> str:
        record = await fake.command(ana, channel, "score", photo=fake.upload(vdp, "cards.jpg"), **letters)
        return message_text(await answered(fake, record))

    as_latin = await read()
    as_vdp = await read(letters="cyrillic")
    # (in the channel's language, Bulgarian or English: the option's name and values are the same in each)
    assert "letters: J Q K" in as_vdp and "letters: В Д П" not in as_vdp
    assert "letters: В Д П;" in as_latin and "letters: J Q K" not in as_latin
    for text, read_so in ((as_vdp, scan_bytes(vdp, "cyrillic")), (as_latin, scan_bytes(vdp))):
        assert f"({len(read_so.cards)})" in text.splitlines()[0]  # the count of cards read, as each networks read them
    assert len(scan_bytes(vdp, "cyrillic").cards) != len(scan_bytes(vdp).cards)
    # the channel keeps the letters said last, across a restart, until they are said again
    await running.stop()
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    assert (await read()).splitlines()[0] == as_vdp.splitlines()[0]
    assert (await read(letters="latin")).splitlines()[0] == as_latin.splitlines()[0]
    assert "letters: В Д П;" in await read()
    # "Read as В Д П" under the answer reads the same photo again: deferred at once, then the message edited
    record = await fake.command(ana, channel, "score", photo=fake.upload(vdp, "cards.jpg"))
    mid = int((await answered(fake, record))["id"])
    assert message_text(fake.messages[mid]).splitlines()[0] == as_latin.splitlines()[0]
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    other = await fake.press(boris, mid, button(fake.messages[mid], "v"))  # not his photo: told privately
    await wait_until(lambda: bool(other.followup_ids), what="the private answer to Boris")
    assert fake.ephemeral_owner.get(other.followup_ids[0]) == boris.id
    assert message_text(fake.messages[mid]).splitlines()[0] == as_latin.splitlines()[0]
    pressed = await fake.press(ana, mid, button(fake.messages[mid], "v"))
    await wait_until(lambda: message_text(fake.messages[mid]).splitlines()[0] == as_vdp.splitlines()[0],
                     what="the photo read again")  # fmt: skip
    assert pressed.response_type == DEFERRED_UPDATE and "letters: J Q K" in message_text(fake.messages[mid])
    assert (await read()).splitlines()[0] == as_vdp.splitlines()[0]  # and the channel keeps the letters
    # a direct message with the bot has no sheet, but keeps the person's letters there alike (its answers are in
    # Ana's language, the channel's in its own: the cards after the heading are compared)

    def cards(text: str) -> str:
        return text.splitlines()[0].split(":", 1)[1]

    direct = fake.add_direct(ana)
    said = await fake.command(ana, direct, "score", photo=fake.upload(vdp, "cards.jpg"), letters="cyrillic")
    assert cards(message_text(await answered(fake, said))) == cards(as_vdp)
    kept = await fake.command(ana, direct, "score", photo=fake.upload(vdp, "cards.jpg"))
    assert cards(message_text(await answered(fake, kept))) == cards(as_vdp)
    other = fake.add_channel()  # another channel of the server keeps its own: none said there
    plain = await fake.command(ana, other, "score", photo=fake.upload(vdp, "cards.jpg"))
    assert cards(message_text(await answered(fake, plain))) == cards(as_latin)
    await running.stop()


async def test_a_game_of_two_from_a_photo_asks_the_other_players_points_on_a_keypad(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """Bela for two: the photo is one player's won cards; cards stay out of play, so the keypad asks for the other
    player's points, pressed by the photo's sender only and kept across a restart."""
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana, boris = FakeUser(fake.next_id(), "Ana", "en-US"), FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    await fake.command(ana, channel, "sheet", "new", game="bela-2", team_a="Ana", team_b="Boris")
    record = await fake.command(ana, channel, "score", photo=fake.upload(PHOTO, "cards.jpg"))
    mid = int((await answered(fake, record))["id"])
    read = scan_bytes(PHOTO)
    for wanted in ["n"] * len(read.unsure) + ["g", "k2", "t0", "t1", "l0", "d4"]:  # the sheet's game, bela-2
        await fake.press(ana, mid, button(fake.messages[mid], wanted))
        await running.settle()
    shown = message_text(fake.messages[mid])
    assert "Колко точки от картите взе Играч 1, с последната взятка? 4▌" in shown  # the server's language
    assert {action(b) for b in button_ids(fake.messages[mid])} >= {f"d{d}" for d in range(10)} | {"e", "o"}
    other = await fake.press(boris, mid, button(fake.messages[mid], "d7"))
    await running.settle()
    assert fake.ephemeral_owner.get(other.original_id or 0) == boris.id
    assert message_text(fake.messages[mid]) == shown
    await running.stop()
    running = await start_bot(fake, db)
    for wanted in ("d0", "o"):
        await fake.press(ana, mid, button(fake.messages[mid], wanted))
        await running.settle()
    points = sum(CARD_POINTS[2][f.card] for f in read.cards)
    scored = score({"variant": "bela-2", "declarer": "1", "points": {"0": points, "1": 40}})
    text = message_text(fake.messages[mid])
    assert scored.summary("bg") in text, text
    [add] = list(button_ids(fake.messages[mid]))
    await fake.press(boris, mid, add)  # the sheet has no line yet, so not only its keeper may write on it
    await running.settle()
    stored = await running.storage.get_sheet("discord", str(channel))
    assert stored is not None and [line.score for line in load_sheet(stored).lines] == [scored.result.score]
    await running.stop()
