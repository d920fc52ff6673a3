"""The words players type for a deal of three or two (`/score` in the chats, `belote-bot score` on the command
line), in Croatian, Bulgarian, English and French: each line reads into the formats §7.5 request a person would
write by hand and scores the same; a line that cannot be read says which word and how it should read."""

from __future__ import annotations

import html
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.telegram.outbox import FloodPolicy
from bot.calculator import CalculatorError, score, score_text
from bot.calculator.small_text import parse_small_text
from tests.discord_fakes import EPHEMERAL, FakeDiscord, FakeUser, button_ids
from tests.fake_telegram import FakeTelegram
from tests.telegram.harness import Harness, Person, harness_on, say, telegram_with
from tests.test_discord_adapter import start_bot

ROOT = Path(__file__).resolve().parent.parent

LINES: list[tuple[str, dict[str, Any], tuple[int, ...]]] = [
    # B3-01 in four languages: "me", "you", "him" are seats 0, 1, 2; without a caller word "me" called.
    ("bela utroje ja 82 ti 60 on 20", {"variant": "bela-3", "declarer": "0",
                                       "points": {"0": 82, "1": 60, "2": 20}}, (82, 60, 20)),
    ("бела трима аз 82 ти 60 той 20", {"variant": "bela-3", "points": {"0": 82, "1": 60, "2": 20}}, (82, 60, 20)),
    ("bela three me 82 you 60 him 20", {"variant": "bela-3", "points": {"0": 82, "1": 60}}, (82, 60, 20)),
    ("belote à trois moi 82 toi 60 lui 20", {"variant": "bela-3", "points": {"0": 82, "2": 20}}, (82, 60, 20)),
    # B3-07 with the option: "ti zvao" makes seat 1 the caller; the dealer then defaults to seat 0.
    ("bela utroje ti zvao 60 ja 51 on 51 fall_points=higher_opponent",
     {"variant": "bela-3", "declarer": "1", "points": {"1": 60, "0": 51, "2": 51},
      "rules": {"fall_points": "higher_opponent"}}, (51, 0, 111)),
    # B3-05: declarations per player; "on" and the dealer word.
    ("bela utroje ja 90 kvarta ti 40 kare desetke on 32 terca:9 on dijelio",
     {"variant": "bela-3", "points": {"0": 90, "1": 40, "2": 32}, "dealer": "2",
      "declarations": {"0": ["quarte"], "1": ["carre:T"], "2": ["tierce:9"]}}, (0, 140, 52)),
    # A player without a trick loses his carré and bela.
    ("bela utroje ja 100 ti 62 on kare dečki bela bez štiha",
     {"variant": "bela-3", "points": {"0": 100, "1": 62}, "no_trick": ["2"],
      "declarations": {"2": ["carre:J", "belote"]}}, (100, 62, 0)),
    ("bela three me stiglja", {"variant": "bela-3", "valat": "0"}, (252, 0, 0)),
    # B2-05 and B2-07 in two players' words.
    ("bela udvoje ja 45 bela ti 71", {"variant": "bela-2", "points": {"0": 45, "1": 71},
                                      "declarations": {"0": ["belote"]}}, (0, 136)),
    ("бела двама ти избра 70 аз 62", {"variant": "bela-2", "declarer": "1", "points": {"0": 62, "1": 70}},
     (62, 70)),
    ("belote à deux toi pris 66 moi 66", {"variant": "bela-2", "declarer": "1", "points": {"0": 66, "1": 66}},
     (132, 0)),
    # BO-01, BO-05.
    ("otvorena bela ja 82", {"variant": "bela-open", "points": {"0": 82}}, (82, 80)),
    ("open bela me 75 tierce you 87 open_declarations=true",
     {"variant": "bela-open", "points": {"0": 75, "1": 87}, "declarations": {"0": ["tierce"]},
      "rules": {"open_declarations": True}}, (95, 87)),
    # BG3-01, BG3-04 with the pot, BG2-03's hanging deal, a contra.
    ("белот трима купа аз 92 ти 40 той 30", {"variant": "bulgarian-3", "contract": "hearts",
                                               "points": {"0": 92, "1": 40, "2": 30}}, (9, 4, 3)),
    ("bulgarian three hearts me 50 you 56 him 56 pot 5",
     {"variant": "bulgarian-3", "contract": "hearts", "points": {"0": 50, "1": 56}, "hanging_in": 5}, (0, 11, 10)),
    ("белот двама спатия ти избра 66 аз 66", {"variant": "bulgarian-2", "contract": "clubs", "declarer": "1",
                                              "points": {"0": 66, "1": 66}}, (7, 0)),
    ("bulgare à deux sa moi 80 toi 50 contra", {"variant": "bulgarian-2", "contract": "no-trumps",
                                                "multiplier": 2, "points": {"0": 80, "1": 50}}, (52, 0)),
]


@pytest.mark.parametrize(("line", "request_", "written"), LINES, ids=[x[0] for x in LINES])
def test_a_line_scores_as_the_request_it_reads(line: str, request_: dict[str, Any], written: tuple[int, ...]) -> None:
    answer = score_text(line)
    assert answer.result.score == written
    assert score(request_).result == answer.result


