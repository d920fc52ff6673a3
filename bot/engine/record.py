"""Game records (``belote-record/1``, formats.md §3), replay, and the replay report (formats.md §4).

A record is enough to replay a match exactly, so it is also how a match's state is saved and restored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .calls import CALL_NAMES, CallParseError, parse_call
from .cards import CardParseError, card_str, parse_card
from .deal import AUCTION, DONE, Action, Bid, Deal, IllegalAction, Play
from .jsontext import SURROGATE_WHY, lone_surrogate
from .match import DealsInTurn, Match, MatchOver
from .rules import RulesError, parse_rules
from .scoring import TEAM_NAMES
from .shuffle import LEGACY_SCHEME, SCHEME, commitment
from .trumpdeal import TrumpDeal

FORMAT = "belote-record/1"
RecordT = TypeVar("RecordT", bound=BaseModel)


class PlayEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: str
    declare: list[str] | None = None
    belote: bool | None = None


class RecordDeal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dealer: int = Field(ge=0, le=3)
    hands: list[list[str]]
    bids: list[str] = []
    play: list[str | PlayEntry] = []


class Dealing(BaseModel):
    """How the deals came from a secret seed (docs/fairness.md): the seed only once the match is over."""

    model_config = ConfigDict(extra="forbid")

    scheme: Literal["hmac-sha256/1"]
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")
    seed: str | None = None


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["belote-record/1"]
    variant: Literal["bulgarian"] = "bulgarian"
    rules: dict[str, Any] = {}
    seats: list[str] = Field(min_length=4, max_length=4)
    deals: list[RecordDeal] = []
    dealing: Dealing | None = None


class RecordError(ValueError):
    """A malformed record: ``where`` it is wrong and ``why``."""

    def __init__(self, where: str, why: str) -> None:
        self.where = where
        self.why = why
        super().__init__(f"{where}: {why}" if where else why)


class ReplayError(ValueError):
    """An illegal action in a record: the deal (1-based), the action's position in ``bids`` or ``play`` (1-based),
    the seat, the action and the rule it breaks."""

    def __init__(self, deal: int, part: str, position: int, seat: int, action: str, rule: str) -> None:
        self.deal = deal
        self.part = part
        self.position = position
        self.seat = seat
        self.action = action
        self.rule = rule
        super().__init__(f"deal {deal}, {part} {position}: seat {seat} may not {action}: {rule}")


def _loc(parts: Sequence[object]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def record_object(data: object, fields: str) -> dict[str, Any]:
    """A record's JSON object, of this format and with no text that cannot be shown (``fields``: what a record
    holds, for the answer to something else); RecordError names the first problem."""
    if not isinstance(data, dict):
        raise RecordError("", f"a record is a JSON object with {fields}")
    where = lone_surrogate(data)
    if where is not None:  # such a string cannot be printed or stored as text: refuse it before it is shown
        raise RecordError(where, SURROGATE_WHY)
    if data.get("format") != FORMAT:
        raise RecordError("format", f'must be "{FORMAT}", got {data.get("format")!r}')
    return data


def validated(model: type[RecordT], data: dict[str, Any]) -> RecordT:
    """A record read by its model; RecordError names the first field that is not valid."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = "unknown field" if err.get("type") == "extra_forbidden" else err.get("msg", "invalid")
        raise RecordError(_loc(err.get("loc", ())), msg) from None


def parse_record(data: object) -> Record:
    """Validate the shape of a record; raise RecordError naming the first problem."""
    return validated(Record, record_object(data, "format, seats and deals"))


def replay_record(data: object, seed: int | str = 0, first_dealer: int | None = None, scheme: str = SCHEME) -> Match:
    """Replay a record into a Match (stopping where the record stops). Raises RecordError or ReplayError.

    ``seed`` deals the deals after the record's (see ``restore_match``); the record's own hands are always kept.
    """
    record = data if isinstance(data, Record) else parse_record(data)
    try:
        rules = parse_rules(record.rules)
    except RulesError as exc:
        key, why = exc.problems[0]
        raise RecordError(f"rules.{key}" if key else "rules", why) from None
    if record.deals:
        first_dealer = record.deals[0].dealer
    match = Match(rules, seed=seed, first_dealer=first_dealer or 0, auto_deal=False, scheme=scheme)
    for i, rd in enumerate(record.deals):
        where = f"deals[{i}]"
        check_next_deal(match, i)
        if rd.dealer != match.next_dealer:
            raise RecordError(
                f"{where}.dealer", f"must be {match.next_dealer} (the previous deal's dealer plus one), not {rd.dealer}"
            )
        hands = _parse_hands(rd, where)
        try:
            deal = match.start_deal(hands)
        except (ValueError, MatchOver) as exc:
            raise RecordError(f"{where}.hands", str(exc)) from None
        replay_bids(match, deal, rd.bids, i)
        if rd.play and deal.phase == AUCTION:
            raise RecordError(f"{where}.play", "cards are listed but the auction is not over")
        if rd.play and deal.passed_out:
            raise RecordError(f"{where}.play", "a passed-out deal has no play")
        for k, entry in enumerate(rd.play):
            action = parse_play(entry, f"{where}.play[{k}]", rules.auto_declarations)
            apply_recorded(match, deal, action, i, "play", k, f"play {action}")
    return match


