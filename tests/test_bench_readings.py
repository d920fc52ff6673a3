"""bench/readings.py: recorded readings of photos, counted as the scanner combines them. The lines below are written by
hand from the format its docstring gives, not by its writer; a photo's recorded readings count as the scanner
answers that photo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine.cards import parse_card
from bot.scanner import decode, recognise, scan_image
from bot.scanner.recognise import readings
from tests.bench_scripts import bench_script
from tests.test_scan_readings import INVENTED_ONCE

bench = bench_script("readings")
scan_bench = bench_script("scan")
DATA = Path(__file__).resolve().parent / "data" / "scan"

HAND_WRITTEN = [
    # the first two name other cards: the third counts. The king of spades is named by the second and third, both
    # sure; the jack of diamonds by the second alone surely, so it is asked about (and absent); the queen of diamonds
    # the first asks about. The ten of hearts lies under other cards, its corner hidden: counted as nothing.
    {"seed": 3, "photo": 0, "design": "kde-standard",
     "present": ["7C", "AH", "KS", "QD", "10H"], "visible": ["7C", "AH", "KS", "QD"],
     "readings": [
         {"named": [["7C", 1.0, 10, 20, 0], ["AH", 0.99, 30, 20, 0]],
          "unsure": [["KS", 0.9, 50, 20, 0], ["QD", 0.5, 70, 20, 0]]},
         {"named": [["7C", 1.0, 11, 20, 0], ["AH", 1.0, 31, 20, 0], ["KS", 0.99, 51, 20, 0], ["JD", 0.98, 90, 9, 0]]},
         {"named": [["KS", 0.96, 52, 20, 0], ["JD", 0.9, 91, 9, 0]], "unsure": []},
     ]},
    # the first two agree: a third recorded all the same is not what the scanner reads, and its ace is no question
    {"format": "belote-readings/1", "seed": 3, "photo": 1, "kind": "held-out", "letters": "latin",
     "present": ["8S", "9S", "KD"], "visible": ["8S", "9S", "KD"],
     "readings": [
         {"named": [["9S", 1.0, 5, 5, 90], ["8♠", 0.97, 9, 5, 90]], "unsure": [["KD", 0.7, 40, 40, 90]]},
         {"named": [["8S", 1.0, 9, 5, 90], ["9S", 1.0, 5, 5, 90]], "unsure": []},
         {"named": [["8S", 1.0, 9, 5, 90], ["AD", 1.0, 60, 60, 90]], "unsure": []},
     ]},
    # two readings name an eight of hearts the photo lacks: invented
    {"seed": 3, "photo": 2, "design": "lattmann", "present": ["7H"], "visible": ["7H"],
     "readings": [{"named": [["7H", 1.0, 1, 1, 0], ["8H", 1.0, 1, 30, 0]]},
                  {"named": [["7h", 1.0, 1, 1, 0], ["8h", 0.999, 1, 31, 0]]}]},
]


def counted(rows: list[dict[str, object]]) -> dict[str, object]:
    lines = [(f"hand line {k}", json.dumps(row, ensure_ascii=False)) for k, row in enumerate(rows, 1)]
    tallies, _ = bench.count(lines)
    return tallies


def test_hand_written_readings_are_counted_as_the_scanner_combines_them() -> None:
    tallies = counted(HAND_WRITTEN)
    assert set(tallies) == {"held-out"}
    t = tallies["held-out"]
    assert (t.photos, t.seen, t.correct, t.unsure, t.wrong_unsure, t.invented) == (3, 8, 6, 2, 1, 1)
    assert (t.wrong_photos, t.flagged_photos) == (1, 1)  # one card too many: not whole tricks, pointed out
    assert t.inventions == ["seed 3 photo 2 (lattmann): 8H at 1.0000"]
    # jacks, queens and kings: the king of spades, the queen of diamonds (asked about) and the king of diamonds
    assert t.court == [3, 1, 0]


def test_a_recorded_third_reading_counts_only_where_the_scanner_reads_one() -> None:
    row = json.loads(json.dumps(HAND_WRITTEN[1]))
    three = counted([row])["held-out"]
    row["readings"] = row["readings"][:2]
    two = counted([row])["held-out"]
    assert (three.correct, three.unsure, three.wrong_unsure) == (2, 1, 0)
    assert (two.correct, two.unsure, two.wrong_unsure) == (2, 1, 0)
    # where the first two differ (the second without the nine), the third's cards count: its ace is asked about, and
    # the nine, which the first reading alone names
    differ = json.loads(json.dumps(HAND_WRITTEN[1]))
    differ["readings"][1]["named"] = [["8S", 1.0, 9, 5, 90]]
    t = counted([differ])["held-out"]
    assert (t.correct, t.unsure, t.wrong_unsure) == (1, 2, 1)


def truth_of(file: str) -> tuple[list[str], list[str]]:
    """The cards in a committed photo and those whose corner shows."""
    if file in INVENTED_ONCE:
        return INVENTED_ONCE[file][1].split(), INVENTED_ONCE[file][2].split()
    (row,) = [row for row in json.loads((DATA / "truth.json").read_text()) if row["file"] == file]
    return row["present"], row["visible"]


@pytest.mark.parametrize("file", ["readings-kde-standard.webp", "photo0.jpg"])
def test_a_photo_recorded_counts_as_the_scanner_answers_it(file: str) -> None:
    """The photo's three readings written as ``record`` writes them, read back and counted: the same figures as the
    scanner's own answer (the first photo's first two readings differ, photo0's agree)."""
    image = decode((DATA / file).read_bytes())
    present, visible = truth_of(file)
    every = readings(image, "latin", every=True)
    assert len(every) == 3
    height, width = image.shape[:2]
    line = json.dumps({"present": present, "visible": visible, "width": width, "height": height,
                       "readings": [bench.encoded(r) for r in every]})
    recorded = counted([json.loads(line)])["held-out"]
    scan = scan_image(image)
    direct = scan_bench.Tally()
    direct.photo({parse_card(c) for c in present}, {parse_card(c) for c in visible}, scan.cards, scan.unsure, "?")
    fields = ("photos", "seen", "correct", "unsure", "wrong_unsure", "invented", "wrong_photos", "court")
    assert [getattr(recorded, f) for f in fields] == [getattr(direct, f) for f in fields]
    assert recorded.correct >= 20 and recorded.invented == 0


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a JSON object a photo"),
        ('{"format": "belote-readings/9", "present": [], "visible": [], "readings": [{}, {}]}', "belote-readings/1"),
        ('{"kind": "mixed", "present": [], "visible": [], "readings": [{}, {}]}', "one of held-out"),
        ('{"visible": [], "readings": [{}, {}]}', "'present': a list of cards"),
        ('{"present": ["7X"], "visible": [], "readings": [{}, {}]}', "rank is one of 7 8 9"),
        ('{"present": [7], "visible": [], "readings": [{}, {}]}', 'a card is a string such as "7C"'),
        ('{"present": ["7C"], "visible": ["7C", "8C"], "readings": [{}, {}]}', "visible cards not present: 8C"),
        ('{"present": [], "visible": [], "readings": []}', "one to three readings"),
        ('{"present": [], "visible": [], "readings": [{}]}', "one reading of a pack lettered J Q K"),
        ('{"present": [], "visible": [], "readings": [{"named": [["7C", 1.2, 0, 0, 0]]}, {}]}',
         "a confidence from 0 to 1, not 1.2"),
        ('{"present": [], "visible": [], "readings": [{}, {"unsure": [["7C", 0.5, 0, 0]]}]}',
         "readings[1].unsure[0]: [card, confidence, x, y, angle]"),
        ('{"present": [], "visible": [], "readings": [{}, {"named": [["7C", "high", 0, 0, 0]]}]}',
         "readings[1].named[0] confidence: a number"),
        ('{"present": [], "visible": [], "readings": [{}, {}], "width": 1280}', "'width' and 'height': both"),
        ('{"present": [], "visible": [], "readings": [{}, {}], "letters": "greek"}', "letters 'greek'; one of latin"),
        ('{"present": [], "visible": [], "readings": [{}, {}], "width": 960, "height": 1280, "side": 960}',
         "'side' 960 is not the longer of 'width' 960 and 'height' 1280"),
        ('{"present": [], "visible": [], "readings": [{}, {}], "width": 0, "height": 1280}',
         "'width': the photo's width in pixels, a whole number, not 0"),
    ],
)
def test_a_bad_line_says_where_and_what_was_wrong(line: str, said: str) -> None:
    good = json.dumps(HAND_WRITTEN[2])
    with pytest.raises(bench.BadLine) as error:
        bench.count([("x.jsonl line 1", good), ("x.jsonl line 2", line)])
    assert str(error.value).startswith("x.jsonl line 2: ")
    assert said in str(error.value)