def test_players_names_and_a_sheets_game_without_the_game_word() -> None:
    request = parse_small_text("Mara zvala 60 Ivo 80", "bela-3", ["Ana", "Ivo", "Mara"])
    assert request["declarer"] == "2" and request["points"] == {"1": 80, "2": 60}
    assert request["players"] == {"0": "Ana", "1": "Ivo", "2": "Mara"}
    assert score(request).summary("en") == "Bela for three: Ana 22, Ivo 80, Mara — (the caller falls)"


def errors(line: str, lang: str = "en") -> list[str]:
    with pytest.raises(CalculatorError) as err:
        score_text(line, lang=lang)
    return err.value.render(lang)


def test_lines_that_cannot_be_read_say_which_word_and_how() -> None:
    assert errors("bela utroje ja 82 ti 60 ona 20 xyz") == [
        "text: 'xyz' is not understood; a line reads like: bela three me 82 you 60 him 20"]
    assert errors("bela udvoje ja 60", "hr") == [
        'points: nedostaju bodovi od "1": u igri bela-2 neke karte ostaju izvan igre, pa su potrebni bodovi svakog '
        "igrača"]
    assert errors("bela utroje ja 60 ja 70") == [
        "points: two numbers for the same player (0); a player word names the player of the number after it, e.g. "
        "'bela three me 82 you 60 him 20'"]
    assert errors("bela utroje ja štiglja ti štiglja") == ["valat: only one player can take every trick"]
    assert errors("bela utroje") == [
        "points: missing; write each player's points after his word, e.g. 'bela three me 82 you 60 him 20'"]
    # "him" has no seat at a table of two.
    assert errors("bela two me 60 him 50")[0].startswith("text: 'him' is not understood")


def test_the_command_line_reads_the_words() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "score", "--lang", "hr", "bela", "utroje", "ja", "60", "ti",
                           "80", "on", "22", "fall_points=both_opponents"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    first, *steps = done.stdout.strip().splitlines()
    assert first == "Bela utroje: Igrač 0 —, Igrač 1 140, Igrač 2 82 (zvač je pao)"
    assert steps[-1] == "6. Piše se: Igrač 0 —, Igrač 1 140, Igrač 2 82."


# --- Telegram ---

GROUP = -100778
POLICY = FloodPolicy().scaled(0.005)
IVAN = Person(3201, "Ivan", "hr")
PETAR = Person(3202, "Petar", "bg")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with telegram_with(POLICY, (IVAN, PETAR), GROUP, "Bela utroje", {IVAN.user_id}) as server:
        yield server


@pytest.fixture
async def h(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness_on(tg, tmp_path / "belote.sqlite3", POLICY) as harness:
        yield harness


async def test_telegram_scores_a_deal_of_three_and_of_two_in_the_players_words(h: Harness, tg: FakeTelegram) -> None:
    await say(h, IVAN, GROUP, "/lang hr")
    answer = await say(h, IVAN, GROUP, "/score bela utroje ja 82 ti 60 on 20")
    expected = score_text("bela utroje ja 82 ti 60 on 20")
    assert answer.text.splitlines() == [html.escape(expected.summary("hr"), quote=False)] + [
        html.escape(f"{i}. {s}", quote=False) for i, s in enumerate(expected.explanation("hr"), 1)]
    assert answer.text.splitlines()[0] == "Bela utroje: Igrač 0 82, Igrač 1 60, Igrač 2 20 (zvač je prošao)"
    two = await say(h, PETAR, PETAR.user_id, "/score белот двама купа аз 80 ти 62")
    assert two.text.splitlines()[0] == "Бридж-белот за двама (домашни правила): Играч 0 8, Играч 1 6 (изкарана игра)"
    wrong = await say(h, IVAN, GROUP, "/score bela utroje ja 82 ti 60 ona 20 xyz")
    assert "'xyz'" in wrong.text and "Primjer: /score bela utroje ja 82 ti 60 on 20" in wrong.text


# --- Discord ---


async def test_discord_scores_a_deal_of_three_in_the_players_words(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    luc = FakeUser(fake.next_id(), "Luc", "fr", manager=True)
    channel = fake.add_channel()
    await fake.command(luc, channel, "belot", "lang", language="fr", scope="channel")
    record = await fake.command(luc, channel, "score", line="belote à trois moi 60 toi 80 lui 22")
    answer = fake.reply(record)
    assert not answer["flags"] & EPHEMERAL
    title = answer["embeds"][0]["title"]
    assert title.replace("\u00a0", " ") == "Bela à trois : Joueur 0 —, Joueur 1 80, Joueur 2 22 (le preneur chute)"
    (add,) = list(button_ids(answer))  # "Add to the sheet", the request in its custom_id
    assert add.startswith("s:x")
    bad = fake.reply(await fake.command(luc, channel, "score", line="belote à trois moi 60 toi 60 toi 20"))
    assert bad["flags"] & EPHEMERAL and "deux nombres pour le même joueur (1)" in bad["content"]
    assert not fake.errors
    await running.stop()
