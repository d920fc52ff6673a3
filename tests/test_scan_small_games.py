"""A photo scored in the games of three and two (formats §7.1, §7.5), through the platform-free scan flow with a
real photo, the real model and a real SQLite file: the photo is one player's won cards, a keypad asks for the points
of the players the calculator cannot work out, and a 24-card game's 7s and 8s are shown apart and not counted."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from bot.calculator.score import score
from bot.core.scanflow import GAMES, STORE_KEY, Opened, Pressed, ScanFlow, ScanLane, ScanState, ScanView
from bot.engine.cards import parse_card
from bot.engine.play import CARD_POINTS
from bot.storage.sqlite import SqliteStorage

DATA = Path(__file__).resolve().parent / "data" / "scan"
PHOTO = (DATA / "photo0.jpg").read_bytes()


def cards(text: str) -> set[int]:
    return {parse_card(c) for c in text.split()}


# The photo's truth: 24 cards, five of them 7s and 8s; the scanner names all of them, none unsure (the first test
# checks the count, tests/test_scan_accuracy.py the cards).
[_TRUTH] = [row for row in json.loads((DATA / "truth.json").read_text()) if row["file"] == "photo0.jpg"]
READ = cards(" ".join(_TRUTH["present"]))
LOW = cards("8C 7D 8D 8H 8S")
HEARTS, ALL_TRUMPS = 2, 5


class Scan:
    """One scan pressed as its owner presses it: each press uses the newest drawing's button for that action."""

    def __init__(self, flow: ScanFlow, owner: str, view: ScanView) -> None:
        self.flow, self.owner, self.view = flow, owner, view

    def actions(self) -> list[str]:
        return [b.payload.rsplit(":", 1)[1] for row in self.view.rows for b in row]

    def labels(self) -> list[str]:
        return [b.label for row in self.view.rows for b in row]

    async def press(self, *actions: str) -> Pressed:
        pressed = Pressed("", None)
        for action in actions:
            [payload] = [b.payload for row in self.view.rows for b in row if b.payload.endswith(":" + action)]
            pressed = await self.flow.press(self.owner, "en", payload)
            assert pressed.view is not None, f"{action}: {pressed.note}"
            self.view = pressed.view
        return pressed

    async def forged(self, action: str) -> Pressed:
        """A press of an action the drawing does not offer, with its current nonce (a forged payload)."""
        nonce = self.view.rows[0][0].payload.split(":")[2]
        scan_id = self.view.rows[0][0].payload.split(":")[1]
        return await self.flow.press(self.owner, "en", f"sc1:{scan_id}:{nonce}:{action}")


async def opened(tmp_path: Path) -> tuple[Scan, SqliteStorage]:
    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    flow = ScanFlow(storage, "telegram", ScanLane(seconds=600))  # a loaded test machine reads slowly
    first: Opened = await flow.open(PHOTO, "7", "en")
    assert first.scan_id is not None
    return Scan(flow, "7", first.view), storage


async def stored(tmp_path: Path, cards: list[int]) -> tuple[Scan, SqliteStorage]:
    """A scan of ``cards`` as if a photo had just been read, without reading one."""
    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    flow = ScanFlow(storage, "telegram")
    state = ScanState("5ca1ab1e", "7", "en", cards=sorted(cards), touched=time.time())
    await storage.set_form("telegram", STORE_KEY + state.scan_id, asdict(state))
    return Scan(flow, "7", flow.draw(state)), storage


def game(name: str) -> str:
    return f"g{GAMES.index(name)}"


def points(cards: set[int], contract: int) -> int:
    return sum(CARD_POINTS[contract][c] for c in cards)


async def test_a_bulgarian_three_deal_counts_one_players_photo_without_the_7s_and_8s(tmp_path: Path) -> None:
    scan, storage = await opened(tmp_path)
    assert "(24):" in scan.view.text
    await scan.press("g")
    assert "Three or two players…" in scan.labels()
    await scan.press("m")
    assert "Bridge-Belote for three, house rules" in scan.labels(), "a house game says so where it is chosen"
    await scan.press(game("bulgarian-3"))
    assert len(scan.actions()) == len(set(scan.actions())) and {f"k{k}" for k in range(6)} <= set(scan.actions())
    await scan.press(f"k{ALL_TRUMPS}")
    assert "Not in a 24-card pack, not counted: 8♣ 7♦ 8♦ 8♥ 8♠" in scan.view.text
    assert {"t0", "t1", "t2"} <= set(scan.actions()) and "ta" not in scan.actions()
    await scan.press("t1", "t0", "l1")  # Player 1's cards, Player 0 bid, Player 1 took the last ten
    # The 24 cards are all in play: Player 1's and Player 0's points give Player 2's.
    assert "How many card points did Player 0 take, the last ten included? 0▌" in scan.view.text
    await scan.press("d5", "d0")
    assert "50▌" in scan.view.text
    done = await scan.press("o")
    counted = READ - LOW
    expected = score({"variant": "bulgarian-3", "contract": "all-trumps", "declarer": "0",
                      "points": {"0": 50, "1": points(counted, ALL_TRUMPS) + 10}})
    assert done.view is not None and expected.summary("en") in done.view.text
    assert "Cards in the photo (19):" in done.view.text and not done.view.rows
    await storage.close()


