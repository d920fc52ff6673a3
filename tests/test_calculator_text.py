"""The one-line text form: what each line means as a formats.md §5 request (docs/calculator.md, "Grammar")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.calculator import CalculatorError, parse_text, score_text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("купа 102 60", {"contract": "hearts", "points": {"A": 102, "B": 60}}),
        # A number followed by a team word is that team's; the declarers (Ние by default) get the rest.
        ("пика 86 ние", {"contract": "spades", "points": {"A": 86}}),
        ("пика 86 вие", {"contract": "spades", "points": {"B": 86}}),
        # "контра вие": Вие said contra, so Ние bid; the lone number is the declarers'.
        ("без коз 80 контра вие", {"contract": "no-trumps", "multiplier": 2, "points": {"A": 80}}),
        ("всичко коз 154 терца вие 50 ние висящи 8",
         {"contract": "all-trumps", "points": {"A": 154}, "hanging_in": 8,
          "declarations": {"A": ["quarte"], "B": ["tierce"]}}),
        ("hearts 102 A belote B tierce:K",
         {"contract": "hearts", "points": {"A": 102}, "declarations": {"A": ["belote"], "B": ["tierce:K"]}}),
        ("пика капо ние", {"contract": "spades", "points": None, "valat": "A"}),
        ("♠ капо вие", {"contract": "spades", "points": None, "valat": "B"}),
        # A team right after the contract bid it; numbers without a team are the declarers' first.
        ("купа вие 90", {"contract": "hearts", "declarer": "B", "points": {"B": 90}}),
        ("купа вие 90 72", {"contract": "hearts", "declarer": "B", "points": {"A": 72, "B": 90}}),
        ("ние 102 вие 60 купа", {"contract": "hearts", "points": {"A": 102, "B": 60}}),
        ("купа 90 реконтра вие", {"contract": "hearts", "declarer": "B", "multiplier": 4, "points": {"B": 90}}),
        ("вк 130 к", {"contract": "all-trumps", "multiplier": 2, "points": {"A": 130}}),
        ("бк 70 x2", {"contract": "no-trumps", "multiplier": 2, "points": {"A": 70}}),
        ("all 130 x4", {"contract": "all-trumps", "multiplier": 4, "points": {"A": 130}}),
        ("nt 70 double", {"contract": "no-trumps", "multiplier": 2, "points": {"A": 70}}),
        # Top cards: after a colon, after "до", or a rank word right after the kind.
        ("пика 100 терца до поп ние терца:А вие",
         {"contract": "spades", "points": {"A": 100}, "declarations": {"A": ["tierce:K"], "B": ["tierce:A"]}}),
        ("spades 100 A quarte queen B quint:K",
         {"contract": "spades", "points": {"A": 100}, "declarations": {"A": ["quarte:Q"], "B": ["quint:K"]}}),
        ("вк 150 каре вале ние каре 9 вие",
         {"contract": "all-trumps", "points": {"A": 150}, "declarations": {"A": ["carre:J"], "B": ["carre:9"]}}),
        # After two numbers of points (or after a declaration word) 20, 50, 100, 150, 200 are declarations.
        ("вк 150 108 200 ние 150 вие",
         {"contract": "all-trumps", "points": {"A": 150, "B": 108},
          "declarations": {"A": ["carre:J"], "B": ["carre:9"]}}),
        ("вк 150 каре аса вие", {"contract": "all-trumps", "points": {"A": 150}, "declarations": {"B": ["carre:A"]}}),
        # Counts and repeats.
        ("вк 130 2 белота ние белот вие",
         {"contract": "all-trumps", "points": {"A": 130}, "declarations": {"A": ["belote", "belote"],
                                                                            "B": ["belote"]}}),
        ("купа 102 терца кварта ние", {"contract": "hearts", "points": {"A": 102},
                                        "declarations": {"A": ["tierce", "quarte"]}}),
        # Suits by symbol, case and punctuation do not matter.
        ("♥ 102, 60.", {"contract": "hearts", "points": {"A": 102, "B": 60}}),
        ("КУПА 102 БЕЛОТ НИЕ", {"contract": "hearts", "points": {"A": 102}, "declarations": {"A": ["belote"]}}),
        # Table options as key=value words.
        ("купа 81 контра contra_tie=split", {"contract": "hearts", "multiplier": 2, "points": {"A": 81},
                                              "rules": {"contra_tie": "split"}}),
    ],
)
def test_line_means(line: str, expected: dict[str, Any]) -> None:
    request = parse_text(line)
    if "declarations" in expected:
        expected["declarations"] = {"A": [], "B": [], **expected["declarations"]}
    for key, value in expected.items():
        assert request.get(key) == value, (key, request)


def test_renamed_teams_are_team_words() -> None:
    request = parse_text("купа 100 Иван и Мария терца Ана", teams=("Иван и Мария", "Ана"))
    assert request["points"] == {"A": 100}
    assert request["declarations"] == {"A": [], "B": ["tierce"]}
    assert request["teams"] == {"A": "Иван и Мария", "B": "Ана"}
    answer = score_text("купа 100 Иван и Мария терца Ана", teams=("Иван и Мария", "Ана"))
    assert answer.summary("bg").startswith("Иван и Мария 10 : Ана 8")


def test_table_options_from_the_chat_and_from_the_line_merge() -> None:
    request = parse_text("купа 81 контра contra_tie=split", rules={"target_score": 101})
    assert request["rules"] == {"target_score": 101, "contra_tie": "split"}
    assert score_text("купа 81 контра contra_tie=split").result.score == (0, 16)


def test_the_line_and_its_request_score_the_same() -> None:
    line = "всичко коз 154 терца вие 50 ние висящи 8"
    answer = score_text(line)
    assert answer.result.score == (28, 11)
    assert answer.request.to_json()["declarations"] == {"A": ["quarte"], "B": ["tierce"]}


def test_the_three_lines_at_the_top_of_the_docs_score_as_they_say() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "calculator.md").read_text(encoding="utf-8")
    block = doc.split("```")[1].strip().splitlines()
    assert [score_text(line).result.score for line in block] == [(12, 6), (28, 11), (12, 8)]


_WORD_TEXT = (
    "купа пика каро спатия бк вк без коз всичко nt at ♥ ♠ ние вие A B we you 102 60 81 0 162 258 130 20 50 100 "
    "150 200 2 белот терца кварта квинта каре до поп асо вале 9 10 K tierce:K carre:J каре:В терца:8 контра "
    "реконтра к x2 x4 капо висящи hanging 8 contra_tie=split target_score=0 x=1 , Ана"
)
WORDS = _WORD_TEXT.split()
FIELDS = {"contract", "points", "points.A", "points.B", "multiplier", "declarer", "valat", "declarations",
          "hanging_in", "teams", "text"}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=9))
def test_any_line_gets_an_answer_or_errors_that_name_known_fields(words: list[str]) -> None:
    try:
        answer = score_text(" ".join(words), teams=("Ана", "Боби"))
    except CalculatorError as err:
        assert err.problems
        for field in err.fields:
            assert field in FIELDS or field.startswith(("declarations.", "rules.")), field
        assert all("{" not in line for line in err.render("bg"))
    else:
        total = sum(answer.result.score) + answer.result.hanging - answer.request.hanging_in
        assert total >= 0 and answer.render("bg") and answer.render("en")


# Hostile words: a number past Python's 4,300-digit integer-string limit (or merely too long), a word holding a lone
# surrogate (how bytes that are not UTF-8 reach a command line), and an option nested thousands of levels deep.
HOSTILE = st.one_of(
    st.integers(10, 6000).map(lambda n: "7" * n),
    st.sampled_from(["\ud800", "купа\udcff", "\udfff102"]),
    st.integers(65, 20000).map(lambda n: "contra_tie=" + "[" * n),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=6), HOSTILE, st.integers(0, 6))
def test_hostile_words_get_located_errors_never_a_crash(words: list[str], hostile: str, at: int) -> None:
    words.insert(min(at, len(words)), hostile)
    try:
        score_text(" ".join(words), teams=("Ана", "Боби"))
    except CalculatorError as err:
        assert err.problems
        for field in err.fields:
            assert field in FIELDS or field.startswith(("declarations.", "rules.")), field
        for lang in ("bg", "en"):
            assert all(line.encode("utf-8") for line in err.render(lang))  # printable and sendable as text
    else:
        raise AssertionError(f"accepted {hostile[:20]!r}: none of the hostile words can be right")


@pytest.mark.parametrize("teams", [("\udcffАна", "Боби"), ("Ана", "B\ud800")])
def test_team_names_that_are_not_text_are_named(teams: tuple[str, str]) -> None:
    with pytest.raises(CalculatorError) as caught:
        score_text("купа 102 60", teams=teams)
    assert caught.value.fields == ["teams.A" if teams[0] != "Ана" else "teams.B"]


def test_an_option_given_twice_is_named() -> None:
    # Found by the hostile-words test: a second value silently replaced the first (even one that is not JSON).
    for line in ("купа 102 contra_tie=[[[ contra_tie=split", "bela mi 92 tie=visi tie=pad"):
        with pytest.raises(CalculatorError) as caught:
            score_text(line)
        assert caught.value.fields == ["rules.contra_tie" if "купа" in line else "rules.tie"]
