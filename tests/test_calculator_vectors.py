"""The deal vectors of the rules spec §13, through the JSON request and the text line, in Bulgarian and English.

§13 gives card points WITHOUT the last ten and says who took it; a request's points include it, so each vector is
turned into a request here. Expected numbers are the spec's; the text lines are built from the same data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.calculator import score, score_text


@dataclass(frozen=True)
class Vector:
    name: str
    contract: str
    cards: tuple[int, int]  # without the last ten
    last: str  # who took the last trick
    expected: tuple[int, int, int]  # A, B, hanging out
    raw: tuple[int, int]
    outcome: str
    multiplier: int = 1
    declarations: dict[str, list[str]] = field(default_factory=dict)
    valat: str | None = None
    hanging_in: int = 0
    rules: dict[str, Any] = field(default_factory=dict)

    def request(self) -> dict[str, Any]:
        points = {
            "A": self.cards[0] + (10 if self.last == "A" else 0),
            "B": self.cards[1] + (10 if self.last == "B" else 0),
        }
        return {
            "contract": self.contract,
            "multiplier": self.multiplier,
            "declarer": "A",
            "points": points,
            "valat": self.valat,
            "declarations": self.declarations,
            "hanging_in": self.hanging_in,
            "rules": self.rules,
        }


V = Vector
VECTORS = [
    V("T01", "hearts", (92, 60), "A", (10, 6, 0), (102, 60), "made"),
    V("T02", "spades", (76, 76), "A", (8, 8, 0), (86, 76), "made"),
    V("T03", "diamonds", (96, 56), "A", (10, 6, 0), (106, 56), "made"),
    V("T05", "hearts", (95, 57), "A", (10, 6, 0), (105, 57), "made"),
    V("T06", "hearts", (60, 92), "A", (0, 16, 0), (70, 92), "inside"),
    V("T07", "spades", (72, 80), "A", (10, 10, 0), (102, 100), "made",
      declarations={"A": ["belote"], "B": ["tierce"]}),
    V("T08", "clubs", (71, 81), "A", (0, 8, 8), (81, 81), "hanging"),
    V("T09", "diamonds", (100, 52), "A", (19, 5, 0), (110, 52), "made", hanging_in=8),
    V("T10", "hearts", (46, 106), "A", (0, 10, 11), (106, 106), "hanging", declarations={"A": ["quarte"]}),
    V("T14", "all-trumps", (214, 34), "A", (22, 4, 0), (224, 34), "made"),
    V("T16", "all-trumps", (94, 154), "A", (0, 15, 16), (154, 154), "hanging", declarations={"A": ["quarte"]}),
    V("T17", "all-trumps", (165, 83), "A", (18, 8, 0), (175, 83), "made"),
    V("T19", "all-trumps", (120, 128), "B", (0, 26, 0), (120, 138), "inside"),
    V("T21", "no-trumps", (70, 50), "A", (16, 10, 0), (160, 100), "made"),
    V("T22", "no-trumps", (67, 53), "A", (15, 11, 0), (154, 106), "made"),
    V("T24", "no-trumps", (55, 65), "A", (0, 13, 13), (130, 130), "hanging"),
    V("T25", "spades", (82, 70), "A", (32, 0, 0), (92, 70), "made", multiplier=2),
    V("T27", "all-trumps", (130, 118), "A", (104, 0, 0), (140, 118), "made", multiplier=4),
    V("T28", "clubs", (71, 81), "A", (0, 0, 32), (81, 81), "hanging", multiplier=2),
    V("T28-split", "clubs", (71, 81), "A", (0, 16, 16), (81, 81), "hanging", multiplier=2,
      rules={"contra_tie": "split"}),
    V("T32", "clubs", (152, 0), "A", (25, 0, 0), (252, 0), "made", valat="A"),
    V("T34", "no-trumps", (120, 0), "A", (35, 0, 0), (350, 0), "made", valat="A"),
    V("T34-doubled", "no-trumps", (120, 0), "A", (44, 0, 0), (440, 0), "made", valat="A",
      rules={"nt_valat_doubled": True}),
    V("T38", "spades", (90, 62), "A", (10, 8, 0), (100, 82), "made",
      declarations={"A": ["tierce:K"], "B": ["tierce:A"]}),
    V("T39", "hearts", (97, 55), "A", (11, 5, 0), (107, 55), "made",
      declarations={"A": ["tierce:Q"], "B": ["tierce:Q"]}),
    V("T41", "all-trumps", (170, 78), "A", (28, 23, 0), (280, 228), "made",
      declarations={"A": ["quint:A"], "B": ["carre:9"]}),
    *[
        V(f"T41-{mode}", "all-trumps", (170, 78), "A", (0, 41, 0), (180, 228), "inside",
          declarations={"A": ["quint:A"], "B": ["carre:9"]}, rules={"declaration_comparison": mode})
        for mode in ("single_contest", "carre_beats_sequence", "carre_kills_quint")
    ],
    V("T44", "all-trumps", (130, 118), "A", (18, 14, 0), (180, 138), "made",
      declarations={"A": ["belote", "belote"], "B": ["belote"]}),
    V("T46", "hearts", (60, 92), "B", (0, 18, 0), (80, 102), "inside", declarations={"A": ["belote"]}),
    V("T46-keeps", "hearts", (60, 92), "B", (2, 16, 0), (80, 102), "inside", declarations={"A": ["belote"]},
      rules={"inside_keeps_belote": True}),
]  # fmt: skip

# --- the same deals as text lines ---

CONTRACT_WORDS = {
    "bg": {"clubs": "спатия", "diamonds": "каро", "hearts": "купа", "spades": "пика", "no-trumps": "без коз",
           "all-trumps": "всичко коз"},
    "en": {"clubs": "clubs", "diamonds": "♦", "hearts": "hearts", "spades": "♠", "no-trumps": "nt",
           "all-trumps": "all trumps"},
}  # fmt: skip
KIND_WORDS = {
    "bg": {"belote": "белот", "tierce": "терца", "quarte": "кварта", "quint": "квинта", "carre": "каре"},
    "en": {"belote": "belote", "tierce": "tierce", "quarte": "quarte", "quint": "quint", "carre": "carre"},
}
BG_RANKS = {"9": "9", "T": "10", "J": "вале", "Q": "дама", "K": "поп", "A": "асо"}
TEAM_WORDS = {"bg": {"A": "ние", "B": "вие"}, "en": {"A": "A", "B": "B"}}


def text_line(v: Vector, lang: str) -> str:
    req = v.request()
    teams = TEAM_WORDS[lang]
    words = [CONTRACT_WORDS[lang][v.contract]]
    if v.valat:
        words += ["капо" if lang == "bg" else "capot", teams[v.valat]]
    else:
        # The declarers' points first (A declares in every vector), then the defenders'.
        words += [str(req["points"]["A"]), str(req["points"]["B"])]
    if v.multiplier > 1:
        words.append({("bg", 2): "контра", ("bg", 4): "реконтра", ("en", 2): "x2", ("en", 4): "recontra"}[
            (lang, v.multiplier)])
    for team, items in v.declarations.items():
        decl = []
        for item in items:
            kind, _, rank = item.partition(":")
            word = KIND_WORDS[lang][kind]
            if rank and lang == "bg":
                # Bulgarian players say the top card: "терца до поп", "каре 9".
                word += f" {BG_RANKS[rank]}" if kind == "carre" else f" до {BG_RANKS[rank]}"
            elif rank:
                word += f":{rank}"
            decl.append(word)
        if lang == "bg":
            words += [*decl, teams[team]]  # the team after its declarations
        else:
            words += [teams[team], *decl]  # the team before them
    if v.hanging_in:
        words += ["висящи" if lang == "bg" else "hanging", str(v.hanging_in)]
    if lang == "en":
        words += [f"{k}={str(val).lower() if isinstance(val, bool) else val}" for k, val in v.rules.items()]
    return " ".join(words)


def check(answer: dict[str, Any], v: Vector) -> None:
    assert (answer["score"]["A"], answer["score"]["B"], answer["hanging"]) == v.expected
    assert (answer["raw"]["A"], answer["raw"]["B"]) == v.raw
    assert answer["outcome"] == v.outcome


CYRILLIC = re.compile("[а-яА-Я]")


@pytest.mark.parametrize("lang", ["bg", "en"])
@pytest.mark.parametrize("v", VECTORS, ids=[v.name for v in VECTORS])
def test_spec_vector_as_json_request(v: Vector, lang: str) -> None:
    answer = score(v.request()).to_json(lang)
    check(answer, v)
    assert set(answer) == {"raw", "score", "hanging", "outcome", "explanation", "teams"}
    assert answer["explanation"] and all(isinstance(s, str) and "{" not in s for s in answer["explanation"])
    text = " ".join(answer["explanation"])
    assert bool(CYRILLIC.search(text)) == (lang == "bg")
    # The last step says what is written, with the numbers of the answer.
    assert str(v.expected[0]) in answer["explanation"][-1] and str(v.expected[1]) in answer["explanation"][-1]


@pytest.mark.parametrize("lang", ["bg", "en"])
@pytest.mark.parametrize("v", VECTORS, ids=[v.name for v in VECTORS])
def test_spec_vector_as_text_line(v: Vector, lang: str) -> None:
    line = text_line(v, lang)
    rules = v.rules if lang == "bg" else None  # English lines carry their options as key=value words
    answer = score_text(line, rules=rules).to_json(lang)
    check(answer, v)


def test_text_and_json_give_the_same_explanation() -> None:
    v = next(v for v in VECTORS if v.name == "T38")
    for lang in ("bg", "en"):
        assert score_text(text_line(v, lang)).explanation(lang) == score(v.request()).explanation(lang)


def test_text_lines_look_like_what_players_type() -> None:
    t38 = next(v for v in VECTORS if v.name == "T38")
    assert text_line(t38, "bg") == "пика 100 62 терца до поп ние терца до асо вие"
    assert text_line(t38, "en") == "♠ 100 62 A tierce:K B tierce:A"
