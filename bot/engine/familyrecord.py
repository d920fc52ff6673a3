"""Records, replay and the replay report of the one-trump family games (formats §7.3, §7.4): `bela`, `bela-3`,
`bela-2` and `french`. What differs between them (hand sizes, the turned card, the extra cards, the discard, the
seven exchange) comes from each game's deal class, never from its name.

Reading is liberal where formats §1 allows it (``10H``, lower case, suit symbols; call spellings such as ``s``), and
every problem is a ``RecordError`` saying where, or a ``ReplayError`` naming the action and the rule. Writing is
exact: canonical cards, only the fields the variant has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from .calls import CALL_NAMES
from .cards import CardParseError, card_str, parse_card
from .deal import AUCTION, DISCARD, DONE, EXCHANGE, Deal, Discard, Exchange
from .familymatch import FamilyMatch
from .game import VARIANTS, parse_variant_rules
from .match import MatchOver
from .record import (
    FORMAT,
    Dealing,
    PlayEntry,
    RecordError,
    ReplayError,
    apply_recorded,
    check_next_deal,
    deal_plays,
    deal_report,
    dealing_of,
    parse_play,
    record_object,
    recorded_plays,
    replay_bids,
    validated,
)
from .rules import RulesError
from .shuffle import SCHEME
from .trumpdeal import TrumpDeal

FAMILY: Final = ("bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2")
# The extra deal fields of formats §7.3, by what they are.
_FIELD_WORDS: Final = {
    "turned": "turned card",
    "extra": "2 extra cards (set aside for the caller)",
    "discard": "discard",
    "exchange": "seven exchange",
}


class FamilyRecordDeal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dealer: int = Field(ge=0, le=3)
    hands: list[list[str]]
    turned: str | None = None
    extra: list[str] | None = None
    bids: list[str] = []
    discard: list[str] | None = None
    exchange: bool | None = None
    play: list[str | PlayEntry] | None = None


class FamilyRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str
    variant: str
    rules: dict[str, Any] = {}
    seats: list[str]
    deals: list[FamilyRecordDeal] = []
    dealing: Dealing | None = None


def is_family_record(data: object) -> bool:
    """Does this record name a family variant that this module replays (not the Bulgarian game)?"""
    return isinstance(data, dict) and data.get("variant") in FAMILY


def parse_family_record(data: object) -> FamilyRecord:
    """Validate the shape of a `bela` or `french` record; RecordError names the first problem."""
    data = record_object(data, "format, variant, seats and deals")
    if not isinstance(data.get("variant"), str) or data["variant"] not in VARIANTS:
        raise RecordError("variant", f"unknown variant {data.get('variant')!r}; known: {', '.join(VARIANTS)}")
    record = validated(FamilyRecord, data)
    seats = VARIANTS[record.variant].seats
    if len(record.seats) != seats:
        raise RecordError("seats", f"{record.variant} has {seats} seats, so {seats} names, not {len(record.seats)}")
    deal_type = _deal_type(record.variant)
    allowed = (*deal_type.START_FIELDS, *deal_type.ACTION_FIELDS)
    for i, rd in enumerate(record.deals):
        for name in ("turned", "extra", "discard", "exchange"):
            if getattr(rd, name) is not None and name not in allowed:
                has = f"; its fields are {', '.join(allowed)}" if allowed else ""
                raise RecordError(f"deals[{i}].{name}", f"a {deal_type.NAME} deal has no {_FIELD_WORDS[name]}{has}")
        for name in deal_type.START_FIELDS:
            if getattr(rd, name) is None:
                why = f"missing: a {deal_type.NAME} deal names its {_FIELD_WORDS[name]}"
                raise RecordError(f"deals[{i}].{name}", why)
    return record


def _deal_type(variant: str) -> type[TrumpDeal]:
    """The variant's deal class, through its match class (``FamilyMatch.DEAL``)."""
    match_type = VARIANTS[variant].new_match
    if not (isinstance(match_type, type) and issubclass(match_type, FamilyMatch)):
        raise RecordError("variant", f"{variant} is not a game of the family replayed here")
    return match_type.DEAL


