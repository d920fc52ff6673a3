"""The ``/score`` form of buttons as data: what one person's form holds, what it shows, and how a press changes it.

``calculator.py`` keeps the forms in storage and answers the presses; this module decides what a press means for the
four-player games, and ``small_form.py`` for the games of three and two. A press's callback data is
``calc:<form id>:<action>``; an action is taken only at the step that offers it, so a stale or forged press changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.calculator.errors import CalculatorError
from bot.calculator.family_score import GAME_NAMES
from bot.calculator.small_request import SEATS
from bot.calculator.written import whole_number
from bot.core import names
from bot.engine import CALL_NAMES, card_symbol
from bot.i18n import Translator, translator

PREFIX: Final = "calc:"
CONTRACTS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
DECLARATIONS: Final = ("tierce", "quarte", "quint", "belote", "carre:J", "carre:9", "carre:A", "carre:T",
                       "carre:K", "carre:Q")  # fmt: skip
STEPS: Final = ("contract", "contra", "declarer", "points", "declarations", "valat", "game")
# The other games of four the form scores: chosen instead of a contract, they skip the contract and contra.
GAMES: Final = ("bela", "french")
# The games of three and two, chosen at the "game" step (``small_form.py``).
SMALL_GAMES: Final = tuple(SEATS)


@dataclass
class ScoreForm:
    """One person's ``/score`` form in progress: the deal as the buttons have described it so far."""

    form_id: str
    user_id: int
    chat_id: int
    thread_id: int | None
    lang: str
    step: str = "contract"
    contract: str = ""
    multiplier: int = 1
    declarer: str = "A"  # a team, or in the games of three and two a seat ("0", "1", "2")
    digits: str = ""
    declarations: dict[str, list[str]] = field(default_factory=lambda: {"A": [], "B": []})
    for_team: str = "A"
    valat: str | None = None
    note: str = ""
    touched: float = 0.0  # when it was last stored (epoch seconds)
    variant: str = "bulgarian"
    winner: str | None = None  # the side whose declaration won a tie the buttons cannot rank
    points: dict[str, int] = field(default_factory=dict)  # games of three and two: each player's points so far
    no_trick: str | None = None  # bela-3: the player who took no trick

    @property
    def small(self) -> bool:
        return self.step == "game" or self.variant in SMALL_GAMES

    def request(self) -> dict[str, Any]:
        if self.small:
            from .small_form import small_request  # the games of three and two build on this module

            return small_request(self)
        if self.variant in GAMES:
            family: dict[str, Any] = {"variant": self.variant, "declarer": self.declarer, "valat": self.valat,
                                      "declarations": self.declarations}
            if self.valat is None:
                family["points"] = {self.declarer: int(self.digits or "0")}
            if self.winner is not None:
                family["declarations_winner"] = self.winner
            return family
        data: dict[str, Any] = {
            "contract": self.contract,
            "multiplier": self.multiplier,
            "declarer": self.declarer,
            "valat": self.valat,
            "declarations": self.declarations,
            "hanging_in": 0,
            "rules": {},
        }
        if self.valat is None:
            data["points"] = {self.declarer: int(self.digits or "0")}
        return data


def team_names(t: Translator) -> dict[str, str]:
    return {"A": t.gettext("We"), "B": t.gettext("You")}


def contract_label(contract: str, t: Translator) -> str:
    return names.call_name(CALL_NAMES.index(contract), t)


def contra_label(multiplier: int, t: Translator) -> str:
    return {1: t.gettext("none"), 2: t.gettext("Contra"), 4: t.gettext("Recontra")}[multiplier]


def declaration_label(kind: str, t: Translator) -> str:
    if kind.startswith("carre:"):
        rank = kind[-1]
        return t.gettext("Carré of {rank}", rank=card_symbol("789TJQKA".index(rank))[:-1])
    word = names.declaration_name(kind, t)
    return word[:1].upper() + word[1:]


