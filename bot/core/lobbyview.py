"""The lobby, the options menu and the table's options as text. Pure functions of the table state and a translator.

The menu shows the current game's options only: the table's own (timer, away, bots, language) and a few of the
game's rules (formats §2, §7.2); every other option is set with the ``set`` command.
"""

from __future__ import annotations

from bot.i18n import LANGUAGES, Translator

from . import names
from .messages import Button, OutMessage
from .table import Table, rule_keys
from .viewparts import dealing_lines, payload, seat_name

_TABLE_OPTIONS: dict[str, tuple[object, ...]] = {
    "timer": (60, 30, 120, 300, 0),
    "away": ("bot_turn", "bot_seat", "wait"),
    "level": ("medium", "hard", "easy", "random"),
    "lang": LANGUAGES,
    "auto_declarations": (False, True),
}
# Options the menu cycles through per game, and the values it offers (target first: the game's own default).
GAME_MENUS: dict[str, dict[str, tuple[object, ...]]] = {
    "bulgarian": {
        "target_score": (151, 101, 201, 301),
        **_TABLE_OPTIONS,
        "contra_blocks_bidding": (False, True),
        "must_undertrump": (False, True),
        "review": (True, False),  # the review button exists for this game only so far
    },
    "bela": {"target_score": (1001, 501, 701, 1501), **_TABLE_OPTIONS, "end_rule": ("na_prolaz", "na_dosta")},
    "french": {"target_score": (1000, 500, 1500, 2000), **_TABLE_OPTIONS, "must_undertrump": (True, False)},
    "bela-3": {
        "target_score": (701, 501, 1001),
        **_TABLE_OPTIONS,
        "fall_points": ("vanish", "higher_opponent", "both_opponents"),
        "forced_first_caller": (True, False),
    },
    "bela-2": {
        "target_score": (501, 301, 701, 1001),
        **_TABLE_OPTIONS,
        "seven_exchange": ("trump", "always", "off"),
        "stock_visible": (False, True),
    },
    "bela-open": {
        "target_score": (501, 301, 701, 1001),
        **{k: v for k, v in _TABLE_OPTIONS.items() if k != "auto_declarations"},  # its declarations are automatic
        "open_trump": ("croatian", "french"),
        "open_declarations": (False, True),
    },
}
MENU_OPTIONS = GAME_MENUS["bulgarian"]
_RULE_OPTIONS = ("auto_declarations",)  # keys of _TABLE_OPTIONS that belong to a game's rules
# One code per option over every game, so a press names its option whatever game the table plays now.
MENU_CODES = {key: str(i) for i, key in enumerate(dict.fromkeys(k for menu in GAME_MENUS.values() for k in menu))}


def menu_options(table: Table) -> dict[str, tuple[object, ...]]:
    """The options the menu offers at this table (its game's). A game without a menu of its own gets its target
    and the table's own options (every other option is set with ``set``)."""
    menu = GAME_MENUS.get(table.game)
    if menu is not None:
        return menu
    rules = rule_keys(table.game)
    target = int(table.rules.target_score)
    return {
        "target_score": tuple(dict.fromkeys((target, 101, 151, 301))),
        **{k: v for k, v in _TABLE_OPTIONS.items() if k not in _RULE_OPTIONS or k in rules},
    }


def options_line(table: Table, tr: Translator) -> str:
    o = table.options
    parts = [
        tr.gettext("to {n}", n=table.rules.target_score),
        tr.gettext("turn timer: {t}", t=names.seconds(o.timer, tr)) if o.timer else tr.gettext("no turn timer"),
        tr.gettext("away: {policy}", policy=names.away_name(o.away, tr)),
        tr.gettext("bots: {level}", level=names.level_name(o.level, tr)),
        names.language_name(o.lang, tr),
    ]
    if o.tracker:
        parts.append(tr.gettext("card tracker"))
    if not o.review and table.game == "bulgarian":
        parts.append(tr.gettext("no review button"))
    extra = [f"{k}={v}" for k, v in sorted(o.rules.items()) if k != "target_score"]
    line = names.game_label(table.game, tr) + " · " + " · ".join(parts)
    if extra:
        line += "\n" + tr.gettext("Table options: {options}", options=", ".join(extra))
    return line


