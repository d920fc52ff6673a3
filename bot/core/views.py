"""Rendering a table into neutral messages: the group's table, deal and match results, and each player's private
view, in every game. Pure functions of the table state and a translator. The lobby and the options menu are in
``lobbyview``, what the views share in ``viewparts``, the family games' own pieces in ``familyviews``.

Message keys (unique per platform, stable across restarts): ``<table>:lobby``, ``<table>:opts``, ``<table>:d<n>``
(the group's view of deal n), ``<table>:r<n>`` (deal n's result), ``<table>:end``, ``<table>:h<seat>:<user>`` (a
player's hand), ``<table>:p<seat>:<user>`` (a "your turn" ping), ``<table>:n<version>`` (a notice).
"""

from __future__ import annotations

from bot.engine import Deal
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import FamilyResult, TrumpDeal
from bot.i18n import Translator

from . import familyviews, names
from .explain import deal_explanation
from .lobbyview import (
    GAME_MENUS,
    MENU_CODES,
    MENU_OPTIONS,
    lobby,
    menu_options,
    option_label,
    option_value,
    options_closed,
    options_menu,
    rules_text,
)
from .messages import Button, ChatRef, Keyboard, OutMessage, UserRef
from .review import review_button
from .table import Table
from .viewparts import (
    CALL_BY_CODE,
    announcement_parts,
    away_parts,
    call_code,
    call_rows,
    deal_heading,
    dealing_lines,
    hand_text,
    payload,
    play_buttons,
    played_lines,
    score_before,
    seat_name,
    seat_names,
    side_scores,
    sort_hand,
    trick_line,
    where,
)

_option_label = option_label  # the name older callers use


# --- the deal, publicly ---


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


def deal_lines(table: Table, deal: Deal | TrumpDeal, number: int, tr: Translator) -> list[str]:
    if isinstance(deal, TrumpDeal):
        return familyviews.deal_lines(table, deal, number, tr)
    names4 = seat_names(table, tr)
    lines = deal_heading(table, deal.dealer, number, names4, tr)
    if deal.hanging_in:
        lines.append(tr.gettext("Hanging points: {n}", n=deal.hanging_in))
    if deal.calls:
        calls = ", ".join(
            f"{names4[(deal.dealer + 1 + i) % len(names4)]}: {names.call_name(c, tr)}"
            for i, c in enumerate(deal.calls)
        )
        lines.append(tr.gettext("Auction: {calls}", calls=calls))
    if deal.phase != "auction" and deal.contract >= 0:
        lines.append(_contract_line(table, deal, tr))
    if deal.passed_out:
        lines.append(tr.gettext("Everyone passed: the cards are dealt again."))
    if deal.announcements:
        parts = announcement_parts(table, deal.announcements, tr)
        lines.append(tr.gettext("Announced: {list}", list="; ".join(parts)))
    lines += played_lines(table, names4, deal.tricks, deal.tricks_won, deal.trick_leader, deal.trick, tr)
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
        row = [Button(tr.gettext("My hand"), payload(table, "h"))]
        if any(s.away for s in table.seats):
            row.append(Button(tr.gettext("I'm back"), payload(table, "back")))
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
    if isinstance(deal, TrumpDeal):
        return familyviews.result_message(table, index, tr)
    result = match.results[index] if index < len(match.results) else None
    if result is None or isinstance(result, FamilyResult):
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
    totals = score_before(table, index + 1)
    lines.append(tr.gettext("Match score: A {a} · B {b}", a=totals[0], b=totals[1]))
    if result.hanging:
        lines.append(tr.gettext("Hanging points: {n}", n=result.hanging))
    button = review_button(table, index, tr)
    return OutMessage(
        f"{table.table_id}:r{index + 1}", table.chat, "\n".join(lines), ((button,),) if button else (), notify=True,
        kind="result",
        table_id=table.table_id,
    )


def end_view(table: Table, tr: Translator) -> OutMessage:
    match = table.match
    if match is not None and not table.teams:
        text = _players_end(table, tr)
    elif table.status == "finished" and match is not None and match.winner is not None:
        w = match.winner
        text = tr.gettext(
            "**Match over: {team} wins ({p1} & {p2})**",
            team=names.team_name(w, tr),
            p1=seat_name(table, w, tr),
            p2=seat_name(table, w + 2, tr),
        )
        text += "\n" + tr.gettext("Final score: A {a} · B {b}", a=match.totals[0], b=match.totals[1])
        text += "\n" + tr.ngettext("{n} deal played.", "{n} deals played.", len(match.deals))
    elif table.status == "finished" and match is not None:  # French belote: both teams reached the target at once
        text = tr.gettext("**Match over: a draw** (both teams reached {n} in the same deal)",
                          n=table.rules.target_score)
        text += "\n" + tr.gettext("Final score: A {a} · B {b}", a=match.totals[0], b=match.totals[1])
        text += "\n" + tr.ngettext("{n} deal played.", "{n} deals played.", len(match.deals))
    else:
        text = tr.gettext("**The table was stopped.**")
        if match is not None:
            text += "\n" + tr.gettext("Score: A {a} · B {b}", a=match.totals[0], b=match.totals[1])
    # The end view is only ever made once the table is finished or stopped: the seed can no longer tell a hand.
    text = "\n".join([text, *dealing_lines(table, tr, reveal=table.status in ("finished", "stopped"))])
    return OutMessage(
        f"{table.table_id}:end", table.chat, text, (), notify=True, kind="result", table_id=table.table_id
    )


