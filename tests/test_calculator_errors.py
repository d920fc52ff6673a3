"""Invalid score requests: each error names the field that is wrong and says what would be valid, in bg and en."""

from __future__ import annotations

from typing import Any

import pytest

from bot.calculator import CalculatorError, score, score_text

BASE: dict[str, Any] = {"contract": "hearts", "points": {"A": 102, "B": 60}}


def with_(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


# (case, request, the field named, a word the English message must contain)
JSON_CASES: list[tuple[str, object, str, str]] = [
    ("points_do_not_add_up", with_(points={"A": 100, "B": 60}), "points", "162"),
    ("points_do_not_add_up_all_trumps", with_(contract="all-trumps", points={"A": 100, "B": 60}), "points", "258"),
    ("point_out_of_range", with_(points={"A": 170}), "points.A", "0 to 162"),
    ("point_not_a_number", with_(points={"A": "102"}), "points.A", "whole number"),
    ("unknown_contract", with_(contract="trumps"), "contract", "no-trumps"),
    ("missing_contract", {"points": {"A": 102}}, "contract", "hearts"),
    ("missing_points", {"contract": "hearts"}, "points", "last ten"),
    ("unknown_declaration", with_(declarations={"A": ["fifty-two"]}), "declarations.A[0]", "tierce:K"),
    ("declaration_of_unknown_team", with_(declarations={"C": ["belote"]}), "declarations.C", '"A" and "B"'),
    ("valat_with_points_for_the_other_side", with_(valat="A", points={"A": 150, "B": 12}), "valat", "0"),
    ("tierce_in_no_trumps", with_(contract="no-trumps", points={"A": 80}, declarations={"B": ["tierce"]}),
     "declarations.B[0]", "no trumps"),
    ("belote_in_no_trumps", with_(contract="no-trumps", points={"A": 80}, declarations={"A": ["belote"]}),
     "declarations.A[0]", "no trumps"),
    ("carre_of_jacks_in_no_trumps_even_with_aces_allowed",
     with_(contract="no-trumps", points={"A": 80}, declarations={"A": ["carre:J"]}, rules={"nt_aces_carre": True}),
     "declarations.A[0]", "carre:A"),
    ("carre_of_eights", with_(declarations={"B": ["carre:8"]}), "declarations.B[0]", "four 7s or four 8s"),
    ("carre_without_rank", with_(declarations={"B": ["carre"]}), "declarations.B[0]", "carre:J"),
    ("tierce_cannot_end_at_eight", with_(declarations={"A": ["tierce:8"]}), "declarations.A[0]", "9, T, J"),
    ("two_belotes_in_a_suit_contract", with_(declarations={"A": ["belote"], "B": ["belote"]}), "declarations",
     "one belote"),
    ("the_same_carre_twice", with_(declarations={"A": ["carre:J"], "B": ["carre:J"]}), "declarations",
     "one carré of each rank"),
    ("top_card_needed_for_two_tierces", with_(declarations={"A": ["tierce"], "B": ["tierce:K"]}), "declarations",
     "top card"),
    ("top_card_needed_for_two_quints", with_(declarations={"A": ["quint"], "B": ["quint"]}), "declarations",
     "quint"),
    ("unknown_table_option", with_(rules={"last_ten": 20}), "rules.last_ten", "contra_tie"),
    ("ill_typed_table_option", with_(rules={"contra_tie": True}), "rules.contra_tie", '"split"'),
    ("table_option_not_a_bool", with_(rules={"nt_valat_doubled": "yes"}), "rules.nt_valat_doubled", "true"),
    ("target_below_one", with_(rules={"target_score": 0}), "rules.target_score", "≥ 1"),
    ("rules_not_an_object", with_(rules=["split"]), "rules", "contra_tie"),
    ("multiplier_three", with_(multiplier=3), "multiplier", "recontra"),
    ("declarer_unknown", with_(declarer="C"), "declarer", '"A" or "B"'),
    ("hanging_negative", with_(hanging_in=-2), "hanging_in", "≥ 0"),
    ("unknown_field", with_(last_ten="A"), "last_ten", "hanging_in"),
    ("not_an_object", ["hearts", 102, 60], "request", "contract"),
]


@pytest.mark.parametrize("lang", ["bg", "en"])
@pytest.mark.parametrize(
    ("request_data", "field", "word"),
    [c[1:] for c in JSON_CASES],
    ids=[c[0] for c in JSON_CASES],
)
def test_invalid_json_request_names_the_field(request_data: object, field: str, word: str, lang: str) -> None:
    with pytest.raises(CalculatorError) as caught:
        score(request_data)
    err = caught.value
    assert field in err.fields, err.render("en")
    rendered = err.render(lang)
    line = rendered[err.fields.index(field)]
    assert line.startswith(f"{field}: ")
    assert "{" not in line.replace('{"', "")  # every placeholder was filled
    english = err.render("en")[err.fields.index(field)]
    assert word in english
    if lang == "bg":
        assert line != english, "the message has no Bulgarian translation"


def test_every_problem_is_reported_not_just_the_first() -> None:
    with pytest.raises(CalculatorError) as caught:
        score({"contract": "hearts", "points": {"A": 100, "B": 60}, "multiplier": 3, "rules": {"x": 1}})
    assert set(caught.value.fields) == {"points", "multiplier", "rules.x"}


def test_top_card_error_names_only_the_sequences_that_decide() -> None:
    # The quartes decide the sequence contest; the tierces' top cards never change it.
    with pytest.raises(CalculatorError) as caught:
        score(with_(declarations={"A": ["tierce", "quarte"], "B": ["tierce", "quarte:K"]}, points={"A": 100}))
    assert caught.value.fields == ["declarations"]
    message = caught.value.render("en")[0]
    assert "We: quarte" in message and "tierce" not in message.split("e.g.")[0]
    # With A's quarte to the ace the tierces' tops do not matter: no error, A counts all its sequences.
    answer = score(with_(declarations={"A": ["tierce", "quarte:A"], "B": ["tierce", "quarte:K"]}, points={"A": 100}))
    assert answer.result.declarations == (70, 0)


def test_one_team_alone_needs_no_top_card() -> None:
    answer = score(with_(declarations={"B": ["tierce", "quint"]}, points={"A": 100}))
    assert answer.result.declarations == (0, 120)


# --- the text form: the same fields ---

TEXT_CASES: list[tuple[str, str, str]] = [
    ("no_contract", "102 60 белот ние", "contract"),
    ("misspelt_contract", "кпа 102 60", "contract"),
    ("misspelt_declaration", "купа 102 60 тераца вие", "declarations"),
    ("declaration_without_team", "купа 102 60 терца", "declarations"),
    ("three_numbers", "купа 100 50 12", "points"),
    ("points_do_not_add_up", "купа 100 50", "points"),
    ("hanging_without_number", "купа 102 висящи", "hanging_in"),
    ("team_word_naming_nothing", "купа 102 ние вие", "teams"),
    ("two_contracts", "купа пика 102", "contract"),
    ("tierce_in_no_trumps", "без коз 80 терца вие", "declarations.B[0]"),
    ("valat_with_points_for_the_other_side", "пика 150 12 капо ние", "valat"),
    ("unknown_option", "купа 102 last_ten=20", "rules.last_ten"),
    ("ill_typed_option", "купа 102 contra_tie=maybe", "rules.contra_tie"),
    ("tierces_without_top_cards", "hearts 102 A tierce B tierce", "declarations"),
    ("contra_by_the_bidders", "купа ние 102 контра ние", "declarer"),
]


@pytest.mark.parametrize("lang", ["bg", "en"])
@pytest.mark.parametrize(("line", "field"), [c[1:] for c in TEXT_CASES], ids=[c[0] for c in TEXT_CASES])
def test_invalid_text_line_names_the_field(line: str, field: str, lang: str) -> None:
    with pytest.raises(CalculatorError) as caught:
        score_text(line)
    err = caught.value
    assert field in err.fields, err.render("en")
    rendered = err.render(lang)[err.fields.index(field)]
    assert rendered.startswith(f"{field}: ")
    if lang == "bg":
        assert rendered != err.render("en")[err.fields.index(field)]


def test_a_misspelt_word_gets_a_suggestion() -> None:
    with pytest.raises(CalculatorError) as caught:
        score_text("купа 102 60 тераца вие")
    assert "терца" in caught.value.render("bg")[0]
