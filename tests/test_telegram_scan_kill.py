"""A photo's scan across a SIGKILL of the bot: ``belote-bot run`` as its own process against the fake Bot API, killed
in the middle of the keypad of a game of two, then started again on the same database. Two keys pressed at the same
instant type one digit; what was typed before the kill is kept, and the deal is scored as if nothing happened."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.calculator.score import score
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


async def test_a_scan_keeps_its_typed_points_across_a_kill(tmp_path: Path) -> None:
    image = cv2.imdecode(np.frombuffer(PHOTO, np.uint8), cv2.IMREAD_COLOR)
    read = scan_bytes(PHOTO)
    assert image is not None and read.cards and not read.unsure
    async with FakeTelegram() as tg:
        tg.add_user(ALICE, "Alice", "en")
        bot = BotProcess(tg, tmp_path)
        await bot.start()
        try:
            tg.start_private(ALICE)
            tg.send_photo(ALICE, ALICE, [(PHOTO, image.shape[1], image.shape[0])])
            await tg.wait_for(lambda: any("Cards read" in m.text for m in tg.in_chat(ALICE)), timeout=120)
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
