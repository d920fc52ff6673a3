"""``/score`` with nothing typed: a form of buttons (contract or game, contra, declarer), then a pop-up for the points.
The games of three and two have a form of their own (``small_form.py``), opened from this one.

The form is an ephemeral message; what has been chosen so far lives in each button's ``custom_id``
(``f:<contract or -><multiplier><declarer>:<action>``; contracts 6 and 7 stand for Bela and French belote, whose
trump suit does not change the count), so the form keeps working after a restart. The pop-up's
fields are the numbers and words the buttons cannot give: the declarers' points and each team's announcements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Self

import discord

from bot.calculator.family_score import GAME_NAMES
from bot.calculator.written import whole_number
from bot.engine.cards import SUIT_SYMBOLS
from bot.i18n import Translator, translator

from .calculator import CONTRACTS

if TYPE_CHECKING:
    from .calculator import Calculator

_STATE: Final = r"(?P<c>[0-7-])(?P<m>[124])(?P<d>[AB])"
FORM_TEMPLATE: Final = re.compile(r"f:" + _STATE + r":(?P<act>c[0-7]|m[124]|d[AB]|go)")
GAMES: Final = {6: "bela", 7: "french"}
MODAL_TEMPLATE: Final = re.compile(r"q:" + _STATE)
COLOUR: Final = 0x6A1B9A


@dataclass(frozen=True, slots=True)
class FormState:
    contract: int | None = None
    multiplier: int = 1
    declarer: str = "A"

    @property
    def code(self) -> str:
        return f"{'-' if self.contract is None else self.contract}{self.multiplier}{self.declarer}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> FormState:
        return cls(None if match["c"] == "-" else int(match["c"]), int(match["m"]), match["d"])

    def after(self, action: str) -> FormState:
        kind, value = action[0], action[1:]
        if kind == "c":
            return replace(self, contract=int(value))
        if kind == "m":
            return replace(self, multiplier=int(value))
        if kind == "d":
            return replace(self, declarer=value)
        return self


def contract_label(contract: int, t: Translator) -> str:
    if contract in GAMES:
        return GAME_NAMES[GAMES[contract]].render(t.lang)
    name = t.gettext(CONTRACTS[contract])
    return f"{SUIT_SYMBOLS[contract]} {name}" if contract < 4 else name


def form_message(state: FormState, t: Translator) -> tuple[discord.Embed, discord.ui.View]:
    def button(label: str, action: str, chosen: bool = False) -> FormButton:
        return FormButton(f"f:{state.code}:{action}", label, chosen)

    from .small_form import OPEN_ID, SmallFormButton  # the games of three and two build on this module

    view = discord.ui.View(timeout=None)
    for i in range(8):
        view.add_item(button(contract_label(i, t), f"c{i}", state.contract == i).with_row(i // 4))
    view.add_item(SmallFormButton(OPEN_ID, t.gettext("Three or two players…")).with_row(1))
    if state.contract not in GAMES:  # Bela and French belote have no contra
        for m, label in ((1, t.gettext("no contra")), (2, t.gettext("contra")), (4, t.gettext("recontra"))):
            view.add_item(button(label, f"m{m}", state.multiplier == m).with_row(2))
    for team in ("A", "B"):
        view.add_item(
            button(t.gettext("declarer: team {team}", team=team), f"d{team}", state.declarer == team).with_row(3)
        )
    go = button(t.gettext("Enter the points…"), "go").with_row(4)
    go.item.disabled = state.contract is None
    view.add_item(go)
    chosen = contract_label(state.contract, t) if state.contract is not None else "—"
    text = t.gettext(
        "Contract: {contract} · ×{multiplier} · declarer: team {team}",
        contract=chosen,
        multiplier=state.multiplier,
        team=state.declarer,
    )
    return discord.Embed(title=t.gettext("Score a deal"), description=text, colour=COLOUR), view


class FormButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORM_TEMPLATE):
    def __init__(self, custom_id: str, label: str = "·", chosen: bool = False) -> None:
        style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, style=style))

    def with_row(self, row: int) -> Self:
        self.row = row
        return self

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        match = FORM_TEMPLATE.fullmatch(self.custom_id)
        assert match is not None  # the template matched to get here
        state = FormState.from_match(match).after(match["act"])
        calculator: Calculator = interaction.client.adapter.calculator
        t = translator(await calculator.adapter.host.user_language(calculator.adapter.user_ref(interaction)))
        if foreign(interaction):
            await interaction.response.send_message(t.gettext("That button is not one of ours."), ephemeral=True)
            return
        if match["act"] == "go" and state.contract is not None:
            await interaction.response.send_modal(PointsModal(state, t))
            return
        embed, view = form_message(state, t)
        await interaction.response.edit_message(embed=embed, view=view)


class PointsModal(discord.ui.Modal):
    def __init__(self, state: FormState, t: Translator) -> None:
        # Submissions are handled by ``on_points_submitted``; discord.py forgets this object after ten minutes.
        super().__init__(title=t.gettext("Score a deal")[:45], custom_id=f"q:{state.code}", timeout=600)
        self.state = state
        family = state.contract in GAMES
        self.points: discord.ui.TextInput[PointsModal] = discord.ui.TextInput(
            label=(t.gettext("Callers' points, the last trick included") if family
                   else t.gettext("Declarers' points, the last ten included"))[:45],
            max_length=3,
            required=False,
            custom_id="points",
        )
        self.declared_a: discord.ui.TextInput[PointsModal] = discord.ui.TextInput(
            label=t.gettext("Team A announced")[:45], required=False, custom_id="a", placeholder="belote tierce:K"
        )
        self.declared_b: discord.ui.TextInput[PointsModal] = discord.ui.TextInput(
            label=t.gettext("Team B announced")[:45], required=False, custom_id="b", placeholder="carre:J"
        )
        self.valat: discord.ui.TextInput[PointsModal] = discord.ui.TextInput(
            label=t.gettext("Valat: the team that took every trick")[:45],
            required=False,
            max_length=1,
            custom_id="valat",
            placeholder="A / B",
        )
        for field in (self.points, self.declared_a, self.declared_b, self.valat):
            self.add_item(field)


def foreign(interaction: discord.Interaction[Any]) -> bool:
    """A form's button pressed anywhere but on a form: forms are private messages, so its custom_id was forged."""
    return interaction.message is None or not interaction.message.flags.ephemeral


