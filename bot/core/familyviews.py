"""The views of a one-trump family game (Croatian Bela, French belote): the group's deal, each seat's private hand
and the deal's result. Pure functions of the table state and a translator.

A private hand is built only from the seat's ``SeatView`` (``match.observe(seat)``): its own cards, its talon once
trump is chosen, the public history and its legal actions. The group's messages show only what is public: the
calls, the turned card, the announcements, the winning side's shown declarations and the played cards.
"""

from __future__ import annotations

from bot.engine.seatview import SeatView, view
from bot.engine.trumpdeal import TrumpDeal
from bot.i18n import Translator

from . import names
from .familypieces import game_view, layout_lines
from .familyresult import DASH, per_player_result, team_result
from .messages import Button, OutMessage
from .table import Table
from .viewparts import (
    announcement_parts,
    away_parts,
    call_code,
    call_rows,
    card_code,
    deal_heading,
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
)


def _calls_line(table: Table, v: SeatView, tr: Translator) -> str:
    piece = game_view(v.variant)
    n = len(table.seats)
    calls = ", ".join(
        f"{seat_name(table, (v.dealer + 1 + i) % n, tr)}: {piece.call_label(v, i, c, tr)}"
        for i, c in enumerate(v.calls)
    )
    return tr.gettext("Calls: {calls}", calls=calls)


def _trump_line(table: Table, v: SeatView, tr: Translator) -> str:
    assert v.contract is not None and v.caller is not None
    if not table.teams:
        return game_view(v.variant).contract_line(v, seat_name(table, v.caller, tr), tr)
    return tr.gettext(
        "Trump: {suit}, named by {name} ({team})",
        suit=names.call_name(v.contract, tr),
        name=seat_name(table, v.caller, tr),
        team=names.team_name(v.caller % 2, tr),
    )


def _announced(table: Table, v: SeatView, tr: Translator) -> list[str]:
    """What was announced, and once everyone has played a card, who won the declarations and what they showed."""
    lines = []
    parts = announcement_parts(table, v.announced, tr)
    if parts:
        lines.append(tr.gettext("Announced: {list}", list="; ".join(parts)))
    if v.shown:
        side = v.shown[0][0] % 2
        shown = "; ".join(
            f"{seat_name(table, s, tr)}: {names.declaration_name(kind, tr)} "
            + " ".join(names.card_label(c) for c in cards)
            for s, kind, cards in v.shown
        )
        if table.teams:
            lines.append(
                tr.gettext("Declarations won by {team}, shown: {list}", team=names.team_name(side, tr), list=shown)
            )
        else:
            lines.append(tr.gettext("Declarations that count, shown: {list}", list=shown))
    return lines


def public_view(deal: TrumpDeal) -> SeatView:
    """The deal as anyone may see it (a view of seat 0 whose hand and choices are left unused)."""
    return view(deal, 0, turned=getattr(deal, "turned", None))


def deal_lines(table: Table, deal: TrumpDeal, number: int, tr: Translator) -> list[str]:
    named = seat_names(table, tr)
    v = public_view(deal)
    piece = game_view(deal.variant)
    lines = deal_heading(table, deal.dealer, number, named, tr)
    if deal.hanging_in:
        lines.append(tr.gettext("Held points: {n}", n=deal.hanging_in))
    lines.extend(piece.public_lines(v, tr))
    if v.calls and v.contract is None:
        lines.append(_calls_line(table, v, tr))
    if v.contract is not None:
        lines.append(_trump_line(table, v, tr))
    if deal.phase == "discard":
        lines.append(tr.gettext("{name} takes the two extra cards and discards two.", name=named[deal.to_act]))
    elif deal.phase == "exchange":
        lines.append(tr.gettext("{name} may exchange the seven for the turned card.", name=named[deal.to_act]))
    if deal.passed_out:
        lines.append(tr.gettext("Everyone passed: the cards are dealt again."))
    lines.extend(_announced(table, v, tr))
    if piece.layouts:
        lines.extend(layout_lines(v, named, tr))
    lines += played_lines(table, named, v.tricks, deal.tricks_won, v.trick_leader, v.trick, tr)
    return lines


