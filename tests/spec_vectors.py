"""The worked vectors of the rules spec (bulgarian-belote.md §13), as data.

Deal vectors: card points WITHOUT the last ten (they sum to 152/248/120), who took the last ten, the declarations each
team holds (as combination labels: ``tierce:KS`` = a tierce topped by the king of spades, ``carre:9``; ``belote`` for a
belote), the valat team, H-in; expected game points and H-out. ``rules`` holds table options for variant answers.
Team A declares unless ``declarer`` says otherwise.
"""

from __future__ import annotations

from typing import Any

DEAL_VECTORS: list[dict[str, Any]] = [
    # §13.1 suit contracts, no contra
    {"id": "T01", "contract": "hearts", "mult": 1, "cards": (92, 60), "last": "A", "expect": (10, 6), "hang": 0},
    {"id": "T02", "contract": "spades", "mult": 1, "cards": (76, 76), "last": "A", "expect": (8, 8), "hang": 0},
    {"id": "T03", "contract": "diamonds", "mult": 1, "cards": (96, 56), "last": "A", "expect": (10, 6), "hang": 0},
    {"id": "T05", "contract": "hearts", "mult": 1, "cards": (95, 57), "last": "A", "expect": (10, 6), "hang": 0},
    {"id": "T06", "contract": "hearts", "mult": 1, "cards": (60, 92), "last": "A", "expect": (0, 16), "hang": 0},
    {
        "id": "T07",
        "contract": "spades",
        "mult": 1,
        "cards": (72, 80),
        "last": "A",
        "decl": {"A": ["belote"], "B": ["tierce:JH"]},
        "expect": (10, 10),
        "hang": 0,
    },
    {"id": "T08", "contract": "clubs", "mult": 1, "cards": (71, 81), "last": "A", "expect": (0, 8), "hang": 8},
    {
        "id": "T09",
        "contract": "diamonds",
        "mult": 1,
        "cards": (100, 52),
        "last": "A",
        "hang_in": 8,
        "expect": (19, 5),
        "hang": 0,
    },
    {
        "id": "T10",
        "contract": "hearts",
        "mult": 1,
        "cards": (46, 106),
        "last": "A",
        "decl": {"A": ["quarte:AC"]},
        "expect": (0, 10),
        "hang": 11,
    },
    # §13.2 all trumps
    {"id": "T14", "contract": "all-trumps", "mult": 1, "cards": (214, 34), "last": "A", "expect": (22, 4), "hang": 0},
    {
        "id": "T16",
        "contract": "all-trumps",
        "mult": 1,
        "cards": (94, 154),
        "last": "A",
        "decl": {"A": ["quarte:AC"]},
        "expect": (0, 15),
        "hang": 16,
    },
    {"id": "T17", "contract": "all-trumps", "mult": 1, "cards": (165, 83), "last": "A", "expect": (18, 8), "hang": 0},
    {"id": "T19", "contract": "all-trumps", "mult": 1, "cards": (120, 128), "last": "B", "expect": (0, 26), "hang": 0},
    # §13.3 no trumps
    {"id": "T21", "contract": "no-trumps", "mult": 1, "cards": (70, 50), "last": "A", "expect": (16, 10), "hang": 0},
    {"id": "T22", "contract": "no-trumps", "mult": 1, "cards": (67, 53), "last": "A", "expect": (15, 11), "hang": 0},
    {"id": "T24", "contract": "no-trumps", "mult": 1, "cards": (55, 65), "last": "A", "expect": (0, 13), "hang": 13},
    # §13.4 contra / recontra
    {"id": "T25", "contract": "spades", "mult": 2, "cards": (82, 70), "last": "A", "expect": (32, 0), "hang": 0},
    {"id": "T27", "contract": "all-trumps", "mult": 4, "cards": (130, 118), "last": "A", "expect": (104, 0), "hang": 0},
    {"id": "T28", "contract": "clubs", "mult": 2, "cards": (71, 81), "last": "A", "expect": (0, 0), "hang": 32},
    {
        "id": "T28-split",
        "contract": "clubs",
        "mult": 2,
        "cards": (71, 81),
        "last": "A",
        "rules": {"contra_tie": "split"},
        "expect": (0, 16),
        "hang": 16,
    },
    # §13.5 valat
    {
        "id": "T32",
        "contract": "clubs",
        "mult": 1,
        "cards": (152, 0),
        "last": "A",
        "valat": "A",
        "expect": (25, 0),
        "hang": 0,
    },
    {
        "id": "T34",
        "contract": "no-trumps",
        "mult": 1,
        "cards": (120, 0),
        "last": "A",
        "valat": "A",
        "expect": (35, 0),
        "hang": 0,
    },
    {
        "id": "T34-doubled-bonus",
        "contract": "no-trumps",
        "mult": 1,
        "cards": (120, 0),
        "last": "A",
        "valat": "A",
        "rules": {"nt_valat_doubled": True},
        "expect": (44, 0),
        "hang": 0,
    },
    # §6.7 contra valat: 50 / 70 / 70 by default
    {
        "id": "6.7-contra-valat-suit",
        "contract": "hearts",
        "mult": 2,
        "cards": (152, 0),
        "last": "A",
        "valat": "A",
        "expect": (50, 0),
        "hang": 0,
    },
    {
        "id": "6.7-contra-valat-at",
        "contract": "all-trumps",
        "mult": 2,
        "cards": (248, 0),
        "last": "A",
        "valat": "A",
        "expect": (70, 0),
        "hang": 0,
    },
    {
        "id": "6.7-contra-valat-not-multiplied",
        "contract": "hearts",
        "mult": 2,
        "cards": (152, 0),
        "last": "A",
        "valat": "A",
        "rules": {"valat_multiplied": False},
        "expect": (25, 0),
        "hang": 0,
    },
    # §13.6 declarations
    {
        "id": "T38",
        "contract": "spades",
        "mult": 1,
        "cards": (90, 62),
        "last": "A",
        "decl": {"A": ["tierce:KD"], "B": ["tierce:AC"]},
        "expect": (10, 8),
        "hang": 0,
    },
    {
        "id": "T39",
        "contract": "hearts",
        "mult": 1,
        "cards": (97, 55),
        "last": "A",
        "decl": {"A": ["tierce:QC"], "B": ["tierce:QD"]},
        "expect": (11, 5),
        "hang": 0,
    },
    {
        "id": "T41",
        "contract": "all-trumps",
        "mult": 1,
        "cards": (170, 78),
        "last": "A",
        "decl": {"A": ["quint:AH"], "B": ["carre:9"]},
        "expect": (28, 23),
        "hang": 0,
    },
    *[
        {
            "id": f"T41-{mode}",
            "contract": "all-trumps",
            "mult": 1,
            "cards": (170, 78),
            "last": "A",
            "decl": {"A": ["quint:AH"], "B": ["carre:9"]},
            "rules": {"declaration_comparison": mode},
            "expect": (0, 41),
            "hang": 0,
        }
        for mode in ("carre_kills_quint", "single_contest", "carre_beats_sequence")
    ],
    {
        "id": "T44",
        "contract": "all-trumps",
        "mult": 1,
        "cards": (130, 118),
        "last": "A",
        "decl": {"A": ["belote", "belote"], "B": ["belote"]},
        "expect": (18, 14),
        "hang": 0,
    },
    {
        "id": "T46",
        "contract": "hearts",
        "mult": 1,
        "cards": (60, 92),
        "last": "B",
        "decl": {"A": ["belote"]},
        "expect": (0, 18),
        "hang": 0,
    },
    {
        "id": "T46-keeps-belote",
        "contract": "hearts",
        "mult": 1,
        "cards": (60, 92),
        "last": "B",
        "decl": {"A": ["belote"]},
        "rules": {"inside_keeps_belote": True},
        "expect": (2, 16),
        "hang": 0,
    },
]