def test_the_command_counts_files_and_refuses_bad_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recorded = tmp_path / "r.jsonl"
    recorded.write_text("\n".join(json.dumps(row, ensure_ascii=False) for row in HAND_WRITTEN) + "\n\n",
                        encoding="utf-8")
    assert bench.main(["count", str(recorded), "--list"]) == 0
    out = capsys.readouterr().out
    assert "held-out designs (lattmann, kde-standard), read as lettered J Q K: 3 photos, 8 cards" in out
    assert "named correctly   75.00%  (6)" in out and "invented         1" in out
    assert "    seed 3 photo 2 (lattmann): 8H at 1.0000" in out
    assert "seconds/photo" not in out  # nothing was timed

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert bench.main(["count", str(empty)]) == 2
    assert "no photo recorded in" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(HAND_WRITTEN[0]) + "\n{}\n")
    assert bench.main(["count", str(recorded), str(bad)]) == 2
    assert capsys.readouterr().err.startswith("readings: bad.jsonl line 2: ")
    assert bench.main(["count", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def test_the_count_takes_another_overrule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--overrule`` counts the same readings as the scanner would with another OVERRULE: the king of spades that
    the first reading asks about and the two others name at 0.99 and 0.96 is named as shipped, asked about from
    0.99."""
    monkeypatch.setattr(recognise, "OVERRULE", recognise.OVERRULE)  # the command sets it: put back after
    recorded = tmp_path / "r.jsonl"
    recorded.write_text(json.dumps(HAND_WRITTEN[0]) + "\n", encoding="utf-8")
    assert bench.main(["count", str(recorded)]) == 0
    assert "named correctly   75.00%  (3)" in capsys.readouterr().out  # 7C, AH and KS
    assert bench.main(["count", str(recorded), "--overrule", "0.99"]) == 0
    assert "named correctly   50.00%  (2)" in capsys.readouterr().out  # KS asked about
    with pytest.raises(SystemExit):
        bench.main(["count", str(recorded), "--overrule", "1.5"])
    assert "a confidence is a number from 0 to 1, not 1.5" in capsys.readouterr().err


def test_two_cards_at_one_index_are_told_in_the_photos_pixels() -> None:
    """A nine of spades named 14 pixels from a nine of clubs asked about, in both readings: within PLACE of a photo of
    1280 pixels (one index: both asked about), not of one of 1000 or of 1024 when ``side`` is left out."""
    row = {"present": ["9C"], "visible": ["9C"], "seed": 5, "photo": 1, "design": "kde-standard",
           "readings": [{"named": [["9S", 0.9996, 500, 100, 0]], "unsure": [["9C", 0.995, 514, 100, 0]]},
                        {"named": [["9S", 0.9994, 500, 101, 0]], "unsure": [["9C", 0.998, 514, 101, 0]]}]}
    assert recognise.PLACE * 1024 < 14 < recognise.PLACE * 1280
    for side, invented in ((1280, 0), (1000, 1), (None, 1)):
        line = dict(row, side=side) if side is not None else row
        t = counted([line])["held-out"]
        assert (t.invented, t.correct, t.unsure) == (invented, 0, 1)
    with pytest.raises(bench.BadLine, match="'side': the photo's longer side in pixels"):
        counted([dict(row, side="1280")])


def test_the_count_reads_two_cards_at_one_index_or_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--place 0`` counts as before the rule of two cards at one index: the nine of spades is named (invented)."""
    monkeypatch.setattr(recognise, "PLACE", recognise.PLACE)  # the command sets it: put back after
    row = {"present": ["9C"], "visible": ["9C"], "side": 1280,
           "readings": [{"named": [["9S", 0.9996, 500, 100, 0]], "unsure": [["9C", 0.995, 505, 100, 0]]},
                        {"named": [["9S", 0.9994, 500, 101, 0]], "unsure": [["9C", 0.998, 505, 101, 0]]}]}
    recorded = tmp_path / "r.jsonl"
    recorded.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert bench.main(["count", str(recorded)]) == 0
    assert "invented         0" in capsys.readouterr().out
    assert bench.main(["count", str(recorded), "--place", "0"]) == 0
    assert "invented         1" in capsys.readouterr().out


EDGE_ROW = {
    # a queen of spades named by both readings under EDGE_SURE, 10 pixels from the left edge of a photo 1280 x 960;
    # the king of spades whose index the edge cuts is in the photo, its corner not seen
    "present": ["KS", "9H"], "visible": ["9H"], "seed": 7, "photo": 2, "design": "lattmann",
    "readings": [{"named": [["QS", 0.997, 10, 744, 270], ["9H", 1.0, 600, 12, 0]]},
                 {"named": [["QS", 0.998, 11, 743, 270], ["9H", 0.9995, 601, 12, 0]]}],
}


def test_a_card_named_at_the_edge_is_told_in_the_photos_size() -> None:
    """The queen within EDGE of the longer side of the edge is asked about where the line gives the photo's width and
    height; the nine of hearts as near the top edge is named, the first reading naming it at 1.0. A photo twice as
    large reaches farther: the nine of hearts' place 12 pixels from its edge is within it, and the nine asked about
    the second reading's naming, under EDGE_SURE, is not the first's."""
    assert 10 < recognise.EDGE * 1280 < 12 * 2 < recognise.EDGE * 2560
    t = counted([dict(EDGE_ROW, width=1280, height=960)])["held-out"]
    assert (t.invented, t.correct, t.unsure, t.wrong_unsure) == (0, 1, 0, 1)
    t = counted([dict(EDGE_ROW, width=2560, height=1920)])["held-out"]
    assert (t.invented, t.correct, t.unsure, t.wrong_unsure) == (0, 1, 0, 1)
    # without the photo's size the edge is not known: the queen is named, as before the rule
    t = counted([dict(EDGE_ROW, side=1280)])["held-out"]
    assert (t.invented, t.correct) == (1, 1)


def test_the_count_reads_a_card_at_the_edge_or_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--edge 0`` counts as before the edge rule; a line without the photo's size is counted without it and said."""
    monkeypatch.setattr(recognise, "EDGE", recognise.EDGE)  # the command sets it: put back after
    recorded = tmp_path / "r.jsonl"
    recorded.write_text(json.dumps(dict(EDGE_ROW, width=1280, height=960)) + "\n", encoding="utf-8")
    assert bench.main(["count", str(recorded)]) == 0
    out = capsys.readouterr().out
    assert "invented         0" in out and "without 'width' and 'height'" not in out
    unsized = tmp_path / "old.jsonl"
    unsized.write_text(json.dumps(EDGE_ROW) + "\n" + json.dumps(dict(EDGE_ROW, side=1280)) + "\n", encoding="utf-8")
    assert bench.main(["count", str(unsized), str(recorded)]) == 0
    out = capsys.readouterr().out
    assert "invented         2" in out
    assert "  2 photos recorded without 'width' and 'height': the edge rule (recognise.EDGE) left out there" in out
    assert bench.main(["count", str(recorded), "--edge", "0"]) == 0
    assert "invented         1" in capsys.readouterr().out


VDP_ROW = {
    # a pack lettered В Д П, read all three ways: the first reading names the seven of hearts and asks about the queen
    # of clubs, which the two others name surely; the second names a king of clubs the photo lacks, the third not
    "kind": "cyrillic", "letters": "cyrillic", "width": 1024, "height": 768, "seed": 11, "photo": 3,
    "design": "kde-standard-cyrillic", "present": ["7H", "QC"], "visible": ["7H", "QC"],
    "readings": [{"named": [["7H", 1.0, 300, 300, 0]], "unsure": [["QC", 0.9, 500, 300, 0]]},
                 {"named": [["7H", 1.0, 301, 300, 0], ["QC", 0.99, 501, 300, 0], ["KC", 0.99, 700, 300, 0]]},
                 {"named": [["7H", 1.0, 300, 301, 0], ["QC", 0.98, 500, 301, 0]]}],
}


def test_a_pack_lettered_vdp_counts_as_the_scanner_reads_it_once_or_as_read_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scanner reads such a pack once: its first reading alone counts (the queen asked about), unless
    ``--vdp-again`` weighs all three as a pack lettered J Q K is weighed (the queen named, the king named by one
    reading asked about)."""
    t = counted([VDP_ROW])["cyrillic"]
    assert (t.correct, t.unsure, t.wrong_unsure, t.invented) == (1, 1, 0, 0)
    lines = [("hand line 1", json.dumps(VDP_ROW, ensure_ascii=False))]
    again, _ = bench.count(lines, vdp_again=True)
    t = again["cyrillic"]
    assert (t.correct, t.unsure, t.wrong_unsure, t.invented) == (2, 0, 1, 0)
    recorded = tmp_path / "r.jsonl"
    recorded.write_text(lines[0][1] + "\n", encoding="utf-8")
    assert bench.main(["count", str(recorded)]) == 0
    assert "read as lettered В Д П: 1 photos, 2 cards" in capsys.readouterr().out
    assert bench.main(["count", str(recorded), "--vdp-again"]) == 0
    assert "named correctly  100.00%  (2)" in capsys.readouterr().out


def test_a_pack_lettered_vdp_is_read_every_way_to_be_recorded() -> None:
    """``record`` reads such a pack all three ways, where the scanner reads it once; the first of them is the
    scanner's reading."""
    image = decode((DATA / "photo24.jpg").read_bytes())
    every = readings(image, "cyrillic", every=True)
    assert len(every) == 3
    assert readings(image, "cyrillic") == every[:1]
