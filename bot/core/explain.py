"""The explanation of a deal's result, in one place so the calculator's richer explanation can replace it.

Until the calculator offers one, this shows the numbers the result carries: card points (with the last ten),
counted declarations and belotes, the raw totals, valat, and what each team writes.
"""

from __future__ import annotations

from bot.engine import Deal, DealResult
from bot.i18n import Translator

from . import names


def deal_explanation(deal: Deal, result: DealResult, tr: Translator) -> list[str]:
    lines = [
        tr.gettext("Card points (with the last ten): A {a} · B {b}", a=result.points[0], b=result.points[1]),
    ]
    if any(result.declarations):
        lines.append(
            tr.gettext("Declarations: A {a} · B {b}", a=result.declarations[0], b=result.declarations[1])
        )
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