def replay_family_record(data: object, seed: int | str = 0, scheme: str = SCHEME) -> FamilyMatch:
    """Replay a `bela` or `french` record into its match, stopping where the record stops."""
    record = data if isinstance(data, FamilyRecord) else parse_family_record(data)
    try:
        rules = parse_variant_rules(record.variant, record.rules)
    except RulesError as exc:
        key, why = exc.problems[0]
        raise RecordError(f"rules.{key}" if key else "rules", why) from None
    first = record.deals[0].dealer if record.deals else 0
    if record.dealing is not None and record.dealing.seed is not None:
        seed = record.dealing.seed  # a finished match reveals the seed that dealt it
    match: FamilyMatch = VARIANTS[record.variant].new_match(
        rules, seed=seed, first_dealer=first, auto_deal=False, scheme=scheme
    )  # type: ignore[assignment]
    if record.dealing is not None:
        match.recorded_dealing = record.dealing.model_dump(exclude_none=True)
    for i, rd in enumerate(record.deals):
        where = f"deals[{i}]"
        check_next_deal(match, i)
        if rd.dealer != match.next_dealer:
            raise RecordError(f"{where}.dealer", f"must be {match.next_dealer} (the previous deal's dealer plus one)")
        deal_type = _deal_type(record.variant)
        hands = _cards(rd.hands, f"{where}.hands", deal_type)
        extra: dict[str, Any] = {}
        if rd.turned is not None:
            extra["turned"] = _card(rd.turned, f"{where}.turned")
        if rd.extra is not None:
            extra["extra"] = [_card(t, f"{where}.extra[{k}]") for k, t in enumerate(rd.extra)]
        try:
            deal = match.start_deal(hands, **extra)
        except (ValueError, MatchOver) as exc:
            raise RecordError(f"{where}.hands", str(exc)) from None
        replay_bids(match, deal, rd.bids, i)
        if deal.passed_out and len(deal.hands[0]) != deal.CALL_CARDS:
            raise RecordError(f"{where}.hands", f"a passed-out deal lists the {deal.CALL_CARDS} cards each seat held")
        plays = rd.play or []
        _after_bids(match, deal, rd, i, bool(plays))
        if plays and deal.phase == DONE:
            belot = getattr(deal, "belot_seat", -1) >= 0
            why = "a belot ends the match before the first lead" if belot else "a passed-out deal has no play"
            raise RecordError(f"{where}.play", why)
        if plays and deal.phase == AUCTION:
            raise RecordError(f"{where}.play", "cards are listed but trump is not chosen yet")
        for k, entry in enumerate(plays):
            action = parse_play(entry, f"{where}.play[{k}]", rules.auto_declarations)
            if deal.phase == DONE or match.over:
                raise ReplayError(i + 1, "play", k + 1, deal.to_act, f"play {action}", "the match is decided")
            apply_recorded(match, deal, action, i, "play", k, f"play {action}")
    return match


def _after_bids(match: FamilyMatch, deal: TrumpDeal, rd: FamilyRecordDeal, i: int, plays: bool) -> None:
    """The caller's discard (``bela-3``) or the answer to the seven exchange (``bela-2``), between bids and play."""
    where = f"deals[{i}]"
    if rd.discard is not None:
        if deal.phase != DISCARD:
            raise RecordError(f"{where}.discard", "no discard is due: the caller discards once he has named trump")
        cards = tuple(_card(t, f"{where}.discard[{k}]") for k, t in enumerate(rd.discard))
        apply_recorded(match, deal, Discard(cards), i, "discard", 1, str(Discard(cards)))
    elif deal.phase == DISCARD and plays:
        raise RecordError(f"{where}.discard", "missing: the caller's two discards come before the first card")
    if rd.exchange is not None:
        if deal.phase != EXCHANGE:
            raise RecordError(
                f"{where}.exchange",
                "present only when a player held the 7 of the turned suit among his first six and seven_exchange "
                "allowed the exchange",
            )
        apply_recorded(match, deal, Exchange(rd.exchange), i, "exchange", 1, str(Exchange(rd.exchange)))
    elif deal.phase == EXCHANGE and plays:
        raise RecordError(
            f"{where}.exchange", "missing: a player held the 7 of the turned suit, so the record says whether he "
            "exchanged it (true or false)"
        )


def _card(text: str, where: str) -> int:
    try:
        return parse_card(text)
    except CardParseError as exc:
        raise RecordError(where, str(exc)) from None


def _cards(hands: list[list[str]], where: str, deal_type: type[TrumpDeal]) -> list[list[int]]:
    n = deal_type.SEATS
    if len(hands) != n:
        raise RecordError(where, f"must list {n} hands, one per seat, not {len(hands)}")
    out = []
    seen: dict[int, str] = {}
    for s, hand in enumerate(hands):
        if len(hand) not in deal_type.RECORD_HANDS:
            raise RecordError(f"{where}[{s}]", f"must hold {deal_type.RECORD_HANDS_TEXT}, not {len(hand)}")
        cards = []
        for k, text in enumerate(hand):
            c = _card(text, f"{where}[{s}][{k}]")
            if not deal_type.PACK >> c & 1:
                why = f"{card_str(c)} is not in the pack: {deal_type.variant} plays {deal_type.PACK_TEXT}"
                raise RecordError(f"{where}[{s}][{k}]", why)
            if c in seen:
                raise RecordError(f"{where}[{s}][{k}]", f"{card_str(c)} is dealt twice (also at {seen[c]})")
            seen[c] = f"hands[{s}][{k}]"
            cards.append(c)
        out.append(cards)
    if len({len(h) for h in out}) != 1:
        raise RecordError(where, "every seat must hold the same number of cards")
    return out