def values_of(components: list[dict[str, Any]]) -> dict[str, str]:
    """Text inputs of a submitted modal by custom_id (in action rows, or in labels)."""
    found: dict[str, str] = {}
    for component in components:
        if component.get("type") == 1:
            found |= values_of(component.get("components", []))
        elif component.get("type") == 18 and "component" in component:
            found |= values_of([component["component"]])
        elif "custom_id" in component:
            found[str(component["custom_id"])] = str(component.get("value") or "")
    return found


async def on_points_submitted(interaction: discord.Interaction[Any]) -> bool:
    """Score a submitted points pop-up. Read from the interaction itself (not from the modal object discord.py
    keeps in memory), so a pop-up opened before a restart still counts. False if it is not ours."""
    data: dict[str, Any] = dict(interaction.data or {})
    match = MODAL_TEMPLATE.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False
    state = FormState.from_match(match)
    values = values_of(list(data.get("components", [])))
    valat = values.get("valat", "").strip().upper() or None
    declarations = {"A": values.get("a", "").split(), "B": values.get("b", "").split()}
    request: dict[str, Any] = {"declarer": state.declarer, "valat": valat, "declarations": declarations,
                               "hanging_in": 0, "rules": {}}
    if state.contract in GAMES:
        request["variant"] = GAMES[state.contract]
    else:
        request |= {"contract": CONTRACTS[state.contract or 0], "multiplier": state.multiplier}
    if valat is None:
        digits = values.get("points", "").strip()
        number = whole_number(digits)
        request["points"] = {state.declarer: digits if number is None else number}
    calculator: Calculator = interaction.client.adapter.calculator
    await calculator.on_score(interaction, request)
    return True


async def open_form(interaction: discord.Interaction[Any], t: Translator) -> None:
    embed, view = form_message(FormState(), t)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
