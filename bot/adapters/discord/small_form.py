"""The ``/score`` form's games of three and two (``bela-3``, ``bela-2``, ``bela-open``, ``bulgarian-3``,
``bulgarian-2``): buttons for the game, the Bulgarian contract and contra, the caller and (Bela) the player whose
declaration won a tie, then a pop-up for what buttons cannot give.

As in the four-player form, what has been chosen lives in each button's ``custom_id``
(``g:<game><contract><multiplier><caller><winner>:<action>``, "-" for nothing chosen), so the form keeps working
after a restart. The pop-up has one field per player (his points, then his declarations), the valat and, in
``bela-3``, the player without a trick; it builds the request of formats §7.5 as the typed line does
(``small_text.parse_small_text``), and the calculator scores it with the same function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.calculator.family_score import GAME_NAMES
from bot.calculator.small_request import FIXED_TOTAL, SEAT_KEYS, SEATS
from bot.calculator.small_score import default_names
from bot.calculator.written import whole_number
from bot.i18n import Translator, _, translator

from .calculator import CONTRACTS, SMALL_CODES
from .score_form import COLOUR, FormButton, FormState, contract_label, foreign, form_message, values_of

if TYPE_CHECKING:
    from .calculator import Calculator

_STATE: Final = r"(?P<g>[-xyotu])(?P<c>[-0-5])(?P<m>[124])(?P<d>[0-2])(?P<w>[-0-2])"
SMALL_TEMPLATE: Final = re.compile(r"g:" + _STATE + r":(?P<act>s[xyotu]|c[0-5]|m[124]|d[0-2]|w[-0-2]|go|bk|op)")
SMALL_MODAL: Final = re.compile(r"r:" + _STATE)
GAMES: Final = {code: variant for variant, code in SMALL_CODES.items()}
# Five game buttons share a row: short names (the embed shows the full one).
SHORT_NAMES: Final = {
    "bela-3": _("Bela, 3 players"), "bela-2": _("Bela, 2 players"), "bela-open": _("Open Bela"),
    "bulgarian-3": _("Bulgarian, 3 players"), "bulgarian-2": _("Bulgarian, 2 players"),
}  # fmt: skip
# The "Three or two players…" button of the four-player form: no game chosen yet.
OPEN_ID: Final = "g:--10-:op"


@dataclass(frozen=True, slots=True)
class SmallState:
    variant: str | None = None
    contract: int | None = None  # the Bulgarian contract; a Bela game's suit does not change the count
    multiplier: int = 1
    caller: str = "0"
    winner: str | None = None  # Bela games: the player whose declaration won a tie the words cannot rank

    @property
    def code(self) -> str:
        game = "-" if self.variant is None else SMALL_CODES[self.variant]
        contract = "-" if self.contract is None else str(self.contract)
        return f"{game}{contract}{self.multiplier}{self.caller}{self.winner or '-'}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> SmallState:
        return cls(None if match["g"] == "-" else GAMES[match["g"]], None if match["c"] == "-" else int(match["c"]),
                   int(match["m"]), match["d"], None if match["w"] == "-" else match["w"])

    @property
    def bulgarian(self) -> bool:
        return self.variant is not None and self.variant.startswith("bulgarian")

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_KEYS[: SEATS[self.variant]] if self.variant is not None else ()

    @property
    def valid(self) -> bool:
        """Whether the buttons can have made this state: a forged custom_id may say what no button says."""
        if self.variant is None:
            return self == SmallState()
        if self.caller not in self.seats or (self.winner is not None and self.winner not in self.seats):
            return False
        if self.bulgarian:
            return self.winner is None
        return self.contract is None and self.multiplier == 1

    @property
    def ready(self) -> bool:
        """Enough is chosen for the pop-up: a game, and in the Bulgarian games its contract."""
        return self.variant is not None and (self.contract is not None or not self.bulgarian)

    def after(self, action: str) -> SmallState:
        kind, value = action[0], action[1:]
        if kind == "s" and GAMES[value] != self.variant:
            return SmallState(GAMES[value])  # another game: what was chosen for the last one does not apply
        if kind == "c" and self.bulgarian:
            return replace(self, contract=int(value))
        if kind == "m" and self.bulgarian:
            return replace(self, multiplier=int(value))
        if kind == "d" and value in self.seats:
            return replace(self, caller=value)
        if kind == "w" and self.variant is not None and not self.bulgarian and value in (*self.seats, "-"):
            return replace(self, winner=None if value == "-" else value)
        return self


def _names(state: SmallState, t: Translator) -> dict[str, str]:
    """The players as the calculator's answer names them (Player 0, Player 1, ...)."""
    return {k: n.render(t.lang) for k, n in zip(state.seats, default_names(len(state.seats)), strict=True)}


