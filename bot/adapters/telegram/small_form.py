"""The ``/score`` form's games of three and two: ``bela-3``, ``bela-2``, ``bela-open``, ``bulgarian-3`` and
``bulgarian-2`` (formats §7.5).

The steps: the game; in the Bulgarian games the contract and contra (a Bela game's trump suit does not change the
count); the player who called; a valat (or, in ``bela-3``, a player without a trick); each player's points on the
keypad, only those the calculator needs; each player's declarations. The request is the one the typed line gives
(``small_text.parse_small_text``), scored by the same function, so both answers are the same.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from telegram import InlineKeyboardButton

from bot.calculator.errors import CalculatorError
from bot.calculator.family_score import GAME_NAMES
from bot.calculator.small_request import FIXED_TOTAL, SEAT_KEYS, SEATS
from bot.calculator.small_score import default_names
from bot.calculator.written import whole_number
from bot.i18n import Translator, translator

from .score_form import (
    CONTRACTS,
    DECLARATIONS,
    SMALL_GAMES,
    ScoreForm,
    button,
    contra_label,
    contract_label,
    declaration_label,
    keypad,
    type_digit,
)

# The steps in the order a form goes through them (a Bela game skips the contract and contra).
ORDER: Final = ("game", "contract", "contra", "declarer", "valat", "points", "declarations")


def _bulgarian(form: ScoreForm) -> bool:
    return form.variant.startswith("bulgarian")


def _seats(form: ScoreForm) -> tuple[str, ...]:
    return SEAT_KEYS[: SEATS[form.variant]] if form.variant in SEATS else ()


def _names(form: ScoreForm) -> dict[str, str]:
    """The players as the calculator's answer names them (Player 0, Player 1, ...)."""
    seats = _seats(form)
    return {k: n.render(form.lang) for k, n in zip(seats, default_names(len(seats)), strict=True)}


def _declares(form: ScoreForm) -> bool:
    # Open-card Bela counts declarations and bela only under table options that are off by default.
    return form.variant != "bela-open"


def _trick_kinds(form: ScoreForm) -> tuple[str, ...]:
    """The valat step's presses: a valat, and in bela-3 also a player without a trick."""
    return ("v", "n") if form.variant == "bela-3" else ("v",)


def _past(form: ScoreForm, step: str) -> bool:
    return ORDER.index(form.step) > ORDER.index(step)


def asked(form: ScoreForm) -> list[str]:
    """The players whose points the keypad asks for, in seat order: only what the calculator cannot work out."""
    fixed = form.variant in FIXED_TOTAL  # every card in play: the last player's points are the rest
    if form.valat is not None:
        if not fixed:
            return [form.valat]  # cards stay out of play: the sweeper's points are needed
        # The others took nothing, except a bela-3 caller, whose two discards stay his.
        return [form.declarer] if form.variant == "bela-3" and form.declarer != form.valat else []
    seats = [k for k in _seats(form) if k != form.no_trick or k == form.declarer]
    return seats[:-1] if fixed else seats


def _typing(form: ScoreForm) -> str | None:
    """The player whose points the keypad is typing, None when every needed number is in."""
    return next((k for k in asked(form) if k not in form.points), None)


def _after_points(form: ScoreForm) -> str | None:
    if _declares(form):
        form.step, form.for_team = "declarations", form.declarer
        return None
    return "score"


# What a form keeps when the deal it describes starts again: whose form it is, where, and its last note.
_KEPT: Final = frozenset({"form_id", "user_id", "chat_id", "thread_id", "lang", "note", "touched"})


def _back_to_four(form: ScoreForm) -> None:
    """Back to the first step of the games of four, as a new form starts (they count by team, not by seat)."""
    fresh = ScoreForm(form.form_id, form.user_id, form.chat_id, form.thread_id, form.lang)
    for f in dataclasses.fields(ScoreForm):
        if f.name not in _KEPT:
            setattr(form, f.name, getattr(fresh, f.name))


def _choose(form: ScoreForm, variant: str) -> None:
    """A game chosen (again): everything told for another game is forgotten."""
    _back_to_four(form)
    form.variant, form.step = variant, "contract" if variant.startswith("bulgarian") else "declarer"
    form.declarer = form.for_team = "0"
    form.declarations = {k: [] for k in SEAT_KEYS[: SEATS[variant]]}


