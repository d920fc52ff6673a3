"""The score request of the Bela and French games (formats §7.5): the examples of the format, deals written by hand
from family.md §12.1 and §12.5, and requests that are wrong, each answered with the field and what is right."""

from __future__ import annotations

from typing import Any

import pytest

from bot.calculator import CalculatorError, score
from bot.calculator.family_score import FamilyAnswer


def scored(request: dict[str, Any]) -> dict[str, Any]:
    answer = score(request)
    assert isinstance(answer, FamilyAnswer)
    return answer.to_json("en")


def errors(request: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(CalculatorError) as err:
        score(request)
    return {p.field: p.message.render("en") for p in err.value.problems}


def test_the_bela_example_of_the_format() -> None:
    request = {"variant": "bela", "declarer": "A", "points": {"A": 92}, "valat": None,
               "declarations": {"A": ["carre:J", "belote"], "B": ["quarte"]}, "hanging_in": 0, "rules": {}}
    answer = scored(request)
    assert {k: answer[k] for k in ("raw", "score", "hanging", "outcome", "fell")} == {
        "raw": {"A": 312, "B": 70}, "score": {"A": 312, "B": 70}, "hanging": 0, "outcome": "passed", "fell": False}
    steps = answer["explanation"]
    assert "You took 162 − 92 = 70." in steps
    assert "carré of jacks (We) beat quarte (You)" in steps[2]
    assert "We: 92 + 200 + bela 20 = 312; You: 70." in steps


def test_the_french_example_of_the_format() -> None:
    request = {"variant": "french", "declarer": "A", "points": {"A": 65}, "valat": None,
               "declarations": {"A": ["belote"], "B": []}, "hanging_in": 0, "rules": {}}
    answer = scored(request)
    assert {k: answer[k] for k in ("raw", "score", "hanging", "outcome", "fell")} == {
        "raw": {"A": 85, "B": 97}, "score": {"A": 20, "B": 162}, "hanging": 0, "outcome": "failed", "fell": True}
    assert "The takers keep their belote, 20." in answer["explanation"]


# (id, request without "variant", written A/B, held after, outcome)
BELA = [
    ("B4-01 pass", {"points": {"A": 92}}, (92, 70), 0, "passed"),
    ("B4-02 fall", {"points": {"A": 70, "B": 92}}, (0, 162), 0, "fell"),
    ("B4-03 tie falls", {"points": {"B": 81}}, (0, 162), 0, "fell"),
    ("B4-03 visi", {"points": {"A": 81}, "rules": {"tie": "visi"}}, (0, 81), 81, "visi"),
    ("B4-04", {"points": {"A": 100}, "declarations": {"A": ["tierce:K", "belote"], "B": ["tierce:Q"]}},
     (140, 62), 0, "passed"),
    ("B4-05 bela yet a fall", {"points": {"A": 85}, "declarations": {"A": ["tierce", "belote"], "B": ["quarte"]}},
     (0, 232), 0, "fell"),
    ("B4-05 bela_always_counts", {"points": {"A": 85}, "declarations": {"A": ["tierce", "belote"], "B": ["quarte"]},
                                  "rules": {"bela_always_counts": True}}, (20, 212), 0, "fell"),
    ("B4-06 stiglja", {"valat": "A"}, (252, 0), 0, "passed"),
    ("B4-07 swept", {"valat": "B", "declarations": {"A": ["carre:9"]}}, (0, 252), 0, "fell"),
    ("B4-07 transfer", {"valat": "B", "declarations": {"A": ["carre:9"]},
                        "rules": {"swept_declarations": "transfer"}}, (0, 402), 0, "fell"),
    ("B4-08 seat order", {"declarer": "B", "points": {"A": 82}, "declarations": {"A": ["tierce:J"],
                          "B": ["tierce:J"]}, "declarations_winner": "A"}, (182, 0), 0, "fell"),
    ("B4-08 trump first", {"declarer": "B", "points": {"A": 82}, "declarations": {"A": ["tierce:J"],
                           "B": ["tierce:J"]}, "declarations_winner": "B",
                           "rules": {"equal_declaration_priority": "trump_first"}}, (82, 100), 0, "passed"),
    ("B4-09 partner", {"points": {"A": 70}, "declarations": {"A": ["carre:J", "tierce"], "B": ["quint"]}},
     (290, 92), 0, "passed"),
    ("B4-10 held collected", {"declarer": "B", "points": {"B": 70}, "hanging_in": 81, "rules": {"tie": "visi"}},
     (243, 0), 0, "fell"),
    ("B4-11 mus stiglja", {"declarer": "B", "valat": "B", "declarations": {"A": ["carre:A"],
                           "B": ["carre:J", "belote"]}}, (0, 472), 0, "passed"),
    ("B4-13", {"points": {"A": 80}, "declarations": {"A": ["tierce"]}}, (100, 82), 0, "passed"),
    ("stiglja 100", {"valat": "A", "declarations": {"A": ["belote"]}, "rules": {"stiglja_value": 100}},
     (282, 0), 0, "passed"),
    ("visi stays held", {"points": {"A": 81}, "hanging_in": 81, "rules": {"tie": "visi"}}, (0, 81), 162, "visi"),
]
FRENCH = [
    ("FR-01 made", {"points": {"A": 92}}, (92, 70), 0, "made"),
    ("FR-01 rounding", {"points": {"A": 92}, "rules": {"rounding": 10}}, (90, 70), 0, "made"),
    ("FR-02 dedans", {"points": {"A": 70}}, (0, 162), 0, "failed"),
    ("FR-03", {"points": {"A": 60}, "declarations": {"A": ["tierce"]}}, (0, 182), 0, "failed"),
    ("FR-04 belote kept", {"points": {"A": 65}, "declarations": {"A": ["belote"]}}, (20, 162), 0, "failed"),
    ("FR-05 share", {"points": {"A": 71}, "declarations": {"A": ["tierce"]}}, (91, 91), 0, "made"),
    ("FR-05 litige", {"points": {"A": 71}, "declarations": {"A": ["tierce"]}, "rules": {"tie": "litige"}},
     (0, 91), 91, "litige"),
    ("FR-05 fail", {"points": {"A": 71}, "declarations": {"A": ["tierce"]}, "rules": {"tie": "fail"}},
     (0, 182), 0, "failed"),
    ("litige collected", {"points": {"A": 92}, "hanging_in": 91, "rules": {"tie": "litige"}}, (183, 70), 0,
     "made"),
    ("FR-06 capot", {"valat": "A", "declarations": {"A": ["carre:J", "belote"], "B": ["quarte"]}}, (472, 0), 0,
     "made"),
    ("FR-06 capot 100", {"valat": "A", "declarations": {"A": ["carre:J", "belote"], "B": ["quarte"]},
                         "rules": {"capot_bonus": 100}}, (482, 0), 0, "made"),
    ("FR-06 capot 88", {"valat": "A", "declarations": {"A": ["carre:J", "belote"]}, "rules": {"capot_bonus": 88}},
     (470, 0), 0, "made"),
    ("FR-07 takers capot", {"valat": "B", "declarations": {"A": ["quarte", "belote"]}}, (20, 302), 0, "failed"),
    ("FR-08 trump sequence", {"points": {"A": 82}, "declarations": {"A": ["tierce:J"], "B": ["tierce:J"]},
                              "declarations_winner": "B"}, (0, 182), 0, "failed"),
    ("FR-09 carre beats a run", {"points": {"A": 60}, "declarations": {"A": ["carre:K"], "B": ["quint:Q"]}},
     (160, 102), 0, "made"),
]


@pytest.mark.parametrize("vector", BELA, ids=[v[0] for v in BELA])
def test_bela_vectors(vector: tuple[Any, ...]) -> None:
    _, request, written, held, outcome = vector
    answer = scored({"variant": "bela", **request})
    assert (answer["score"]["A"], answer["score"]["B"]) == written
    assert (answer["hanging"], answer["outcome"]) == (held, outcome)
    assert answer["fell"] == (outcome != "passed")
    assert answer["explanation"][-1].startswith("Written:")


@pytest.mark.parametrize("vector", FRENCH, ids=[v[0] for v in FRENCH])
def test_french_vectors(vector: tuple[Any, ...]) -> None:
    _, request, written, held, outcome = vector
    answer = scored({"variant": "french", **request})
    assert (answer["score"]["A"], answer["score"]["B"]) == written
    assert (answer["hanging"], answer["outcome"]) == (held, outcome)
    assert answer["fell"] == (outcome != "made")


def test_explanations_name_the_rules_that_decide() -> None:
    swept = score({"variant": "bela", "valat": "B", "declarations": {"A": ["carre:9"]}}).explanation("en")
    assert "Štiglja: every trick to You." in swept
    assert "We took no trick: its declarations and bela do not count." in swept
    assert "You: 162 + štiglja 90 = 252" in " ".join(swept)
    visi = score({"variant": "bela", "points": {"A": 81}, "rules": {"tie": "visi"}}).render("en")
    assert visi.splitlines()[0] == "Bela: We — : You 81 (the callers' points are held) 81 held"
    capot = score({"variant": "french", "valat": "A", "declarations": {"A": ["carre:J"], "B": ["quarte"]}})
    assert "You: taken capot, so its declarations are lost; its belote stays." not in capot.explanation("en")
    lost = score({"variant": "french", "valat": "A", "declarations": {"B": ["quarte"]}}).explanation("en")
    assert "You: taken capot, so its declarations are lost; its belote stays." in lost


def test_the_answer_is_in_the_askers_language() -> None:
    answer = score({"variant": "bela", "points": {"A": 70}, "declarations": {"A": ["belote"]}})
    assert answer.summary("hr") == "Bela: Mi — : Vi 182 (pali)"
    french = score({"variant": "french", "points": {"A": 70}})
    assert french.summary("fr").startswith("Belote\u00a0: Nous 0\u00a0: Vous 162 (dedans)")


def test_declarations_winner_is_needed_only_when_the_strings_cannot_rank() -> None:
    # Two quints: under Bela's default the longer run wins, and a string does not carry the length.
    two_quints = {"variant": "bela", "points": {"A": 100}, "declarations": {"A": ["quint:A"], "B": ["quint:K"]}}
    problems = errors(two_quints)
    assert list(problems) == ["declarations_winner"]
    assert "cannot rank quint to the ace of A against quint to the king of B" in problems["declarations_winner"]
    assert scored({**two_quints, "declarations_winner": "B"})["score"] == {"A": 0, "B": 262}
    # Under sequence_tiebreak "top_card" (and in French) the ace-high quint wins by itself.
    assert scored({**two_quints, "rules": {"sequence_tiebreak": "top_card"}})["score"] == {"A": 200, "B": 62}
    assert scored({**two_quints, "variant": "french"})["score"] == {"A": 200, "B": 62}
    # A missing top card that could go either way asks for the top cards or the winner.
    tops = errors({"variant": "french", "points": {"A": 90}, "declarations": {"A": ["tierce"], "B": ["tierce:Q"]}})
    assert "give the top cards (tierce:K)" in tops["declarations_winner"]
    # A kvarta beats any terca whatever their cards: no winner needed.
    assert scored({"variant": "bela", "points": {"A": 90}, "declarations": {"A": ["quarte"], "B": ["tierce"]}})


def test_a_declarations_winner_that_contradicts_the_strings_is_an_error() -> None:
    problems = errors({"variant": "bela", "points": {"A": 92}, "declarations": {"A": ["carre:J"], "B": ["quarte"]},
                       "declarations_winner": "B"})
    assert problems == {"declarations_winner": '"B" contradicts the declarations: carré of jacks of A beats every '
                        "declaration of B"}
    alone = errors({"variant": "french", "points": {"A": 92}, "declarations": {"A": ["tierce"]},
                    "declarations_winner": "B"})
    assert alone == {"declarations_winner": '"B" announced no declaration; only A did'}
    nobody = errors({"variant": "french", "points": {"A": 92}, "declarations": {"A": ["belote"]},
                     "declarations_winner": "A"})
    assert "nobody announced a declaration" in nobody["declarations_winner"]


def test_unsupported_and_unknown_variants_name_the_supported_ones() -> None:
    # Every game of the family is scored now (the 3- and 2-player ones: tests/test_calculator_small.py).
    assert errors({"variant": "coinche", "points": {"A": 1}}) == {
        "variant": '"coinche" is not a game the calculator scores; use one of bulgarian, bela, french, bela-3, '
                   "bela-2, bela-open, bulgarian-3, bulgarian-2"}
    # "bulgarian" is the request of formats §5.
    assert score({"variant": "bulgarian", "contract": "hearts", "points": {"A": 102}}).result.score == (10, 6)


def test_every_wrong_field_is_named_with_what_is_right() -> None:
    problems = errors({"variant": "bela", "multiplier": 2, "contract": "no-trumps", "points": {"A": 100, "B": 50},
                       "declarations": {"A": ["belote"], "B": ["belote", "carre:8"]},
                       "rules": {"contra_tie": "split", "tie": "litige"}})
    assert problems["multiplier"].startswith("not a field of a bela request; the fields are: variant, declarer")
    assert problems["contract"].startswith('"no-trumps" is not a trump suit; bela is played in clubs')
    assert problems["points"] == "the sides' points must add up to 162 (cards and the last trick), but 100 + 50 = 150"
    assert "four 7s or four 8s are not a declaration" in problems["declarations.B[1]"]
    assert problems["rules.contra_tie"].startswith("not a table option of bela; its options are: target_score")
    assert problems["rules.tie"] == 'must be one of "pad", "visi", not "litige"'
    belas = errors({"variant": "bela", "points": {"A": 100}, "declarations": {"A": ["belote"], "B": ["belote"]}})
    assert belas == {"declarations": "a deal has one belote at most (the king and queen of trumps), not 2"}
    quiet = errors({"variant": "french", "points": {"A": 100}, "declarations": {"A": ["tierce"]},
                    "rules": {"no_declarations": True}})
    assert "no_declarations is on" in quiet["declarations.A[0]"]
    valat = errors({"variant": "french", "valat": "A", "points": {"B": 10}})
    assert valat["valat"].startswith("every trick to A leaves the other side no points")
    assert "missing" in errors({"variant": "bela"})["points"]