# §7.6 rounding table: (contract, raw of the team with more, raw of the other, expected game points of each).
ROUNDING_TABLE: list[tuple[str, int, int, int, int]] = [
    ("hearts", 102, 60, 10, 6),
    ("hearts", 105, 57, 10, 6),
    ("hearts", 107, 55, 11, 5),
    ("hearts", 86, 76, 8, 8),
    ("hearts", 106, 56, 10, 6),
    ("hearts", 156, 6, 15, 1),
    ("hearts", 160, 2, 16, 0),
    ("hearts", 102, 100, 10, 10),
    ("hearts", 306, 6, 30, 1),
    ("all-trumps", 224, 34, 22, 4),
    ("all-trumps", 194, 164, 19, 17),
    ("all-trumps", 175, 83, 18, 8),
    ("all-trumps", 179, 79, 18, 8),
    ("all-trumps", 180, 138, 18, 14),
    ("no-trumps", 160, 100, 16, 10),
    ("no-trumps", 154, 106, 15, 11),
]

# §13.7 match ends: totals before, the deal's vector (its written points and whether it was a valat), and after.
MATCH_VECTORS: list[dict[str, Any]] = [
    {"id": "M1", "before": (145, 120), "deal": (10, 6), "valat": False, "winner": "A"},
    {"id": "M2", "before": (140, 148), "deal": (18, 8), "valat": False, "winner": "A"},
    {"id": "M3", "before": (141, 145), "deal": (15, 11), "valat": False, "winner": None},
    {"id": "M4-capot", "before": (130, 90), "deal": (25, 0), "valat": True, "winner": None},
    {"id": "M4-next", "before": (155, 90), "deal": (6, 10), "valat": False, "winner": "A"},
]

# §13.8 legal moves. Seats in play order P1 (leads), P2, P3, P4; "I" play next. Cards in formats notation.
LEGAL_VECTORS: list[dict[str, Any]] = [
    {"id": "L1", "contract": "hearts", "trick": ["TS"], "hand": ["7H", "AC"], "legal": ["7H"]},
    {"id": "L2", "contract": "hearts", "trick": ["AS", "7S"], "hand": ["7H", "AC"], "legal": ["7H", "AC"]},
    {"id": "L3", "contract": "hearts", "trick": ["TS", "8S", "9H"], "hand": ["JH", "8H", "KC"], "legal": ["JH"]},
    {
        "id": "L4",
        "contract": "hearts",
        "trick": ["TS", "8S", "9H"],
        "hand": ["QH", "8H", "KC"],
        "legal": ["QH", "8H", "KC"],
    },
    {"id": "L5", "contract": "hearts", "trick": ["TH", "KH"], "hand": ["AH", "7H", "9C"], "legal": ["AH"]},
    {"id": "L6", "contract": "all-trumps", "trick": ["QD", "8D"], "hand": ["KD", "7D", "JS"], "legal": ["KD"]},
    {"id": "L7", "contract": "all-trumps", "trick": ["AC"], "hand": ["JH", "7D"], "legal": ["JH", "7D"]},
    {"id": "L8", "contract": "no-trumps", "trick": ["KC"], "hand": ["AC", "7C", "AD"], "legal": ["AC", "7C"]},
]