def _players_end(table: Table, tr: Translator) -> str:
    """The end of a match of a game for three or two: its winner by name and every player's score."""
    match = table.match
    assert match is not None
    scores = side_scores(table, match.totals, tr)
    if table.status == "finished" and match.winner is not None:
        text = tr.gettext("**Match over: {name} wins**", name=seat_name(table, match.winner, tr))
        text += "\n" + tr.gettext("Final score: {scores}", scores=scores)
        return text + "\n" + tr.ngettext("{n} deal played.", "{n} deals played.", len(match.deals))
    return tr.gettext("**The table was stopped.**") + "\n" + tr.gettext("Score: {scores}", scores=scores)


def notice(table: Table, text: str) -> OutMessage:
    return OutMessage(
        f"{table.table_id}:n{table.version}", table.chat, text, (), kind="notice", table_id=table.table_id
    )


# --- the deal, privately ---


def hand_view(table: Table, seat: int, user: UserRef, tr: Translator) -> OutMessage:
    """One player's private view: only what the seat's view (``match.observe``) lets it know, and its legal actions
    as buttons."""
    key = f"{table.table_id}:h{seat}:{user.user_id}"
    lines = [where(table, tr), tr.gettext("You sit at seat {n} ({team}).", n=seat + 1,
                                          team=names.team_name(seat % 2, tr))
             if table.teams else tr.gettext("You sit at seat {n}.", n=seat + 1)]
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
    obs = match.observe(seat)
    contract = obs.contract
    if isinstance(obs, SeatView):
        more, buttons = familyviews.hand_parts(table, seat, obs, len(match.deals), tr)
        lines.extend(more)
    else:
        deal = match.deal
        assert isinstance(deal, Deal)
        if contract is not None:
            lines.append(_contract_line(table, deal, tr))
        elif obs.calls:
            calls = ", ".join(
                f"{seat_name(table, (obs.dealer + 1 + i) % len(table.seats), tr)}: {names.call_name(c, tr)}"
                for i, c in enumerate(obs.calls)
            )
            lines.append(tr.gettext("Auction: {calls}", calls=calls))
        lines.append(tr.gettext("Your hand: {cards}", cards=hand_text(list(obs.hand), contract)))
        if obs.trick:
            lines.append(trick_line(table, obs.trick_leader, obs.trick, tr))
        if away := away_parts(table, seat, tr):
            lines.extend(away[0])
            buttons.extend(away[1])
        elif obs.my_turn and obs.legal_calls:
            lines.append(tr.gettext("Your turn: make a call."))
            call_buttons = [
                Button(names.call_name(c, tr), payload(table, f"c:{call_code(c)}")) for c in obs.legal_calls
            ]
            buttons.extend(call_rows(call_buttons))
        elif obs.my_turn and obs.legal_cards:
            more, rows = play_buttons(table, seat, tuple(obs.legal_cards), tuple(obs.declarable),
                                      tuple(obs.belote_cards), contract, tr)
            lines.extend(more)
            buttons.extend(rows)
        elif deal.phase != "done":
            lines.append(tr.gettext("Waiting for {name}.", name=seat_name(table, obs.to_act, tr)))
    if table.options.tracker and contract is not None:  # the card tracker (bot/core/tracker.py); at most 5 rows
        buttons = [*buttons[:4], (Button(tr.gettext("Cards played"), payload(table, "k")),)]
    return OutMessage(key, user, "\n".join(lines), tuple(buttons[:5]), kind="hand", table_id=table.table_id)


def ping(table: Table, seat: int, user: UserRef, tr: Translator) -> OutMessage:
    place = table.chat.title or table.table_id
    return OutMessage(
        f"{table.table_id}:p{seat}:{user.user_id}", user, tr.gettext("Your turn at {table}.", table=place), (),
        notify=True, kind="ping", table_id=table.table_id,
    )


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
    "GAME_MENUS",
    "MENU_CODES",
    "MENU_OPTIONS",
    "ChatRef",
    "end_view",
    "finished_deal_view",
    "group_messages",
    "hand_text",
    "hand_view",
    "lobby",
    "menu_options",
    "notice",
    "option_label",
    "option_value",
    "options_closed",
    "options_menu",
    "ping",
    "result_view",
    "rules_text",
    "seat_name",
    "sort_hand",
    "table_view",
]
