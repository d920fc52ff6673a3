"""Rendering a table into neutral messages: the lobby, the options menu, the group's table, deal and match results,
and each player's private view. Pure functions of the table state and a translator.

Message keys (unique per platform, stable across restarts): ``<table>:lobby``, ``<table>:opts``, ``<table>:d<n>``
(the group's view of deal n), ``<table>:r<n>`` (deal n's result), ``<table>:end``, ``<table>:h<seat>:<user>`` (a
player's hand), ``<table>:p<seat>:<user>`` (a "your turn" ping), ``<table>:n<version>`` (a notice).
"""

from __future__ import annotations

from bot.engine import Deal
from bot.engine.calls import ALL_TRUMPS, NO_TRUMPS
from bot.engine.cards import PLAIN_STRENGTH, SUIT_SYMBOLS, TRUMP_STRENGTH
from bot.engine.shuffle import SCHEME, commitment
from bot.i18n import LANGUAGES, Translator

from . import names
from .explain import deal_explanation
from .messages import Button, ChatRef, Keyboard, OutMessage, UserRef
from .payload import encode
from .table import Table

# Suits in display order (colours alternate); a trump suit goes first.
_SUIT_ORDER = (3, 2, 0, 1)


def _payload(table: Table, action: str) -> str:
    return encode(table.table_id, table.version, action)


def seat_name(table: Table, seat: int, tr: Translator) -> str:
    s = table.seats[seat]
    if s.kind == "empty":
        return tr.gettext("free")
    if s.kind == "bot":
        if s.name:
            return tr.gettext("{name} (bot)", name=s.name)
        return tr.gettext("Bot {n}", n=seat + 1)
    return s.name or tr.gettext("Player {n}", n=seat + 1)


def _teams_line(table: Table, tr: Translator) -> str:
    return tr.gettext(
        "A: {a1} & {a2} · B: {b1} & {b2}",
        a1=seat_name(table, 0, tr),
        a2=seat_name(table, 2, tr),
        b1=seat_name(table, 1, tr),
        b2=seat_name(table, 3, tr),
    )


def sort_hand(cards: list[int], contract: int | None) -> list[int]:
    """The hand grouped by suit (trumps first) and ordered by strength in the contract, strongest first."""

    def strength(card: int) -> int:
        suit = card >> 3
        trump = contract == ALL_TRUMPS or (contract is not None and contract < NO_TRUMPS and suit == contract)
        return (TRUMP_STRENGTH if trump else PLAIN_STRENGTH)[card & 7]

    order = list(_SUIT_ORDER)
    if contract is not None and contract < NO_TRUMPS:
        order.remove(contract)
        order.insert(0, contract)
    return sorted(cards, key=lambda c: (order.index(c >> 3), -strength(c)))


def hand_text(cards: list[int], contract: int | None) -> str:
    groups: dict[int, list[str]] = {}
    for card in sort_hand(cards, contract):
        groups.setdefault(card >> 3, []).append(names.card_label(card)[:-1])
    return "  ".join(SUIT_SYMBOLS[s] + " " + " ".join(ranks) for s, ranks in groups.items())


def _options_line(table: Table, tr: Translator) -> str:
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
    extra = [f"{k}={v}" for k, v in sorted(o.rules.items()) if k != "target_score"]
    line = " · ".join(parts)
    if extra:
        line += "\n" + tr.gettext("Table options: {options}", options=", ".join(extra))
    return line