def small_request(form: ScoreForm) -> dict[str, Any]:
    """The request of formats §7.5, as ``parse_small_text`` builds it from the same deal typed as a line."""
    seats = _seats(form)
    points = dict(form.points)
    if form.no_trick is not None and form.no_trick not in points:
        points[form.no_trick] = 0  # a player without a trick took no card points
    request: dict[str, Any] = {
        "variant": form.variant,
        "declarer": form.declarer,
        "valat": form.valat,
        "declarations": {k: list(form.declarations.get(k, [])) for k in seats},
        "rules": {},
    }
    if points:
        request["points"] = {k: points[k] for k in seats if k in points}
    if _bulgarian(form):
        request |= {"contract": form.contract, "multiplier": form.multiplier, "hanging_in": 0}
    if form.no_trick is not None:
        request["no_trick"] = [form.no_trick]
    if form.winner is not None:
        request["declarations_winner"] = form.winner
    return request


def small_text(form: ScoreForm) -> str:
    t = translator(form.lang)
    names = _names(form)
    lines = [t.gettext("**Score a deal**")]
    if form.variant in SMALL_GAMES:
        lines.append(GAME_NAMES[form.variant].render(form.lang))
    if form.contract:
        lines.append(t.gettext("Contract: {contract}", contract=contract_label(form.contract, t)))
    if _past(form, "declarer"):
        if _bulgarian(form):
            lines.append(t.gettext("Contra: {contra}", contra=contra_label(form.multiplier, t)) + " · "
                         + t.gettext("Bid by: {player}", player=names[form.declarer]))
        else:
            lines.append(t.gettext("Called by: {player}", player=names[form.declarer]))
    if form.valat is not None:
        lines.append(t.gettext("Valat: {player}", player=names[form.valat]))
    if form.no_trick is not None:
        lines.append(t.gettext("No trick: {player}", player=names[form.no_trick]))
    for k in _seats(form):
        if k in form.points:
            lines.append(t.gettext("{player} took {points} points.", player=names[k], points=form.points[k]))
    if form.step == "declarations":
        for k in _seats(form):
            said = ", ".join(declaration_label(d, t) for d in form.declarations.get(k, [])) or "—"
            lines.append(t.gettext("Declarations of {player}: {list}", player=names[k], list=said))
    lines.append(_question(form, names, t))
    if form.note:
        lines.append(form.note)
    return "\n".join(lines)


def _question(form: ScoreForm, names: dict[str, str], t: Translator) -> str:
    if form.step == "points":
        typing, digits = _typing(form) or form.declarer, (form.digits or "0") + "▌"
        if form.valat is not None and typing != form.valat:  # another took every trick: the caller kept his discards
            return t.gettext("How many card points are in the two cards {player} discarded? {digits}",
                             player=names[typing], digits=digits)
        if _bulgarian(form):
            return t.gettext("How many card points did {player} take, the last ten included? {digits}",
                             player=names[typing], digits=digits)
        return t.gettext("How many card points did {player} take, the last trick included? {digits}",
                         player=names[typing], digits=digits)
    if form.step == "valat" and form.variant == "bela-3":
        return t.gettext("Did one player take every trick (valat), or one take no trick?")
    questions = {
        "game": t.gettext("Which game of three or two players?"),
        "contract": t.gettext("What was the contract?"),
        "contra": t.gettext("Was there a contra?"),
        "declarer": t.gettext("Which player called?"),
        "valat": t.gettext("Did one player take every trick (valat)?"),
        "declarations": t.gettext("Add each player's declarations, then press Next."),
    }
    return questions[form.step]


