"""The replay command's account of a family record (`bela`, `bela-3`, `bela-2`, `french`, `bulgarian-3`, `bulgarian-2`;
formats §7): the same shape as the Bulgarian one."""

from __future__ import annotations

from bot.engine import card_symbol, parse_card
from bot.engine.calls import CALL_NAMES
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_deal_report
from bot.engine.trumpdeal import TrumpDeal


def _symbol(text: str) -> str:
    return card_symbol(parse_card(text))


def _seat(names: list[str], seat: int, sides: tuple[str, ...]) -> str:
    return f"{names[seat]} ({sides[seat % len(sides)]})"


def _labels(names: list[str], sides: tuple[str, ...]) -> list[str]:
    """How the account names each side: the team letter, or the player's name where every player is alone."""
    return list(sides) if len(sides) < len(names) else [f"{names[s]} ({side})" for s, side in enumerate(sides)]


def family_deal_account(deal: TrumpDeal, number: int, names: list[str]) -> list[str]:
    sides = deal.SIDES
    lines = [f"Deal {number}: dealer {_seat(names, deal.dealer, sides)}"]
    for seat in range(deal.n):
        lines.append(f"  {_seat(names, seat, sides)}: {' '.join(card_symbol(c) for c in deal.hands[seat])}")
    turned = getattr(deal, "turned", None)
    if turned is not None:
        lines.append(f"  Turned card: {card_symbol(turned)}")
    calls = [f"{names[(deal.dealer + 1 + i) % deal.n]} {CALL_NAMES[c]}" for i, c in enumerate(deal.calls)]
    lines.append("  Calls: " + (", ".join(calls) if calls else "(not started)"))
    report = family_deal_report(deal)
    if deal.passed_out:
        lines.append("  Passed out: the next player deals")
        return lines
    if report["contract"] is None:
        lines.append("  (trump is not chosen yet)")
        return lines
    lines.append(f"  Trump: {report['contract']}, named by {_seat(names, deal.bidder, sides)}")
    fields = deal.record_fields()
    if "extra" in fields:
        lines.append(f"  Extra cards, taken by the caller: {' '.join(map(_symbol, fields['extra']))}")
    if "discard" in fields:
        lines.append(f"  Discard (counts for the caller): {' '.join(map(_symbol, fields['discard']))}")
    if "exchange" in fields:
        holder = names[getattr(deal, "exchanger", deal.bidder)]
        took = "takes the turned card for his 7" if fields["exchange"] else "keeps his 7"
        lines.append(f"  Exchange: {holder} {took}")
    if report["outcome"] == "belot":
        lines.append(f"  Belot: {names[report['belot']]} holds all eight cards of a suit and wins the match")
        return lines
    for a in deal.announcements:
        what = "bela/belote" if a.belote_suit >= 0 else "declares " + ", ".join(a.kinds)
        lines.append(f"  {names[a.seat]} {what}")
    for n, trick in enumerate(deal.tricks, 1):
        cards = " ".join(card_symbol(c) for c in trick.cards)
        lines.append(f"  Trick {n}: {names[trick.leader]} leads {cards} -> {names[trick.winner]}")
    if deal.trick:
        lines.append(f"  Trick {len(deal.tricks) + 1} (in progress): " + " ".join(card_symbol(c) for c in deal.trick))
    if report["outcome"] == "dosta":
        lines.append("  The pair that took the last trick reached the target: the match ends (na dosta)")
    elif deal.result is not None:
        r = deal.result
        labels = _labels(names, sides)
        raw = ", ".join(f"{s} {v}" for s, v in zip(labels, r.raw, strict=True))
        written = ", ".join(f"{s} {v}" for s, v in zip(labels, r.score, strict=True))
        lines.append(f"  Totals {raw} -> {r.outcome}; written {written}; held {r.hanging}")
    return lines


def family_account(match: FamilyMatch, names: list[str]) -> str:
    sides = match.deal.SIDES if match.deals else ("A", "B")
    lines = [f"Variant: {match.variant}", "Seats: " + ", ".join(_seat(names, s, sides) for s in range(match.SEATS))]
    for number, deal in enumerate(match.deals, 1):
        lines.extend(family_deal_account(deal, number, names))
    labels = _labels(names, sides)
    totals = ", ".join(f"{s} {v}" for s, v in zip(labels, match.totals, strict=True))
    if match.drawn:
        lines.append(f"Draw: both teams reached the target, {totals}")
    elif match.winner is not None:
        lines.append(f"Winner: {labels[match.winner]}, {totals}")
    else:
        lines.append(f"No winner yet: {totals}, held {match.hanging}")
    return "\n".join(lines)
