"""The views of a one-trump family game (Croatian Bela, French belote): the group's deal, each seat's private hand
and the deal's result. Pure functions of the table state and a translator.

A private hand is built only from the seat's ``SeatView`` (``match.observe(seat)``): its own cards, its talon once
trump is chosen, the public history and its legal actions. The group's messages show only what is public: the
calls, the turned card, the announcements, the winning side's shown declarations and the played cards.
"""

from __future__ import annotations

from bot.engine.bela import BelaDeal
from bot.engine.calls import PASS
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.french import FrenchDeal
from bot.engine.seatview import SeatView, view
from bot.engine.trumpdeal import FamilyResult, TrumpDeal
from bot.i18n import Translator

from . import names
from .messages import Button, OutMessage
from .table import Table
from .viewparts import (
    away_parts,
    call_code,
    call_rows,
    hand_text,
    payload,
    play_buttons,
    score_before,
    seat_name,
    trick_line,
    trick_text,
)

DASH = "—"  # what a side that fell writes (family §3.7: "C writes '–'")


def call_label(deal_variant: str, index: int, call: int, tr: Translator) -> str:
    """A call as the game says it: French belote's first round takes the turned card's suit."""
    if deal_variant == "french" and index < 4 and call != PASS:
        return tr.gettext("Take {suit}", suit=names.call_name(call, tr))
    return names.call_name(call, tr)


def _calls_line(table: Table, v: SeatView, tr: Translator) -> str:
    calls = ", ".join(
        f"{seat_name(table, (v.dealer + 1 + i) % 4, tr)}: {call_label(v.variant, i, c, tr)}"
        for i, c in enumerate(v.calls)
    )
    return tr.gettext("Calls: {calls}", calls=calls)


def _trump_line(table: Table, v: SeatView, tr: Translator) -> str:
    assert v.contract is not None and v.caller is not None
    return tr.gettext(
        "Trump: {suit}, named by {name} ({team})",
        suit=names.call_name(v.contract, tr),
        name=seat_name(table, v.caller, tr),
        team=names.team_name(v.caller % 2, tr),
    )


def _announced(table: Table, v: SeatView, tr: Translator) -> list[str]:
    """What was announced, and once everyone has played a card, who won the declarations and what they showed."""
    lines = []
    parts = []
    for a in v.announced:
        who = seat_name(table, a.seat, tr)
        if a.belote_suit >= 0:
            parts.append(f"{who}: {names.declaration_name('belote', tr)} {SUIT_SYMBOLS[a.belote_suit]}")
        else:
            parts.append(f"{who}: " + ", ".join(names.declaration_name(k, tr) for k in a.kinds))
    if parts:
        lines.append(tr.gettext("Announced: {list}", list="; ".join(parts)))
    if v.shown:
        side = v.shown[0][0] % 2
        shown = "; ".join(
            f"{seat_name(table, s, tr)}: {names.declaration_name(kind, tr)} "
            + " ".join(names.card_label(c) for c in cards)
            for s, kind, cards in v.shown
        )
        lines.append(
            tr.gettext("Declarations won by {team}, shown: {list}", team=names.team_name(side, tr), list=shown)
        )
    return lines


def public_view(deal: TrumpDeal) -> SeatView:
    """The deal as anyone may see it (a view of seat 0 whose hand and choices are left unused)."""
    return view(deal, 0, turned=getattr(deal, "turned", None))


