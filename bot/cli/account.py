"""A readable account of a match, deal by deal, in Bulgarian or English: the hands, the auction, the contract,
announcements, every trick and the result (used by `replay` and `demo`)."""

from __future__ import annotations

from bot.core import names as words
from bot.engine import Deal, Match, card_symbol
from bot.i18n import Translator, translator


def _seat(names: list[str], seat: int) -> str:
    return f"{names[seat]} ({'AB'[seat & 1]})"


def _top(rank: int, suit: int) -> str:
    """A combination's top card ("K♥"), or a carré's rank ("J") when it has no suit."""
    return card_symbol(max(suit, 0) * 8 + rank)[: None if suit >= 0 else -1]


def seat_names(lang: str) -> list[str]:
    """The four seats' names when a match has no players' names."""
    tr = translator(lang)
    return [tr.gettext("North"), tr.gettext("East"), tr.gettext("South"), tr.gettext("West")]


def _contract(deal: Deal, names: list[str], contract: str, tr: Translator) -> str:
    seat = _seat(names, deal.bidder)
    if deal.multiplier == 2:
        return tr.gettext("Contract: {contract}, doubled (contra), by {seat}", contract=contract, seat=seat)
    if deal.multiplier == 4:
        return tr.gettext("Contract: {contract}, redoubled (recontra), by {seat}", contract=contract, seat=seat)
    return tr.gettext("Contract: {contract} by {seat}", contract=contract, seat=seat)


def deal_account(deal: Deal, number: int, names: list[str], lang: str = "en") -> list[str]:
    tr = translator(lang)
    lines = [tr.gettext("Deal {n}: dealer {seat}", n=number, seat=_seat(names, deal.dealer))]
    for seat in range(4):
        lines.append(f"  {_seat(names, seat)}: {' '.join(card_symbol(c) for c in deal.hands[seat])}")
    calls = [f"{names[(deal.dealer + 1 + i) % 4]} {words.call_name(c, tr)}" for i, c in enumerate(deal.calls)]
    lines.append("  " + tr.gettext("Auction: {calls}", calls=", ".join(calls) if calls else tr.gettext("(none)")))
    if deal.passed_out:
        lines.append("  " + tr.gettext("All four passed: no deal is played, the hanging pot stays {n}",
                                       n=deal.hanging_in))
        return lines
    if deal.phase == "auction":
        lines.append("  " + tr.gettext("(the auction is not over)"))
        return lines
    lines.append("  " + _contract(deal, names, words.call_name(deal.contract, tr), tr))
    for a in deal.announcements:
        if a.belote_suit >= 0:
            lines.append("  " + tr.gettext("{name}: belote in {suit}", name=names[a.seat],
                                           suit=words.suit_name(a.belote_suit, tr)))
        else:
            kinds = ", ".join(words.declaration_name(k, tr) for k in a.kinds)
            lines.append("  " + tr.gettext("{name} declares {list}", name=names[a.seat], list=kinds))
    for n, trick in enumerate(deal.tricks, 1):
        cards = " ".join(card_symbol(c) for c in trick.cards)
        lines.append("  " + tr.gettext("Trick {n}: {leader} leads {cards} -> {winner}", n=n,
                                       leader=names[trick.leader], cards=cards, winner=names[trick.winner]))
    if deal.trick:
        lines.append("  " + tr.gettext("Trick {n} (in progress): {cards}", n=len(deal.tricks) + 1,
                                       cards=" ".join(card_symbol(c) for c in deal.trick)))
    result = deal.result
    if result is None:
        return lines
    counted = deal.counted_declarations()
    for team in (0, 1):
        if counted[team]:
            scored = ", ".join(f"{words.declaration_name(c.kind, tr)} {_top(c.top, c.suit)} ({c.value})"
                               for c in counted[team])
            lines.append("  " + tr.gettext("Team {team} scores {list}", team="AB"[team], list=scored))
    if result.valat is not None:
        lines.append("  " + tr.gettext("Valat (capot) by team {team}", team="AB"[result.valat]))
    lines.append("  " + tr.gettext(
        "Raw A {a} : B {b} -> {outcome}; written A {wa}, B {wb}; hanging {hanging}",
        a=result.raw[0], b=result.raw[1], outcome=words.outcome_name(result.outcome, tr), wa=result.score[0],
        wb=result.score[1], hanging=result.hanging,
    ))
    return lines


def account(match: Match, names: list[str], lang: str = "en") -> str:
    tr = translator(lang)
    lines = [tr.gettext("Seats: {list}", list=", ".join(_seat(names, s) for s in range(4)))]
    totals = [0, 0]
    for number, (deal, result) in enumerate(zip(match.deals, [*match.results, None], strict=False), 1):
        lines.extend(deal_account(deal, number, names, lang))
        if result is not None:
            totals[0] += result.score[0]
            totals[1] += result.score[1]
            lines.append("  " + tr.gettext("Match: A {a} : B {b}", a=totals[0], b=totals[1]))
    if match.winner is not None:
        lines.append(tr.gettext("Winner: team {team} ({p1} and {p2}), {a} : {b}", team="AB"[match.winner],
                                p1=names[match.winner], p2=names[match.winner + 2], a=match.totals[0],
                                b=match.totals[1]))
    else:
        lines.append(tr.gettext("No winner yet: A {a} : B {b}, hanging {hanging}", a=match.totals[0],
                                b=match.totals[1], hanging=match.hanging))
    return "\n".join(lines)
