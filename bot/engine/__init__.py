"""The rules of Bulgarian Bridge-Belote: pure, deterministic, no I/O.

Typical use::

    from bot.engine import Match, Bid, Play, observe
    match = Match(seed=42)
    while not match.over:
        action = match.legal_actions()[0]
        match.apply(action)
"""

from .calls import (
    ALL_TRUMPS,
    CALL_NAMES,
    CONTRA,
    CONTRACTS,
    NO_TRUMPS,
    PASS,
    RECONTRA,
    Call,
    CallParseError,
    Contract,
    call_name,
    parse_call,
    parse_contract,
)
from .cards import Card, CardMask, CardParseError, card_list, card_str, card_symbol, mask_of, parse_card
from .deal import Action, Announcement, Bid, Deal, Discard, Exchange, IllegalAction, Play, Trick
from .declarations import Combination
from .match import Match, MatchOver
from .observation import Observation, observe
from .rules import DEFAULT_RULES, Rules, RulesError, parse_rules
from .scoring import DealResult, MatchVerdict, match_verdict, round_team, round_total, score_deal

__all__ = [
    "ALL_TRUMPS",
    "CALL_NAMES",
    "CONTRA",
    "CONTRACTS",
    "DEFAULT_RULES",
    "NO_TRUMPS",
    "PASS",
    "RECONTRA",
    "Action",
    "Announcement",
    "Bid",
    "Call",
    "CallParseError",
    "Card",
    "CardMask",
    "CardParseError",
    "Combination",
    "Contract",
    "Deal",
    "DealResult",
    "Discard",
    "Exchange",
    "IllegalAction",
    "Match",
    "MatchOver",
    "MatchVerdict",
    "Observation",
    "Play",
    "Rules",
    "RulesError",
    "Trick",
    "call_name",
    "card_list",
    "card_str",
    "card_symbol",
    "mask_of",
    "match_verdict",
    "observe",
    "parse_call",
    "parse_card",
    "parse_contract",
    "parse_rules",
    "round_team",
    "round_total",
    "score_deal",
]
