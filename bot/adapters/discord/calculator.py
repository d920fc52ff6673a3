"""The real-life calculator and score sheet: ``/score`` (a typed line, or the command's own options as a form) and
``/sheet``; a scored deal carries an "Add to the sheet" button.

Scoring, explanations and the sheet are ``bot.calculator``'s. The button keeps working after a restart because its
``custom_id`` carries the whole deal (``s:`` + a compact form of the formats.md §5 request); the channel's sheet is
kept in the host's storage.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.calculator.book import HISTORY_HEAD, NO_HISTORY, RESTORED, WHO_MAY, SheetBook, Writer, sheet_error_text
from bot.calculator.errors import CalculatorError, Msg
from bot.calculator.family_score import FamilyAnswer
from bot.calculator.family_text import family_game
from bot.calculator.score import DealAnswer, score
from bot.calculator.sheet import SheetError
from bot.calculator.sheets import Entry, Line, Sheet, entry_on, sheet_game, write_entry
from bot.calculator.small_score import Answer, SmallAnswer
from bot.calculator.text import parse_text, score_text
from bot.core.messages import DISCORD
from bot.i18n import Translator, translator

from .text import CONTENT_LIMIT, EMBED_DESCRIPTION_LIMIT, clip, markup

if TYPE_CHECKING:
    from .adapter import DiscordAdapter

CONTRACTS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
ADD_PREFIX: Final = "s:"
# s:<contract 0-5><multiplier 1|2|4><declarer A|B><valat -|A|B>;<points A>;<points B>;<declared by A>;<by B>
# s:<game b|f><caller A|B><valat -|A|B><declarations_winner -|A|B>;<points A>;<points B>;<declared by A>;<by B>
_COMPACT: Final = re.compile(
    r"s:(?P<c>[0-5])(?P<m>[124])(?P<d>[AB])(?P<v>[-AB]);(?P<a>\d*);(?P<b>\d*);(?P<x>[^;]*);(?P<y>[^;]*)"
    r"|s:(?P<g>[bf])(?P<fd>[AB])(?P<fv>[-AB])(?P<fw>[-AB]);(?P<fa>\d*);(?P<fb>\d*);(?P<fx>[^;]*);(?P<fy>[^;]*)"
    r"|s:(?P<sg>[xyotu])(?P<sd>[0-2])(?P<sv>[-0-2])(?P<sw>[-0-2])(?P<sc>[-0-5])(?P<sm>[124])(?P<sl>[-0-2])"
    r"(?P<sn>[-0-2]);(?P<p0>\d*);(?P<p1>\d*);(?P<p2>\d*);(?P<d0>[^;]*);(?P<d1>[^;]*);(?P<d2>[^;]*)"
)
FAMILY_CODES: Final = {"bela": "b", "french": "f"}
# s:<game><caller><valat><declarations_winner><contract -|0-5><multiplier><dealer><no_trick>;<points by seat>;
# <declared by seat 0>;<1>;<2> for the games of three and two (seats 0-2, "-" for none)
SMALL_CODES: Final = {"bela-3": "x", "bela-2": "y", "bela-open": "o", "bulgarian-3": "t", "bulgarian-2": "u"}
COLOUR: Final = 0x6A1B9A


def compact(request: dict[str, Any]) -> str | None:
    """The request in a button's custom_id (at most 100 characters), or None if it does not fit."""
    if request.get("variant") in FAMILY_CODES:
        return _compact_family(request)
    if request.get("variant") in SMALL_CODES:
        return _compact_small(request)
    try:
        contract = CONTRACTS.index(request["contract"])
        points = request.get("points") or {}
        declared = request.get("declarations") or {}
        text = "s:{}{}{}{};{};{};{};{}".format(
            contract,
            int(request.get("multiplier") or 1),
            request.get("declarer") or "A",
            request.get("valat") or "-",
            points.get("A", ""),
            points.get("B", ""),
            ",".join(declared.get("A", [])),
            ",".join(declared.get("B", [])),
        )
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
    return text if len(text) <= 100 and _COMPACT.fullmatch(text) else None


def _compact_family(request: dict[str, Any]) -> str | None:
    """A Bela or French request (formats §7.5) in a custom_id; the sheet adds its own held points and options."""
    points = request.get("points") or {}
    declared = request.get("declarations") or {}
    text = "s:{}{}{}{};{};{};{};{}".format(
        FAMILY_CODES[request["variant"]],
        request.get("declarer") or "A",
        request.get("valat") or "-",
        request.get("declarations_winner") or "-",
        points.get("A", ""),
        points.get("B", ""),
        ",".join(declared.get("A", [])),
        ",".join(declared.get("B", [])),
    )
    return text if len(text) <= 100 and _COMPACT.fullmatch(text) else None


