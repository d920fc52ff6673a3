"""The one-line text form of a Bela or French deal, in the words players use (docs/calculator.md has the grammar).

``bela mi 92 zvanje 50 bela``, ``belote pris 65 belote``, ``bela vi zvali 70 terca štiglja``, ``бела ние 92``,
``bela we 92 quarte belote``. The first word names the game (a sheet that knows its game may leave it out). A team
word names the side of everything after it, up to the next team word; what no team word names belongs to the
callers. The line is read into the request of formats §7.5 and then checked and scored exactly like one.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bot.engine.declarations import CARRE

from .errors import CalculatorError, Msg, Problem, problem
from .family_request import parse_family_request
from .family_score import GAME_NAMES, OUTCOMES, FamilyAnswer, score_family_request
from .family_words import (
    CALLER_WORDS,
    DECLARE_WORDS,
    EXAMPLES,
    FELL_WORDS,
    FOUR_WORDS,
    GAME_WORDS,
    HELD_RULE,
    HELD_WORDS,
    KINDS,
    NOT_A_SUIT,
    PASSED_WORDS,
    RANKS,
    SKIPPED,
    SUIT_WORDS,
    TEAM_WORDS,
    TO_WORDS,
    VALAT_WORDS,
    VALUES,
    WINNER_WORDS,
    WORD_LANGS,
)
from .request import TEAM_KEYS
from .text import put_option, read_option, refuse_lone_surrogates
from .vocabulary import BELOTE, Declared, check_declared, parse_declaration

MAX_DIGITS: Final = 6
_NUMBER: Final = re.compile(rf"^[0-9]{{1,{MAX_DIGITS}}}$")
# The word that marks the side whose declaration won, by language, for the answer that asks for it.
_WINNER_WORD: Final = {"hr": "jače", "fr": "meilleure", "bg": "по-силни", "en": "best"}
_TOP_EXAMPLE: Final = {"hr": "terca:K", "fr": "tierce:K", "bg": "терца:К", "en": "tierce:K"}


@dataclass
class _Line:
    variant: str
    lang: str  # the asker's language, until the line's own words tell
    current: int | None = None  # the side the last team word named
    caller: int | None = None
    caller_next: bool = False  # a caller word came before any team word: the next team word names the callers
    declaring: bool = False  # after "zvanje": the numbers are declarations
    points: list[tuple[int | None, int, str]] = field(default_factory=list)  # (side, points, word)
    declarations: list[tuple[int | None, Declared]] = field(default_factory=list)
    valat: list[int | None] = field(default_factory=list)
    held: int = 0
    winner: list[int | None] = field(default_factory=list)
    claims: list[tuple[str, bool]] = field(default_factory=list)  # (word, the callers fell)
    contract: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    langs: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)


def family_game(line: str) -> str | None:
    """The game a line names with its first words ("bela", "belote", "bela utroje", ...), or None for a Bulgarian
    line."""
    from .small_text import small_game  # it builds on the calculator's modules

    small = small_game(line)
    if small is not None:
        return small
    words = line.split(maxsplit=1)
    return GAME_WORDS.get(words[0].lower().strip(".,;:!?")) if words else None


def _normalize(line: str, names: Sequence[str] | None) -> list[str]:
    text = " " + line.lower().replace(",", " ").replace(";", " ").replace("’", "'") + " "
    text = text.replace("-rebelote", " rebelote").replace("d'", "d ")
    if names:
        for team, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
            text = re.sub(rf"(?<!\S){re.escape(name.lower())}(?!\S)", f"\x00team{team}", text)
    tokens = [t.strip(".!?") for t in text.split()]
    return [t for t in tokens if t]


def _team_of(token: str) -> int | None:
    if token.startswith("\x00team"):
        return int(token[-1])
    return TEAM_WORDS.get(token)


def _rank(token: str | None) -> int | None:
    if token is None or _team_of(token) is not None:
        return None
    return RANKS.get(token)


def _line_language(line: _Line, lang: str) -> str:
    if not line.langs:
        return lang
    best = max(line.langs.values())
    return lang if line.langs[lang] == best else next(k for k, v in line.langs.most_common() if v == best)


def _read(tokens: list[str], line: _Line) -> None:
    i = 0
    skip_rebelote = False
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        line.langs.update(WORD_LANGS.get(tok, ()))
        team = _team_of(tok)
        if (tok == "rebelote" and skip_rebelote) or tok in SKIPPED:  # "belote et rebelote" is one belote
            i += 1
            continue
        skip_rebelote = False
        if team is not None:
            line.current = team
            line.declaring = False
            if line.caller_next:
                line.caller, line.caller_next = team, False
            if nxt is None:
                line.problems.append(problem("text", "'{word}' at the end names nothing: a team word comes before "
                                             "what it names", word=tok if not tok.startswith("\x00") else "…"))
        elif tok in CALLER_WORDS:
            if line.current is None:
                line.caller_next = True
            else:
                line.caller = line.current
        elif tok in SUIT_WORDS:
            line.contract = SUIT_WORDS[tok]
        elif tok in NOT_A_SUIT:
            line.problems.append(problem("contract", "'{word}': {game} is played with a trump suit, not in no "
                                         "trumps or all trumps", word=tok, game=line.variant))
        elif tok in DECLARE_WORDS:
            line.declaring = True
        elif _NUMBER.match(tok):
            if line.declaring and tok in VALUES:
                kind, top = VALUES[tok]
                line.declarations.append((line.current, Declared(kind, top)))
            else:
                line.declaring = False
                line.points.append((line.current, int(tok), tok))
        elif tok.partition(":")[0] in KINDS:
            i = _declaration(tokens, i, line)
            skip_rebelote = KINDS.get(tok) == BELOTE
            continue
        elif tok in FOUR_WORDS:
            rank = _rank(nxt)
            if rank is None:
                line.problems.append(problem("declarations", "'{word}' must be followed by the rank of the four "
                                             "cards, e.g. '{word} {example}'", word=tok, example=_four_example(tok)))
            else:
                _add(line, Declared(CARRE, rank))
                i += 1
        elif tok in VALAT_WORDS:
            line.valat.append(line.current)
        elif tok in HELD_WORDS:
            if nxt is not None and _NUMBER.match(nxt):
                line.held = int(nxt)
                i += 1
            elif tok in HELD_RULE and HELD_RULE[tok][0] == line.variant:
                put_option("tie", HELD_RULE[tok][1], line.rules, line.problems)
            else:
                line.problems.append(problem("hanging_in", "'{word}' must be followed by the points held before "
                                             "this deal, e.g. '{word} 81'", word=tok))
        elif tok in FELL_WORDS or tok in PASSED_WORDS:
            line.claims.append((tok, tok in FELL_WORDS))
        elif tok in WINNER_WORDS:
            line.winner.append(line.current)
        elif "=" in tok:
            read_option(tok, line.rules, line.problems)
        else:
            line.problems.append(_unknown(tok, line))
        i += 1


def _four_example(word: str) -> str:
    return {"četiri": "dečka", "cetiri": "dečka", "quatre": "valets", "четири": "валета"}.get(word, "jacks")


def _add(line: _Line, declared: Declared | Msg) -> None:
    if isinstance(declared, Msg):
        line.problems.append(Problem("declarations", declared))
    else:
        line.declarations.append((line.current, declared))


def _declaration(tokens: list[str], i: int, line: _Line) -> int:
    """A declaration word and the top card after it: ``terca:K``, ``terca do kralja``, ``kare dečki``."""
    tok = tokens[i]
    if ":" in tok:
        head, _, rank_word = tok.partition(":")
        rank = RANKS.get(rank_word)
        if rank is None:
            parsed: Declared | Msg = parse_declaration(f"{KINDS[head]}:{rank_word}")
        else:
            parsed = check_declared(KINDS[head], rank, tok)
        _add(line, parsed)
        return i + 1
    kind = KINDS[tok]
    # Little words between are skipped: "quinte à la dame", "carré de valets", "carré d'as".
    j = _next_word(tokens, i + 1)
    nxt = tokens[j] if j < len(tokens) else None
    k = _next_word(tokens, j + 1)
    after = tokens[k] if k < len(tokens) else None
    if kind != BELOTE and nxt in TO_WORDS and _rank(after) is not None:
        _add(line, check_declared(kind, _rank(after), " ".join(tokens[i : k + 1])))
        return k + 1
    if kind != BELOTE and nxt is not None and nxt not in VALUES and _rank(nxt) is not None:
        _add(line, check_declared(kind, _rank(nxt), " ".join(tokens[i : j + 1])))
        return j + 1
    _add(line, check_declared(kind, None, tok))
    return i + 1


def _next_word(tokens: list[str], j: int) -> int:
    while j < len(tokens) and tokens[j] in SKIPPED:
        j += 1
    return j


def _unknown(token: str, line: _Line) -> Problem:
    lang = _line_language(line, line.lang)
    words = [w for w, langs in WORD_LANGS.items() if lang in langs]
    close = difflib.get_close_matches(token, words, n=1, cutoff=0.7)
    if close:
        return problem("text", "'{word}' is not understood; did you mean '{guess}'?", word=token, guess=close[0])
    return problem("text", "'{word}' is not understood; a line reads like: {example}", word=token,
                   example=EXAMPLES[lang])


def parse_family_text(
    line: str,
    variant: str | None = None,
    teams: Sequence[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> tuple[dict[str, Any], list[tuple[str, bool]], str]:
    """Read a line into a §7.5 request (not yet checked), the outcome words it says, and its language.

    ``variant``: the game when the line need not name it (a sheet's game); a line naming another game is an error.
    """
    refuse_lone_surrogates(line, teams)
    tokens = _normalize(line, teams)
    named = GAME_WORDS.get(tokens[0]) if tokens else None
    game = variant or named
    if game is None:
        raise CalculatorError([problem("variant", "start the line with the game: bela or belote, e.g. {example}",
                                       example=EXAMPLES.get(lang, EXAMPLES["en"]))])
    if named is not None and variant is not None and named != variant:
        raise CalculatorError([problem("variant", "this sheet keeps a {game} match; a line of {other} does not "
                                       "belong on it", game=GAME_NAMES[variant], other=GAME_NAMES[named])])
    parsed = _Line(game, lang if lang in EXAMPLES else "en")
    _read(tokens[1:] if named is not None else tokens, parsed)
    lang = _line_language(parsed, parsed.lang)
    problems = parsed.problems
    caller = parsed.caller if parsed.caller is not None else 0

    def side(owner: int | None) -> int:
        return caller if owner is None else owner

    points: dict[int, int] = {}
    if len(parsed.points) > 2:
        numbers = tuple(w for _, _, w in parsed.points)
        problems.append(problem("points", "{n} numbers for points ({values}); give one or two: the callers' points "
                                "first, e.g. '{example}'", n=len(numbers), values=numbers, example=EXAMPLES[lang]))
    else:
        # Named numbers first; a number no team word names is the callers', then the other side's.
        for owner, pts, _ in sorted(parsed.points, key=lambda p: p[0] is None):
            target = caller if owner is None else owner
            if target in points:
                target = 1 - target
            if target in points:
                problems.append(problem("points", "two numbers for the same side"))
            points[target] = pts
    valats = {side(v) for v in parsed.valat}
    if len(valats) > 1:
        problems.append(problem("valat", "both sides cannot take every trick"))
    if not points and not valats and not problems:
        problems.append(problem("points", "missing; write the callers' points (the last trick included), e.g. "
                                "'{example}'", example=EXAMPLES[lang]))
    if problems:
        raise CalculatorError(problems)
    request: dict[str, Any] = {
        "variant": game,
        "declarer": TEAM_KEYS[caller],
        "valat": TEAM_KEYS[valats.pop()] if valats else None,
        "declarations": {k: [d.label() for o, d in parsed.declarations if side(o) == t]
                         for t, k in enumerate(TEAM_KEYS)},
        "hanging_in": parsed.held,
        "rules": {**(rules or {}), **parsed.rules},
    }
    if points:
        request["points"] = {TEAM_KEYS[t]: v for t, v in sorted(points.items())}
    if parsed.winner:
        request["declarations_winner"] = TEAM_KEYS[side(parsed.winner[-1])]
    if parsed.contract is not None:
        request["contract"] = ("clubs", "diamonds", "hearts", "spades")[parsed.contract]
    if teams is not None:
        request["teams"] = {"A": teams[0], "B": teams[1]}
    return request, parsed.claims, lang


def score_family_text(
    line: str,
    variant: str | None = None,
    teams: Sequence[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> FamilyAnswer:
    """Score a Bela or French line; CalculatorError names each field that is wrong, in words of the line's
    language where it suggests some."""
    request, claims, lang = parse_family_text(line, variant, teams, rules, lang)
    try:
        checked = parse_family_request(request)
    except CalculatorError as err:
        raise CalculatorError([_in_words(p, lang) for p in err.problems]) from None
    answer = score_family_request(checked)
    result = answer.result
    d = checked.declarer
    wrong = [word for word, fell in claims if fell != result.fell]
    if wrong:
        raise CalculatorError([problem("text", "'{word}' does not fit the points: {c} to {o}, so {outcome}",
                                       word=wrong[0], c=result.raw[d], o=result.raw[1 - d],
                                       outcome=OUTCOMES[result.outcome])])
    return answer


def _in_words(p: Problem, lang: str) -> Problem:
    """A request's problem said for a line: the contest's missing winner is a word of the line's language."""
    if p.field == "declarations_winner" and p.message.msgid.startswith("missing"):
        return problem("declarations", "the words cannot rank the two sides' declarations; write the top cards "
                       "({top}) or '{word}' after the side whose declaration won, e.g. '{example}'",
                       top=_TOP_EXAMPLE[lang], word=_WINNER_WORD[lang],
                       example=f"{_team_word(lang)} {_WINNER_WORD[lang]}")
    return p


def _team_word(lang: str) -> str:
    return {"hr": "vi", "fr": "vous", "bg": "вие", "en": "you"}[lang]