def deal_lines(table: Table, deal: TrumpDeal, number: int, tr: Translator) -> list[str]:
    names4 = [seat_name(table, i, tr) for i in range(4)]
    v = public_view(deal)
    before = score_before(table, number - 1)
    lines = [
        tr.gettext("**Deal {n}** · dealer: {name}", n=number, name=names4[deal.dealer]),
        tr.gettext("A: {a1} & {a2} · B: {b1} & {b2}", a1=names4[0], a2=names4[2], b1=names4[1], b2=names4[3]),
        tr.gettext("Score: A {a} · B {b}", a=before[0], b=before[1]),
    ]
    if deal.hanging_in:
        lines.append(tr.gettext("Held points: {n}", n=deal.hanging_in))
    if isinstance(deal, FrenchDeal):
        lines.append(tr.gettext("Turned card: {card}", card=names.card_label(deal.turned)))
    if v.calls and v.contract is None:
        lines.append(_calls_line(table, v, tr))
    if v.contract is not None:
        lines.append(_trump_line(table, v, tr))
    if deal.passed_out:
        lines.append(tr.gettext("Everyone passed: the cards are dealt again."))
    lines.extend(_announced(table, v, tr))
    for n, done in enumerate(v.tricks, 1):
        lines.append(
            tr.gettext(
                "Trick {n}: {cards} (taken by {name})",
                n=n,
                cards=trick_text(names4, done.leader, done.cards),
                name=names4[done.winner],
            )
        )
    if v.tricks:
        lines.append(tr.gettext("Tricks: A {a} · B {b}", a=deal.tricks_won[0], b=deal.tricks_won[1]))
    if v.trick:
        lines.append(tr.gettext("Trick: {cards}", cards=trick_text(names4, v.trick_leader, v.trick)))
    return lines


def hand_parts(
    table: Table, seat: int, v: SeatView, number: int, tr: Translator
) -> tuple[list[str], list[tuple[Button, ...]]]:
    """One seat's private view of deal ``number`` of a family game, from its SeatView alone: lines and its legal
    actions as buttons. The dealer is named: in Bela he may not pass."""
    lines = [tr.gettext("**Deal {n}** · dealer: {name}", n=number, name=seat_name(table, v.dealer, tr))]
    buttons: list[tuple[Button, ...]] = []
    if v.turned is not None and v.contract is None:
        lines.append(tr.gettext("Turned card: {card}", card=names.card_label(v.turned)))
    if v.contract is not None:
        lines.append(_trump_line(table, v, tr))
    elif v.calls:
        lines.append(_calls_line(table, v, tr))
    lines.append(tr.gettext("Your hand: {cards}", cards=hand_text(list(v.hand), v.contract)))
    new = [c for c in v.talon if c in v.hand]
    if new and not v.tricks:
        text = hand_text(new, v.contract)
        if v.variant == "bela":
            lines.append(tr.gettext("Your talon (new in your hand): {cards}", cards=text))
        else:
            lines.append(tr.gettext("New in your hand: {cards}", cards=text))
    if v.trick:
        lines.append(trick_line(table, v.trick_leader, v.trick, tr))
    if away := away_parts(table, seat, tr):
        lines.extend(away[0])
        buttons.extend(away[1])
    elif v.my_turn and v.legal_calls:
        if v.variant == "bela" and PASS not in v.legal_calls:
            lines.append(tr.gettext("You deal and everyone passed: you must name trump (mus)."))
        elif v.variant == "bela":
            lines.append(tr.gettext("Your turn: name trump, or pass."))
        elif len(v.calls) < 4:
            lines.append(tr.gettext("Your turn: take the turned card's suit as trump, or pass."))
        else:
            lines.append(tr.gettext("Second round: name another suit as trump, or pass."))
        offset = len(v.calls)
        call_buttons = [
            Button(call_label(v.variant, offset, c, tr), payload(table, f"c:{call_code(c)}")) for c in v.legal_calls
        ]
        buttons.extend(call_rows(call_buttons))
    elif v.my_turn and v.legal_cards:
        more, rows = play_buttons(table, seat, v.legal_cards, v.declarable, v.belote_cards, v.contract, tr)
        lines.extend(more)
        buttons.extend(rows)
    elif v.phase != "done":
        lines.append(tr.gettext("Waiting for {name}.", name=seat_name(table, v.to_act, tr)))
    return lines, buttons


def _outcome(result: FamilyResult, tr: Translator) -> str:
    words = {
        "passed": tr.gettext("passed"),
        "fell": tr.gettext("fell"),
        "visi": tr.gettext("tie, held over (visi)"),
        "made": tr.gettext("made"),
        "failed": tr.gettext("inside"),
        "litige": tr.gettext("tie, held over (litige)"),
    }
    return words.get(result.outcome, result.outcome)


def _written(points: int, fell: bool) -> str:
    return DASH if fell and points == 0 else str(points)