def _compact_small(request: dict[str, Any]) -> str | None:
    """A request of a game of three or two in a custom_id; the sheet adds its own pot, options and names."""
    points = request.get("points") or {}
    declared = request.get("declarations") or {}
    contract = request.get("contract")
    no_trick = request.get("no_trick") or []
    text = "s:{}{}{}{}{}{}{}{};{};{};{};{};{};{}".format(
        SMALL_CODES[request["variant"]],
        request.get("declarer") or "0",
        request.get("valat") or "-",
        request.get("declarations_winner") or "-",
        "-" if contract is None else CONTRACTS.index(contract),
        int(request.get("multiplier") or 1),
        request.get("dealer") or "-",
        no_trick[0] if no_trick else "-",
        *(points.get(k, "") for k in "012"),
        *(",".join(declared.get(k, [])) for k in "012"),
    )
    return text if len(text) <= 100 and _COMPACT.fullmatch(text) else None


def _expand_small(match: re.Match[str]) -> dict[str, Any]:
    variant = next(v for v, code in SMALL_CODES.items() if code == match["sg"])
    seats = "012"[: 3 if variant.endswith("3") else 2]
    request: dict[str, Any] = {
        "variant": variant,
        "declarer": match["sd"],
        "valat": None if match["sv"] == "-" else match["sv"],
        "points": {k: int(match[f"p{k}"]) for k in seats if match[f"p{k}"]},
        "declarations": {k: [d for d in match[f"d{k}"].split(",") if d] for k in seats},
    }
    if match["sw"] != "-":
        request["declarations_winner"] = match["sw"]
    if match["sc"] != "-":
        request["contract"] = CONTRACTS[int(match["sc"])]
    if variant.startswith("bulgarian"):
        request["multiplier"] = int(match["sm"])
    if match["sl"] != "-":
        request["dealer"] = match["sl"]
    if match["sn"] != "-":
        request["no_trick"] = [match["sn"]]
    if not request["points"]:
        del request["points"]
    return request


def expand(custom_id: str) -> dict[str, Any] | None:
    match = _COMPACT.fullmatch(custom_id)
    if match is None:
        return None
    if match["sg"] is not None:
        return _expand_small(match)
    if match["g"] is not None:
        request: dict[str, Any] = {
            "variant": "bela" if match["g"] == "b" else "french",
            "declarer": match["fd"],
            "valat": None if match["fv"] == "-" else match["fv"],
            "points": {team: int(match[key]) for team, key in (("A", "fa"), ("B", "fb")) if match[key]},
            "declarations": {team: [d for d in match[key].split(",") if d] for team, key in (("A", "fx"),
                                                                                          ("B", "fy"))},
        }
        if match["fw"] != "-":
            request["declarations_winner"] = match["fw"]
        return request
    points = {team: int(match[key]) for team, key in (("A", "a"), ("B", "b")) if match[key]}
    return {
        "contract": CONTRACTS[int(match["c"])],
        "multiplier": int(match["m"]),
        "declarer": match["d"],
        "valat": None if match["v"] == "-" else match["v"],
        "points": points,
        "declarations": {team: [d for d in match[key].split(",") if d] for team, key in (("A", "x"), ("B", "y"))},
        "hanging_in": 0,
        "rules": {},
    }


class AddToSheet(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_COMPACT):
    def __init__(self, custom_id: str, label: str = "+") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AddToSheet:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        calculator: Calculator = interaction.client.adapter.calculator
        await calculator.on_add(interaction, self.custom_id)


# How a sheet of the game a refused line belongs to is started here (the game as /sheet new's choices name it).
START_OTHER: Final = Msg("/sheet new with game: {game} starts a sheet of it; this one stays in /sheet history.")


def _errors(err: SheetError | CalculatorError, lang: str) -> str:
    return sheet_error_text(err, lang, START_OTHER)


def sheet_help(t: Translator) -> list[str]:
    return [
        t.gettext("/sheet show: the sheet. /sheet add entry: 90 72 (two numbers) or entry: hearts 102 (a deal)."),
        t.gettext("/sheet undo removes the last line; /sheet fix number: 2 entry: 80 82 corrects a line; "
                  "/sheet new team_a: … team_b: … starts a new sheet."),
        WHO_MAY.render(t.lang),
        t.gettext("An admin here is someone who may manage the server or the channel."),
    ]


