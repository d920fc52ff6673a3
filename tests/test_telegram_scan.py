"""Photos of won cards in Telegram, through the real python-telegram-bot stack and the fake Bot API server: the
photo is downloaded as from Telegram's file server, read, corrected with buttons by its sender only, and scored by
the calculator; stale, foreign and forged presses change nothing; a restart keeps the buttons working."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator.score import score
from bot.calculator.sheets import load_sheet
from bot.engine.cards import card_symbol, make_card, parse_card
from bot.engine.play import CARD_POINTS
from bot.scanner import scan_bytes
from tests.fake_telegram import FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with

DATA = Path(__file__).resolve().parent / "data" / "scan"
PHOTO = (DATA / "photo1.jpg").read_bytes()
GROUP = -100777
POLICY = FloodPolicy().scaled(0.005)
IVAN = Person(4001, "Ivan", "bg")
JANE = Person(4002, "Jane", "en")
_CARD = re.compile(r"(10|[789JQKA])([♣♦♥♠])")


def sized(data: bytes) -> list[tuple[bytes, int, int]]:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return [(data, image.shape[1], image.shape[0])]


def cards_line(text: str, head: str) -> set[int]:
    """The cards a line starting with ``head`` shows."""
    [line] = [line for line in re.sub(r"<[^>]+>", "", text).splitlines() if line.startswith(head)]
    return {parse_card(r.replace("10", "T") + "CDHS"["♣♦♥♠".index(s)]) for r, s in _CARD.findall(line.split(":", 1)[1])}


def whole_tricks_hint(text: str) -> bool:
    return "is not a multiple of four: a card may be missing or misread." in text


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (IVAN, JANE), GROUP, "Real cards", {IVAN.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


def newest(tg: FakeTelegram, chat: int) -> Sent:
    message = tg.last(chat)
    assert message is not None
    return message


async def press(h: Harness, person: Person, message: Sent, label: str) -> str | None:
    """Press the button labelled ``label`` (or starting with it); the private answer's text."""
    data = [d for lab, d in message.buttons() if lab == label or lab.startswith(label)]
    assert data, f"no button {label!r} in {[lab for lab, _ in message.buttons()]}"
    answer = await h.press(person, message, data[0])
    await h.settle()
    return answer.text


async def test_a_private_photo_is_read_corrected_and_scored(h: Harness, tg: FakeTelegram) -> None:
    read = scan_bytes(PHOTO)
    tg.send_photo(JANE.user_id, JANE.user_id, sized(PHOTO))
    await h.settle()
    answer = newest(tg, JANE.user_id)
    assert tg.downloads, "the photo was downloaded from the file server"
    assert cards_line(answer.text, "Cards read") == {f.card for f in read.cards}
    # Each unsure card is asked about in turn, never counted on its own: keep the first, drop the others.
    kept = {f.card for f in read.unsure[:1]}
    for f in read.unsure:
        assert f"Is {card_symbol(f.card)} in the photo?" in answer.text
        await press(h, JANE, answer, f"Yes, {card_symbol(f.card)}" if f.card in kept else f"No {card_symbol(f.card)}")
    expected = {f.card for f in read.cards} | kept
    assert cards_line(answer.text, "Cards read") == expected
    # A misread card is fixed: remove one, add a missing one (suit, then rank).
    removed = min(expected)
    await press(h, JANE, answer, "− Remove a card")
    await press(h, JANE, answer, "♣♦♥♠"[removed >> 3])
    await press(h, JANE, answer, card_symbol(removed))
    added = next(c for c in range(32) if c not in expected)
    await press(h, JANE, answer, "+ Add a card")
    await press(h, JANE, answer, "♣♦♥♠"[added >> 3])
    await press(h, JANE, answer, card_symbol(added))
    expected = (expected - {removed}) | {added}
    assert cards_line(answer.text, "Cards read") == expected
    # Won cards are whole tricks: a count that is not is pointed out, added up to whole tricks it is not.
    assert whole_tricks_hint(answer.text) == (len(expected) % 4 != 0)
    for _ in range((-len(expected)) % 4 or 4):  # at least one count off whole tricks on the way
        added = next(c for c in range(32) if c not in expected)
        await press(h, JANE, answer, "+ Add a card")
        await press(h, JANE, answer, "♣♦♥♠"[added >> 3])
        await press(h, JANE, answer, card_symbol(added))
        expected |= {added}
        assert whole_tricks_hint(answer.text) == (len(expected) % 4 != 0), len(expected)
    assert cards_line(answer.text, "Cards read") == expected and len(expected) % 4 == 0
    for label in ("Count the points", "♥ Hearts", "We", "You", "Yes, +10"):
        assert await press(h, JANE, answer, label) in ("", None), label
    points = sum(CARD_POINTS[2][c] for c in expected) + 10
    scored = score({"contract": "hearts", "declarer": "B", "points": {"A": points}})
    assert scored.summary("en") in answer.text
    assert cards_line(answer.text, "Cards in the photo") == expected
    # As a typed deal's answer, it may go on the chat's sheet, once.
    assert [label for label, _ in answer.buttons()] == ["Add to the sheet"]
    [add] = [d for _, d in answer.buttons()]
    assert "line 1" in ((await h.press(JANE, answer, add)).text or "")
    assert "too old" in ((await h.press(JANE, answer, add)).text or "")
    await h.settle()
    sheet = await say(h, JANE, JANE.user_id, "/sheet")
    assert f"1. {scored.result.score[0]} | {scored.result.score[1]}" in sheet.text and "2." not in sheet.text