def small_message(state: SmallState, t: Translator) -> tuple[discord.Embed, discord.ui.View]:
    def button(label: str, action: str, row: int, chosen: bool = False) -> SmallFormButton:
        return SmallFormButton(f"g:{state.code}:{action}", label, chosen).with_row(row)

    names = _names(state, t)
    view = discord.ui.View(timeout=None)
    for variant, code in SMALL_CODES.items():
        view.add_item(button(t.gettext(SHORT_NAMES[variant]), f"s{code}", 0, state.variant == variant))
    caller_row = 1
    if state.bulgarian:
        for c in range(6):
            view.add_item(button(contract_label(c, t), f"c{c}", 1 + c // 5, state.contract == c))
        for m, label in ((1, t.gettext("no contra")), (2, t.gettext("contra")), (4, t.gettext("recontra"))):
            view.add_item(button(label, f"m{m}", 2, state.multiplier == m))
        caller_row = 3
    for k, name in names.items():
        view.add_item(button(t.gettext("caller: {player}", player=name), f"d{k}", caller_row, state.caller == k))
    if state.variant is not None and not state.bulgarian:
        for k, name in names.items():
            chosen = state.winner == k
            # Pressed again, the chosen player is unchosen: most deals need no winner.
            view.add_item(button(t.gettext("Best declaration: {team}", team=name), "w-" if chosen else f"w{k}", 2,
                                 chosen))
    view.add_item(button(t.gettext("« Back"), "bk", 4))
    go = button(t.gettext("Enter the points…"), "go", 4)
    go.item.disabled = not state.ready
    view.add_item(go)
    return discord.Embed(title=t.gettext("Score a deal"), description=_describe(state, names, t), colour=COLOUR), view


def _describe(state: SmallState, names: dict[str, str], t: Translator) -> str:
    if state.variant is None:
        return t.gettext("Which game of three or two players?")
    parts = [t.gettext("caller: {player}", player=names[state.caller])]
    if state.bulgarian:
        chosen = contract_label(state.contract, t) if state.contract is not None else "—"
        parts[:0] = [t.gettext("Contract: {contract}", contract=chosen), f"×{state.multiplier}"]
    if state.winner is not None:
        parts.append(t.gettext("Best declaration: {team}", team=names[state.winner]))
    if state.variant in FIXED_TOTAL:
        hint = t.gettext("In the pop-up: each player's card points with the last trick, then his declarations "
                         "(82 belote tierce:K). One player may be left empty: he has the rest.")
    else:
        hint = t.gettext("In the pop-up: each player's card points with the last trick, then his declarations "
                         "(82 belote tierce:K). Every player's points are needed: some cards stay out of play.")
    return "\n".join([GAME_NAMES[state.variant].render(t.lang), " · ".join(parts), hint])


class SmallFormButton(FormButton, template=SMALL_TEMPLATE):
    """A button of the games of three and two: drawn as the four-player form's, its own state and steps."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        match = SMALL_TEMPLATE.fullmatch(self.custom_id)
        assert match is not None  # the template matched to get here
        calculator: Calculator = interaction.client.adapter.calculator
        t = translator(await calculator.adapter.host.user_language(calculator.adapter.user_ref(interaction)))
        state = SmallState.from_match(match)
        if foreign(interaction) or not state.valid:
            await interaction.response.send_message(t.gettext("That button is not one of ours."), ephemeral=True)
            return
        action = match["act"]
        if action == "bk":
            embed, view = form_message(FormState(), t)
        elif action == "go" and state.ready:
            await interaction.response.send_modal(SmallPointsModal(state, t))
            return
        else:
            embed, view = small_message(state.after(action), t)
        await interaction.response.edit_message(embed=embed, view=view)


class SmallPointsModal(discord.ui.Modal):
    def __init__(self, state: SmallState, t: Translator) -> None:
        # Submissions are handled by ``on_small_points_submitted``, which reads the state from the custom_id.
        assert state.variant is not None
        super().__init__(title=GAME_NAMES[state.variant].render(t.lang)[:45], custom_id=f"r:{state.code}",
                         timeout=600)
        seats = " / ".join(state.seats)
        for k, name in _names(state, t).items():
            self.add_item(discord.ui.TextInput(
                label=t.gettext("{player}: points, then declarations", player=name)[:45], required=False,
                custom_id=f"p{k}", placeholder="82 belote tierce:K", max_length=100))
        self.add_item(discord.ui.TextInput(label=t.gettext("Valat: the player who took every trick")[:45],
                                           required=False, max_length=1, custom_id="valat", placeholder=seats))
        if state.variant == "bela-3":
            self.add_item(discord.ui.TextInput(label=t.gettext("No trick: the player who took none")[:45],
                                               required=False, max_length=1, custom_id="none", placeholder=seats))


def small_request(state: SmallState, values: dict[str, str]) -> dict[str, Any]:
    """The request of formats §7.5 from the pop-up, as ``parse_small_text`` builds it from a typed line."""
    assert state.variant is not None
    points: dict[str, int | str] = {}
    declarations: dict[str, list[str]] = {}
    for k in state.seats:
        words = values.get(f"p{k}", "").split()
        if words and words[0][0].isnumeric():  # a declaration never starts with a digit
            number = whole_number(words[0])
            points[k] = words[0] if number is None else number  # not a number: the calculator says so
            words = words[1:]
        declarations[k] = words
    request: dict[str, Any] = {
        "variant": state.variant,
        "declarer": state.caller,
        "valat": values.get("valat", "").strip() or None,
        "declarations": declarations,
        "rules": {},
    }
    if points:
        request["points"] = points
    if state.bulgarian:
        request |= {"contract": CONTRACTS[state.contract or 0], "multiplier": state.multiplier, "hanging_in": 0}
    no_trick = values.get("none", "").strip()
    if no_trick:
        request["no_trick"] = [no_trick]
    if state.winner is not None:
        request["declarations_winner"] = state.winner
    return request


async def on_small_points_submitted(interaction: discord.Interaction[Any]) -> bool:
    """Score a submitted pop-up of three or two, read from the interaction itself (so a pop-up opened before a
    restart still counts). False if it is not ours."""
    data: dict[str, Any] = dict(interaction.data or {})
    match = SMALL_MODAL.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False
    state = SmallState.from_match(match)
    calculator: Calculator = interaction.client.adapter.calculator
    if not state.valid or not state.ready:
        t = translator(await calculator.adapter.host.user_language(calculator.adapter.user_ref(interaction)))
        await interaction.response.send_message(t.gettext("That button is not one of ours."), ephemeral=True)
        return True
    await calculator.on_score(interaction, small_request(state, values_of(list(data.get("components", [])))))
    return True