def rules_text(table: Table, tr: Translator) -> str:
    """The table's options: timer, away policy, bots, language, and every rule option of its game with its value."""
    rules = table.rules.model_dump()
    lines = [tr.gettext("**Options of table {table}**", table=table.table_id), options_line(table, tr)]
    lines.append(", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()))
    return "\n".join(lines)


def lobby(table: Table, tr: Translator) -> OutMessage:
    lines = [tr.gettext("**Belote table {table}**", table=table.table_id)]
    if not table.teams:
        lines.append(tr.gettext("{n} players, each on their own.", n=len(table.seats)))
    for seat in range(len(table.seats)):
        team = f" ({'AB'[seat % 2]})" if table.teams else ""
        lines.append(f"{seat + 1}. {seat_name(table, seat, tr)}{team}")
    lines.append(options_line(table, tr))
    buttons: list[tuple[Button, ...]] = []
    if table.status == "lobby":
        free = table.free_seats()
        seat_buttons = []
        for seat in free:
            partner = table.seats[(seat + 2) % 4] if table.teams else None
            label = (
                tr.gettext("Seat {n} (partner of {name})", n=seat + 1, name=partner.name)
                if partner is not None and partner.kind == "human"
                else tr.gettext("Seat {n}", n=seat + 1)
            )
            seat_buttons.append(Button(label, payload(table, f"j{seat}")))
        if seat_buttons:
            buttons.append(tuple(seat_buttons[:2]))
            if len(seat_buttons) > 2:
                buttons.append(tuple(seat_buttons[2:]))
        buttons.append(
            (Button(tr.gettext("Join"), payload(table, "j")), Button(tr.gettext("Leave"), payload(table, "l")))
        )
        buttons.append(
            (Button(tr.gettext("Add bot"), payload(table, "a")), Button(tr.gettext("Remove bot"), payload(table, "r")))
        )
        # Discord shows five rows of buttons at most: the game button shares the last row.
        buttons.append(
            (
                Button(tr.gettext("Options"), payload(table, "o")),
                Button(tr.gettext("Game: {name}", name=names.game_label(table.game, tr)), payload(table, "g")),
                Button(tr.gettext("Start"), payload(table, "s")),
            )
        )
        lines.append(tr.gettext("Take a seat, add bots, and start."))
    elif table.status == "playing":
        lines.append(tr.gettext("The match is on."))
    elif table.status == "finished":
        lines.append(tr.gettext("The match is over."))
    else:
        lines.append(tr.gettext("The table was stopped."))
    lines.extend(dealing_lines(table, tr, reveal=False))
    return OutMessage(
        f"{table.table_id}:lobby",
        table.chat,
        "\n".join(lines),
        tuple(buttons),
        kind="lobby",
        table_id=table.table_id,
    )


def option_value(table: Table, key: str) -> object:
    o = table.options
    if key in ("timer", "away", "level", "lang", "review"):
        return getattr(o, key)
    return getattr(table.rules, key)


def option_label(table: Table, key: str, tr: Translator) -> str:
    value = option_value(table, key)
    yes_no = tr.gettext("on") if value is True else tr.gettext("off") if value is False else ""
    if key == "target_score":
        return tr.gettext("Play to {n}", n=value)
    if key == "timer":
        return tr.gettext("Timer: {t}", t=names.seconds(int(str(value)), tr)) if value else tr.gettext("Timer: off")
    if key == "away":
        return tr.gettext("Away: {policy}", policy=names.away_name(str(value), tr))
    if key == "level":
        return tr.gettext("Bots: {level}", level=names.level_name(str(value), tr))
    if key == "lang":
        return tr.gettext("Language: {lang}", lang=names.language_name(str(value), tr))
    if key == "auto_declarations":
        return tr.gettext("Automatic declarations: {on}", on=yes_no)
    if key == "review":
        return tr.gettext("Review button: {on}", on=yes_no)
    if key == "contra_blocks_bidding":
        return tr.gettext("Contra ends bidding: {on}", on=yes_no)
    if key == "end_rule":
        return (
            tr.gettext("Match ends: at once (na dosta)")
            if value == "na_dosta"
            else tr.gettext("Match ends: after the deal (na prolaz)")
        )
    if key == "must_undertrump":
        return tr.gettext("Must undertrump: {on}", on=yes_no)
    if key == "fall_points":
        return {
            "vanish": tr.gettext("A fallen caller's points: vanish"),
            "higher_opponent": tr.gettext("A fallen caller's points: to the higher opponent"),
        }.get(str(value), tr.gettext("A fallen caller's points: to both opponents"))
    if key == "forced_first_caller":
        return tr.gettext("First player must call: {on}", on=yes_no)
    if key == "seven_exchange":
        return {
            "trump": tr.gettext("Seven exchange: when trump is the turned suit"),
            "always": tr.gettext("Seven exchange: always"),
        }.get(str(value), tr.gettext("Seven exchange: off"))
    if key == "stock_visible":
        return tr.gettext("Stock face up: {on}", on=yes_no)
    if key == "open_trump":
        return (
            tr.gettext("Trump: French (the last card proposes it)")
            if value == "french"
            else tr.gettext("Trump: Croatian (named freely)")
        )
    if key == "open_declarations":
        return tr.gettext("Declarations: {on}", on=yes_no)
    return f"{key}: {yes_no or value}"


def options_menu(table: Table, tr: Translator) -> OutMessage:
    labels = [
        Button(option_label(table, key, tr), payload(table, f"o:{MENU_CODES[key]}")) for key in menu_options(table)
    ]
    rows = [tuple(labels[i : i + 2]) for i in range(0, len(labels), 2)]
    done = Button(tr.gettext("Done"), payload(table, "od"))
    if len(rows[-1]) == 1 and len(rows) == 5:
        rows[-1] = (*rows[-1], done)  # Discord shows five rows at most
    else:
        rows.append((done,))
    text = tr.gettext("**Options of table {table}**", table=table.table_id) + "\n" + options_line(table, tr)
    return OutMessage(f"{table.table_id}:opts", table.chat, text, tuple(rows), kind="options", table_id=table.table_id)


def options_closed(table: Table, tr: Translator) -> OutMessage:
    text = tr.gettext("**Options of table {table}**", table=table.table_id) + "\n" + options_line(table, tr)
    return OutMessage(f"{table.table_id}:opts", table.chat, text, (), kind="options", table_id=table.table_id)
