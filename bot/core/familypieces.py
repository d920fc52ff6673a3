"""What the views of one family game say differently from the others: a small table of view pieces keyed by the
game's name in ``bot.engine.game.VARIANTS`` (docs/architecture.md: no ``if variant ==`` in the core).

A piece says how a call is worded and prompted, what the line of new cards is called, and which public lines the
game adds to the group's deal (the turned card, the open layouts). A game without a piece of its own gets
``DEFAULT``, which words every call by its name: a new game of the family plays at a chat table as it lands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.engine.calls import CONTRA, PASS, RECONTRA
from bot.engine.cards import Card
from bot.engine.seatview import SeatView
from bot.i18n import Translator

from . import names

BACK = "🂠"  # a face-down card: what everyone sees of it (never its identity)


def _plain_label(v: SeatView, index: int, call: int, tr: Translator) -> str:
    return names.call_name(call, tr)


def _take_label(players: int) -> Callable[[SeatView, int, int, Translator], str]:
    """The first round on a turned (or proposing) card, one call per player, takes its suit."""

    def label(v: SeatView, index: int, call: int, tr: Translator) -> str:
        if v.turned is not None and index < players and call != PASS:
            return tr.gettext("Take {suit}", suit=names.call_name(call, tr))
        return names.call_name(call, tr)

    return label


def _name_or_pass(v: SeatView, tr: Translator) -> str:
    if PASS not in v.legal_calls:
        return tr.gettext("You deal and everyone passed: you must name trump (mus).")
    return tr.gettext("Your turn: name trump, or pass.")


def _bela3_prompt(v: SeatView, tr: Translator) -> str:
    if PASS not in v.legal_calls and v.to_act != v.dealer:
        return tr.gettext("You are the first player: you must name trump from your six cards.")
    return _name_or_pass(v, tr)


def _turned_prompt(players: int) -> Callable[[SeatView, Translator], str]:
    """Two rounds on the turned card: take its suit or pass, then another suit (or pass, unless in the mus)."""

    def prompt(v: SeatView, tr: Translator) -> str:
        if v.turned is None:
            return _name_or_pass(v, tr)
        if len(v.calls) < players:
            return tr.gettext("Your turn: take the turned card's suit as trump, or pass.")
        if PASS not in v.legal_calls:
            return tr.gettext("Everyone passed: you must name one of the other suits as trump (mus).")
        return tr.gettext("Second round: name another suit as trump, or pass.")

    return prompt


def _call_prompt(v: SeatView, tr: Translator) -> str:
    return tr.gettext("Your turn: make a call.")


def _no_lines(v: SeatView, tr: Translator) -> list[str]:
    return []


def _turned_line(v: SeatView, tr: Translator) -> list[str]:
    """The turned card lies face up for everyone until trump is chosen (French belote, 2-player Bela, whose turned
    card stays visible under the stock)."""
    if v.turned is None:
        return []
    return [tr.gettext("Turned card: {card}", card=names.card_label(v.turned))]


def _bela2_lines(v: SeatView, tr: Translator) -> list[str]:
    lines = [tr.gettext("Turned card: {card}", card=names.card_label(v.turned))] if v.turned is not None else []
    if v.exchanged is True:
        lines.append(tr.gettext("The seven of the turned suit was exchanged for the turned card."))
    if v.stock is not None:  # only with the stock_visible option: the 11 cards lie face up for both
        lines.append(tr.gettext("Stock (out of play): {cards}", cards=", ".join(names.card_label(c) for c in v.stock)))
    return lines


def pile_text(pile: tuple[Card | None, ...]) -> str:
    """A pile of the open game as anyone sees it: its top card, and a back for a face-down card under it."""
    if not pile:
        return "·"
    top = pile[-1]
    shown = BACK if top is None else names.card_label(top)
    return shown + ("/" + BACK if len(pile) == 2 else "")


def layout_lines(v: SeatView, seat_names: list[str], tr: Translator) -> list[str]:
    """Both layouts of the open game, pile by pile: the cards face up, a back for each face-down card."""
    if v.layout is None:
        return []
    return [
        tr.gettext("{name}'s piles: {piles}", name=seat_names[s], piles="  ".join(pile_text(p) for p in piles))
        for s, piles in enumerate(v.layout)
    ]


def _new_cards(cards: str, tr: Translator) -> str:
    return tr.gettext("New in your hand: {cards}", cards=cards)


def _trump_by(v: SeatView, name: str, tr: Translator) -> str:
    assert v.contract is not None
    return tr.gettext("Trump: {suit}, named by {name}", suit=names.call_name(v.contract, tr), name=name)


def _contract_by(v: SeatView, name: str, tr: Translator) -> str:
    """A Bulgarian contract (a suit, no trumps, all trumps) and its contra or recontra."""
    assert v.contract is not None
    text = tr.gettext("Contract: {contract} by {name}", contract=names.call_name(v.contract, tr), name=name)
    multiplier = int(getattr(v, "multiplier", 1))  # the contra multiplier, where the game has contra
    if multiplier == 2:
        text += " · " + names.call_name(CONTRA, tr)
    elif multiplier == 4:
        text += " · " + names.call_name(RECONTRA, tr)
    return text


def _fell_trump(name: str, tr: Translator) -> str:
    return tr.gettext("{name} named trump and did not get enough points: the caller writes no points of his own.",
                      name=name)


def _fell_contract(name: str, tr: Translator) -> str:
    return tr.gettext("{name} did not make the contract: the caller writes no points of his own.", name=name)


@dataclass(frozen=True, slots=True)
class GameView:
    """How one game's views differ: the wording of a call and its prompt, the name of the cards a seat receives
    after the call, and the public lines the game adds (its turned card, stock or layouts)."""

    call_label: Callable[[SeatView, int, int, Translator], str] = _plain_label
    call_prompt: Callable[[SeatView, Translator], str] = _call_prompt
    public_lines: Callable[[SeatView, Translator], list[str]] = _no_lines
    talon_line: Callable[[str, Translator], str] = _new_cards
    layouts: bool = False  # the open game: both layouts are public, shown pile by pile
    contract_line: Callable[[SeatView, str, Translator], str] = _trump_by  # of a game for three or two
    fell_line: Callable[[str, Translator], str] = _fell_trump  # a caller who fell, in a game for three or two
    sweep: str = "stiglja"  # what taking every trick is called in the result: štiglja (Bela games) or capot
    belas_need_trick: bool = True  # a bela counts only for a side with a trick (Bela), or always (French belote)


def _talon(cards: str, tr: Translator) -> str:
    return tr.gettext("Your talon (new in your hand): {cards}", cards=cards)


GAME_VIEWS: dict[str, GameView] = {
    "bela": GameView(call_prompt=_name_or_pass, talon_line=_talon),
    "french": GameView(call_label=_take_label(4), call_prompt=_turned_prompt(4), public_lines=_turned_line,
                       sweep="capot", belas_need_trick=False),
    "bela-3": GameView(call_prompt=_bela3_prompt, talon_line=_talon),
    "bela-2": GameView(call_label=_take_label(2), call_prompt=_turned_prompt(2), public_lines=_bela2_lines,
                       talon_line=_talon),
    "bela-open": GameView(call_label=_take_label(2), call_prompt=_turned_prompt(2), public_lines=_turned_line,
                          layouts=True),
    # The Bulgarian games for three and two (house rules): an auction of contracts with contra, like the main game.
    "bulgarian-3": GameView(contract_line=_contract_by, fell_line=_fell_contract, sweep="capot"),
    "bulgarian-2": GameView(contract_line=_contract_by, fell_line=_fell_contract, sweep="capot"),
}
DEFAULT = GameView()


def game_view(variant: str) -> GameView:
    """The view pieces of a game (``DEFAULT`` for a game that has none of its own)."""
    return GAME_VIEWS.get(variant, DEFAULT)
