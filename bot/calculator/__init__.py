"""Scoring real-life deals and keeping the match score sheet, on the engine's own scoring rules.

Typical use::

    from bot.calculator import score, score_text, ScoreSheet
    answer = score_text("купа 102 60 белот ние")          # or score({"contract": "hearts", ...}) (formats.md §5)
    answer.summary("bg"), answer.explanation("bg"), answer.to_json("en")
    sheet = ScoreSheet()
    sheet.add(answer)
"""

from .errors import CalculatorError, Msg, Problem
from .family_score import FamilyAnswer, score_family
from .request import DealRequest, parse_request
from .score import DealAnswer, score, score_request
from .sheet import ScoreSheet, SheetError, SheetLine
from .small_score import Answer, SmallAnswer, score_small
from .text import parse_text, score_text
from .vocabulary import Declared

__all__ = [
    "Answer",
    "CalculatorError",
    "DealAnswer",
    "DealRequest",
    "Declared",
    "FamilyAnswer",
    "Msg",
    "Problem",
    "ScoreSheet",
    "SheetError",
    "SheetLine",
    "SmallAnswer",
    "parse_request",
    "parse_text",
    "score",
    "score_family",
    "score_request",
    "score_small",
    "score_text",
]