def button(form: ScoreForm, label: str, action: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=f"{PREFIX}{form.form_id}:{action}")


def points_question(form: ScoreForm, who: str, t: Translator) -> str:
    """The keypad's question: Bulgarian games count the last ten, the others the last trick."""
    digits = (form.digits or "0") + "▌"
    if form.variant.startswith("bulgarian"):
        return t.gettext("How many card points did {team} take, the last ten included? {digits}", team=who,
                         digits=digits)
    return t.gettext("How many card points did {team} take, the last trick included? {digits}", team=who,
                     digits=digits)


def keypad(form: ScoreForm, t: Translator) -> list[list[InlineKeyboardButton]]:
    rows = [[button(form, str(d), f"n{d}") for d in range(r, r + 3)] for r in (1, 4, 7)]
    rows.append([button(form, "⌫", "nx"), button(form, "0", "n0"), button(form, t.gettext("OK"), "nk")])
    return rows


def type_digit(form: ScoreForm, arg: str) -> bool:
    """A keypad press on the number being typed; False for OK and for anything that is not a key."""
    if len(arg) == 1 and whole_number(arg) is not None:
        if len(form.digits) < 3:
            form.digits = (form.digits + arg).lstrip("0")
        return True
    if arg == "x":
        form.digits = form.digits[:-1]
        return True
    return False


# --- what the form shows, and what a press does: the games of three and two are small_form.py's ---


def form_text(form: ScoreForm) -> str:
    if form.small:
        from .small_form import small_text

        return small_text(form)
    t = translator(form.lang)
    teams = team_names(t)
    lines = [t.gettext("**Score a deal**")]
    family = form.variant in GAMES
    if family:
        lines.append(GAME_NAMES[form.variant].render(form.lang))
    if form.contract:
        lines.append(t.gettext("Contract: {contract}", contract=contract_label(form.contract, t)))
    if family and form.step not in ("contract", "declarer"):
        lines.append(t.gettext("Called by: {team}", team=teams[form.declarer]))
    elif form.step not in ("contract", "contra"):
        lines.append(
            t.gettext("Contra: {contra}", contra=contra_label(form.multiplier, t))
            + " · "
            + t.gettext("Bid by: {team}", team=teams[form.declarer])
        )
    if form.step in ("declarations", "valat"):
        lines.append(t.gettext("{team} took {points} points.", team=teams[form.declarer], points=form.digits))
    if form.step in ("declarations", "valat"):
        for team in ("A", "B"):
            said = ", ".join(declaration_label(d, t) for d in form.declarations[team]) or "—"
            lines.append(t.gettext("Declarations of {team}: {list}", team=teams[team], list=said))
    questions = {
        "contract": t.gettext("What was the contract?"),
        "contra": t.gettext("Was there a contra?"),
        "declarer": t.gettext("Which team made the bid?"),
        "points": points_question(form, teams[form.declarer], t),
        "declarations": t.gettext("Add each team's declarations, then press Next."),
        "valat": t.gettext("Did one team take every trick (valat)?"),
    }
    lines.append(questions[form.step])
    if form.note:
        lines.append(form.note)
    return "\n".join(lines)


def form_keyboard(form: ScoreForm) -> InlineKeyboardMarkup:
    t = translator(form.lang)
    if form.small:
        from .small_form import small_keyboard

        rows = small_keyboard(form, t)
    else:
        rows = _keyboard(form, t)
    rows.append([button(form, t.gettext("Cancel"), "x")])
    return InlineKeyboardMarkup(rows)