class Calculator:
    def __init__(self, adapter: DiscordAdapter) -> None:
        self.adapter = adapter
        self.book = SheetBook(adapter.host.storage, DISCORD)

    async def _languages(self, interaction: discord.Interaction[Any]) -> tuple[str, str]:
        """(the person's language for private replies, the channel's for public ones)."""
        host = self.adapter.host
        await self.adapter.note_server(interaction)
        user = self.adapter.user_ref(interaction)
        chat = self.adapter.chat_ref(interaction)
        mine = await host.user_language(user)
        return mine, (await host.chat_language(chat) if chat is not None else mine)

    async def _defer_if_behind(self, interaction: discord.Interaction[Any]) -> None:
        """While the event loop lags, acknowledge first (as game commands do): the answer follows when ready."""
        if interaction.response.is_done() or not self.adapter.lagging():
            return
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()  # nothing shows until the answer
        else:
            await interaction.response.defer(thinking=True)  # "thinking…" in the channel, replaced by the answer

    async def _private(self, interaction: discord.Interaction[Any], text: str) -> None:
        content = clip(markup(text), CONTENT_LIMIT)
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=True)
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # The channel's "thinking…" would become this answer, for everyone to see: remove it, answer privately.
            await interaction.delete_original_response()
        await interaction.followup.send(content, ephemeral=True)

    async def _public(
        self, interaction: discord.Interaction[Any], embed: discord.Embed, view: discord.ui.View | None = None
    ) -> None:
        if not interaction.response.is_done():
            if view is None:
                await interaction.response.send_message(embed=embed)
            else:
                await interaction.response.send_message(embed=embed, view=view)
        elif view is None:
            await interaction.followup.send(embed=embed)
        else:
            await interaction.followup.send(embed=embed, view=view)

    # --- /score ---

    async def on_score(self, interaction: discord.Interaction[Any], request: dict[str, Any] | str | None) -> None:
        if request is not None:  # the form opens at once (and a pop-up can only be the first answer)
            await self._defer_if_behind(interaction)
        mine, public = await self._languages(interaction)
        t = translator(mine)
        if request is None:
            from .score_form import open_form  # the form module builds on this one

            await open_form(interaction, t)
            return
        try:
            if isinstance(request, str) and family_game(request) is not None:
                answer = score_text(request, lang=mine)
                assert isinstance(answer, FamilyAnswer | SmallAnswer)
                data = answer.request.to_json()
            else:
                data = parse_text(request) if isinstance(request, str) else request
                answer = score(data)
                if isinstance(answer, SmallAnswer):  # as a typed line's: the same "Add to the sheet" button
                    data = answer.request.to_json()
        except CalculatorError as err:
            await self._private(interaction, t.gettext("That deal cannot be scored:") + "\n" + _errors(err, mine))
            return
        embed = self._answer_embed(answer, public)
        # The button writes on the channel's sheet: none in a direct message.
        custom_id = compact(data) if self.adapter.chat_ref(interaction) is not None else None
        view = None
        if custom_id is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(AddToSheet(custom_id, translator(public).gettext("Add to the sheet")))
        await self._public(interaction, embed, view)

    @staticmethod
    def _answer_embed(answer: Answer, lang: str) -> discord.Embed:
        steps = [f"{i}. {markup(step)}" for i, step in enumerate(answer.explanation(lang), 1)]
        return discord.Embed(
            title=clip(answer.summary(lang), 256),
            description=clip("\n".join(steps), EMBED_DESCRIPTION_LIMIT) or "\u200b",
            colour=COLOUR,
        )

    # --- the sheet ---

    @staticmethod
    def writer(interaction: discord.Interaction[Any]) -> Writer:
        """Who writes on the sheet; Discord says with the interaction whether they may manage the channel."""
        permissions = interaction.permissions

        async def is_admin() -> bool:
            return permissions.administrator or permissions.manage_guild or permissions.manage_channels

        return Writer(str(interaction.user.id), interaction.user.display_name, is_admin)

    @staticmethod
    def _sheet_embed(sheet: Sheet, lang: str, headline: str = "") -> discord.Embed:
        rows = [markup(row) for row in sheet.history(lang)]
        text = "\n".join(([f"**{markup(headline)}**"] if headline else []) + rows)
        return discord.Embed(description=clip(text, EMBED_DESCRIPTION_LIMIT), colour=COLOUR)

    async def on_add(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await self._defer_if_behind(interaction)
        mine, public = await self._languages(interaction)
        request = expand(custom_id)
        chat = self.adapter.chat_ref(interaction)
        if request is None or chat is None:
            await self._private(interaction, translator(mine).gettext("That button is not one of ours."))
            return
        try:
            once = f"message:{interaction.message.id}" if interaction.message is not None else None
            writer = self.writer(interaction)
            sheet, line = await self.book.add(chat.key, writer, lambda sheet: sheet.add(request), once)
        except (SheetError, CalculatorError) as err:
            await self._private(interaction, _errors(err, mine))
            return
        headline = translator(public).gettext("Line {n} added.", n=line.number)
        # The answer loses its button (one deal, one line); the channel sees the sheet.
        if interaction.response.is_done():
            await interaction.edit_original_response(view=None)
        else:
            await interaction.response.edit_message(view=None)
        await interaction.followup.send(embed=self._sheet_embed(sheet, public, headline))

    async def on_sheet(self, interaction: discord.Interaction[Any], action: str, *args: str) -> None:
        await self._defer_if_behind(interaction)
        mine, public = await self._languages(interaction)
        t, tp = translator(mine), translator(public)
        chat = self.adapter.chat_ref(interaction)
        if chat is None:
            await self._private(interaction, t.gettext("Belote is played in a server's text channel or thread."))
            return
        if action == "help":
            await self._private(interaction, "\n".join(sheet_help(t)))
            return
        writer, book, key = self.writer(interaction), self.book, chat.key
        headline = ""
        try:
            if action == "history":
                old = await book.history(key, mine)
                await self._private(interaction, "\n".join([(HISTORY_HEAD if old else NO_HISTORY).render(mine), *old]))
                return
            if action == "new":
                game, names = sheet_game([n for n in args if n])
                sheet = await book.new(key, writer, names, game)
                headline = tp.gettext("A new sheet.")
            elif action == "restore":
                sheet = await book.restore(key, writer, int(args[0]))
                headline = RESTORED.render(public)
            elif action == "add":
                sheet, line = await book.add(key, writer, lambda sheet: self._add(sheet, args[0], public))
                headline = tp.gettext("Line {n} added.", n=line.number)
            elif action == "undo":
                sheet, removed = await book.undo(key, writer)
                headline = tp.gettext("Line {n} removed.", n=removed.number)
            elif action == "fix":
                number = int(args[0])
                entry = self._entry(await book.load(key), args[1], public)
                sheet = await book.fix(key, writer, number, entry)
                headline = tp.gettext("Line {n} corrected.", n=number)
            else:
                sheet = await book.load(key)
        except (SheetError, CalculatorError) as err:
            await self._private(interaction, _errors(err, mine))
            return
        await self._public(interaction, self._sheet_embed(sheet, public, headline))

    @staticmethod
    def _entry(sheet: Sheet, text: str, lang: str) -> Entry:
        """Two numbers as written by hand ("90 72", "— 162"), or a deal to score in the sheet's game."""
        entry = entry_on(sheet, text.split(), lang)
        # A Bulgarian deal is kept as its request, as it always was; the others as their answer.
        return parse_text(text, sheet.teams) if isinstance(entry, DealAnswer) else entry

    def _add(self, sheet: Sheet, text: str, lang: str) -> Line:
        return write_entry(sheet, self._entry(sheet, text, lang))


def install(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(score_command)
    tree.add_command(SheetGroup())


def calculator_of(interaction: discord.Interaction[Any]) -> Calculator:
    calculator: Calculator = interaction.client.adapter.calculator
    return calculator


CONTRACT_CHOICES = [app_commands.Choice(name=_(name), value=name) for name in CONTRACTS]
TEAM_CHOICES = [app_commands.Choice(name="A", value="A"), app_commands.Choice(name="B", value="B")]
GAME_CHOICES = [
    app_commands.Choice(name=_("Bulgarian belote"), value="bulgarian"),
    app_commands.Choice(name=_("Bela"), value="bela"),
    app_commands.Choice(name=_("French belote"), value="french"),
    app_commands.Choice(name=_("Bela for three"), value="bela-3"),
    app_commands.Choice(name=_("Bela for two"), value="bela-2"),
    app_commands.Choice(name=_("Open-card Bela"), value="bela-open"),
    app_commands.Choice(name=_("Bulgarian belote for three (house rules)"), value="bulgarian-3"),
    app_commands.Choice(name=_("Bulgarian belote for two (house rules)"), value="bulgarian-2"),
]
LETTER_CHOICES = [  # bot.core.scanflow.LETTERS
    app_commands.Choice(name="J Q K (B D K)", value="latin"),
    app_commands.Choice(name="В Д П", value="cyrillic"),
]
MULTIPLIERS = [
    app_commands.Choice(name=_("no contra"), value=1),
    app_commands.Choice(name=_("contra"), value=2),
    app_commands.Choice(name=_("recontra"), value=4),
]


@app_commands.command(name="score", description=_("Score a real-life deal, with the explanation"))
@app_commands.describe(
    line=_("The deal as you would say it, e.g. hearts 102 60 belote A"),
    contract=_("The contract"),
    points=_("Card points of the declarers, the last ten included"),
    declarer=_("The team that made the contract"),
    multiplier=_("Contra or recontra"),
    declared_a=_("What team A announced, e.g. belote tierce:K"),
    declared_b=_("What team B announced, e.g. carre:J"),
    valat=_("The team that took every trick"),
    photo=_("Or a photo of one side's won cards, spread so that each corner shows"),
    letters=_("With a photo: the letters on the pack's jacks, queens and kings (the channel keeps them)"),
)
@app_commands.choices(contract=CONTRACT_CHOICES, declarer=TEAM_CHOICES, valat=TEAM_CHOICES)
@app_commands.choices(multiplier=MULTIPLIERS)
@app_commands.choices(letters=LETTER_CHOICES)
async def score_command(
    interaction: discord.Interaction[Any],
    line: str | None = None,
    contract: app_commands.Choice[str] | None = None,
    points: app_commands.Range[int, 0, 258] | None = None,
    declarer: app_commands.Choice[str] | None = None,
    multiplier: app_commands.Choice[int] | None = None,
    declared_a: str = "",
    declared_b: str = "",
    valat: app_commands.Choice[str] | None = None,
    photo: discord.Attachment | None = None,
    letters: app_commands.Choice[str] | None = None,
) -> None:
    if photo is not None:  # the scanner's flow (scan.py) reads the cards and asks the rest with buttons
        await interaction.client.adapter.scans.on_photo(interaction, photo, letters.value if letters else None)
        return
    request: dict[str, Any] | str | None = line
    if line is None and contract is not None:
        team = declarer.value if declarer else "A"
        request = {
            "contract": contract.value,
            "multiplier": multiplier.value if multiplier else 1,
            "declarer": team,
            "valat": valat.value if valat else None,
            "declarations": {"A": declared_a.split(), "B": declared_b.split()},
            "hanging_in": 0,
            "rules": {},
        }
        if valat is None:
            request["points"] = {team: points or 0}
    await calculator_of(interaction).on_score(interaction, request)


class SheetGroup(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="sheet", description=_("This channel's score sheet for a real-life match"), guild_only=True
        )

    @app_commands.command(name="show", description=_("Show the sheet"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await calculator_of(interaction).on_sheet(interaction, "show")

    @app_commands.command(name="new", description=_("Start a new sheet"))
    @app_commands.describe(team_a=_("Name of team A"), team_b=_("Name of team B"),
                           game=_("The game the sheet keeps (Bulgarian belote unless chosen)"),
                           player_c=_("A game of three: the third player's name (team_a and team_b name the others)"))
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], team_a: str = "", team_b: str = "",
                  game: str = "bulgarian", player_c: str = "") -> None:
        await calculator_of(interaction).on_sheet(interaction, "new", game, team_a, team_b, player_c)

    @app_commands.command(name="add", description=_("Add a line: two numbers (90 72) or a deal (hearts 102)"))
    @app_commands.describe(entry=_("Two numbers, or a deal as you would say it"))
    async def add(self, interaction: discord.Interaction[Any], entry: str) -> None:
        await calculator_of(interaction).on_sheet(interaction, "add", entry)

    @app_commands.command(name="undo", description=_("Remove the last line"))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await calculator_of(interaction).on_sheet(interaction, "undo")

    @app_commands.command(name="history", description=_("The sheets as they were before each change"))
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        await calculator_of(interaction).on_sheet(interaction, "history")

    @app_commands.command(name="restore", description=_("Bring back a sheet from the history"))
    @app_commands.describe(number=_("Its number in /sheet history"))
    async def restore(self, interaction: discord.Interaction[Any], number: app_commands.Range[int, 1]) -> None:
        await calculator_of(interaction).on_sheet(interaction, "restore", str(number))

    @app_commands.command(name="help", description=_("How the sheet works, and who may change it"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await calculator_of(interaction).on_sheet(interaction, "help")

    @app_commands.command(name="fix", description=_("Correct a line; the lines after it are recomputed"))
    @app_commands.describe(number=_("The line's number"), entry=_("Two numbers, or a deal as you would say it"))
    async def fix(self, interaction: discord.Interaction[Any], number: app_commands.Range[int, 1], entry: str) -> None:
        await calculator_of(interaction).on_sheet(interaction, "fix", str(number), entry)