def check_next_deal(match: DealsInTurn[Any], i: int) -> None:
    """Deal ``i`` (0-based) of a record may start: the match is not decided and the deal before it is finished."""
    where = f"deals[{i}]"
    if match.over:
        raise RecordError(where, f"deal {i + 1} comes after the match was decided")
    if match.deals and match.deal.phase != DONE:
        raise RecordError(where, f"deal {i} is unfinished; only the last deal may be")


def replay_bids(match: DealsInTurn[Any], deal: Deal | TrumpDeal, bids: Sequence[str], i: int) -> None:
    """The calls of deal ``i`` of a record, applied in turn."""
    for k, text in enumerate(bids):
        try:
            call = parse_call(text)
        except CallParseError as exc:
            raise RecordError(f"deals[{i}].bids[{k}]", str(exc)) from None
        apply_recorded(match, deal, Bid(call), i, "bid", k, f"call {text}")


def _parse_hands(rd: RecordDeal, where: str) -> list[list[int]]:
    if len(rd.hands) != 4:
        raise RecordError(f"{where}.hands", f"must list four hands, one per seat, not {len(rd.hands)}")
    hands = []
    for s, hand in enumerate(rd.hands):
        if len(hand) not in (5, 8):
            raise RecordError(f"{where}.hands[{s}]", f"must hold 8 cards (5 for a passed-out deal), not {len(hand)}")
        cards = []
        for k, text in enumerate(hand):
            try:
                cards.append(parse_card(text))
            except CardParseError as exc:
                raise RecordError(f"{where}.hands[{s}][{k}]", str(exc)) from None
        hands.append(cards)
    if len({len(h) for h in hands}) != 1:
        raise RecordError(f"{where}.hands", "every seat must hold the same number of cards")
    seen: dict[int, str] = {}
    for s, hand_cards in enumerate(hands):
        for k, c in enumerate(hand_cards):
            if c in seen:
                raise RecordError(f"{where}.hands[{s}][{k}]", f"{card_str(c)} is dealt twice (also at {seen[c]})")
            seen[c] = f"hands[{s}][{k}]"
    return hands


def parse_play(entry: str | PlayEntry, where: str, auto: bool) -> Play:
    """A record's card played, with the announcements it carries (none under ``auto`` declarations)."""
    text = entry if isinstance(entry, str) else entry.card
    try:
        card = parse_card(text)
    except CardParseError as exc:
        raise RecordError(where, str(exc)) from None
    if isinstance(entry, str):
        return Play(card)
    if auto and (entry.declare is not None or entry.belote is not None):
        raise RecordError(where, "under auto_declarations a record carries no declare or belote fields")
    return Play(card, tuple(entry.declare or ()), bool(entry.belote))


def apply_recorded(
    match: DealsInTurn[Any], deal: Deal | TrumpDeal, action: Action, i: int, part: str, k: int, shown: str
) -> None:
    """Action ``k`` of ``part`` ("bid", "play", "discard", "exchange") of deal ``i`` of a record, applied: an illegal
    one is a ReplayError naming the rule, a record that disagrees with itself a RecordError."""
    if deal.phase == DONE:
        raise ReplayError(i + 1, part, k + 1, deal.to_act, shown, "the deal is already over")
    try:
        match.apply(action)
    except IllegalAction as exc:
        raise ReplayError(i + 1, part, k + 1, exc.seat, exc.action, exc.rule) from None
    except ValueError as exc:
        # The record disagrees with itself (five cards a seat yet a contract, the turned card in another hand...).
        field = {"bid": f"bids[{k}]", "play": f"play[{k}]"}.get(part, part)
        raise RecordError(f"deals[{i}].{field}", str(exc)) from None


# --- writing ---


def deal_plays(deal: Deal | TrumpDeal, seats: int = 4) -> list[Play]:
    """The plays of a deal in order, with the announcements each carried (declarations on a seat's first card; a
    belote on the first of the pair that seat played; in all trumps a seat may have several)."""
    declared = {a.seat: a.kinds for a in deal.announcements if a.belote_suit < 0}
    belotes = {(a.seat, a.belote_suit) for a in deal.announcements if a.belote_suit >= 0}
    plays: list[Play] = []
    first_seen = [False] * seats
    tricks = [(t.leader, t.cards) for t in deal.tricks]
    if deal.trick:
        tricks.append((deal.trick_leader, tuple(deal.trick)))
    for leader, cards in tricks:
        for pos, card in enumerate(cards):
            seat = (leader + pos) % seats
            kinds: tuple[str, ...] = ()
            if not first_seen[seat]:
                first_seen[seat] = True
                kinds = declared.get(seat, ())
            belote = False
            if card & 7 in (5, 6) and (seat, card >> 3) in belotes:
                belote = True
                belotes.discard((seat, card >> 3))
            plays.append(Play(card, kinds, belote))
    return plays