# --- writing ---


def family_deal_to_record(deal: TrumpDeal) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": deal.dealer}
    out["hands"] = [[card_str(c) for c in h] for h in deal.record_hands()]
    fields = deal.record_fields()
    out.update((k, fields[k]) for k in deal.START_FIELDS if k in fields)
    out["bids"] = [CALL_NAMES[c] for c in deal.calls]
    out.update((k, fields[k]) for k in deal.ACTION_FIELDS if k in fields)
    play = recorded_plays(deal_plays(deal, deal.n), deal.opts.auto_declarations)
    if play:
        out["play"] = play
    return out


def family_match_to_record(
    match: FamilyMatch, seats: Sequence[str] | None = None, reveal: bool = False
) -> dict[str, Any]:
    """The ``belote-record/1`` object of a `bela` or `french` match (formats §7.3)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": match.variant,
        "rules": match.rules.to_json(),
        "seats": list(seats) if seats is not None else ["North", "East", "South", "West"][: match.SEATS],
        "deals": [family_deal_to_record(d) for d in match.deals],
    }
    if match.recorded_dealing is not None:
        out["dealing"] = dict(match.recorded_dealing)
    else:
        dealing = dealing_of(match.seed, match.scheme, reveal)
        if dealing is not None:
            out["dealing"] = dealing
    return out


# --- the replay report (formats §7.4) ---


def family_deal_report(deal: TrumpDeal) -> dict[str, Any]:
    sides = deal.SIDES
    report: dict[str, Any] = {
        "dealer": deal.dealer,
        "caller": None,
        "contract": None,
        "multiplier": None,
        "declarer": None,
        "tricks": None,
        "raw": None,
        "score": None,
        "hanging": deal.hanging_in,
        "outcome": None,
    }
    if deal.FELL:
        report["fell"] = None
    if deal.BELOT:
        report["belot"] = None
    if deal.phase != AUCTION and deal.contract >= 0:
        report["caller"] = deal.bidder
        report["contract"] = CALL_NAMES[deal.contract]
        report["multiplier"] = deal.multiplier
        report["declarer"] = sides[deal.declarer]
        report["tricks"] = dict(zip(sides, deal.tricks_won, strict=True))
    belot = getattr(deal, "belot_seat", -1)
    if belot >= 0:
        report["belot"] = belot
        report["score"] = dict.fromkeys(sides, 0)
        report["outcome"] = "belot"
    elif getattr(deal, "dosta_side", -1) >= 0:
        report["score"] = dict.fromkeys(sides, 0)
        report["outcome"] = "dosta"
    result = deal.result
    if result is not None:
        report["raw"] = dict(zip(sides, result.raw, strict=True))
        report["score"] = dict(zip(sides, result.score, strict=True))
        report["hanging"] = result.hanging
        report["outcome"] = result.outcome
        if deal.FELL:
            report["fell"] = result.fell
    return report


def family_match_report(match: FamilyMatch) -> dict[str, Any]:
    sides = VARIANTS[match.variant].sides
    winner: str | None = "draw" if match.drawn else None if match.winner is None else sides[match.winner]
    return {
        "deals": [family_deal_report(d) for d in match.deals],
        "total": dict(zip(sides, match.totals, strict=True)),
        "winner": winner,
    }


__all__ = [
    "FAMILY",
    "FamilyRecord",
    "family_deal_report",
    "family_match_report",
    "family_match_to_record",
    "is_family_record",
    "parse_family_record",
    "replay_family_record",
]


# The fields of a family deal's record that are not hands, bids or play: what deal_end carries beside the hands.
_RECORD_ONLY: Final = frozenset({"dealer", "hands", "bids", "play"})


def deal_end_of(deal: Deal | TrumpDeal) -> tuple[dict[str, Any], list[list[str]], dict[str, Any]]:
    """What every agent hears when a deal is over (formats §6 and §7.6): its report, the hands as its record lists
    them (``bela-open``: the 16-card layout) and a family deal's other record fields (``turned``, ``extra``,
    ``discard``, ``exchange``); a Bulgarian deal has none."""
    if not isinstance(deal, TrumpDeal):
        return deal_report(deal), [[card_str(c) for c in hand] for hand in deal.hands], {}
    record = family_deal_to_record(deal)
    extra = {k: v for k, v in record.items() if k not in _RECORD_ONLY}
    return family_deal_report(deal), record["hands"], extra