def _keyboard(form: ScoreForm, t: Translator) -> list[list[InlineKeyboardButton]]:
    teams = team_names(t)

    def b(label: str, action: str) -> InlineKeyboardButton:
        return button(form, label, action)

    rows: list[list[InlineKeyboardButton]] = []
    if form.step == "contract":
        rows = [
            [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[:4])],
            [b(contract_label(c, t), f"k{i}") for i, c in enumerate(CONTRACTS[4:], 4)],
            [b(GAME_NAMES[g].render(form.lang), f"g{i}") for i, g in enumerate(GAMES)],
            [b(t.gettext("Three or two players…"), "o")],
        ]
    elif form.step == "contra":
        rows = [[b(contra_label(m, t), f"m{m}") for m in (1, 2, 4)]]
    elif form.step == "declarer":
        rows = [[b(teams["A"], "tA"), b(teams["B"], "tB")]]
    elif form.step == "points":
        rows = keypad(form, t)
    elif form.step == "declarations":
        mark = {"A": "● " if form.for_team == "A" else "", "B": "● " if form.for_team == "B" else ""}
        rows = [[b(mark["A"] + teams["A"], "fA"), b(mark["B"] + teams["B"], "fB")]]
        kinds = [b("+ " + declaration_label(d, t), f"d{i}") for i, d in enumerate(DECLARATIONS)]
        rows += [kinds[i : i + 4] for i in range(0, len(kinds), 4)]
        if form.variant in GAMES:
            won = {team: "★ " if form.winner == team else "" for team in ("A", "B")}
            rows.append([b(won[team] + t.gettext("Best declaration: {team}", team=teams[team]), f"w{team}")
                         for team in ("A", "B")])
        rows.append([b(t.gettext("Clear"), "dc"), b(t.gettext("Next"), "dn")])
    elif form.step == "valat":
        rows = [[b(t.gettext("No valat"), "v-"), b(teams["A"], "vA"), b(teams["B"], "vB")]]
    return rows


def press(form: ScoreForm, action: str) -> str | None:
    """Apply one press to the form; "score" or "cancel" when the form is finished."""
    form.note = ""
    if action == "x":
        return "cancel"
    if form.small:
        from .small_form import small_press

        return small_press(form, action)
    kind, arg = action[:1], action[1:]
    # Callback data can be forged: read every number as the digits 0-9 only (int("²") fails, "²".isdigit() not).
    index = whole_number(arg)
    if form.step == "contract" and kind == "k" and index is not None and index < len(CONTRACTS):
        form.contract, form.step = CONTRACTS[index], "contra"
    elif form.step == "contract" and kind == "g" and index is not None and index < len(GAMES):
        form.variant, form.step = GAMES[index], "declarer"  # the trump suit does not change the count
    elif form.step == "contract" and action == "o":
        form.step = "game"
    elif form.step == "declarations" and kind == "w" and arg in ("A", "B") and form.variant in GAMES:
        form.winner = arg
    elif form.step == "contra" and kind == "m" and arg in ("1", "2", "4"):
        form.multiplier, form.step = int(arg), "declarer"
    elif form.step == "declarer" and kind == "t" and arg in ("A", "B"):
        form.declarer, form.step = arg, "points"
    elif form.step == "points" and kind == "n":
        if not type_digit(form, arg) and arg == "k":
            form.step = "declarations"
    elif form.step == "declarations" and kind == "f" and arg in ("A", "B"):
        form.for_team = arg
    elif form.step == "declarations" and kind == "d":
        if arg == "c":
            form.declarations, form.winner = {"A": [], "B": []}, None
        elif arg == "n":
            form.step = "valat"
        elif index is not None and index < len(DECLARATIONS):
            form.declarations[form.for_team].append(DECLARATIONS[index])
    elif form.step == "valat" and kind == "v" and arg in ("-", "A", "B"):
        form.valat = None if arg == "-" else arg
        return "score"
    return None


def refused(form: ScoreForm, err: CalculatorError, note: str) -> None:
    """A deal the calculator refused: keep the form at the step where the missing detail is given, saying what."""
    form.note = note
    if form.small:
        from .small_form import small_refused

        small_refused(form, err)
        return
    form.step = "declarations"  # most refusals need one more detail: a top card, the better declaration