def small_keyboard(form: ScoreForm, t: Translator) -> list[list[InlineKeyboardButton]]:
    names = _names(form)

    def b(label: str, action: str) -> InlineKeyboardButton:
        return button(form, label, action)

    if form.step == "game":
        # One game a row: their names are long, and a row of five would cut them.
        rows = [[b(GAME_NAMES[g].render(form.lang), f"s{i}")] for i, g in enumerate(SMALL_GAMES)]
        return [*rows, [b(t.gettext("« Back"), "sb")]]
    if form.step == "contract":
        return [
            [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[:4])],
            [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[4:], 4)],
            [b(t.gettext("« Back"), "o")],
        ]
    if form.step == "contra":
        return [[b(contra_label(m, t), f"m{m}") for m in (1, 2, 4)]]
    if form.step == "declarer":
        return [[b(names[k], f"t{k}") for k in names]]
    if form.step == "valat":
        rows = [[b(t.gettext("No valat"), "v-")],
                [b(t.gettext("Valat: {player}", player=names[k]), f"v{k}") for k in names]]
        if form.variant == "bela-3":
            rows.append([b(t.gettext("No trick: {player}", player=names[k]), f"n{k}") for k in names])
        return rows
    if form.step == "points":
        return keypad(form, t)
    rows = [[b(("● " if form.for_team == k else "") + names[k], f"f{k}") for k in names]]
    kinds = [b("+ " + declaration_label(d, t), f"d{i}") for i, d in enumerate(DECLARATIONS)]
    rows += [kinds[i : i + 4] for i in range(0, len(kinds), 4)]
    combos = [k for k in names if any(d != "belote" for d in form.declarations.get(k, []))]
    if not _bulgarian(form) and len(combos) >= 2:
        # Only two players' declarations can tie in a way the buttons cannot rank.
        rows.append([b(("★ " if form.winner == k else "") + t.gettext("Best declaration: {team}", team=names[k]),
                       f"w{k}") for k in combos])
    rows.append([b(t.gettext("Clear"), "dc"), b(t.gettext("Next"), "dn")])
    return rows


def small_press(form: ScoreForm, action: str) -> str | None:
    """Apply one press to a form of three or two; "score" when the deal is complete."""
    kind, arg = action[:1], action[1:]
    # Callback data can be forged: a seat must be one of this game's, a number the digits 0-9 only.
    index = whole_number(arg)
    seat = arg if arg in _seats(form) else None
    step = form.step
    if step == "game" and kind == "s" and index is not None and index < len(SMALL_GAMES):
        _choose(form, SMALL_GAMES[index])
    elif step == "game" and action == "sb":
        _back_to_four(form)
    elif step == "contract" and action == "o":
        form.step = "game"
    elif step == "contract" and kind == "k" and index is not None and index < len(CONTRACTS):
        form.contract, form.step = CONTRACTS[index], "contra"
    elif step == "contra" and kind == "m" and arg in ("1", "2", "4"):
        form.multiplier, form.step = int(arg), "declarer"
    elif step == "declarer" and kind == "t" and seat is not None:
        form.declarer, form.step = seat, "valat"
    elif step == "valat" and (action == "v-" or (seat is not None and kind in _trick_kinds(form))):
        form.valat = seat if kind == "v" else None
        form.no_trick = seat if kind == "n" else None
        form.points, form.digits, form.step = {}, "", "points"
        if _typing(form) is None:
            return _after_points(form)
    elif step == "points" and kind == "n":
        return _keypad(form, arg)
    elif step == "declarations":
        return _declarations(form, kind, arg, index, seat)
    return None


def _keypad(form: ScoreForm, arg: str) -> str | None:
    typing = _typing(form)
    if typing is None:
        return None
    if arg == "x" and not form.digits and form.points:
        # ⌫ on an empty number goes back to the player before, to correct his points.
        last = [k for k in asked(form) if k in form.points][-1]
        form.digits = str(form.points.pop(last) or "")
    elif not type_digit(form, arg) and arg == "k":
        form.points[typing], form.digits = int(form.digits or "0"), ""
        if _typing(form) is None:
            return _after_points(form)
    return None


def _declarations(form: ScoreForm, kind: str, arg: str, index: int | None, seat: str | None) -> str | None:
    if kind == "f" and seat is not None:
        form.for_team = seat
    elif kind == "w" and seat is not None and not _bulgarian(form):
        form.winner = seat
    elif kind == "d" and arg == "c":
        form.declarations, form.winner = {k: [] for k in _seats(form)}, None
    elif kind == "d" and arg == "n":
        return "score"
    elif kind == "d" and index is not None and index < len(DECLARATIONS) and form.for_team in form.declarations:
        form.declarations[form.for_team].append(DECLARATIONS[index])
    return None


def small_refused(form: ScoreForm, err: CalculatorError) -> None:
    """Back to the step where what the calculator asks for is given: the points, the valat, or the declarations."""
    if any(f.startswith("points") for f in err.fields) and asked(form):
        form.points, form.digits, form.step = {}, "", "points"
    elif any(f.startswith(("valat", "no_trick")) for f in err.fields) or not _declares(form):
        form.points, form.digits, form.step = {}, "", "valat"
    else:
        form.step = "declarations"
