"""Bela and French deals typed in the words players use (hr, fr, bg, en): what the line means, what is written, and
errors that suggest words of the line's own language."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.calculator import CalculatorError, FamilyAnswer, score_text
from bot.calculator.family_text import parse_family_text


def written(line: str, lang: str = "en") -> tuple[tuple[int, int], int, str]:
    answer = score_text(line, lang=lang)
    assert isinstance(answer, FamilyAnswer)
    r = answer.result
    return (r.score[0], r.score[1]), r.hanging, r.outcome


def problems(line: str, lang: str = "en") -> list[str]:
    with pytest.raises(CalculatorError) as err:
        score_text(line, lang=lang)
    return err.value.render(lang)


@pytest.mark.parametrize(("line", "expected"), [
    # Croatian: "we called and took 92, a kvarta (zvanje 50) and bela" -> 92 + 50 + 20 against 70.
    ("bela mi 92 zvanje 50 bela", ((162, 70), 0, "passed")),
    ("bela mi 70 bela", ((0, 182), 0, "fell")),
    ("bela mi 81 pad", ((0, 162), 0, "fell")),
    ("bela mi 81 visi", ((0, 81), 81, "visi")),
    ("bela vi zvali 70 mi 92 terca", ((182, 0), 0, "fell")),
    ("bela zvali vi 92", ((70, 92), 0, "passed")),
    ("bela mi štiglja četiri dečka bela", ((472, 0), 0, "passed")),
    ("bela vi zvali mi štiglja", ((252, 0), 0, "fell")),
    ("bela mi 90 kare kraljevi vi kvarta", ((190, 72), 0, "passed")),
    ("bela mi 100 terca do kralja vi terca do dame", ((120, 62), 0, "passed")),
    ("bela vi zvali 70 visi 81", ((243, 0), 0, "fell")),
    ("bela herc mi 92 stiglja_value=100", ((92, 70), 0, "passed")),
    # French: "belote, the takers made 65 and have the belote" -> dedans, the belote stays.
    ("belote pris 65 belote", ((20, 162), 0, "failed")),
    ("belote pris 65 belote-rebelote dedans", ((20, 162), 0, "failed")),
    ("belote nous 92 cœur", ((92, 70), 0, "made")),
    ("belote 71 tierce litige", ((0, 91), 91, "litige")),
    ("belote eux pris 92 litige 91", ((70, 183), 0, "made")),
    ("belote nous capot carré de valets belote eux cinquante", ((472, 0), 0, "made")),
    ("belote eux capot nous cinquante belote et rebelote", ((20, 302), 0, "failed")),
    ("belote 60 carré de rois eux quinte à la dame", ((160, 102), 0, "made")),
    ("belote 60 annonce 100 eux 102 annonce 50", ((160, 102), 0, "made")),
    # Bulgarian and English.
    ("бела ние 92 кварта белот", ((162, 70), 0, "passed")),
    ("бела вие избраха 70 ние 92", ((162, 0), 0, "fell")),
    ("bela we 92 quarte belote", ((162, 70), 0, "passed")),
    ("french we took 92 four jacks you quarte", ((292, 70), 0, "made")),
    ("bela you called capot", ((0, 252), 0, "passed")),
])  # fmt: skip
def test_lines_in_the_players_words(line: str, expected: tuple[tuple[int, int], int, str]) -> None:
    assert written(line) == expected


def test_what_a_line_means_as_a_request() -> None:
    request, claims, lang = parse_family_text("bela vi zvali 70 mi terca:K jače visi 8", lang="fr")
    assert lang == "hr" and claims == []
    assert request == {"variant": "bela", "declarer": "B", "valat": None, "points": {"B": 70},
                       "declarations": {"A": ["tierce:K"], "B": []}, "declarations_winner": "A", "hanging_in": 8,
                       "rules": {}}
    request, claims, lang = parse_family_text("belote pris 65 belote dedans")
    assert (request["variant"], request["points"], request["declarations"]) == ("french", {"A": 65},
                                                                                 {"A": ["belote"], "B": []})
    assert claims == [("dedans", True)] and lang == "fr"


def test_answers_in_the_chats_language_with_the_steps() -> None:
    answer = score_text("bela mi 92 zvanje 50 bela", lang="hr")
    text = answer.render("hr")
    assert text.splitlines()[0] == "Bela: Mi 162 : Vi 70 (prošli)"
    assert "Zvali su Mi." in text and "Mi: 92 + 50 + bela 20 = 162; Vi: 70." in text
    french = score_text("belote pris 65 belote", lang="fr").render("fr")
    assert french.splitlines()[0] == "Belote\u00a0: Nous 20\u00a0: Vous 162 (dedans)"
    assert "Les preneurs gardent leur belote, 20." in french
    assert score_text("bela mi 70", lang="bg").summary("bg") == "Бела: Ние — : Вие 162 (играчите падат)"


def test_a_tie_of_declarations_asks_for_top_cards_or_the_stronger_side_in_the_lines_words() -> None:
    assert problems("bela mi 100 terca:J vi terca do dečka", "hr") == [
        "declarations: iz riječi se ne može odlučiti čije je zvanje jače; napišite najviše karte (terca:K) ili "
        "'jače' iza strane čije je zvanje pobijedilo, npr. 'vi jače'"]
    assert written("bela mi 100 terca:J vi terca do dečka vi jače") == ((100, 82), 0, "passed")
    fr = problems("belote nous 82 tierce au valet eux tierce au valet", "en")
    assert "'meilleure'" in fr[0] and "tierce:K" in fr[0]
    assert written("belote nous 82 tierce au valet eux tierce au valet meilleure") == ((0, 182), 0, "failed")


def test_errors_suggest_words_of_the_same_language() -> None:
    assert problems("bela mi 90 zvanj 50", "en") == ["text: 'zvanj' is not understood; did you mean 'zvanje'?"]
    assert problems("belote nous 90 anonce 50", "en") == [
        "text: 'anonce' is not understood; did you mean 'annonce'?"]
    assert problems("bela mi 90 stiglya", "hr") == ["text: 'stiglya' nije razumljivo; jeste li mislili 'stiglja'?"]
    assert problems("belote xyz 92", "fr") == [
        "text: «\u00a0xyz\u00a0» n'est pas compris\u202f; une ligne se lit ainsi\u00a0: belote pris 65 belote"]
    assert problems("bela mi 92 pad", "hr") == ["text: 'pad' ne odgovara bodovima: 92 prema 70, dakle prošli"]
    assert problems("bela 92 mi") == ["text: 'mi' at the end names nothing: a team word comes before what it names"]
    assert problems("bela bk 92") == [
        "contract: 'bk': bela is played with a trump suit, not in no trumps or all trumps"]
    assert problems("bela mi", "en") == [
        "text: 'mi' at the end names nothing: a team word comes before what it names"]
    assert problems("belote pris", "fr") == [
        "points: manquants\u202f; écrivez les points des preneurs (dix de der compris), p. ex. "
        "«\u00a0belote pris 65 belote\u00a0»"]
    assert problems("bela mi 100 vi 50") == [
        "points: the sides' points must add up to 162 (cards and the last trick), but 100 + 50 = 150"]
    assert problems("bela 90 80 70") == [
        "points: 3 numbers for points (90, 80, 70); give one or two: the callers' points first, e.g. "
        "'bela we 92 quarte belote'"]
    assert problems("bela mi 90 četiri", "hr") == [
        "declarations: iza 'četiri' mora doći rang četiriju karata, npr. 'četiri dečka'"]
    assert problems("bela mi 90 tie=litige") == ['rules.tie: must be one of "pad", "visi", not "litige"']


def test_a_bulgarian_line_is_read_as_before() -> None:
    answer = score_text("купа 102 60 белот ние")
    assert not isinstance(answer, FamilyAnswer) and answer.result.score == (12, 6)


# Words of every language's vocabulary, numbers that are points or declarations, and a few that are neither.
_FAMILY_TEXT = (
    "mi vi nous vous eux ние вие we you A B zvali pris called took herc cœur купа hearts zvanje annonce declaration "
    "20 50 92 100 150 162 70 81 terca kvarta sto kare dečki četiri tierce cinquante carré de valets quatre terca:K "
    "quint:A bela belote rebelote štiglja capot visi litige pad dedans prošli fait jače meilleure do au kralja roi "
    "tie=visi tie=litige rounding=10 Ana Ivo xyz"
)
_FAMILY_WORDS = _FAMILY_TEXT.split()
FAMILY_FIELDS = {"variant", "contract", "points", "points.A", "points.B", "declarer", "valat", "declarations",
                 "declarations_winner", "hanging_in", "teams", "text"}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["bela", "belote"]), st.lists(st.sampled_from(_FAMILY_WORDS), max_size=9))
def test_any_family_line_gets_an_answer_or_errors_that_name_known_fields(game: str, words: list[str]) -> None:
    try:
        answer = score_text(" ".join([game, *words]), teams=("Ana", "Ivo"), lang="hr")
    except CalculatorError as err:
        assert err.problems
        for field in err.fields:
            assert field in FAMILY_FIELDS or field.startswith(("declarations.", "rules.")), field
        for lang in ("bg", "en", "hr", "fr"):
            assert all("{" not in line for line in err.render(lang))
    else:
        assert isinstance(answer, FamilyAnswer)
        r = answer.result
        assert min(r.score) >= 0 and r.hanging >= 0
        assert all(answer.render(lang) for lang in ("bg", "en", "hr", "fr"))


HOSTILE = st.one_of(
    st.integers(7, 6000).map(lambda n: "7" * n),
    st.sampled_from(["\ud800", "bela\udcff", "\udfff92"]),
    st.integers(65, 20000).map(lambda n: "tie=" + "[" * n),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_FAMILY_WORDS), max_size=6), HOSTILE, st.integers(0, 6))
def test_hostile_words_in_a_family_line_get_located_errors(words: list[str], hostile: str, at: int) -> None:
    words.insert(min(at, len(words)), hostile)
    with pytest.raises(CalculatorError) as caught:
        score_text(" ".join(["bela", *words]))
    for field in caught.value.fields:
        assert field in FAMILY_FIELDS or field.startswith(("declarations.", "rules.")), field
    assert all(line.encode("utf-8") for line in caught.value.render("fr"))


@pytest.mark.parametrize("line", ["bela tie=" + "[" * 65 + " visi mi 20", "bela tie=litige visi mi 20",
                                  "bela visi tie=visi mi 20"])  # fmt: skip
def test_the_tie_rule_given_both_as_an_option_and_as_its_word_is_refused(line: str) -> None:
    # "visi" used to replace a tie= option written before it without a word, whatever that option held
    with pytest.raises(CalculatorError) as caught:
        score_text(line)
    assert caught.value.fields == ["rules.tie"]
    assert "given twice" in caught.value.render("en")[0]
