"""The platform-free scan flow (bot.core.scanflow): photos read off the event loop within bounds, and presses judged
by owner and version, with real photos, the real model and a real SQLite file."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bot.core.scanflow import ScanFlow, ScanLane, decode_payload, letters_in
from bot.scanner import decode
from bot.storage.sqlite import SqliteStorage

PHOTO = (Path(__file__).resolve().parent / "data" / "scan" / "photo0.jpg").read_bytes()
VDP = (Path(__file__).resolve().parent / "data" / "scan" / "photo24.jpg").read_bytes()  # a design drawn with В Д П


async def flow_on(tmp_path: Path, lane: ScanLane | None = None) -> tuple[ScanFlow, SqliteStorage]:
    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    return ScanFlow(storage, "telegram", lane), storage


async def test_a_photo_is_read_while_the_event_loop_goes_on(tmp_path: Path) -> None:
    flow, storage = await flow_on(tmp_path)
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    beating = asyncio.create_task(heartbeat())
    opened = await flow.open(PHOTO, "1", "en")
    beating.cancel()
    assert opened.scan_id is not None
    assert ticks >= 5, f"the loop ticked {ticks} times while the photo was read"
    await storage.close()


async def test_a_full_lane_says_busy_and_a_slow_photo_says_so(tmp_path: Path) -> None:
    flow, storage = await flow_on(tmp_path, ScanLane(workers=1, waiting=1))
    answers = await asyncio.gather(*(flow.open(PHOTO, str(n), "en") for n in range(4)))
    busy = [a for a in answers if "being read just now" in a.view.text]
    assert len(busy) == 2 and all(a.scan_id is None for a in busy)
    slow, _ = await flow_on(tmp_path, ScanLane(seconds=0.001))
    assert "in time" in (await slow.open(PHOTO, "1", "en")).view.text
    await storage.close()


async def test_huge_pictures_are_refused_before_decoding_and_large_ones_read_smaller(tmp_path: Path) -> None:
    flow, storage = await flow_on(tmp_path)
    huge = cv2.imencode(".png", np.zeros((6000, 8000), np.uint8))[1].tobytes()  # 48 megapixels in a small file
    assert len(huge) < 1_000_000
    assert "megapixels" in (await flow.open(huge, "1", "en")).view.text
    large = cv2.imencode(".jpg", np.zeros((3000, 4000, 3), np.uint8))[1].tobytes()
    assert decode(large, work_side=1024).shape[:2] == (750, 1000) or decode(large, work_side=1024).shape[:2] == (
        1500, 2000)
    assert max(decode(large, work_side=1024).shape[:2]) >= 1024
    assert decode(large).shape[:2] == (3000, 4000)
    await storage.close()


async def test_presses_at_once_act_once_and_only_for_the_owner(tmp_path: Path) -> None:
    flow, storage = await flow_on(tmp_path, ScanLane(seconds=600))  # a loaded test machine reads slowly
    opened = await flow.open(PHOTO, "7", "en")
    first = opened.view.rows[0][0].payload
    assert decode_payload(first) is not None
    presses = await asyncio.gather(*(flow.press("7", "en", first) for _ in range(5)))
    assert sum(p.view is not None for p in presses) == 1
    assert all("changed since" in p.note for p in presses if p.view is None)
    stranger = await flow.press("8", "en", first)
    assert stranger.view is None and "sent the photo" in stranger.note
    await storage.close()


async def test_unsure_cards_are_asked_one_by_one_and_never_counted_unanswered(tmp_path: Path) -> None:
    from dataclasses import asdict

    from bot.core.scanflow import STORE_KEY, ScanState

    flow, storage = await flow_on(tmp_path)
    state = ScanState("0badcafe", "7", "en", cards=[0, 9], unsure=[21, 31], touched=time.time())
    await storage.set_form("telegram", STORE_KEY + state.scan_id, asdict(state))
    view = flow.draw(state)
    assert "Is Q♥ in the photo?" in view.text
    assert "g" not in {b.payload.rsplit(":", 1)[1] for row in view.rows for b in row}, "no count while unsure"
    refused = await flow.press("7", "en", "sc1:0badcafe:0:g")
    assert refused.view is None and refused.note
    kept = await flow.press("7", "en", "sc1:0badcafe:0:y")
    assert kept.view is not None and "Is A♠ in the photo?" in kept.view.text
    dropped = await flow.press("7", "en", "sc1:0badcafe:1:n")
    assert dropped.view is not None and "(3): 7♣ 8♦ Q♥" in dropped.view.text and "A♠" not in dropped.view.text
    await storage.close()


async def test_a_scan_untouched_for_a_day_answers_that_it_expired(tmp_path: Path) -> None:
    from dataclasses import asdict

    from bot.core.scanflow import KEPT_SECONDS, STORE_KEY, ScanState

    flow, storage = await flow_on(tmp_path)
    old = ScanState("01dca4d5", "7", "en", cards=[0], touched=time.time() - KEPT_SECONDS - 60)
    await storage.set_form("telegram", STORE_KEY + old.scan_id, asdict(old))
    pressed = await flow.press("7", "en", "sc1:01dca4d5:0:a")
    assert pressed.view is None and "too old" in pressed.note
    await storage.close()


@pytest.mark.parametrize(
    ("words", "letters"),
    [
        ("вдп", "cyrillic"),
        ("ВДП", "cyrillic"),
        ("/score в д п", "cyrillic"),
        ("/score@belot_bot в.д.п.", "cyrillic"),
        ("нашите карти, ВДП", "cyrillic"),
        ("VDP", "cyrillic"),
        ("jqk", "latin"),
        ("/score J Q K", "latin"),
        ("j.q.k.", "latin"),
        ("BDK", "latin"),
        ("", None),  # the chat's own
        ("/score", None),
        ("our cards", None),
        ("вдпх", None),  # a word that only starts with the letters
        ("jqka", None),
        ("/score hearts 102 60", None),
    ],
)
def test_the_caption_says_which_letters_the_pack_has(words: str, letters: str | None) -> None:
    assert letters_in(words) == letters


async def test_a_chat_keeps_the_letters_it_said_last(tmp_path: Path) -> None:
    vdp = VDP
    flow, storage = await flow_on(tmp_path)

    async def read(letters: str | None, chat: str | None, letters_key: str | None = None) -> str:
        opened = await flow.open(vdp, "1", "en", letters, chat, letters_key)
        return opened.view.text.splitlines()[0]  # "Cards read (n): ..."

    as_latin, as_vdp = await read("latin", None), await read("cyrillic", None)
    assert as_latin != as_vdp
    assert await read(None, "c1") == as_latin  # a chat that said nothing: J Q K
    assert await read("cyrillic", "c1") == as_vdp
    assert await read(None, "c1") == as_vdp and await read(None, "c2") == as_latin
    assert await read(None, None, "user:1") == as_latin and await read("cyrillic", None, "user:1") == as_vdp
    assert await storage.get_chat_letters("telegram", "user:1") == "cyrillic"
    await storage.close()
    flow, storage = await flow_on(tmp_path)  # kept in the database, as a restart finds it
    assert await read(None, "c1") == as_vdp
    assert await read("latin", "c1") == as_latin and await read(None, "c1") == as_latin
    await storage.set_chat_letters("telegram", "c3", "runic")  # written by something else: read as J Q K
    assert await read(None, "c3") == as_latin
    await storage.close()


async def test_unknown_letters_are_a_programming_error(tmp_path: Path) -> None:
    flow, storage = await flow_on(tmp_path)
    with pytest.raises(ValueError, match="unknown letters"):
        await flow.open(PHOTO, "1", "en", "greek")
    await storage.close()


def test_the_letters_are_named_alike_everywhere() -> None:
    # the chat flow and the command line check the letters without loading the scanner; all three must agree
    from bot.cli import scan as cli
    from bot.core import scanflow
    from bot.scanner import LETTERS

    assert scanflow.LETTERS == cli.LETTERS == LETTERS


@pytest.mark.parametrize("lang", ["bg", "en", "fr", "hr"])
async def test_a_count_not_of_whole_tricks_is_pointed_out_once_no_card_is_unsure(tmp_path: Path, lang: str) -> None:
    from dataclasses import asdict

    from bot.core.scanflow import STORE_KEY, ScanState
    from bot.i18n import translator

    hint = translator(lang).gettext(
        "Won cards come in tricks of four, and {n} is not a multiple of four: a card may be missing or misread.", n=13)
    assert "13" in hint and (lang == "en" or "tricks of four" not in hint), "translated"
    flow, storage = await flow_on(tmp_path)
    thirteen = ScanState("0badcafe", "7", lang, cards=list(range(13)), unsure=[31], touched=time.time())
    await storage.set_form("telegram", STORE_KEY + thirteen.scan_id, asdict(thirteen))
    assert hint not in flow.draw(thirteen).text, "not while a card is still asked about"
    answered = await flow.press("7", lang, "sc1:0badcafe:0:n")  # the ace of spades is not there: 13 cards stay
    assert answered.view is not None and hint in answered.view.text
    added = await flow.press("7", lang, "sc1:0badcafe:1:a")
    assert added.view is not None
    suit = await flow.press("7", lang, "sc1:0badcafe:2:s1")  # diamonds
    assert suit.view is not None
    fourteen = await flow.press("7", lang, "sc1:0badcafe:3:c15")  # the ace of diamonds added: 14 cards
    assert fourteen.view is not None and hint.replace("13", "14") in fourteen.view.text
    await flow.press("7", lang, "sc1:0badcafe:4:r")
    await flow.press("7", lang, "sc1:0badcafe:5:s1")
    removed = await flow.press("7", lang, "sc1:0badcafe:6:c8")  # the seven of diamonds removed: 13 again
    await flow.press("7", lang, "sc1:0badcafe:7:r")
    await flow.press("7", lang, "sc1:0badcafe:8:s1")
    twelve = await flow.press("7", lang, "sc1:0badcafe:9:c9")  # the eight of diamonds removed: 12 cards, three tricks
    assert removed.view is not None and hint in removed.view.text
    assert twelve.view is not None and "(12)" in twelve.view.text and hint.replace("13", "12") not in twelve.view.text
    for n, shown in ((12, False), (16, False), (0, False), (31, True)):
        state = ScanState("0badcafe", "7", lang, cards=list(range(n)), touched=time.time())
        assert (hint.replace("13", str(n)) in flow.draw(state).text) is shown, n
    await storage.close()


async def test_read_as_vdp_reads_the_same_photo_again_and_the_chat_keeps_the_letters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core import scanflow

    vdp = VDP
    flow, storage = await flow_on(tmp_path)
    as_latin = (await flow.open(vdp, "1", "en", "latin")).view.text.splitlines()[0]
    as_vdp = (await flow.open(vdp, "1", "en", "cyrillic")).view.text.splitlines()[0]
    opened = await flow.open(vdp, "1", "en", None, "c1")
    assert opened.view.text.splitlines()[0] == as_latin and opened.scan_id is not None

    def payload(view: scanflow.ScanView, label: str) -> str:
        [found] = [b.payload for row in view.rows for b in row if b.label == label]
        return found

    again = payload(opened.view, "Read as В Д П")
    assert flow.reads_again(again) and not flow.reads_again(payload(opened.view, "+ Add a card"))
    refused = await flow.press("2", "en", again)  # only the photo's sender
    assert refused.view is None and "Only the person who sent the photo" in refused.note
    pressed = await flow.press("1", "en", again)
    assert pressed.view is not None and pressed.view.text.splitlines()[0] == as_vdp
    assert "Read as a pack lettered В Д П" in pressed.view.text
    assert await storage.get_chat_letters("telegram", "c1") == "cyrillic"  # the chat's next photos too
    stale = await flow.press("1", "en", again)  # the same press replayed: the message has changed since
    assert stale.view is None and "changed since" in stale.note
    back = await flow.press("1", "en", payload(pressed.view, "Read as J Q K"))
    assert back.view is not None and back.view.text.splitlines()[0] == as_latin
    assert await storage.get_chat_letters("telegram", "c1") == "latin"
    # on a later step (the contract) the press is not one of the message's buttons, whatever its version
    while any(b.label.startswith("No ") for row in back.view.rows for b in row):  # every unsure card answered
        back = await flow.press("1", "en", next(b.payload for row in back.view.rows for b in row
                                                if b.label.startswith("No ")))  # fmt: skip
        assert back.view is not None
    contract = await flow.press("1", "en", payload(back.view, "Count the points"))
    assert contract.view is not None and "contract" in contract.view.text
    forged = contract.view.rows[0][0].payload.rsplit(":", 1)[0] + ":v"
    refused = await flow.press("1", "en", forged)
    assert refused.view is None and "not one of ours" in refused.note
    # a restart loses the photos kept in memory: the button is no longer offered, and a press on it says so
    kept = await flow.open(vdp, "1", "en", None, "c2")
    assert kept.scan_id is not None
    await storage.close()
    flow, storage = await flow_on(tmp_path)
    gone = await flow.press("1", "en", payload(kept.view, "Read as В Д П"))
    assert gone.view is None and "no longer at hand" in gone.note
    drawn = await flow.press("1", "en", payload(kept.view, "+ Add a card"))
    assert drawn.view is not None
    back_to_cards = await flow.press("1", "en", payload(drawn.view, "Back"))
    assert back_to_cards.view is not None
    assert not [b for row in back_to_cards.view.rows for b in row if b.label.startswith("Read as")]
    # past the bound, the oldest photos go first
    monkeypatch.setattr(scanflow, "KEPT_PHOTO_BYTES", int(len(vdp) * 2.5))
    first, second, third = [await flow.open(vdp, "1", "en", None, "c3") for _ in range(3)]
    assert "no longer at hand" in (await flow.press("1", "en", payload(first.view, "Read as В Д П"))).note
    for opened in (second, third):
        assert (await flow.press("1", "en", payload(opened.view, "Read as В Д П"))).view is not None
    await storage.close()


async def test_a_stored_scan_of_unknown_letters_is_closed_rather_than_read_again(tmp_path: Path) -> None:
    from dataclasses import asdict

    from bot.core.scanflow import STORE_KEY, ScanState

    flow, storage = await flow_on(tmp_path)
    state = ScanState("0badf00d", "7", "en", cards=[0, 9], letters="greek", touched=time.time())
    await storage.set_form("telegram", STORE_KEY + state.scan_id, asdict(state))
    for action in ("v", "a"):
        pressed = await flow.press("7", "en", f"sc1:0badf00d:0:{action}")
        assert pressed.view is None and "finished or too old" in pressed.note
    await storage.close()


async def test_read_again_pressed_twice_at_the_same_instant_reads_once(tmp_path: Path) -> None:
    vdp = VDP
    reads: list[str] = []

    class CountingLane(ScanLane):
        async def run(self, work: Callable[[], Any]) -> Any:
            reads.append("read")
            return await super().run(work)

    flow, storage = await flow_on(tmp_path, CountingLane())
    opened = await flow.open(vdp, "1", "en", None, "c1")
    [again] = [b.payload for row in opened.view.rows for b in row if b.label == "Read as В Д П"]
    first, second = await asyncio.gather(flow.press("1", "en", again), flow.press("1", "en", again))
    assert len(reads) == 2  # the photo, then one read again: the second press found the message changed
    shown = [p for p in (first, second) if p.view is not None]
    refused = [p for p in (first, second) if p.view is None]
    assert len(shown) == 1 and len(refused) == 1 and "changed since" in refused[0].note
    assert shown[0].view is not None and "Read as a pack lettered В Д П" in shown[0].view.text
    assert await storage.get_chat_letters("telegram", "c1") == "cyrillic"
    await storage.close()
