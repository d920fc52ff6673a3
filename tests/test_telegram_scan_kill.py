"""A photo's scan across a SIGKILL of the bot: ``belote-bot run`` as its own process against the fake Bot API, killed
in the middle of the keypad of a game of two, then started again on the same database. Two keys pressed at the same
instant type one digit; what was typed before the kill is kept, and the deal is scored as if nothing happened. The
letters of a chat's pack, chosen by Read as В Д П pressed twice at once, outlive a kill; the photo does not."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.calculator.score import score
from bot.engine.cards import card_symbol
from bot.engine.play import CARD_POINTS
from bot.scanner import scan_bytes
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.process import BotProcess

ALICE = 8901
PHOTO = (Path(__file__).resolve().parent / "data" / "scan" / "photo0.jpg").read_bytes()
HEARTS = 2


def answer(tg: FakeTelegram) -> Sent:
    """The scan's message as it is now (edited in place from the photo's answer to the scored deal)."""
    [first] = [m for m in tg.in_chat(ALICE) if m.buttons() or "Cards in the photo" in m.text]
    return tg.messages[(ALICE, first.message_id)]


def payload(message: Sent, label: str) -> str:
    found = [d for lab, d in message.buttons() if lab == label]
    assert found, f"no button {label!r} in {[lab for lab, _ in message.buttons()]}"
    return found[0]


async def press(tg: FakeTelegram, label: str) -> None:
    """Press the scan's button ``label`` and wait for the message to be drawn again (its buttons carry the nonce)."""
    before = answer(tg)
    shown = before.buttons()
    await tg.answer_of(tg.press(ALICE, before, payload(before, label)), timeout=30)
    await tg.wait_for(lambda: answer(tg).buttons() != shown, timeout=30)


async def send_photo(tg: FakeTelegram, data: bytes, image: np.ndarray) -> None:
    """Alice sends the photo ``data`` (decoded: ``image``) to the bot in private, and its first answer is drawn."""
    tg.start_private(ALICE)
    tg.send_photo(ALICE, ALICE, [(data, image.shape[1], image.shape[0])])
    await tg.wait_for(lambda: any("Cards read" in m.text for m in tg.in_chat(ALICE)), timeout=120)


async def test_a_scan_keeps_its_typed_points_across_a_kill(tmp_path: Path) -> None:
    image = cv2.imdecode(np.frombuffer(PHOTO, np.uint8), cv2.IMREAD_COLOR)
    read = scan_bytes(PHOTO)
    assert image is not None and read.cards and not read.unsure
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        bot = BotProcess(tg, tmp_path)
        await bot.start()
        try:
            await send_photo(tg, PHOTO, image)
            for label in ("Count the points", "Three or two players…", "Bela for two (udvoje)", "♥ Hearts",
                          "Player 0", "Player 1", "No"):
                await press(tg, label)
            assert "How many card points did Player 1 take, the last trick included? 0▌" in answer(tg).text
            await press(tg, "3")
            # Two keys at the same instant, on the same drawing: one is typed, the other told the message changed.
            drawn = answer(tg)
            queries = [tg.press(ALICE, drawn, payload(drawn, key)) for key in ("0", "5")]
            notes = [(await tg.answer_of(q, timeout=30)).text or "" for q in queries]
            assert sorted(notes)[0] == "" and "changed since" in sorted(notes)[1], notes
            await tg.wait_for(lambda: "? 30▌" in answer(tg).text or "? 35▌" in answer(tg).text, timeout=30)
            typed = 30 if "? 30▌" in answer(tg).text else 35
            await bot.kill()

            await bot.start()
            await press(tg, "OK")  # the buttons drawn before the kill, on the scan the new process reads back
            await tg.wait_for(lambda: "Cards in the photo" in answer(tg).text, timeout=30)
            text = answer(tg).text
        finally:
            await bot.stop()
    points = sum(CARD_POINTS[HEARTS][f.card] for f in read.cards)
    expected = score({"variant": "bela-2", "declarer": "1", "points": {"0": points, "1": typed}})
    assert expected.summary("en") in text, text


async def test_read_as_vdp_pressed_twice_at_once_then_a_kill_keeps_the_chats_letters(tmp_path: Path) -> None:
    vdp = (Path(__file__).resolve().parent / "data" / "scan" / "photo24.jpg").read_bytes()  # drawn with В Д П
    image = cv2.imdecode(np.frombuffer(vdp, np.uint8), cv2.IMREAD_COLOR)
    sized = [(vdp, image.shape[1], image.shape[0])]
    as_vdp = " ".join(card_symbol(c) for c in sorted(f.card for f in scan_bytes(vdp, "cyrillic").cards))
    as_latin = " ".join(card_symbol(c) for c in sorted(f.card for f in scan_bytes(vdp).cards))
    assert as_vdp != as_latin
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        bot = BotProcess(tg, tmp_path)
        await bot.start()
        try:
            await send_photo(tg, vdp, image)
            [first] = [m for m in tg.in_chat(ALICE) if "Cards read" in m.text]
            assert as_latin in first.text
            # two presses of Read as В Д П at the same instant: the photo is read again once, the other press told so
            queries = [tg.press(ALICE, first, payload(first, "Read as В Д П")) for _ in range(2)]
            notes = [(await tg.answer_of(q, timeout=60)).text or "" for q in queries]
            assert sorted(notes)[0] == "" and "changed since" in sorted(notes)[1], notes
            await tg.wait_for(lambda: as_vdp in tg.messages[(ALICE, first.message_id)].text, timeout=60)
            await bot.kill()

            await bot.start()
            # the photo was kept in the killed process's memory only: its button says so, and changes nothing
            shown = tg.messages[(ALICE, first.message_id)]
            gone = await tg.answer_of(tg.press(ALICE, shown, payload(shown, "Read as J Q K")), timeout=60)
            assert gone.text == "The photo is no longer at hand; send it again."
            assert tg.messages[(ALICE, first.message_id)].text == shown.text
            # the chat's letters were in the database: the next photo, with no caption, is read as В Д П
            tg.send_photo(ALICE, ALICE, sized)
            await tg.wait_for(lambda: sum("Cards read" in m.text for m in tg.in_chat(ALICE)) == 2, timeout=120)
            second = [m for m in tg.in_chat(ALICE) if "Cards read" in m.text][-1]
            assert as_vdp in second.text and "Read as a pack lettered В Д П" in second.text
        finally:
            await bot.stop()
