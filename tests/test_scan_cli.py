"""`belote-bot scan` run as a real process: the answer's shape and points, and every kind of bad input refused in
one line with exit status 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.engine.cards import parse_card
from bot.engine.play import CARD_POINTS
from bot.scanner.recognise import SURE, SURE_ALONE, UNSURE

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "tests" / "data" / "scan" / "photo0.jpg"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "scan", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def refused(done: subprocess.CompletedProcess[bytes]) -> str:
    """The one-line error of a refused input."""
    assert done.returncode == 2, done.stdout
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    assert lines[0].startswith("belote-bot scan: ")
    return lines[0]


def test_json_answer_names_cards_and_counts_their_points() -> None:
    done = run(str(PHOTO), "--contract", "hearts", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["format"] == "belote-scan/1"
    assert (answer["width"], answer["height"]) == (800, 600) or (answer["width"], answer["height"]) == (600, 800)
    assert answer["cards"], "the committed photo has cards the model reads"
    for entry in answer["cards"] + answer["unsure"]:
        assert set(entry) == {"card", "confidence", "x", "y", "angle"}
        assert 0 <= entry["x"] <= answer["width"] and 0 <= entry["y"] <= answer["height"]
    named = [parse_card(e["card"]) for e in answer["cards"]]
    assert len(set(named)) == len(named)
    assert all(e["confidence"] >= SURE for e in answer["cards"])  # named cards are the sure ones
    # an unsure card was read below SURE, or below SURE_ALONE at a single mark
    assert all(UNSURE <= e["confidence"] < SURE_ALONE for e in answer["unsure"])
    assert answer["points"] == sum(CARD_POINTS[2][c] for c in named)
    assert answer["unsure_points"] == sum(CARD_POINTS[2][parse_card(e["card"])] for e in answer["unsure"])
    assert (answer["contract"], answer["variant"]) == ("hearts", "bulgarian")


def test_text_answer_from_standard_input_under_all_trumps() -> None:
    done = run("-", "--contract", "all-trumps", stdin=PHOTO.read_bytes())
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    assert text.splitlines()[0].split(":")[0].endswith("cards")
    assert "card points under all-trumps: " in text and "the last ten is not included" in text
    assert "for one lettered В Д П give --letters cyrillic" in text  # how to read a Bulgarian pack's letters


def test_a_24_card_game_sets_the_7s_and_8s_apart_and_counts_the_rest() -> None:
    # photo0's 24 cards, all named (truth.json): five are 7s and 8s, which bulgarian-3 and -2 play without
    plain = json.loads(run(str(PHOTO), "--contract", "all-trumps", "--json").stdout)
    assert "not_in_pack" not in plain, "a 32-card game holds every card"
    for variant in ("bulgarian-3", "bulgarian-2"):
        answer = json.loads(run(str(PHOTO), "--variant", variant, "--contract", "all-trumps", "--json").stdout)
        outside = {e["card"] for e in answer["not_in_pack"]}
        assert outside == {"8C", "7D", "8D", "8H", "8S"}
        assert {e["card"] for e in answer["cards"]} == {e["card"] for e in plain["cards"]} - outside
        assert set(answer["not_in_pack"][0]) == {"card", "confidence", "x", "y", "angle"}
        assert answer["points"] == plain["points"] and answer["variant"] == variant  # 7s and 8s are worth nothing
    text = run(str(PHOTO), "--variant", "bulgarian-2").stdout.decode()
    assert text.splitlines()[0] == "19 cards: 10♣ J♣ K♣ A♣ 9♦ 10♦ J♦ Q♦ K♦ A♦ 9♥ J♥ Q♥ K♥ 10♠ J♠ Q♠ K♠ A♠"
    assert "not in a 24-card pack, not counted (5): 8♣ 7♦ 8♦ 8♥ 8♠" in text
    bela = json.loads(run(str(PHOTO), "--variant", "bela-open", "--contract", "spades", "--json").stdout)
    assert "not_in_pack" not in bela and len(bela["cards"]) == 24 and bela["variant"] == "bela-open"


def test_a_pack_lettered_vdp_is_read_with_its_own_networks() -> None:
    # a committed photo of a held-out design drawn with В Д П (batch 2 of tests/data/scan)
    truth = next(t for t in json.loads((PHOTO.parent / "truth.json").read_text()) if t["letters"] == "cyrillic")
    photo = str(PHOTO.parent / truth["file"])
    as_vdp = json.loads(run(photo, "--letters", "Cyrillic", "--json").stdout)
    as_latin = json.loads(run(photo, "--json").stdout)
    assert (as_vdp["letters"], as_latin["letters"]) == ("cyrillic", "latin")
    named = {e["card"] for e in as_vdp["cards"]}
    court = {c for c in truth["visible"] if c[0] in "JQK"}
    assert named <= set(truth["present"]) and len(named & court) > len({e["card"] for e in as_latin["cards"]} & court)
    text = run(photo, "--letters", "cyrillic").stdout.decode()
    assert "read as a pack lettered В Д П" in text and "--letters cyrillic" not in text


def test_a_photo_without_cards_says_so(tmp_path: Path) -> None:
    table = np.full((480, 640, 3), (40, 110, 30), np.uint8)  # an empty green cloth
    file = tmp_path / "table.png"
    cv2.imwrite(str(file), table)
    done = run(str(file))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("No cards found in this photo.")
    answer = json.loads(run(str(file), "--json").stdout)
    assert answer["cards"] == [] and answer["unsure"] == []


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "the file is empty"),
        (b"hearts 102 60\n", "not an image"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "not an image"),
    ],
)
def test_what_is_not_a_photo_is_refused(tmp_path: Path, content: bytes, says: str) -> None:
    file = tmp_path / "photo.jpg"
    file.write_bytes(content)
    assert says in refused(run(str(file)))


def test_a_cut_off_photo_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "cut.jpg"
    file.write_bytes(PHOTO.read_bytes()[:300])
    assert "cannot be read" in refused(run(str(file))) or "not an image" in refused(run(str(file)))


def test_too_many_bytes_are_refused_before_decoding(tmp_path: Path) -> None:
    file = tmp_path / "huge.jpg"
    file.write_bytes(PHOTO.read_bytes() + b"\x00" * (26 * 1024 * 1024))
    assert "photos up to 25 MB are read" in refused(run(str(file)))


def test_a_small_file_claiming_a_huge_picture_is_refused(tmp_path: Path) -> None:
    ok, png = cv2.imencode(".png", np.zeros((9000, 8000), np.uint8))  # 72 megapixels, a few kilobytes
    assert ok
    file = tmp_path / "bomb.png"
    file.write_bytes(png.tobytes())
    assert "too large" in refused(run(str(file)))


def test_missing_file_and_bad_options_are_refused(tmp_path: Path) -> None:
    assert "no such file" in refused(run(str(tmp_path / "none.jpg")))
    assert "not one of bela's" in refused(run(str(PHOTO), "--variant", "bela", "--contract", "no-trumps"))
    assert "not one of bela-3's" in refused(run(str(PHOTO), "--variant", "Bela-3", "--contract", "all-trumps"))
    assert "unknown variant" in refused(run(str(PHOTO), "--variant", "preferans"))
    assert "not one of bulgarian's" in refused(run(str(PHOTO), "--contract", "trumps"))
    assert "unknown letters 'greek'" in refused(run(str(PHOTO), "--letters", "greek"))