def result_lines(table: Table, deal: TrumpDeal, index: int, tr: Translator) -> list[str] | None:
    """Deal ``index``'s result in raw points (None for a deal passed out twice)."""
    belot = getattr(deal, "belot_seat", -1)
    if isinstance(deal, BelaDeal) and belot >= 0:
        suit = deal.hands[belot][0] >> 3
        return [
            tr.gettext("**Deal {n}: belot**", n=index + 1),
            tr.gettext(
                "{name} holds all eight {suit}: {team} wins the match.",
                name=seat_name(table, belot, tr),
                suit=SUIT_SYMBOLS[suit],
                team=names.team_name(belot % 2, tr),
            ),
        ]
    if isinstance(deal, BelaDeal) and deal.dosta_side >= 0:
        side = deal.dosta_side
        return [
            tr.gettext("**Deal {n}: {team} has enough (na dosta)**", n=index + 1, team=names.team_name(side, tr)),
            tr.gettext(
                "After trick {k}, {team} has {target} points with what it took in this deal: it wins at "
                "once; the deal is not scored.",
                k=len(deal.tricks),
                team=names.team_name(side, tr),
                target=deal.opts.target_score,
            ),
        ]
    result = deal.result
    if result is None:
        return None
    caller_side = result.declarer
    lines = [
        tr.gettext(
            "**Deal {n}: {contract}, {team} — {outcome}**",
            n=index + 1,
            contract=names.call_name(deal.contract, tr),
            team=names.team_name(caller_side, tr),
            outcome=_outcome(result, tr),
        )
    ]
    cards = deal.card_totals(0)
    lines.append(tr.gettext("Card points (with the last ten): A {a} · B {b}", a=cards[0], b=cards[1]))
    sweep = deal.opts.stiglja_value if isinstance(deal, BelaDeal) else deal.opts.capot_bonus
    swept = [s for s in (0, 1) if deal.tricks_won[s] == len(deal.tricks)]
    if swept:
        side = swept[0]
        cards[side] += sweep
        if isinstance(deal, BelaDeal):
            lines.append(
                tr.gettext("Štiglja: {team} took every trick (+{n}).", team=names.team_name(side, tr), n=sweep)
            )
        else:
            lines.append(tr.gettext("Capot: {team} took every trick (+{n}).", team=names.team_name(side, tr), n=sweep))
    # Bela counts for a pair with a trick (Bela), always for its holder's team (French belote); the rest of the
    # total is the counted declarations (with any transferred by a štiglja).
    belas = [deal.side_belas(s) if (not isinstance(deal, BelaDeal) or deal.tricks_won[s]) else 0 for s in (0, 1)]
    declared = [result.raw[s] - cards[s] - belas[s] for s in (0, 1)]
    if any(declared):
        lines.append(tr.gettext("Declarations: A {a} · B {b}", a=declared[0], b=declared[1]))
    if any(belas):
        lines.append(tr.gettext("Belotes: A {a} · B {b}", a=belas[0], b=belas[1]))
    lines.append(tr.gettext("Total of the deal: A {a} · B {b}", a=result.raw[0], b=result.raw[1]))
    other = 1 - caller_side
    if result.outcome in ("fell", "failed"):
        lines.append(
            tr.gettext(
                "{team} named trump and did not get more points: {other} writes them all.",
                team=_title(names.team_name(caller_side, tr)),
                other=names.team_name(other, tr),
            )
        )
    if result.hanging_in and result.outcome not in ("visi", "litige"):
        collector = other if result.fell else caller_side
        lines.append(
            tr.gettext(
                "{team} collects the hanging points ({n}).",
                team=_title(names.team_name(collector, tr)),
                n=result.hanging_in,
            )
        )
    if result.outcome in ("visi", "litige"):
        lines.append(
            tr.gettext(
                "An exact tie: {team}'s points are held for the next decided deal ({n}).",
                team=names.team_name(caller_side, tr),
                n=result.hanging,
            )
        )
    written = [_written(result.score[s], result.fell and s == caller_side) for s in (0, 1)]
    lines.append(tr.gettext("Written: A {a} · B {b}", a=written[0], b=written[1]))
    return lines


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
    lines.append(
        tr.gettext("Match score: A {a} · B {b}", a=totals[0], b=totals[1]) + " · " + tr.gettext("to {n}", n=target)
    )
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


__all__ = ["DASH", "deal_lines", "hand_parts", "public_view", "result_message"]


def _title(text: str) -> str:
    return text[:1].upper() + text[1:]
