"""Checking a record's deals against its revealed seed (docs/fairness.md, "Checking a record")."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import card_str
from .match import deal_hands
from .record import Record, RecordError, _parse_hands, parse_record
from .shuffle import commitment, shuffle_and_cut


@dataclass(frozen=True, slots=True)
class Verdict:
    """``problem`` names the first thing that does not follow from the seed (None when everything does)."""

    problem: str | None
    account: str


def verify_record(data: object) -> Verdict:
    """Check the seed against the commitment and every deal's hands against the seed.

    Raises RecordError for a record that is malformed or has nothing to check (no ``dealing``, no revealed seed)."""
    record = data if isinstance(data, Record) else parse_record(data)
    dealing = record.dealing
    if dealing is None:
        raise RecordError("dealing", "absent: this match was not dealt from a committed seed, so there is nothing "
                          "to verify (docs/fairness.md)")
    if dealing.seed is None:
        raise RecordError("dealing.seed", "absent: the seed is revealed only when the match is over")
    seed = dealing.seed  # parse_record refused a seed that is not text (a lone surrogate)
    if commitment(seed) != dealing.commitment:
        return Verdict(
            f"the seed does not match the commitment: SHA-256 of the seed is {commitment(seed)}, the record "
            f"commits to {dealing.commitment}",
            "",
        )
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
    deals = len(record.deals)
    return Verdict(
        None,
        f"The seed matches the commitment {dealing.commitment}.\n"
        f"Every hand of the {deals} deal{'s' if deals != 1 else ''} follows from it ({dealing.scheme}, "
        "docs/fairness.md).",
    )