async def test_a_card_one_reading_of_the_photo_alone_names_is_asked_about(h: Harness, tg: FakeTelegram) -> None:
    """A held-out photo on which the first reading names a king of clubs that is not there, on a king of spades'
    index (docs/scanner.md, "Three readings"): the other readings do not, so the king is asked about, not counted."""
    data = (DATA / "readings-second-kde-standard.webp").read_bytes()
    king = parse_card("KC")
    tg.send_photo(JANE.user_id, JANE.user_id, sized(data))
    await h.settle()
    answer = newest(tg, JANE.user_id)
    read = cards_line(answer.text, "Cards read")
    assert king not in read and parse_card("KS") in read
    jack = parse_card("JC")  # in the photo, its corner hidden: asked about first
    assert cards_line(answer.text, "Unsure") == {jack, king}
    await press(h, JANE, answer, f"Yes, {card_symbol(jack)}")
    assert f"Is {card_symbol(king)} in the photo?" in answer.text
    await press(h, JANE, answer, f"No {card_symbol(king)}")
    assert cards_line(answer.text, "Cards read") == read | {jack}
    assert f"Is {card_symbol(king)} in the photo?" not in answer.text


async def test_only_the_sender_presses_and_a_double_tap_acts_once(h: Harness, tg: FakeTelegram) -> None:
    tg.send_photo(IVAN.user_id, GROUP, sized(PHOTO), caption="/score")
    await h.settle()
    answer = newest(tg, GROUP)
    before = answer.text
    [data] = [d for lab, d in answer.buttons() if lab == "+ Добави карта"]
    foreign = await h.press(JANE, answer, data)
    await h.settle()
    assert foreign.text and "sent the photo" in foreign.text and answer.text == before
    # Ivan taps twice at the same instant: one press opens the suits, the other is told the message changed.
    first, second = await asyncio.gather(h.press(IVAN, answer, data), h.press(IVAN, answer, data))
    await h.settle()
    notes = sorted(a.text or "" for a in (first, second))
    assert notes[0] == "" and "промени" in notes[1]
    assert "От коя боя е картата за добавяне?" in answer.text
    # A forged press and one on a scan nobody has get a short answer and change nothing.
    shown = answer.text
    for forged in ("sc1:zzzz:0:y", "sc1:0badcafe:0:y", "sc1:" + data.split(":")[1] + ":1:q"):
        reply = await h.press(IVAN, answer, forged)
        assert reply.text
    await h.settle()
    assert answer.text == shown


