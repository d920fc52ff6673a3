"""The one-line text form of a 3- or 2-player deal, in the words players use (docs/calculator.md, "Three and two
players").

``bela utroje ja 82 ti 60 on 20``, ``bela udvoje ti zvao 70 ja 62``, ``otvorena bela ja 82``, ``белот трима купа аз
92 ти 40 той 30``, ``belote à trois moi 60 toi 80 lui 22``. The first words name the game. A player word (ja/ti/on,
аз/ти/той, me/you/him, moi/toi/lui, or the players' names) names the seat of everything after it, up to the next
player word; what no player word names is the caller's, and without a caller word the caller is the first seat
("ja", "аз", "me", "moi"). The line is read into the request of formats §7.5 and checked and scored like one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bot.engine.calls import CALL_NAMES
from bot.engine.declarations import CARRE

from .errors import CalculatorError, Problem, problem
from .family_words import CALLER_WORDS, DECLARE_WORDS, FOUR_WORDS, KINDS, RANKS, SUIT_WORDS, VALAT_WORDS, VALUES
from .small_request import SEAT_KEYS, SEATS
from .small_score import SmallAnswer, score_small
from .text import CONTRA_WORDS, read_option, refuse_lone_surrogates
from .vocabulary import BELOTE, CONTRACT_WORDS, Declared, check_declared

# The words that name a game of three or two, after "bela"/"белот"/... or alone.
GAME_PHRASES: Final[dict[str, str]] = {
    "bela utroje": "bela-3", "bela troje": "bela-3", "bela tri": "bela-3", "bela three": "bela-3",
    "bela trima": "bela-3", "бела трима": "bela-3", "бела 3": "bela-3", "bela 3": "bela-3",
    "belote à trois": "bela-3", "belote a trois": "bela-3",
    "bela udvoje": "bela-2", "bela dvoje": "bela-2", "bela two": "bela-2", "bela dvama": "bela-2",
    "бела двама": "bela-2", "бела 2": "bela-2", "bela 2": "bela-2", "belote à deux": "bela-2",
    "belote a deux": "bela-2",
    "otvorena bela": "bela-open", "bela otvorena": "bela-open", "open bela": "bela-open", "bela open": "bela-open",
    "открита бела": "bela-open", "belote découverte": "bela-open", "belote decouverte": "bela-open",
    "белот трима": "bulgarian-3", "белот 3": "bulgarian-3", "bulgarian three": "bulgarian-3",
    "bulgarian 3": "bulgarian-3", "bugarski utroje": "bulgarian-3", "bulgare à trois": "bulgarian-3",
    "bulgare a trois": "bulgarian-3",
    "белот двама": "bulgarian-2", "белот 2": "bulgarian-2", "bulgarian two": "bulgarian-2",
    "bulgarian 2": "bulgarian-2", "bugarski udvoje": "bulgarian-2", "bulgare à deux": "bulgarian-2",
    "bulgare a deux": "bulgarian-2",
}  # fmt: skip
GAME_WORDS: Final[dict[str, str]] = {v: v for v in SEATS} | {"bela3": "bela-3", "bela2": "bela-2"}
# The players by seat, as the one who writes says them: me, you, him (seat 0, 1, 2).
PLAYER_WORDS: Final[dict[str, int]] = {
    "ja": 0, "meni": 0, "ti": 1, "tebi": 1, "on": 2, "ona": 2, "njemu": 2, "njoj": 2,
    "аз": 0, "мен": 0, "ти": 1, "теб": 1, "той": 2, "тя": 2, "него": 2, "нея": 2,
    "me": 0, "you": 1, "him": 2, "he": 2, "her": 2, "she": 2,
    "moi": 0, "toi": 1, "lui": 2, "elle": 2,
}  # fmt: skip
DEALER_WORDS: Final = frozenset({"dijelio", "dijeli", "djelitelj", "раздава", "раздаваше", "dealer", "dealt",
                                 "donneur", "donne"})
# "bez štiha", "no trick", "без взятка", "sans pli": the player named before took no trick (bela-3).
NO_TRICK_PHRASES: Final = frozenset({"bez štiha", "bez stiha", "no trick", "no tricks", "без взятка", "без ръка",
                                     "sans pli", "sans plis"})
HANGING_WORDS: Final = frozenset({"visi", "висящи", "висят", "hanging", "pot", "suspens"})
EXAMPLES: Final = {
    "hr": "bela utroje ja 82 ti 60 on 20",
    "fr": "belote à trois moi 82 toi 60 lui 20",
    "bg": "бела трима аз 82 ти 60 той 20",
    "en": "bela three me 82 you 60 him 20",
}
_NUMBER: Final = re.compile(r"^[0-9]{1,6}$")


def small_game(line: str) -> str | None:
    """The game of three or two a line names with its first words, or None."""
    words = line.lower().split()
    if len(words) >= 3 and " ".join(words[:3]) in GAME_PHRASES:
        return GAME_PHRASES[" ".join(words[:3])]
    if len(words) >= 2 and " ".join(words[:2]) in GAME_PHRASES:
        return GAME_PHRASES[" ".join(words[:2])]
    return GAME_WORDS.get(words[0]) if words else None


def _game_length(words: list[str]) -> int:
    for n in (3, 2):
        if len(words) >= n and " ".join(words[:n]) in GAME_PHRASES:
            return n
    return 1 if words and words[0] in GAME_WORDS else 0


@dataclass
class _Line:
    variant: str
    seats: int
    example: str
    current: int | None = None
    caller: int | None = None
    caller_next: bool = False
    dealer_next: bool = False
    declaring: bool = False
    dealer: int | None = None
    points: dict[int | None, list[int]] = field(default_factory=dict)
    declarations: list[tuple[int | None, Declared]] = field(default_factory=list)
    valat: list[int | None] = field(default_factory=list)
    no_trick: list[int | None] = field(default_factory=list)
    contract: int | None = None
    multiplier: int = 1
    held: int = 0
    rules: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _tokens(line: str, players: Sequence[str] | None) -> list[str]:
    text = " " + line.lower().replace(",", " ").replace(";", " ") + " "
    for phrase in NO_TRICK_PHRASES:
        text = text.replace(f" {phrase} ", " \x00none ")
    if players:
        for seat, name in sorted(enumerate(players), key=lambda p: -len(p[1])):
            text = re.sub(rf"(?<!\S){re.escape(name.lower())}(?!\S)", f"\x00seat{seat}", text)
    return [t for t in (w.strip(".!?") for w in text.split()) if t]


def _seat_of(token: str, seats: int) -> int | None:
    if token.startswith("\x00seat"):
        return int(token[-1])
    seat = PLAYER_WORDS.get(token)
    return seat if seat is not None and seat < seats else None


def _read(tokens: list[str], line: _Line) -> None:
    i = 0
    bulgarian = line.variant.startswith("bulgarian")
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        seat = _seat_of(tok, line.seats)
        if seat is not None:
            line.current, line.declaring = seat, False
            if line.caller_next:
                line.caller, line.caller_next = seat, False
            if line.dealer_next:
                line.dealer, line.dealer_next = seat, False
        elif tok in CALLER_WORDS:
            if line.current is None:
                line.caller_next = True
            else:
                line.caller = line.current
        elif tok in DEALER_WORDS:
            if line.current is None:
                line.dealer_next = True
            else:
                line.dealer = line.current
        elif tok == "\x00none":
            line.no_trick.append(line.current)
        elif bulgarian and tok.replace(" ", "") in CONTRACT_WORDS:
            line.contract = CONTRACT_WORDS[tok.replace(" ", "")]
        elif tok in SUIT_WORDS:  # herc, cœur, купа, hearts: a suit in every game
            line.contract = SUIT_WORDS[tok]
        elif bulgarian and tok in CONTRA_WORDS:
            line.multiplier = CONTRA_WORDS[tok]
        elif tok in DECLARE_WORDS:
            line.declaring = True
        elif _NUMBER.match(tok):
            if line.declaring and tok in VALUES:
                kind, top = VALUES[tok]
                line.declarations.append((line.current, Declared(kind, top)))
            else:
                line.declaring = False
                line.points.setdefault(line.current, []).append(int(tok))
        elif tok.partition(":")[0] in KINDS:
            head, _, rank_word = tok.partition(":")
            rank = RANKS.get(rank_word) if rank_word else None
            if rank_word and rank is None:
                line.problems.append(problem("declarations", "'{word}': the top card is not understood, e.g. "
                                             "tierce:K", word=tok))
            elif rank is None and KINDS[head] != BELOTE and nxt is not None and RANKS.get(nxt) is not None:
                _add(line, check_declared(KINDS[head], RANKS[nxt], f"{tok} {nxt}"))  # "kare dečki", "terca K"
                i += 1
            else:
                _add(line, check_declared(KINDS[head], rank, tok))
        elif tok in FOUR_WORDS and nxt is not None and RANKS.get(nxt) is not None:
            _add(line, check_declared(CARRE, RANKS[nxt], f"{tok} {nxt}"))
            i += 1
        elif tok in VALAT_WORDS:
            line.valat.append(line.current)
        elif tok in HANGING_WORDS and nxt is not None and _NUMBER.match(nxt):
            line.held = int(nxt)
            i += 1
        elif "=" in tok:
            read_option(tok, line.rules, line.problems)
        else:
            line.problems.append(problem("text", "'{word}' is not understood; a line reads like: {example}",
                                         word=tok, example=line.example))
        i += 1


def _add(line: _Line, declared: Declared | Any) -> None:
    if isinstance(declared, Declared):
        line.declarations.append((line.current, declared))
    else:
        line.problems.append(Problem("declarations", declared))


def parse_small_text(line: str, variant: str | None = None, players: Sequence[str] | None = None,
                     rules: Mapping[str, Any] | None = None, lang: str = "en") -> dict[str, Any]:
    """Read a line into a §7.5 request of a 3- or 2-player game (not yet checked). ``variant``: the game when the
    line need not name it (a sheet's game)."""
    refuse_lone_surrogates(line, None)
    tokens = _tokens(line, players)
    skip = _game_length(tokens)
    named = small_game(" ".join(tokens[:skip])) if skip else None
    game = variant or named
    example = EXAMPLES.get(lang, EXAMPLES["en"])
    if game is None:
        raise CalculatorError([problem("variant", "start the line with the game, e.g. {example}", example=example)])
    parsed = _Line(game, SEATS[game], example)
    _read(tokens[skip:], parsed)
    caller = parsed.caller if parsed.caller is not None else 0

    def seat(owner: int | None) -> int:
        return caller if owner is None else owner

    points: dict[int, int] = {}
    for owner, numbers in parsed.points.items():
        target = seat(owner)
        if len(numbers) > 1 or target in points:
            parsed.problems.append(problem("points", "two numbers for the same player ({player}); a player word "
                                           "names the player of the number after it, e.g. '{example}'",
                                           player=SEAT_KEYS[target], example=example))
        points[target] = numbers[-1]
    valats = {seat(v) for v in parsed.valat}
    if len(valats) > 1:
        parsed.problems.append(problem("valat", "only one player can take every trick"))
    if not points and not valats and not parsed.problems:
        parsed.problems.append(problem("points", "missing; write each player's points after his word, e.g. "
                                       "'{example}'", example=example))
    if parsed.problems:
        raise CalculatorError(parsed.problems)
    keys = SEAT_KEYS[: parsed.seats]
    request: dict[str, Any] = {
        "variant": game,
        "declarer": keys[caller],
        "valat": keys[valats.pop()] if valats else None,
        "declarations": {k: [d.label() for o, d in parsed.declarations if seat(o) == s] for s, k in enumerate(keys)},
        "rules": {**(rules or {}), **parsed.rules},
    }
    if points:
        request["points"] = {keys[s]: v for s, v in sorted(points.items())}
    if parsed.contract is not None:
        request["contract"] = CALL_NAMES[parsed.contract]
    if game.startswith("bulgarian"):
        request["multiplier"] = parsed.multiplier
        request["hanging_in"] = parsed.held
    if parsed.dealer is not None:
        request["dealer"] = keys[parsed.dealer]
    if parsed.no_trick:
        request["no_trick"] = [keys[seat(o)] for o in parsed.no_trick]
    if players is not None:
        request["players"] = dict(zip(keys, players, strict=False))
    return request


def score_small_text(line: str, variant: str | None = None, players: Sequence[str] | None = None,
                     rules: Mapping[str, Any] | None = None, lang: str = "en") -> SmallAnswer:
    """Score a line of a 3- or 2-player game; CalculatorError names each field that is wrong."""
    return score_small(parse_small_text(line, variant, players, rules, lang))