async def test_a_bela_two_deal_asks_the_other_player_and_a_count_that_cannot_be_is_typed_again(
        tmp_path: Path) -> None:
    ten = set(sorted(READ)[:10])  # five tricks of two: 20 of bela-2's cards are in play
    scan, storage = await stored(tmp_path, sorted(ten))
    await scan.press("g", "m", game("bela-2"))
    assert {f"k{k}" for k in range(4)} <= set(scan.actions()) and "k4" not in scan.actions(), "Bela: suits only"
    await scan.press(f"k{HEARTS}", "t0", "t1", "l0")
    assert "How many card points did Player 1 take, the last trick included? 0▌" in scan.view.text
    await scan.press("d9", "d9", "d9", "d9")  # a fourth digit is a slip: three stay
    assert "999▌" in scan.view.text
    await scan.press("o")  # cards stay out of play in bela-2, but no deal holds this many points
    assert "How many card points did Player 1 take" in scan.view.text and "0▌" in scan.view.text
    assert "162" in scan.view.text, "the calculator's reason is shown"
    await scan.press("d4", "d7", "e", "d0")  # 47, then 4, then 40
    done = await scan.press("o")
    expected = score({"variant": "bela-2", "declarer": "1", "points": {"0": points(ten, HEARTS), "1": 40}})
    assert done.view is not None and expected.summary("en") in done.view.text
    assert "Not in a 24-card pack" not in done.view.text, "a 32-card game counts every card"
    await storage.close()


async def test_open_bela_needs_no_keypad_the_other_player_has_the_rest(tmp_path: Path) -> None:
    scan, storage = await opened(tmp_path)
    done = await scan.press("g", "m", game("bela-open"), f"k{HEARTS}", "t1", "t1", "l1")
    expected = score({"variant": "bela-open", "declarer": "1", "points": {"1": points(READ, HEARTS) + 10}})
    assert done.view is not None and expected.summary("en") in done.view.text
    await storage.close()


async def test_a_bela_three_valat_asks_only_for_the_callers_two_discards(tmp_path: Path) -> None:
    taken = [c for c in range(32) if c not in (parse_card("7C"), parse_card("8C"))]  # the 30 cards of 10 tricks
    scan, storage = await stored(tmp_path, taken)
    await scan.press("g", "m", game("bela-3"), f"k{HEARTS}", "t2", "t0", "l1")
    assert "How many card points are in the two cards Player 0 discarded? 0▌" in scan.view.text
    done = await scan.press("o")  # 0: he threw away the 7 and 8 of clubs
    expected = score({"variant": "bela-3", "declarer": "0", "valat": "2", "points": {"0": 0}})
    assert done.view is not None and expected.summary("en") in done.view.text
    assert expected.result.score[2] > 162, "the valat's bonus is counted"
    await storage.close()


async def test_a_game_of_four_keeps_its_steps_and_no_keypad(tmp_path: Path) -> None:
    scan, storage = await stored(tmp_path, sorted(READ))
    await scan.press("g", "m", "b", "m", game("bela-3"), f"k{HEARTS}", "t2", "b", "b")
    assert "● Bela for three (utroje)" in scan.labels()
    done = await scan.press(game("french"), f"k{HEARTS}", "ta", "tb", "l1")  # changed their mind: French
    expected = score({"variant": "french", "contract": "hearts", "declarer": "B",
                      "points": {"A": points(READ, HEARTS) + 10}})
    assert done.view is not None and expected.summary("en") in done.view.text
    await storage.close()


@pytest.mark.parametrize(
    ("path", "forged"),
    [
        (("g",), game("bela-3")),  # a game of three is chosen on its own step only
        (("g", "m"), game("french")),  # and a game of four on the contract step
        (("g", "m", game("bela-2")), "k4"),  # no no-trumps in Bela
        (("g", "m", game("bela-2"), "k0"), "t2"),  # two players: no seat 2
        (("g", "m", game("bela-2"), "k0"), "ta"),  # nor teams
        (("g", "m", game("bulgarian-3"), "k0", "t0", "t1"), "d5"),  # no keypad before the last ten is answered
        (("g", "m", game("bulgarian-3"), "k0", "t0", "t1", "l0"), "d12"),  # one key at a time
        (("g", "m", game("bulgarian-3"), "k0", "t0", "t1", "l0"), "t2"),
    ],
)
async def test_a_forged_press_changes_nothing(tmp_path: Path, path: tuple[str, ...], forged: str) -> None:
    scan, storage = await stored(tmp_path, sorted(READ))
    await scan.press(*path)
    shown = scan.view
    refused = await scan.forged(forged)
    assert refused.view is None and refused.note == "That button is not one of ours."
    assert (await scan.press("x")).view is not None and shown.text, "the scan still answers its own buttons"
    await storage.close()


