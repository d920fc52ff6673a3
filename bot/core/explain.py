"""The explanation of a played deal's result: the calculator's step-by-step account, so a table and a real-life
score request explain a deal in the same words.

A played deal is turned into the calculator's request (exactly what a real table knows at the end: contract,
multiplier, card points with the last ten, valat, each team's announcements with their top cards, hanging points
carried in) and scored by the same engine function. Should the two ever disagree (the request cannot carry a run's
length, which only ``long_sequence="length"`` uses), the table shows the plain numbers of its own result instead.
"""

from __future__ import annotations

from bot.calculator.request import DealRequest
from bot.calculator.score import score_request
from bot.calculator.vocabulary import BELOTE, Declared
from bot.engine import Deal, DealResult
from bot.i18n import Translator

from . import names


def deal_request(deal: Deal, result: DealResult, tr: Translator) -> DealRequest:
    declared: tuple[list[Declared], list[Declared]] = ([], [])
    for seat in range(4):
        declared[seat & 1].extend(Declared(c.kind, c.top) for c in deal.declared[seat])
        declared[seat & 1].extend(Declared(BELOTE) for _ in deal.belotes[seat])
    return DealRequest(
        contract=result.contract,
        points=result.points,
        multiplier=result.multiplier,
        declarer=result.declarer,
        valat=result.valat,
        declarations=(tuple(declared[0]), tuple(declared[1])),
        hanging_in=result.hanging_in,
        rules=deal.rules,
        teams=(_title(names.team_name(0, tr)), _title(names.team_name(1, tr))),  # steps often start with it
    )


def _title(text: str) -> str:
    return text[:1].upper() + text[1:]


def deal_explanation(deal: Deal, result: DealResult, tr: Translator) -> list[str]:
    answer = score_request(deal_request(deal, result, tr))
    if answer.result == result:
        return answer.explanation(tr.lang)
    return plain_numbers(result, tr)


def plain_numbers(result: DealResult, tr: Translator) -> list[str]:
    lines = [
        tr.gettext("Card points (with the last ten): A {a} · B {b}", a=result.points[0], b=result.points[1]),
    ]
    if any(result.declarations):
        lines.append(tr.gettext("Declarations: A {a} · B {b}", a=result.declarations[0], b=result.declarations[1]))
    if any(result.belotes):
        lines.append(tr.gettext("Belotes: A {a} · B {b}", a=result.belotes[0], b=result.belotes[1]))
    if result.valat is not None:
        lines.append(tr.gettext("Valat by {team}.", team=names.team_name(result.valat, tr)))
    lines.append(tr.gettext("Raw total: A {a} · B {b}", a=result.raw[0], b=result.raw[1]))
    if result.multiplier > 1:
        lines.append(tr.gettext("Multiplied by {m}.", m=result.multiplier))
    if result.collected is not None:
        lines.append(
            tr.gettext(
                "{team} collects the hanging points ({n}).",
                team=names.team_name(result.collected, tr).capitalize(),
                n=result.hanging_in,
            )
        )
    lines.append(tr.gettext("Written: A {a} · B {b}", a=result.score[0], b=result.score[1]))
    return lines