def recorded_plays(plays: Sequence[Play], auto: bool) -> list[Any]:
    """A record's ``play``: each card, as an object with its announcements where it carried any (never under
    ``auto`` declarations)."""
    play: list[Any] = []
    for p in plays:
        if auto or (not p.declare and not p.belote):
            play.append(card_str(p.card))
        else:
            entry: dict[str, Any] = {"card": card_str(p.card)}
            if p.declare:
                entry["declare"] = list(p.declare)
            if p.belote:
                entry["belote"] = True
            play.append(entry)
    return play


def dealing_of(seed: int | str, scheme: str, reveal: bool) -> dict[str, str] | None:
    """A record's ``dealing`` for a match dealt by the keyed hash: the scheme and the commitment, and the seed itself
    only with ``reveal`` (once the match is over or stopped: before that the seed would tell every hand to come)."""
    if scheme != SCHEME:
        return None
    dealing = {"scheme": SCHEME, "commitment": commitment(seed)}
    if reveal:
        dealing["seed"] = str(seed)
    return dealing


def deal_to_record(deal: Deal) -> dict[str, Any]:
    hands = deal.hands if not deal.passed_out else tuple(h[:5] for h in deal.hands)
    play = recorded_plays(deal_plays(deal), deal.rules.auto_declarations)
    out: dict[str, Any] = {
        "dealer": deal.dealer,
        "hands": [[card_str(c) for c in h] for h in hands],
        "bids": [CALL_NAMES[c] for c in deal.calls],
    }
    if play:
        out["play"] = play
    return out


def match_to_record(match: Match, seats: Sequence[str] | None = None, reveal: bool = False) -> dict[str, Any]:
    """The ``belote-record/1`` object of a match, finished or not, with its ``dealing`` (``dealing_of``)."""
    names = list(seats) if seats is not None else ["North", "East", "South", "West"]
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": "bulgarian",
        "rules": match.rules.to_json(),
        "seats": names,
        "deals": [deal_to_record(d) for d in match.deals],
    }
    dealing = dealing_of(match.seed, match.scheme, reveal)
    if dealing is not None:
        out["dealing"] = dealing
    return out


# --- the replay report ---


def deal_report(deal: Deal) -> dict[str, Any]:
    """One deal of the replay report (formats.md §4)."""
    report: dict[str, Any] = {
        "dealer": deal.dealer,
        "contract": None,
        "multiplier": None,
        "declarer": None,
        "tricks": None,
        "raw": None,
        "score": None,
        "hanging": deal.hanging_in,
        "outcome": None,
    }
    if deal.phase != AUCTION and deal.contract >= 0:
        report["contract"] = CALL_NAMES[deal.contract]
        report["multiplier"] = deal.multiplier
        report["declarer"] = TEAM_NAMES[deal.declarer]
        report["tricks"] = {"A": deal.tricks_won[0], "B": deal.tricks_won[1]}
    result = deal.result
    if result is not None:
        report["raw"] = {"A": result.raw[0], "B": result.raw[1]}
        report["score"] = {"A": result.score[0], "B": result.score[1]}
        report["hanging"] = result.hanging
        report["outcome"] = result.outcome
    return report


def match_report(match: Match) -> dict[str, Any]:
    """The whole replay report (formats.md §4)."""
    return {
        "deals": [deal_report(d) for d in match.deals],
        "total": {"A": match.totals[0], "B": match.totals[1]},
        "winner": None if match.winner is None else TEAM_NAMES[match.winner],
    }


# --- state: a match saved as its record plus the seed, restored by replay ---


class MatchState(BaseModel):
    """A match in progress, serialised: its record, and the seed that deals the deals still to come.

    A state saved before dealing schemes existed has no ``scheme``: it was dealt by the old one, and keeps it."""

    model_config = ConfigDict(extra="forbid")

    seed: int | str
    scheme: Literal["hmac-sha256/1", "python-random"] = LEGACY_SCHEME
    first_dealer: int = Field(ge=0, le=3)
    record: Record


def save_match(match: Match, seats: Sequence[str] | None = None) -> MatchState:
    return MatchState(
        seed=match.seed,
        scheme=match.scheme,
        first_dealer=match.first_dealer,
        record=Record.model_validate(match_to_record(match, seats)),
    )


def restore_match(state: MatchState) -> Match:
    """Rebuild a match from its saved state: the same deals, the same actions, and the same deals to come."""
    match = replay_record(state.record, seed=state.seed, first_dealer=state.first_dealer, scheme=state.scheme)
    match.auto_deal = True
    if match.winner is None and (not match.deals or match.deal.phase == DONE):
        match.start_deal()
    return match