async def test_back_from_the_keypad_forgets_what_was_typed(tmp_path: Path) -> None:
    scan, storage = await stored(tmp_path, sorted(READ)[:10])
    await scan.press("g", "m", game("bela-2"), "k0", "t0", "t1", "l0", "d7")
    assert "Player 1 take, the last trick included? 7▌" in scan.view.text
    await scan.press("b")
    assert "Did Player 0 take the last trick" in scan.view.text
    await scan.press("l1")
    assert "Player 1 take, the last trick included? 0▌" in scan.view.text
    await storage.close()


async def test_a_photo_of_every_card_in_play_with_the_last_ten_is_a_valat(tmp_path: Path) -> None:
    twenty = sorted(READ)[:20]  # bela-2 puts 20 cards into tricks
    scan, storage = await stored(tmp_path, twenty)
    done = await scan.press("g", "m", game("bela-2"), f"k{HEARTS}", "t0", "t0", "l1")
    expected = score({"variant": "bela-2", "declarer": "0", "valat": "0",
                      "points": {"0": points(set(twenty), HEARTS) + 10}})
    assert done.view is not None and expected.summary("en") in done.view.text
    assert expected.request.valat == 0
    await storage.close()


@pytest.mark.parametrize(
    "damage",
    [
        {"game": "preferans"},
        {"game": "bela-2", "photo": "2"},
        {"bid": "C"},
        {"contract": 6},
        {"game": "bela", "contract": 5},
        {"suit": 4},
        {"cards": [3, 32]},
        {"unsure": [-1]},
        {"step": "points"},  # a game of four has no keypad
        {"game": "bela-2", "photo": "0", "bid": "0", "step": "points", "typed": "1x"},
        {"game": "bela-2", "photo": "0", "bid": "0", "step": "points", "typed": "1234"},
        {"game": "bela-2", "photo": "0", "bid": "0", "step": "points", "others": {"1": 5}},  # nobody left to ask
        {"game": "bela-3", "photo": "0", "bid": "0", "step": "points", "others": {"7": 5}},
    ],
)
async def test_a_stored_scan_that_names_no_game_or_seat_of_ours_is_closed_not_crashed(
        tmp_path: Path, damage: dict[str, str]) -> None:
    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    flow = ScanFlow(storage, "telegram")
    state = asdict(ScanState("5ca1ab1e", "7", "en", cards=sorted(READ), step="photo", touched=time.time()))
    await storage.set_form("telegram", STORE_KEY + "5ca1ab1e", state | damage)
    for action in ("ta", "t0", "o", "d1", "b", "x"):
        pressed = await flow.press("7", "en", f"sc1:5ca1ab1e:0:{action}")
        assert pressed.view is None and "finished or too old" in pressed.note, action
    await storage.set_form("telegram", STORE_KEY + "5ca1ab1e", state | {"step": "photo"})  # the same scan, sound
    assert (await flow.press("7", "en", "sc1:5ca1ab1e:0:ta")).view is not None
    await storage.close()


async def test_the_game_asked_first_is_that_of_the_chats_sheet(tmp_path: Path) -> None:
    from bot.calculator.sheets import new_sheet

    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    flow = ScanFlow(storage, "telegram", ScanLane(seconds=600))
    await storage.set_sheet("telegram", "-100", new_sheet("bela-3").to_json(), ("7", "Ana"))
    await storage.set_sheet("telegram", "-200", new_sheet("french").to_json(), ("7", "Ana"))
    for key, marked in (("-100", "● Bela for three (utroje)"), ("-200", "● French belote"),
                        ("-300", "● Bridge-Belote"), (None, "● Bridge-Belote")):  # no sheet: the calculator's default
        first = await flow.open(PHOTO, "7", "en", sheet_key=key)
        # a pack lettered В Д П is Bulgarian: a chat scoring Bela or French belote is not offered those letters
        bulgarian = "Bridge-Belote" in marked
        assert ("Read as В Д П" in [b.label for row in first.view.rows for b in row]) == bulgarian, key
        assert ("A pack lettered В Д П?" in first.view.text) == bulgarian, key
        if not bulgarian:  # nor read so by a forged press: the button is not there
            payload = first.view.rows[0][0].payload.rsplit(":", 1)[0] + ":v"
            assert "not one of ours" in (await flow.press("7", "en", payload)).note
        scan = Scan(flow, "7", first.view)
        await scan.press("g")
        assert marked in scan.labels(), key
    # a Bela chat whose photo was read as lettered В Д П is offered the way back
    opened = await flow.open(PHOTO, "7", "en", "cyrillic", sheet_key="-100")
    assert "Read as J Q K" in [b.label for row in opened.view.rows for b in row] and "jqk" in opened.view.text
    await storage.close()