def rules_text(table: Table, tr: Translator) -> str:
    """The table's options: timer, away policy, bots, language, and every rule option (formats.md §2) with its value."""
    rules = table.rules.model_dump()
    lines = [tr.gettext("**Options of table {table}**", table=table.table_id), _options_line(table, tr)]
    lines.append(", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()))
    return "\n".join(lines)


# --- lobby and options ---


def lobby(table: Table, tr: Translator) -> OutMessage:
    lines = [tr.gettext("**Belote table {table}**", table=table.table_id)]
    for seat in range(4):
        team = "A" if seat % 2 == 0 else "B"
        lines.append(f"{seat + 1}. {seat_name(table, seat, tr)} ({team})")
    lines.append(_options_line(table, tr))
    buttons: list[tuple[Button, ...]] = []
    if table.status == "lobby":
        free = table.free_seats()
        seat_buttons = []
        for seat in free:
            partner = table.seats[(seat + 2) % 4]
            label = (
                tr.gettext("Seat {n} (partner of {name})", n=seat + 1, name=partner.name)
                if partner.kind == "human"
                else tr.gettext("Seat {n}", n=seat + 1)
            )
            seat_buttons.append(Button(label, _payload(table, f"j{seat}")))
        if seat_buttons:
            buttons.append(tuple(seat_buttons[:2]))
            if len(seat_buttons) > 2:
                buttons.append(tuple(seat_buttons[2:]))
        buttons.append(
            (
                Button(tr.gettext("Join"), _payload(table, "j")),
                Button(tr.gettext("Leave"), _payload(table, "l")),
            )
        )
        buttons.append(
            (
                Button(tr.gettext("Add bot"), _payload(table, "a")),
                Button(tr.gettext("Remove bot"), _payload(table, "r")),
            )
        )
        buttons.append(
            (
                Button(tr.gettext("Options"), _payload(table, "o")),
                Button(tr.gettext("Start"), _payload(table, "s")),
            )
        )
        lines.append(tr.gettext("Take a seat, add bots, and start."))
    elif table.status == "playing":
        lines.append(tr.gettext("The match is on."))
    elif table.status == "finished":
        lines.append(tr.gettext("The match is over."))
    else:
        lines.append(tr.gettext("The table was stopped."))
    lines.extend(_dealing_lines(table, tr, reveal=False))
    return OutMessage(
        f"{table.table_id}:lobby", table.chat, "\n".join(lines), tuple(buttons), kind="lobby",
        table_id=table.table_id,
    )


# Options the menu cycles through (others are set with the "set" command), and the values it offers.
MENU_OPTIONS: dict[str, tuple[object, ...]] = {
    "target_score": (151, 101, 201, 301),
    "timer": (60, 30, 120, 300, 0),
    "away": ("bot_turn", "bot_seat", "wait"),
    "level": ("medium", "hard", "easy", "random"),
    "lang": LANGUAGES,
    "auto_declarations": (False, True),
    "contra_blocks_bidding": (False, True),
    "must_undertrump": (False, True),
}
MENU_CODES = {key: str(i) for i, key in enumerate(MENU_OPTIONS)}


def option_value(table: Table, key: str) -> object:
    o = table.options
    if key in ("timer", "away", "level", "lang"):
        return getattr(o, key)
    return getattr(table.rules, key)


def _option_label(table: Table, key: str, tr: Translator) -> str:
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
    if key == "contra_blocks_bidding":
        return tr.gettext("Contra ends bidding: {on}", on=yes_no)
    return tr.gettext("Must undertrump: {on}", on=yes_no)


def options_menu(table: Table, tr: Translator) -> OutMessage:
    labels = [Button(_option_label(table, key, tr), _payload(table, f"o:{MENU_CODES[key]}")) for key in MENU_OPTIONS]
    rows = [tuple(labels[i : i + 2]) for i in range(0, len(labels), 2)]
    rows.append((Button(tr.gettext("Done"), _payload(table, "od")),))
    text = tr.gettext("**Options of table {table}**", table=table.table_id) + "\n" + _options_line(table, tr)
    return OutMessage(
        f"{table.table_id}:opts", table.chat, text, tuple(rows), kind="options", table_id=table.table_id
    )


def options_closed(table: Table, tr: Translator) -> OutMessage:
    text = tr.gettext("**Options of table {table}**", table=table.table_id) + "\n" + _options_line(table, tr)
    return OutMessage(f"{table.table_id}:opts", table.chat, text, (), kind="options", table_id=table.table_id)


# --- the deal, publicly ---


def _announced(table: Table, deal: Deal, tr: Translator) -> str:
    parts = []
    for a in deal.announcements:
        who = seat_name(table, a.seat, tr)
        if a.belote_suit >= 0:
            parts.append(f"{who}: {names.declaration_name('belote', tr)} {SUIT_SYMBOLS[a.belote_suit]}")
        else:
            parts.append(f"{who}: " + ", ".join(names.declaration_name(k, tr) for k in a.kinds))
    return "; ".join(parts)


def _contract_line(table: Table, deal: Deal, tr: Translator) -> str:
    text = tr.gettext(
        "Contract: {contract} by {name} ({team})",
        contract=names.call_name(deal.contract, tr),
        name=seat_name(table, deal.bidder, tr),
        team=names.team_name(deal.declarer, tr),
    )
    if deal.multiplier == 2:
        text += " · " + names.call_name(7, tr)
    elif deal.multiplier == 4:
        text += " · " + names.call_name(8, tr)
    return text


def _trick_text(seat_names: list[str], leader: int, cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{seat_names[(leader + i) % 4]} {names.card_label(c)}" for i, c in enumerate(cards))


def deal_lines(table: Table, deal: Deal, number: int, tr: Translator) -> list[str]:
    match = table.match
    assert match is not None
    names4 = [seat_name(table, i, tr) for i in range(4)]
    lines = [
        tr.gettext("**Deal {n}** · dealer: {name}", n=number, name=names4[deal.dealer]),
        tr.gettext("A: {a1} & {a2} · B: {b1} & {b2}", a1=names4[0], a2=names4[2], b1=names4[1], b2=names4[3]),
    ]
    index = number - 1
    before = [0, 0]
    for r in match.results[:index]:
        if r is not None:
            before[0] += r.score[0]
            before[1] += r.score[1]
    lines.append(tr.gettext("Score: A {a} · B {b}", a=before[0], b=before[1]))
    if deal.hanging_in:
        lines.append(tr.gettext("Hanging points: {n}", n=deal.hanging_in))
    if deal.calls:
        calls = ", ".join(
            f"{names4[(deal.dealer + 1 + i) % 4]}: {names.call_name(c, tr)}"
            for i, c in enumerate(deal.calls)
        )
        lines.append(tr.gettext("Auction: {calls}", calls=calls))
    if deal.phase != "auction" and deal.contract >= 0:
        lines.append(_contract_line(table, deal, tr))
    if deal.passed_out:
        lines.append(tr.gettext("Everyone passed: the cards are dealt again."))
    if deal.announcements:
        lines.append(tr.gettext("Announced: {list}", list=_announced(table, deal, tr)))
    if deal.tricks:
        # Every trick of the deal stays listed: a busy group's view is edited less often than tricks end (its
        # budget is twenty messages a minute), and no trick may pass unseen between two edits.
        for n, done in enumerate(deal.tricks, 1):
            lines.append(
                tr.gettext(
                    "Trick {n}: {cards} (taken by {name})",
                    n=n,
                    cards=_trick_text(names4, done.leader, done.cards),
                    name=names4[done.winner],
                )
            )
        lines.append(
            tr.gettext("Tricks: A {a} · B {b}", a=deal.tricks_won[0], b=deal.tricks_won[1])
        )
    if deal.trick:
        lines.append(tr.gettext("Trick: {cards}", cards=_trick_text(names4, deal.trick_leader, deal.trick)))
    return lines


def table_view(table: Table, tr: Translator, deadline_seconds: int | None = None) -> OutMessage | None:
    """The group's message for the current deal (None before the match)."""
    match = table.match
    if match is None or not match.deals:
        return None
    number = len(match.deals)
    deal = match.deal
    lines = deal_lines(table, deal, number, tr)
    to_act = table.to_act
    buttons: list[tuple[Button, ...]] = []
    mention = None
    if to_act is not None and deal.phase != "done":
        who = seat_name(table, to_act, tr)
        if deadline_seconds:
            lines.append(tr.gettext("Turn: {name} ({t})", name=who, t=names.seconds(deadline_seconds, tr)))
        else:
            lines.append(tr.gettext("Turn: {name}", name=who))
        seat = table.seats[to_act]
        if seat.kind == "human":
            mention = UserRef(table.chat.platform, seat.user_id, seat.name)
        row = [Button(tr.gettext("My hand"), _payload(table, "h"))]
        if any(s.away for s in table.seats):
            row.append(Button(tr.gettext("I'm back"), _payload(table, "back")))
        buttons.append(tuple(row))
    return OutMessage(
        f"{table.table_id}:d{number}", table.chat, "\n".join(lines), tuple(buttons), kind="table",
        table_id=table.table_id, mention=mention,
    )


def finished_deal_view(table: Table, index: int, tr: Translator) -> OutMessage:
    """The group's message of a finished deal, in its final form (no buttons)."""
    assert table.match is not None
    deal = table.match.deals[index]
    lines = deal_lines(table, deal, index + 1, tr)
    return OutMessage(
        f"{table.table_id}:d{index + 1}", table.chat, "\n".join(lines), (), kind="table", table_id=table.table_id
    )


def result_view(table: Table, index: int, tr: Translator) -> OutMessage | None:
    """Deal ``index``'s result with its explanation (None for a passed-out deal)."""
    match = table.match
    assert match is not None
    deal = match.deals[index]
    result = match.results[index] if index < len(match.results) else None
    if result is None:
        return None
    lines = [
        tr.gettext(
            "**Deal {n}: {contract}, {team} — {outcome}**",
            n=index + 1,
            contract=names.call_name(result.contract, tr),
            team=names.team_name(result.declarer, tr),
            outcome=names.outcome_name(result.outcome, tr),
        )
    ]
    lines.extend(deal_explanation(deal, result, tr))
    totals = [0, 0]
    for r in match.results[: index + 1]:
        if r is not None:
            totals[0] += r.score[0]
            totals[1] += r.score[1]
    lines.append(tr.gettext("Match score: A {a} · B {b}", a=totals[0], b=totals[1]))
    if result.hanging:
        lines.append(tr.gettext("Hanging points: {n}", n=result.hanging))
    return OutMessage(
        f"{table.table_id}:r{index + 1}", table.chat, "\n".join(lines), (), notify=True, kind="result",
        table_id=table.table_id,
    )


def _dealing_lines(table: Table, tr: Translator, reveal: bool) -> list[str]:
    """The commitment to the match's secret seed, and the seed itself once the match has ended (docs/fairness.md)."""
    match = table.match
    if match is None or match.scheme != SCHEME:  # not started, or dealt the old way before commitments existed
        return []
    if not reveal:
        return [tr.gettext("Fair dealing: every deal follows from a secret seed whose SHA-256 is {commitment}; the "
                           "seed is shown when the match ends.", commitment=commitment(match.seed))]
    return [tr.gettext("The deals' seed: {seed}. Its SHA-256 is the commitment shown at the start; belote-bot verify "
                       "checks every deal of the match record against it.", seed=match.seed)]


def end_view(table: Table, tr: Translator) -> OutMessage:
    match = table.match
    if table.status == "finished" and match is not None and match.winner is not None:
        w = match.winner
        text = tr.gettext(
            "**Match over: {team} wins ({p1} & {p2})**",
            team=names.team_name(w, tr),
            p1=seat_name(table, w, tr),
            p2=seat_name(table, w + 2, tr),
        )
        text += "\n" + tr.gettext("Final score: A {a} · B {b}", a=match.totals[0], b=match.totals[1])
        text += "\n" + tr.ngettext("{n} deal played.", "{n} deals played.", len(match.deals))
    else:
        text = tr.gettext("**The table was stopped.**")
        if match is not None:
            text += "\n" + tr.gettext("Score: A {a} · B {b}", a=match.totals[0], b=match.totals[1])
    # The end view is only ever made once the table is finished or stopped: the seed can no longer tell a hand.
    text = "\n".join([text, *_dealing_lines(table, tr, reveal=table.status in ("finished", "stopped"))])
    return OutMessage(
        f"{table.table_id}:end", table.chat, text, (), notify=True, kind="result", table_id=table.table_id
    )


def notice(table: Table, text: str) -> OutMessage:
    return OutMessage(
        f"{table.table_id}:n{table.version}", table.chat, text, (), kind="notice", table_id=table.table_id
    )


# --- the deal, privately ---


def _where(table: Table, tr: Translator) -> str:
    if table.chat.title:
        return tr.gettext("**Table {table}** · {chat}", table=table.table_id, chat=table.chat.title)
    return tr.gettext("**Table {table}**", table=table.table_id)


def hand_view(table: Table, seat: int, user: UserRef, tr: Translator) -> OutMessage:
    """One player's private view: only what ``observe`` lets that seat know, and its legal actions as buttons."""
    key = f"{table.table_id}:h{seat}:{user.user_id}"
    lines = [_where(table, tr), tr.gettext("You sit at seat {n} ({team}).", n=seat + 1,
                                           team=names.team_name(seat % 2, tr))]
    match = table.match
    buttons: list[tuple[Button, ...]] = []
    if match is None or table.status != "playing":
        if table.status == "finished":
            lines.append(tr.gettext("The match is over."))
        elif table.status == "stopped":
            lines.append(tr.gettext("The table was stopped."))
        else:
            lines.append(tr.gettext("Waiting for the match to start."))
        return OutMessage(key, user, "\n".join(lines), (), kind="hand", table_id=table.table_id)
    from bot.engine import observe

    deal = match.deal
    obs = observe(deal, seat, (match.totals[0], match.totals[1]), match.hanging)
    contract = obs.contract
    if contract is not None:
        lines.append(_contract_line(table, deal, tr))
    elif obs.calls:
        calls = ", ".join(
            f"{seat_name(table, (obs.dealer + 1 + i) % 4, tr)}: {names.call_name(c, tr)}"
            for i, c in enumerate(obs.calls)
        )
        lines.append(tr.gettext("Auction: {calls}", calls=calls))
    lines.append(tr.gettext("Your hand: {cards}", cards=hand_text(list(obs.hand), contract)))
    if obs.trick:
        seat_names = [seat_name(table, i, tr) for i in range(4)]
        lines.append(tr.gettext("Trick: {cards}", cards=_trick_text(seat_names, obs.trick_leader, obs.trick)))
    me = table.seats[seat]
    if me.away:
        lines.append(tr.gettext("A bot is playing for you."))
        buttons.append((Button(tr.gettext("I'm back"), _payload(table, "back")),))
    elif obs.my_turn and obs.legal_calls:
        lines.append(tr.gettext("Your turn: make a call."))
        call_buttons = [
            Button(names.call_name(c, tr), _payload(table, f"c:{_CALL_CODES[c]}")) for c in obs.legal_calls
        ]
        buttons.extend(tuple(call_buttons[i : i + 3]) for i in range(0, len(call_buttons), 3))
    elif obs.my_turn and obs.legal_cards:
        lines.append(tr.gettext("Your turn: play a card."))
        cards = [
            Button(names.card_label(c), _payload(table, f"p:{_card_code(c)}"))
            for c in sort_hand(list(obs.legal_cards), contract)
        ]
        buttons.extend(tuple(cards[i : i + 4]) for i in range(0, len(cards), 4))
        if not table.rules.auto_declarations:
            toggles = []
            for i, kind in enumerate(obs.declarable):
                on = i not in table.declare_off[seat]
                mark = "✓" if on else "✗"
                toggles.append(Button(f"{mark} {names.declaration_name(kind, tr)}", _payload(table, f"d:{i}")))
            if toggles:
                lines.append(tr.gettext("Declarations go with your first card; switch off any you keep quiet."))
                buttons.append(tuple(toggles[:5]))
            if obs.belote_cards:
                on = not table.belote_off[seat]
                mark = "✓" if on else "✗"
                lines.append(tr.gettext("You may announce a belote with the king or queen of the pair."))
                buttons.append((Button(f"{mark} {names.declaration_name('belote', tr)}", _payload(table, "b")),))
    elif deal.phase != "done":
        lines.append(tr.gettext("Waiting for {name}.", name=seat_name(table, obs.to_act, tr)))
    if table.options.tracker and contract is not None:  # the card tracker (bot/core/tracker.py); at most 5 rows
        buttons = [*buttons[:4], (Button(tr.gettext("Cards played"), _payload(table, "k")),)]
    return OutMessage(key, user, "\n".join(lines), tuple(buttons[:5]), kind="hand", table_id=table.table_id)


def ping(table: Table, seat: int, user: UserRef, tr: Translator) -> OutMessage:
    where = table.chat.title or table.table_id
    return OutMessage(
        f"{table.table_id}:p{seat}:{user.user_id}", user, tr.gettext("Your turn at {table}.", table=where), (),
        notify=True, kind="ping", table_id=table.table_id,
    )


_CALL_CODES = ("c", "d", "h", "s", "nt", "at", "pass", "x", "xx")
CALL_BY_CODE = {code: i for i, code in enumerate(_CALL_CODES)}


def _card_code(card: int) -> str:
    return "789TJQKA"[card & 7] + "CDHS"[card >> 3]


def keyboard_payloads(buttons: Keyboard) -> list[str]:
    return [b.payload for row in buttons for b in row]


def group_messages(table: Table, tr: Translator, deadline_seconds: int | None = None) -> list[OutMessage]:
    """The table's current group messages (lobby, and the current deal's view once the match is on)."""
    out = [lobby(table, tr)]
    view = table_view(table, tr, deadline_seconds)
    if view is not None:
        out.append(view)
    return out


__all__ = [
    "CALL_BY_CODE",
    "MENU_CODES",
    "MENU_OPTIONS",
    "ChatRef",
    "end_view",
    "finished_deal_view",
    "group_messages",
    "hand_text",
    "hand_view",
    "lobby",
    "notice",
    "options_menu",
    "ping",
    "result_view",
    "sort_hand",
    "table_view",
]
