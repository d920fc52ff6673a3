"""Every table option of formats.md §2 with the values tests draw from (low targets keep random matches short)."""

from __future__ import annotations

from typing import Any

OPTION_VALUES: dict[str, list[Any]] = {
    "target_score": [151, 61, 31],
    "contra_blocks_bidding": [False, True],
    "recontra_ends_auction": [False, True],
    "declaration_comparison": ["separate", "carre_kills_quint", "single_contest", "carre_beats_sequence"],
    "hundred_carre_order": ["points", "rank"],
    "long_sequence": ["top_card", "length"],
    "eight_card_run": [100, 120],
    "nt_aces_carre": [False, True],
    "nt_valat_doubled": [False, True],
    "valat_multiplied": [True, False],
    "contra_tie": ["all_hang", "split"],
    "inside_keeps_belote": [False, True],
    "valat_team_keeps_declarations": [True, False],
    "capot_blocks_finish": [True, False],
    "winner_must_score_last_deal": [False, True],
    "no_finish_while_hanging": [False, True],
    "must_undertrump": [False, True],
    "auto_declarations": [False, True],
}
