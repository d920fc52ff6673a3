"""Checking a record's deals against its revealed seed (docs/fairness.md, "Checking a record"): Bulgarian records, and
the `bela` and `french` records of formats §7.3, which are dealt by the same keyed-hash shuffle and cut."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .calls import CallParseError, parse_call
from .cards import Card, card_str
from .deal import AUCTION, Bid, IllegalAction
from .familymatch import FamilyMatch
from .familyrecord import FamilyRecord, _card, _cards, is_family_record, parse_family_record
from .game import VARIANTS, parse_variant_rules
from .match import deal_hands
from .record import Dealing, Record, RecordError, _parse_hands, parse_record
from .rules import RulesError
from .shuffle import commitment, shuffle_and_cut


@dataclass(frozen=True, slots=True)
class Verdict:
    """``problem`` names the first thing that does not follow from the seed (None when everything does)."""

    problem: str | None
    account: str


def verify_record(data: object) -> Verdict:
    """Check the seed against the commitment and every deal's hands against the seed.

    Raises RecordError for a record that is malformed or has nothing to check (no ``dealing``, no revealed seed)."""
    if isinstance(data, FamilyRecord) or is_family_record(data):
        return _verify_family(data if isinstance(data, FamilyRecord) else parse_family_record(data))
    record = data if isinstance(data, Record) else parse_record(data)
    seed, mismatch = _revealed(record.dealing)
    if mismatch is not None:
        return mismatch
    assert record.dealing is not None
    dealing = record.dealing
    for n, rd in enumerate(record.deals):
        where = f"deals[{n}]"
        if n and rd.dealer != (record.deals[n - 1].dealer + 1) % 4:
            raise RecordError(f"{where}.dealer", f"must be {(record.deals[n - 1].dealer + 1) % 4} (the previous "
                              f"deal's dealer plus one), not {rd.dealer}")
        listed = _parse_hands(rd, where)
        dealt = deal_hands(shuffle_and_cut(seed, n, dealing.scheme), rd.dealer)
        for seat in range(4):
            expected = dealt[seat][: len(listed[seat])]
            if listed[seat] != expected:
                return Verdict(
                    f"deal {n + 1} does not follow from the seed: seat {seat} holds "
                    f"{' '.join(card_str(c) for c in listed[seat])}, the seed deals it "
                    f"{' '.join(card_str(c) for c in expected)}",
                    "",
                )
    return _followed(dealing, len(record.deals))


def _revealed(dealing: Dealing | None) -> tuple[str, Verdict | None]:
    """The revealed seed, and a verdict if it does not hash to the commitment. RecordError when there is none."""
    if dealing is None:
        raise RecordError("dealing", "absent: this match was not dealt from a committed seed, so there is nothing "
                          "to verify (docs/fairness.md)")
    if dealing.seed is None:
        raise RecordError("dealing.seed", "absent: the seed is revealed only when the match is over")
    seed = dealing.seed  # the record parsers refuse a seed that is not text (a lone surrogate)
    if commitment(seed) != dealing.commitment:
        return seed, Verdict(
            f"the seed does not match the commitment: SHA-256 of the seed is {commitment(seed)}, the record "
            f"commits to {dealing.commitment}",
            "",
        )
    return seed, None


def _followed(dealing: Dealing, deals: int) -> Verdict:
    return Verdict(
        None,
        f"The seed matches the commitment {dealing.commitment}.\n"
        f"Every hand of the {deals} deal{'s' if deals != 1 else ''} follows from it ({dealing.scheme}, "
        "docs/fairness.md).",
    )


def _verify_family(record: FamilyRecord) -> Verdict:
    """A `bela` or `french` record: each deal as the seed deals it to the recorded dealer. In French belote the last
    three cards of each seat depend on who took the turned card, so the seed's deal is taken through the record's
    bids before its full hands are compared."""
    seed, mismatch = _revealed(record.dealing)
    if mismatch is not None:
        return mismatch
    assert record.dealing is not None
    try:
        rules = parse_variant_rules(record.variant, record.rules)
    except RulesError as exc:
        key, why = exc.problems[0]
        raise RecordError(f"rules.{key}" if key else "rules", why) from None
    seats = VARIANTS[record.variant].seats
    match = VARIANTS[record.variant].new_match(rules, seed=seed, auto_deal=False, scheme=record.dealing.scheme)
    assert isinstance(match, FamilyMatch)
    for n, rd in enumerate(record.deals):
        where = f"deals[{n}]"
        if n and rd.dealer != (record.deals[n - 1].dealer + 1) % seats:
            raise RecordError(f"{where}.dealer", f"must be {(record.deals[n - 1].dealer + 1) % seats} (the previous "
                              f"deal's dealer plus one), not {rd.dealer}")
        listed = _cards(rd.hands, f"{where}.hands", type(match).DEAL)
        dealt = match._deal_from(shuffle_and_cut(seed, n, record.dealing.scheme), rd.dealer)
        turned: Card | None = getattr(dealt, "turned", None)
        if turned is not None and rd.turned is not None and _card(rd.turned, f"{where}.turned") != turned:
            return Verdict(
                f"deal {n + 1} does not follow from the seed: the turned card is {rd.turned}, the seed turns "
                f"{card_str(turned)}",
                "",
            )
        # The cards held while trump is chosen come straight from the seed; the rest may wait for the bids.
        first = dealt.CALL_CARDS
        problem = _first_difference(n, listed, [list(h) for h in dealt.hands], first)
        if problem is not None:
            return Verdict(problem, "")
        for k, text in enumerate(rd.bids):
            if dealt.phase != AUCTION:
                break
            try:
                dealt.apply(Bid(parse_call(text)))
            except (CallParseError, IllegalAction, ValueError) as exc:
                raise RecordError(f"{where}.bids[{k}]", str(exc)) from None
        for seat, hand in enumerate(listed):
            if len(hand) != len(dealt.hands[seat]):
                raise RecordError(f"{where}.hands[{seat}]", f"lists {len(hand)} cards, but after these bids the seat "
                                  f"holds {len(dealt.hands[seat])}")
        problem = _first_difference(n, listed, [list(h) for h in dealt.hands], None)
        if problem is not None:
            return Verdict(problem, "")
    return _followed(record.dealing, len(record.deals))


def _first_difference(
    n: int, listed: Sequence[Sequence[Card]], dealt: Sequence[Sequence[Card]], upto: int | None
) -> str | None:
    """Where the listed hands of deal ``n`` differ from the dealt ones: their first ``upto`` cards (None: every card
    listed)."""
    for seat, hand in enumerate(listed):
        size = len(hand) if upto is None else min(upto, len(hand))
        expected = list(dealt[seat][:size])
        if list(hand[:size]) != expected:
            return (
                f"deal {n + 1} does not follow from the seed: seat {seat} holds "
                f"{' '.join(card_str(c) for c in hand[:size])}, the seed deals it "
                f"{' '.join(card_str(c) for c in expected)}"
            )
    return None