async def test_score_in_reply_to_a_photo_and_a_restart_keeps_the_buttons(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    photo = tg.send_photo(JANE.user_id, GROUP, sized(PHOTO))
    await h.settle()
    assert tg.last(GROUP) is None, "a photo in a group without /score is not read"
    tg.send_reply(JANE.user_id, GROUP, "/score", photo)
    await h.settle()
    answer = newest(tg, GROUP)
    assert "Прочетени карти" in answer.text or "Cards read" in answer.text
    await h.stop()
    await h.start()
    assert await press(h, JANE, answer, "+ Добави карта") in ("", None)
    assert "От коя боя е картата за добавяне?" in answer.text


async def test_a_pack_lettered_vdp_is_read_as_such_when_the_caption_says_so(
    h: Harness, tg: FakeTelegram, tmp_path: Path
) -> None:
    vdp = (DATA / "photo24.jpg").read_bytes()  # a held-out design drawn with В Д П
    as_vdp, as_latin = scan_bytes(vdp, "cyrillic"), scan_bytes(vdp)
    assert {f.card for f in as_vdp.cards} != {f.card for f in as_latin.cards}
    tg.send_photo(JANE.user_id, JANE.user_id, sized(vdp))
    await h.settle()
    plain = newest(tg, JANE.user_id)
    assert cards_line(plain.text, "Cards read") == {f.card for f in as_latin.cards}
    assert "A pack lettered В Д П? Send the photo again with вдп in its caption; this chat's next photos" in plain.text
    tg.send_photo(JANE.user_id, JANE.user_id, sized(vdp), caption="ВДП")
    await h.settle()
    lettered = newest(tg, JANE.user_id)
    assert cards_line(lettered.text, "Cards read") == {f.card for f in as_vdp.cards}
    assert "Read as a pack lettered В Д П" in lettered.text and "with jqk in its caption" in lettered.text
    assert "with вдп" not in lettered.text
    # the chat keeps the letters: her next photo, without a word, is read as lettered В Д П, until she says jqk
    tg.send_photo(JANE.user_id, JANE.user_id, sized(vdp))
    await h.settle()
    assert cards_line(newest(tg, JANE.user_id).text, "Cards read") == {f.card for f in as_vdp.cards}
    tg.send_photo(JANE.user_id, JANE.user_id, sized(vdp), caption="J Q K")
    await h.settle()
    assert cards_line(newest(tg, JANE.user_id).text, "Cards read") == {f.card for f in as_latin.cards}
    tg.send_photo(JANE.user_id, JANE.user_id, sized(vdp))
    await h.settle()
    assert "with вдп in its caption" in newest(tg, JANE.user_id).text
    # in a group: /score в д п in reply to the photo; the letters are kept with the scan across a restart
    photo = tg.send_photo(IVAN.user_id, GROUP, sized(vdp))
    tg.send_reply(IVAN.user_id, GROUP, "/score в д п", photo)
    await h.settle()
    answer = newest(tg, GROUP)
    assert cards_line(answer.text, "Прочетени карти") == {f.card for f in as_vdp.cards}
    assert "Разчетено като тесте с букви В Д П" in answer.text
    await h.stop()
    await h.start()
    await press(h, IVAN, answer, "+ Добави карта")
    await press(h, IVAN, answer, "Назад")
    assert "Разчетено като тесте с букви В Д П" in answer.text
    # the group kept its letters across the restart: a photo captioned /score alone is read as lettered В Д П
    tg.send_photo(JANE.user_id, GROUP, sized(vdp), caption="/score")
    await h.settle()
    again = newest(tg, GROUP)
    assert again.message_id != answer.message_id
    assert cards_line(again.text, "Прочетени карти") == {f.card for f in as_vdp.cards}


async def test_a_phone_photo_sent_as_a_heic_file_is_read(h: Harness, tg: FakeTelegram) -> None:
    """A photo sent as a file keeps the phone's own format, HEIC on most phones, and often comes with no image type:
    known by its name, read as the JPEG it was made from."""
    heic = (DATA / "photo1.heic").read_bytes()
    tg.send_document(JANE.user_id, JANE.user_id, heic, "application/octet-stream", "IMG_0412.HEIC")
    await h.settle()
    answer = newest(tg, JANE.user_id)
    read = scan_bytes(PHOTO)
    assert cards_line(answer.text, "Cards read") == {f.card for f in read.cards} and read.cards
    assert cards_line(answer.text, "Unsure") == {f.card for f in read.unsure} and read.unsure
    assert f"Is {card_symbol(read.unsure[0].card)} in the photo?" in answer.text  # asked in turn


async def test_without_the_heic_extra_a_heic_file_gets_what_to_send_instead(
    h: Harness, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as on a server installed without belote-bot[heic]
    tg.send_document(JANE.user_id, JANE.user_id, (DATA / "photo1.heic").read_bytes(), "image/heic", "IMG_0412.HEIC")
    await h.settle()
    answer = newest(tg, JANE.user_id)
    assert answer.text == ("HEIC photos are not read on this server: send the photo as a photo rather than as a file, "
                           "or as JPEG.") and not answer.buttons()


async def test_no_cards_too_large_and_not_a_photo_get_clear_answers(h: Harness, tg: FakeTelegram) -> None:
    blank = cv2.imencode(".jpg", np.full((600, 800, 3), 200, np.uint8))[1].tobytes()
    tg.send_photo(JANE.user_id, JANE.user_id, sized(blank))
    await h.settle()
    assert "No cards found" in newest(tg, JANE.user_id).text
    downloads = len(tg.downloads)
    tg.send_document(JANE.user_id, JANE.user_id, b"\xff\xd8" + bytes(11 * 2**20), "image/jpeg", "big.jpg")
    await h.settle()
    assert "too large" in newest(tg, JANE.user_id).text and len(tg.downloads) == downloads, "refused unread"
    tg.send_document(JANE.user_id, JANE.user_id, b"not a picture at all", "image/png", "cards.png")
    await h.settle()
    assert "cannot be read as a photo" in newest(tg, JANE.user_id).text


def test_the_scored_request_counts_one_side_and_a_whole_pack_is_a_valat() -> None:
    from bot.core.scanflow import ScanFlow, ScanState

    state = ScanState("0badcafe", "1", "en", cards=[make_card(r, 0) for r in range(8)], contract=0, photo="B")
    flow = ScanFlow.__new__(ScanFlow)
    assert flow.request(state, True)["points"] == {"B": 62 + 10}
    state.cards = list(range(32))
    assert flow.request(state, True)["valat"] == "B" and "points" not in flow.request(state, True)


async def test_a_game_of_three_from_a_photo_in_a_group_keypad_and_all(h: Harness, tg: FakeTelegram) -> None:
    """Bridge-belote for three: the photo is one player's won cards, a 24-card game leaves its 7s and 8s out, and the
    keypad asks for the one player's points the calculator cannot work out; only the sender types, a double tap types
    once, and a restart keeps what was typed."""
    data = (DATA / "photo0.jpg").read_bytes()
    read = scan_bytes(data)
    assert not read.unsure
    await say(h, JANE, GROUP, "/sheet new bulgarian-3")  # the group keeps a sheet of the game
    tg.send_photo(JANE.user_id, GROUP, sized(data), caption="/score")
    await h.settle()
    answer = newest(tg, GROUP)
    # in the group's language, Bulgarian, and in the game of its sheet
    await press(h, JANE, answer, "Преброй точките")
    assert "● Бридж-белот за трима, домашни правила" in [label for label, _ in answer.buttons()]
    for label in ("Всичко коз", "Играч 1", "Играч 0", "Да, +10"):
        assert await press(h, JANE, answer, label) in ("", None), label
    low = {f.card for f in read.cards if f.card & 7 < 2}  # the 7s and 8s
    assert low and cards_line(answer.text, "Не са в тесте от 24 карти, не се броят") == low
    assert "Колко точки от карти взе Играч 0, с последните 10? 0▌" in answer.text
    shown = answer.text
    [five] = [d for lab, d in answer.buttons() if lab == "5"]
    foreign = await h.press(IVAN, answer, five)
    await h.settle()
    assert foreign.text == "Само който е изпратил снимката, може да променя тези карти." and answer.text == shown
    first, second = await asyncio.gather(h.press(JANE, answer, five), h.press(JANE, answer, five))
    await h.settle()
    assert sorted(a.text or "" for a in (first, second))[0] == "" and "? 5▌" in answer.text
    await h.stop()
    await h.start()
    await press(h, JANE, answer, "0")
    assert "? 50▌" in answer.text
    await press(h, JANE, answer, "Готово")
    counted = {f.card for f in read.cards} - low
    scored = score({"variant": "bulgarian-3", "contract": "all-trumps", "declarer": "0",
                    "points": {"0": 50, "1": sum(CARD_POINTS[5][c] for c in counted) + 10}})
    assert scored.summary("bg") in answer.text
    assert cards_line(answer.text, "Карти в снимката") == counted
    [(label, add)] = answer.buttons()
    assert label == "Запиши в листа"
    await h.press(JANE, answer, add)
    await h.settle()
    stored = await h.storage.get_sheet("telegram", str(GROUP))
    assert stored is not None and [line.score for line in load_sheet(stored).lines] == [scored.result.score]


async def test_read_as_vdp_reads_the_photo_again_for_its_sender_and_the_group_keeps_the_letters(
    h: Harness, tg: FakeTelegram
) -> None:
    vdp = (DATA / "photo24.jpg").read_bytes()  # a held-out design drawn with В Д П
    as_vdp, as_latin = {f.card for f in scan_bytes(vdp, "cyrillic").cards}, {f.card for f in scan_bytes(vdp).cards}
    tg.send_photo(IVAN.user_id, GROUP, sized(vdp), caption="/score")
    await h.settle()
    answer = newest(tg, GROUP)
    assert cards_line(answer.text, "Прочетени карти") == as_latin
    shown = answer.text
    refused = await press(h, JANE, answer, "Разчети като В Д П")  # Jane did not send it: a private answer
    assert refused and "Only the person who sent the photo" in refused and answer.text == shown
    await press(h, IVAN, answer, "Разчети като В Д П")
    assert cards_line(answer.text, "Прочетени карти") == as_vdp and "Разчетено като тесте с букви В Д П" in answer.text
    assert [lab for lab, _ in answer.buttons() if lab.startswith("Разчети като")] == ["Разчети като J Q K"]
    # the group's next photo, sent with /score alone, is read as lettered В Д П
    tg.send_photo(JANE.user_id, GROUP, sized(vdp), caption="/score")
    await h.settle()
    assert cards_line(newest(tg, GROUP).text, "Прочетени карти") == as_vdp
    # after a restart the photo is no longer kept: the press says so and changes nothing
    await h.stop()
    await h.start()
    shown = answer.text
    gone = await press(h, IVAN, answer, "Разчети като J Q K")
    assert gone == "Снимката вече не е налице; изпратете я отново." and answer.text == shown
    # /score jqk in answer to a photo gives the group its latin letters back, for that photo and the next
    photo = tg.send_photo(JANE.user_id, GROUP, sized(vdp))
    tg.send_reply(JANE.user_id, GROUP, "/score jqk", photo)
    await h.settle()
    assert cards_line(newest(tg, GROUP).text, "Прочетени карти") == as_latin
    tg.send_photo(IVAN.user_id, GROUP, sized(vdp), caption="/score")
    await h.settle()
    assert cards_line(newest(tg, GROUP).text, "Прочетени карти") == as_latin