def hand_parts(
    table: Table, seat: int, v: SeatView, number: int, tr: Translator
) -> tuple[list[str], list[tuple[Button, ...]]]:
    """One seat's private view of deal ``number`` of a family game, from its SeatView alone: lines and its legal
    actions as buttons. The dealer is named: in Bela he may not pass."""
    piece = game_view(v.variant)
    lines = [tr.gettext("**Deal {n}** · dealer: {name}", n=number, name=seat_name(table, v.dealer, tr))]
    buttons: list[tuple[Button, ...]] = []
    if v.contract is None:
        lines.extend(piece.public_lines(v, tr))
    if v.contract is not None:
        lines.append(_trump_line(table, v, tr))
    elif v.calls:
        lines.append(_calls_line(table, v, tr))
    if piece.layouts:
        lines.extend(layout_lines(v, seat_names(table, tr), tr))
    lines.append(tr.gettext("Your hand: {cards}", cards=hand_text(list(v.hand), v.contract)))
    new = [c for c in v.talon if c in v.hand]
    if new and not v.tricks and v.phase != "discard":
        lines.append(piece.talon_line(hand_text(new, v.contract), tr))
    if v.discard:  # the caller's own discard: his alone to see
        lines.append(tr.gettext("Your discard (counts for you): {cards}",
                                cards=", ".join(names.card_label(c) for c in v.discard)))
    if v.trick:
        lines.append(trick_line(table, v.trick_leader, v.trick, tr))
    if away := away_parts(table, seat, tr):
        lines.extend(away[0])
        buttons.extend(away[1])
    elif v.my_turn and v.legal_calls:
        lines.append(piece.call_prompt(v, tr))
        offset = len(v.calls)
        call_buttons = [
            Button(piece.call_label(v, offset, c, tr), payload(table, f"c:{call_code(c)}")) for c in v.legal_calls
        ]
        buttons.extend(call_rows(call_buttons))
    elif v.my_turn and v.phase == "discard":
        more, rows = discard_parts(table, seat, v, tr)
        lines.extend(more)
        buttons.extend(rows)
    elif v.my_turn and v.legal_exchange:
        assert v.turned is not None
        lines.append(tr.gettext("You hold the seven of the turned suit: exchange it for the turned card {card}?",
                                card=names.card_label(v.turned)))
        buttons.append((Button(tr.gettext("Exchange"), payload(table, "e:1")),
                        Button(tr.gettext("Keep the seven"), payload(table, "e:0"))))
    elif v.my_turn and v.legal_cards:
        more, rows = play_buttons(table, seat, v.legal_cards, v.declarable, v.belote_cards, v.contract, tr)
        lines.extend(more)
        buttons.extend(rows)
    elif v.phase != "done":
        lines.append(tr.gettext("Waiting for {name}.", name=seat_name(table, v.to_act, tr)))
    return lines, buttons


def discard_parts(table: Table, seat: int, v: SeatView, tr: Translator) -> tuple[list[str], list[tuple[Button, ...]]]:
    """The caller's discard, chosen in two picks and then confirmed: nothing reaches the table before Confirm. A
    picked card's button puts it back; Confirm names the two cards it confirms."""
    picks = [c for c in table.picks.get(seat, ()) if c in v.legal_cards]
    lines = [tr.gettext("Choose two cards to discard: they count as your points, and nobody else sees them.")]
    if picks:
        lines.append(tr.gettext("Picked: {cards}", cards=", ".join(names.card_label(c) for c in picks)))
    cards = [
        Button(f"✓ {names.card_label(c)}", payload(table, f"du:{card_code(c)}"))
        if c in picks
        else Button(names.card_label(c), payload(table, f"dp:{card_code(c)}"))
        for c in sort_hand(list(v.legal_cards), v.contract)
    ]
    rows: list[tuple[Button, ...]] = [tuple(cards[i : i + 4]) for i in range(0, len(cards), 4)]
    if len(picks) == 2:
        codes = "".join(card_code(c) for c in picks)
        rows.append((Button(tr.gettext("Confirm the discard"), payload(table, f"dc:{codes}")),))
    return lines, rows


def result_lines(table: Table, deal: TrumpDeal, index: int, tr: Translator) -> list[str] | None:
    """Deal ``index``'s result in raw points, per team or per player (None for a deal passed out)."""
    return team_result(table, deal, index, tr) if table.teams else per_player_result(table, deal, index, tr)


def result_message(table: Table, index: int, tr: Translator) -> OutMessage | None:
    match = table.match
    assert match is not None
    deal = match.deals[index]
    assert isinstance(deal, TrumpDeal)
    lines = result_lines(table, deal, index, tr)
    if lines is None:
        return None
    totals = score_before(table, index + 1)
    target = table.rules.target_score
    score = (
        tr.gettext("Match score: A {a} · B {b}", a=totals[0], b=totals[1])
        if table.teams
        else tr.gettext("Match score: {scores}", scores=side_scores(table, totals, tr))
    )
    lines.append(score + " · " + tr.gettext("to {n}", n=target))
    held = deal.result.hanging if deal.result is not None else 0
    if held:
        lines.append(tr.gettext("Held points: {n}", n=held))
    return OutMessage(
        f"{table.table_id}:r{index + 1}",
        table.chat,
        "\n".join(lines),
        (),
        notify=True,
        kind="result",
        table_id=table.table_id,
    )


__all__ = ["DASH", "deal_lines", "discard_parts", "hand_parts", "public_view", "result_lines", "result_message"]
