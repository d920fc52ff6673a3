"""A family deal's result as the group reads it: in raw points, piece by piece, for two teams (``team_result``) or
for each player of a game for three or two (``per_player_result``). Pure functions of the table and a translator."""

from __future__ import annotations

from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.trumpdeal import FamilyResult, TrumpDeal
from bot.i18n import Translator

from . import names
from .familypieces import game_view
from .table import Table
from .viewparts import seat_name, seat_names, side_scores

DASH = "—"  # what a side that fell writes (family §3.7: "C writes '–'")


def _outcome(result: FamilyResult, tr: Translator) -> str:
    words = {
        "passed": tr.gettext("passed"),
        "fell": tr.gettext("fell"),
        "visi": tr.gettext("tie, held over (visi)"),
        "made": tr.gettext("made"),
        "failed": tr.gettext("inside"),
        "litige": tr.gettext("tie, held over (litige)"),
        "inside": tr.gettext("inside"),  # the Bulgarian games' words
        "hanging": tr.gettext("hanging"),
    }
    return words.get(result.outcome, result.outcome)


def _written(points: int, fell: bool) -> str:
    return DASH if fell and points == 0 else str(points)


def team_result(table: Table, deal: TrumpDeal, index: int, tr: Translator) -> list[str] | None:
    """Deal ``index``'s result of a team game in raw points (None for a deal passed out twice)."""
    piece = game_view(deal.variant)
    belot = getattr(deal, "belot_seat", -1)
    if belot >= 0:
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
    if getattr(deal, "dosta_side", -1) >= 0:
        side = getattr(deal, "dosta_side", -1)
        return [
            tr.gettext("**Deal {n}: {team} has enough (na dosta)**", n=index + 1, team=names.team_name(side, tr)),
            tr.gettext(
                "After trick {k}, {team} has {target} points with what it took in this deal: it wins at "
                "once; the deal is not scored.",
                k=len(deal.tricks),
                team=names.team_name(side, tr),
                target=table.rules.target_score,
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
    sweep = int(getattr(table.rules, "capot_bonus" if piece.sweep == "capot" else "stiglja_value"))
    swept = [s for s in (0, 1) if deal.tricks_won[s] == len(deal.tricks)]
    if swept:
        side = swept[0]
        cards[side] += sweep
        if piece.sweep == "stiglja":
            lines.append(
                tr.gettext("Štiglja: {team} took every trick (+{n}).", team=names.team_name(side, tr), n=sweep)
            )
        else:
            lines.append(tr.gettext("Capot: {team} took every trick (+{n}).", team=names.team_name(side, tr), n=sweep))
    # Bela counts for a pair with a trick (Bela), always for its holder's team (French belote); the rest of the
    # total is the counted declarations (with any transferred by a štiglja).
    belas = [deal.side_belas(s) if (not piece.belas_need_trick or deal.tricks_won[s]) else 0 for s in (0, 1)]
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


def per_player_result(table: Table, deal: TrumpDeal, index: int, tr: Translator) -> list[str] | None:
    """Deal ``index``'s result of a game for three or two: each player's tricks, total and what he writes, by name
    (None for a deal passed out)."""
    belot = getattr(deal, "belot_seat", -1)
    if belot >= 0:
        suit = deal.hands[belot][0] >> 3
        return [
            tr.gettext("**Deal {n}: belot**", n=index + 1),
            tr.gettext("{name} holds all eight {suit} and wins the match.", name=seat_name(table, belot, tr),
                       suit=SUIT_SYMBOLS[suit]),
        ]
    result = deal.result
    if result is None:
        return None
    caller = result.caller
    named = seat_names(table, tr)
    lines = [
        tr.gettext(
            "**Deal {n}: {contract}, {name} — {outcome}**",
            n=index + 1,
            contract=names.call_name(deal.contract, tr),
            name=named[caller],
            outcome=_outcome(result, tr),
        ),
        tr.gettext("Tricks: {scores}", scores=side_scores(table, result.tricks, tr)),
        tr.gettext("Total of the deal: {scores}", scores=side_scores(table, result.raw, tr)),
    ]
    if result.fell:
        lines.append(game_view(deal.variant).fell_line(named[caller], tr))
    if result.hanging_in and result.outcome != "visi":
        lines.append(tr.gettext("Held points collected: {n}.", n=result.hanging_in))
    if result.outcome == "visi":
        lines.append(tr.gettext("An exact tie: the caller's points are held for the next decided deal ({n}).",
                                n=result.hanging))
    fell = caller if result.fell else -1
    lines.append(tr.gettext("Written: {scores}", scores=side_scores(table, result.score, tr, fell=fell)))
    return lines


def _title(text: str) -> str:
    return text[:1].upper() + text[1:]
