"""A table's state and the one function that changes it: ``Table.apply(event)``.

Every change is an *event* (a small JSON object) appended to the table's log; live play and recovery both go
through ``apply``, so a table rebuilt from its log is the table that was running. Events are checked by the host
before they are logged; ``apply`` raises on an event that does not fit (a corrupt log).

Events (``e`` is the type):
``open`` (options), ``sit`` (seat, user id, name), ``leave`` (seat), ``bot`` (seat, level), ``unbot`` (seat),
``set`` (key, value), ``start`` (seed, dealer, scheme), ``bid`` (seat, call, by),
``play`` (seat, card, declare, belote, by), ``discard`` (seat, cards, by: the 3-player caller's two cards),
``exchange`` (seat, take, by: the 2-player seven exchange),
``toggle`` (seat, what: ``d<i>`` or ``b``), ``away`` (seat), ``back`` (seat), ``vote`` (user), ``stop`` (by).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.config import BOT_LEVELS
from bot.engine import Action, Bid, Discard, Exchange, Match, Play, card_str, parse_call, parse_card
from bot.engine.calls import CALL_NAMES
from bot.engine.deal import Deal
from bot.engine.familymatch import FamilyMatch
from bot.engine.game import VARIANTS, parse_variant_rules, variant
from bot.engine.shuffle import LEGACY_SCHEME, SCHEMES
from bot.engine.trumpdeal import TrumpDeal

from .messages import ChatRef
from .options import (
    ALL_RULE_KEYS,
    DEFAULT_GAME,
    EXTRA_KEYS,
    GAMES,
    LANGS,
    RULE_KEYS,
    OptionError,
    Options,
    TableError,
    ascii_number,
    check_game,
    check_option,
    rule_keys,
    rules_for_game,
    rules_model,
)

MOVES = ("bid", "play", "discard", "exchange")  # the events of a seat's move in a deal
SeatKind = Literal["empty", "human", "bot"]
Status = Literal["lobby", "playing", "finished", "stopped"]
AnyMatch = Match | FamilyMatch  # a running match of any game: the same shape (bot.engine.game.GameMatch)
AnyDeal = Deal | TrumpDeal


@dataclass(slots=True)
class Seat:
    kind: SeatKind = "empty"
    user_id: str = ""
    name: str = ""
    level: str = ""  # a bot's level or agent name
    away: bool = False  # a human whose seat a bot plays until they press "I'm back"

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def bot_plays(self) -> bool:
        """A bot chooses this seat's actions (a bot seat, or an away human's)."""
        return self.kind == "bot" or self.away


@dataclass(slots=True)
class Table:
    table_id: str
    chat: ChatRef
    creator: str
    options: Options = field(default_factory=Options)
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    status: Status = "lobby"
    match: AnyMatch | None = None
    seed: int = 0  # seeds the bots' own choices; the deals come from the match's seed
    version: int = 0  # number of events applied: the nonce of the current buttons
    declare_off: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])
    belote_off: list[bool] = field(default_factory=lambda: [False] * 4)
    votes: set[str] = field(default_factory=set)
    stopped_by: str = ""
    hints: dict[str, str] = field(default_factory=dict)  # user id -> their platform's language hint
    last_event: dict[str, Any] = field(default_factory=dict)
    # What a press made on an older message is judged by (``bot.core.stale``): the version after each person's
    # latest action, after the latest change of the seats, of each option, and of the turn (start, call, card).
    acted: dict[str, int] = field(default_factory=dict)
    seats_changed: int = 0
    options_changed: dict[str, int] = field(default_factory=dict)
    moved: int = 0
    # When a person last acted ("at" of their events, the host's clock), and when the table was opened.
    person_at: float = 0.0
    opened_at: float = 0.0
    # A caller's discard picks before he confirms them (seat -> cards): not an event, so a restart forgets them and
    # nothing reaches the engine before the Confirm press.
    picks: dict[int, tuple[int, ...]] = field(default_factory=dict)

    # --- queries ---

    @property
    def game(self) -> str:
        return self.options.game

    @property
    def seat_count(self) -> int:
        """How many seats the table's game has (its ``Variant.seats``: 4, 3 or 2)."""
        return variant(self.options.game).seats

    @property
    def teams(self) -> bool:
        """Two teams of partners facing each other (the four-seat games); else every player is his own side."""
        return len(variant(self.options.game).sides) == 2 and self.seat_count == 4

    @property
    def rules(self) -> Any:
        """The game's options model (``Rules``, ``BelaRules``, ``FrenchRules``) with the table's values."""
        return parse_variant_rules(self.options.game, self.options.rules)

    def seat_of(self, user_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.user_id == user_id:
                return i
        return None

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "empty"]

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    @property
    def deal(self) -> AnyDeal | None:
        return self.match.deal if self.match is not None and self.match.deals else None

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None outside a running match."""
        if self.status != "playing" or self.match is None or self.match.over:
            return None
        return self.match.deal.to_act

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "playing")

    # --- the one way to change a table ---

    def apply(self, event: dict[str, Any]) -> None:
        kind = event.get("e")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise TableError(f"unknown event {kind!r}")
        actor = self.actor_of(event)
        handler(event)
        self.version += 1
        self.last_event = event
        if actor:
            self.acted[actor] = self.version
            if isinstance(event.get("at"), int | float):
                self.person_at = float(event["at"])
                if kind == "open":
                    self.opened_at = self.person_at
        if kind in ("sit", "leave", "bot", "unbot", "start"):
            self.seats_changed = self.version
        if kind in ("start", "bid", "play", "discard", "exchange"):
            self.moved = self.version
            self.picks.clear()
        if kind == "set":
            self.options_changed[str(event["key"])] = self.version
        elif kind == "open":
            self.options_changed = dict.fromkeys((*ALL_RULE_KEYS, *EXTRA_KEYS, "game"), self.version)

    def actor_of(self, event: dict[str, Any]) -> str:
        """The person whose action the event is ("" for a bot's, a timer's or the host's): a seat's own action, or
        the ``user`` the event names (the host writes it into every event a person's press or command makes)."""
        kind = event.get("e")
        seat = event.get("seat")
        seated = self.seats[seat] if isinstance(seat, int) and 0 <= seat < len(self.seats) else None
        if kind in ("leave", "toggle", "back") or (kind in MOVES and event.get("by") == "human"):
            return seated.user_id if seated is not None and seated.kind == "human" else ""
        if kind == "stop":  # by the creator's id, or by "vote" / "expired" (nobody's own action)
            by = str(event.get("by", ""))
            return "" if by in ("vote", "expired") else by
        return str(event.get("user", ""))

    def _seat(self, event: dict[str, Any]) -> int:
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"bad seat in {event}")
        return seat

    def _on_open(self, event: dict[str, Any]) -> None:
        self.options = Options.from_json(event["options"])
        self._fit_seats()

    def _fit_seats(self) -> None:
        """As many seats as the game has: the taken ones keep their order and move to the front (a lobby switching
        from four seats to three or two; the host refuses a switch that would leave someone without a seat)."""
        n = self.seat_count
        taken = [s for s in self.seats if s.kind != "empty"]
        if len(taken) > n:
            raise TableError(f"{len(taken)} seats are taken; {self.options.game} has {n}")
        if len(self.seats) != n:
            self.seats = taken + [Seat() for _ in range(n - len(taken))]
        self.declare_off = [set() for _ in range(n)]
        self.belote_off = [False] * n

    def _on_sit(self, event: dict[str, Any]) -> None:
        seat = self._seat(event)
        if self.seats[seat].kind != "empty" and not (self.status == "playing" and self.seats[seat].is_bot):
            raise TableError(f"seat {seat} is taken")
        self.seats[seat] = Seat("human", str(event["user"]), str(event["name"]))
        if event.get("lang"):
            self.hints[str(event["user"])] = str(event["lang"])

    def _on_leave(self, event: dict[str, Any]) -> None:
        seat = self._seat(event)
        self.votes.discard(self.seats[seat].user_id)
        if self.status == "playing":
            old = self.seats[seat]
            self.seats[seat] = Seat("bot", "", old.name, self.options.level)
        else:
            self.seats[seat] = Seat()

    def _on_bot(self, event: dict[str, Any]) -> None:
        seat = self._seat(event)
        if self.seats[seat].kind != "empty":
            raise TableError(f"seat {seat} is taken")
        self.seats[seat] = Seat("bot", "", str(event.get("name", "")), str(event["level"]))

    def _on_unbot(self, event: dict[str, Any]) -> None:
        seat = self._seat(event)
        if not self.seats[seat].is_bot:
            raise TableError(f"seat {seat} holds no bot")
        self.seats[seat] = Seat()

    def _on_set(self, event: dict[str, Any]) -> None:
        key, value = str(event["key"]), event["value"]
        if key == "game":
            game = str(value)
            if game not in VARIANTS:
                raise TableError(f"unknown game {game!r}")
            self.options = replace(self.options, game=game, rules=rules_for_game(self.options.rules, game))
            self._fit_seats()
        elif key in EXTRA_KEYS:
            self.options = replace(self.options, **{key: value})
        else:
            if key not in rule_keys(self.options.game):
                raise TableError(f"{key} is not an option of {self.options.game}")
            rules = dict(self.options.rules)
            if rules_model(self.options.game).model_fields[key].default == value:
                rules.pop(key, None)
            else:
                rules[key] = value
            self.options = replace(self.options, rules=rules)

    def _on_start(self, event: dict[str, Any]) -> None:
        if self.status != "lobby":
            raise TableError("the table has started already")
        # A start logged before dealing schemes existed has no "scheme" and an int seed: it keeps the old dealing.
        scheme = str(event.get("scheme", LEGACY_SCHEME))
        if scheme not in SCHEMES:
            raise TableError(f"unknown dealing scheme {scheme!r}")
        seed: int | str = int(event["seed"]) if scheme == LEGACY_SCHEME else str(event["seed"])
        # The bots' seed must not follow from the public commitment (the seed's plain SHA-256): hash it apart.
        bots = hashlib.sha256(b"bots/" + str(seed).encode()).digest()[:8]
        self.seed = seed if isinstance(seed, int) else int.from_bytes(bots)
        made = variant(self.options.game).new_match(self.rules, seed=seed, first_dealer=int(event["dealer"]),
                                                     scheme=scheme)
        assert isinstance(made, Match | FamilyMatch)
        self.match = made
        self.status = "playing"
        self.votes.clear()

    def _check_turn(self, seat: int) -> AnyMatch:
        if self.match is None or self.to_act != seat:
            raise TableError(f"it is not seat {seat}'s turn")
        return self.match

    def _on_bid(self, event: dict[str, Any]) -> None:
        match = self._check_turn(self._seat(event))
        self._after_action(match, Bid(parse_call(str(event["call"]))))

    def _on_play(self, event: dict[str, Any]) -> None:
        match = self._check_turn(self._seat(event))
        action = Play(parse_card(str(event["card"])), tuple(event.get("declare", ())), bool(event.get("belote")))
        self._after_action(match, action)

    def _on_discard(self, event: dict[str, Any]) -> None:
        match = self._check_turn(self._seat(event))
        cards = event.get("cards")
        if not isinstance(cards, list):
            raise TableError(f"bad discard in {event}")
        self._after_action(match, Discard(tuple(parse_card(str(c)) for c in cards)))

    def _on_exchange(self, event: dict[str, Any]) -> None:
        match = self._check_turn(self._seat(event))
        self._after_action(match, Exchange(bool(event.get("take"))))

    def _after_action(self, match: AnyMatch, action: Action) -> None:
        deals = len(match.deals)
        match.apply(action)  # IllegalAction propagates: the host checks before logging
        if len(match.deals) != deals:
            self.declare_off = [set() for _ in self.seats]
            self.belote_off = [False] * len(self.seats)
        if match.over:
            self.status = "finished"

    def _on_toggle(self, event: dict[str, Any]) -> None:
        seat = self._seat(event)
        what = str(event["what"])
        if what == "b":
            self.belote_off[seat] = not self.belote_off[seat]
        elif what.startswith("d") and (index := ascii_number(what[1:], 2)) is not None:
            self.declare_off[seat] ^= {index}
        else:
            raise TableError(f"bad toggle {what!r}")

    def _on_away(self, event: dict[str, Any]) -> None:
        self.seats[self._seat(event)].away = True

    def _on_back(self, event: dict[str, Any]) -> None:
        self.seats[self._seat(event)].away = False

    def _on_vote(self, event: dict[str, Any]) -> None:
        self.votes.add(str(event["user"]))

    def _on_stop(self, event: dict[str, Any]) -> None:
        self.status = "stopped"
        self.stopped_by = str(event.get("by", ""))

    # --- actions as events ---

    def action_event(self, seat: int, action: Action, by: str) -> dict[str, Any]:
        if isinstance(action, Bid):
            return {"e": "bid", "seat": seat, "call": CALL_NAMES[action.call], "by": by}
        if isinstance(action, Discard):
            return {"e": "discard", "seat": seat, "cards": [card_str(c) for c in action.cards], "by": by}
        if isinstance(action, Exchange):
            return {"e": "exchange", "seat": seat, "take": bool(action.take), "by": by}
        event: dict[str, Any] = {"e": "play", "seat": seat, "card": card_str(action.card), "by": by}
        if action.declare:
            event["declare"] = list(action.declare)
        if action.belote:
            event["belote"] = True
        return event

    def chosen_play(self, seat: int, card: int) -> Play:
        """A card with the announcements the seat has switched on (everything it may, unless switched off)."""
        deal = self.deal
        if deal is None or self.rules.auto_declarations:
            return Play(card)
        kinds = tuple(k for i, k in enumerate(deal.declarable(seat)) if i not in self.declare_off[seat])
        belote = not self.belote_off[seat] and card in deal.belote_cards()
        return Play(card, kinds, belote)


def replay(table_id: str, chat: ChatRef, creator: str, events: list[dict[str, Any]]) -> Table:
    """The table a log describes."""
    table = Table(table_id, chat, creator)
    for event in events:
        table.apply(event)
    return table


__all__ = [
    "ALL_RULE_KEYS",
    "BOT_LEVELS",
    "DEFAULT_GAME",
    "EXTRA_KEYS",
    "GAMES",
    "LANGS",
    "RULE_KEYS",
    "AnyDeal",
    "AnyMatch",
    "OptionError",
    "Options",
    "Seat",
    "Table",
    "TableError",
    "ascii_number",
    "check_game",
    "check_option",
    "replay",
    "rule_keys",
    "rules_for_game",
]
