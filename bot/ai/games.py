"""The family games as the bots see them: one small piece per variant (docs/architecture.md).

A bot that plays Bela or French belote asks the piece of its view's ``variant`` for everything that differs between
the games: the play duties (the engine's own pure functions, never a copy), the sweep bonus, the deal's scoring, the
declarations contest, the cards a seat values in the call (Bela: its six cards; French: its five and the turned card,
which the taker receives whatever suit he names), how calls and passes tilt who holds what, and a real engine deal
to replay a sampled deal on. Everything else in the bots is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel

from bot.engine.bela import BelaDeal, BelaRules, bela_duties, bela_key, score_bela
from bot.engine.calls import PASS, Call
from bot.engine.cards import JACK, KING, NINE, QUEEN, Card, CardMask, card_list, mask_of
from bot.engine.combos import best_disjoint, contest_winner, every_combination, resolve_kinds
from bot.engine.declarations import Combination
from bot.engine.french import FrenchDeal, FrenchRules, french_duties, french_key, score_french
from bot.engine.seatview import SeatView
from bot.engine.trumpdeal import DealScore, TrumpDeal

# hand, led card, the card now winning the trick, whether the partner plays it -> the legal cards (trump bound).
Duties = Callable[[CardMask, Card, Card, bool], CardMask]

DECK_POINTS = 162  # card points of a deal with the last trick
TEAMS: tuple[int, ...] = (0, 1, 0, 1)


@dataclass(frozen=True)
class Tally:
    """A deal of a game of three or two players as the hard bot's search ends it (``smallhard``), for ``written``:
    the caller, each player's card points (the last trick and the 3-player discard included, no štiglja), tricks,
    declarations, the contest's winning side and belas."""

    caller: int
    card: list[int]
    tricks: list[int]
    declared: list[int]
    contest: int | None
    belas: list[int]


class FamilyGame:
    """What a bot needs to know of one family game under one set of table options."""

    variant: str = ""
    seats: int = 4
    cards: int = 8  # each seat's cards once play starts: the deal's tricks
    sharing: bool = False
    sweep_bonus: int = 90
    # The value (``familycalls.hand_value``, in tricks) at which the medium bot names a suit: measured best in the
    # arena, medium against itself with other values (docs/strength.md).
    take: float = 2.9
    # The hard bot's search by tricks left in the games of three and two (``smallgames``, ``smallhard``).
    search: ClassVar[dict[int, tuple[int, int]]] = {}
    # Whether the hard bot simulates the call (``familyhard.CallSimulator``); else it calls as the medium bot.
    simulated_call: ClassVar[bool] = True
    # The engine's pure scoring of a deal from its facts (score_bela, score_french).
    scoring: Callable[..., DealScore]

    def __init__(self, opts: Any) -> None:
        self.opts = opts

    # --- the table ---

    def sides(self, view: SeatView) -> tuple[int, ...]:
        """The side of each seat in this deal's play: two pairs at a table of four."""
        return TEAMS

    def out_of_play(self, view: SeatView) -> CardMask:
        """Cards the seat knows take no part in the play (besides those played): none at a table of four."""
        return 0

    def holdings(self, view: SeatView) -> dict[int, CardMask]:
        """Cards the seat knows another seat holds, by what the table saw (French: the taker's turned card)."""
        return {}

    def visible(self, view: SeatView, seat: int) -> CardMask | None:
        """The cards ``seat`` may play as every seat sees them (the open game's layouts); None for a hidden hand."""
        return None

    # --- the play ---

    def duties(self, hand: CardMask, led_suit: int, winning: Card, partner_wins: bool, trump: int) -> CardMask:
        raise NotImplementedError

    def solver_duties(self, trump: int) -> Duties:
        """The duties with trump fixed, in the shape the double-dummy solver calls them."""
        duties = self.duties

        def legal(hand: CardMask, led: Card, winning: Card, partner_wins: bool) -> CardMask:
            return duties(hand, led >> 3, winning, partner_wins, trump)

        return legal

    # --- declarations and scoring ---

    def key(self, combo: Combination, trump: int, pos: int) -> tuple[int, ...]:
        raise NotImplementedError

    def combinations(self, hand: CardMask, trump: int) -> tuple[Combination, ...]:
        """What a hand may declare (every combination, or a best disjoint set)."""
        if self.opts.no_declarations:
            return ()
        return every_combination(hand, trump) if self.sharing else best_disjoint(hand, trump)

    def resolve(self, hand: CardMask, kinds: Sequence[str], trump: int, pos: int) -> tuple[Combination, ...] | None:
        return resolve_kinds(hand, kinds, trump, self.sharing, lambda c: self.key(c, trump, pos))

    def contest(self, declared: Sequence[tuple[Combination, ...]], dealer: int, trump: int) -> int | None:
        return contest_winner(declared, (0, 1, 0, 1), dealer, self.key, trump)

    def counted(
        self, declared: Sequence[tuple[Combination, ...]], sides: Sequence[int], dealer: int, trump: int
    ) -> tuple[list[int], int | None]:
        """Each seat's declared points and the contest's winning side (``sides``: each seat's side in the contest):
        one side's declarations count, the winner's of the single best (``smallhard``)."""
        return [sum(c.value for c in d) for d in declared], contest_winner(declared, sides, dealer, self.key, trump)

    def belote_pairs(self, trump: int) -> tuple[CardMask, ...]:
        """The king-and-queen pairs that make a bela/belote under ``trump``: the trump suit's."""
        return ((1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN)),)

    def score(
        self,
        caller_side: int,
        points: tuple[int, int],
        valat: int | None,
        declared: tuple[int, int],
        contest: int | None,
        belas: tuple[int, int],
        hanging: int,
    ) -> DealScore:
        return self.scoring(self.opts, caller_side, points, valat, declared, contest, belas, hanging)

    # --- the call ---

    def call_cards(self, view: SeatView) -> CardMask:
        """The cards the seat knows it will hold if it names trump."""
        return mask_of(view.hand)

    def turned_mask(self, view: SeatView) -> CardMask:
        """The public card every seat counts on holding if it names trump (French: the turned card)."""
        return 0

    def suit_cards(self, view: SeatView, suit: int) -> CardMask:
        """The cards the seat counts on holding if it names ``suit`` (2-player Bela: the turned card for the seven)."""
        return self.call_cards(view)

    def call_against(self, view: SeatView) -> CardMask:
        """Cards an opponent is seen to hold while trump is chosen (the open game's layout); their value for a suit
        counts against naming it."""
        return 0

    def call_weights(self, view: SeatView) -> list[list[float]]:
        """weights[seat][card]: how much more likely than evenly ``seat`` holds ``card``, judged from its calls."""
        raise NotImplementedError

    def call_deal(
        self, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card], turned: Card | None
    ) -> TrumpDeal:
        """An engine deal before the call: the seats' cards of the call and the rest of the deck (``rest``) in the
        order the game deals it after the call."""
        raise NotImplementedError

    def medium_call(self, view: SeatView) -> Call:
        """The medium bot's call: the suit of greatest value if it reaches ``take`` (``familycalls.best_call``)."""
        from .familycalls import best_call  # the call module builds on the pieces

        return best_call(view, self)

    # --- the decisions of the games of three and two ---

    def discard(self, view: SeatView) -> tuple[Card, Card]:
        """The 3-player caller's two cards laid aside (``smallgames``)."""
        raise ValueError(f"{self.variant} has no discard")

    def exchange(self, view: SeatView) -> bool:
        """Does the holder of the seven take the turned card (2-player Bela, ``smallgames``)?"""
        raise ValueError(f"{self.variant} has no seven exchange")

    def written(self, view: SeatView, tally: Tally) -> tuple[int, ...]:
        """What each player writes for a deal of a game of three or two players, by the engine's scoring."""
        raise ValueError(f"{self.variant} is scored by pairs (``score``)")

    # --- a real deal to replay on ---

    def deal_for(self, dealer: int, hands: Sequence[CardMask], caller: int, turned: Card | None) -> TrumpDeal:
        """An engine deal with these complete (8-card) hands, for replaying what was played."""
        raise NotImplementedError


def _named(w: list[list[float]], who: int, suit: int) -> None:
    for c in range(suit * 8, suit * 8 + 8):
        w[who][c] *= 1.5
    w[who][suit * 8 + JACK] *= 2.0
    w[who][suit * 8 + NINE] *= 1.5


def _passed(w: list[list[float]], who: int, suit: int, factor: float) -> None:
    w[who][suit * 8 + JACK] *= factor
    w[who][suit * 8 + NINE] *= factor


def turned_call_weights(view: SeatView, seats: int) -> list[list[float]]:
    """The call weights of a game whose first round of calls is on the turned card's suit and the second on any other
    (French belote, 2-player Bela)."""
    w = [[1.0] * 32 for _ in range(4)]
    t = view.turned >> 3 if view.turned is not None else -1
    for i, call in enumerate(view.calls):
        who = (view.dealer + 1 + i) % seats
        if call != PASS:
            _named(w, who, call)
        elif i < seats and t >= 0:  # refused the turned card's suit
            _passed(w, who, t, 0.5)
        else:  # refused every other suit too
            for s in range(4):
                if s != t:
                    _passed(w, who, s, 0.7)
    return w


class BelaGame(FamilyGame):
    variant = "bela"
    scoring = staticmethod(score_bela)

    # Any: BelaRules, or the options of a Bela game of three or two players (``smallgames``), whose pieces build on
    # this one.
    def __init__(self, opts: Any) -> None:
        super().__init__(opts)
        self.sharing = opts.declaration_card_sharing
        self.sweep_bonus = opts.stiglja_value

    def duties(self, hand: CardMask, led_suit: int, winning: Card, partner_wins: bool, trump: int) -> CardMask:
        return bela_duties(hand, led_suit, winning, partner_wins, trump, self.opts)

    def key(self, combo: Combination, trump: int, pos: int) -> tuple[int, ...]:
        return bela_key(combo, trump, pos, self.opts)

    def call_weights(self, view: SeatView) -> list[list[float]]:
        w = [[1.0] * 32 for _ in range(4)]
        for i, call in enumerate(view.calls):
            who = (view.dealer + 1 + i) % self.seats
            if call == PASS:  # "dalje": no suit worth naming, so fewer jacks and nines
                for s in range(4):
                    _passed(w, who, s, 0.7)
            else:
                _named(w, who, call)
        return w

    def deal_for(self, dealer: int, hands: Sequence[CardMask], caller: int, turned: Card | None) -> TrumpDeal:
        return BelaDeal(self.opts, dealer, [card_list(h) for h in hands])

    def call_deal(
        self, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card], turned: Card | None
    ) -> TrumpDeal:
        talons = [list(rest[2 * p : 2 * p + 2]) for p in range(4)]
        return BelaDeal(self.opts, dealer, [[*h, *talons[p]] for p, h in enumerate(hands)])


class FrenchGame(FamilyGame):
    variant = "french"
    scoring = staticmethod(score_french)
    take = 2.5

    def __init__(self, opts: FrenchRules) -> None:
        super().__init__(opts)
        self.opts: FrenchRules = opts
        self.sweep_bonus = opts.capot_bonus

    def duties(self, hand: CardMask, led_suit: int, winning: Card, partner_wins: bool, trump: int) -> CardMask:
        return french_duties(hand, led_suit, winning, partner_wins, trump, self.opts.must_undertrump)

    def key(self, combo: Combination, trump: int, pos: int) -> tuple[int, ...]:
        return french_key(combo, trump, pos)

    def call_cards(self, view: SeatView) -> CardMask:
        return mask_of(view.hand) | self.turned_mask(view)

    def turned_mask(self, view: SeatView) -> CardMask:
        return 0 if view.turned is None else 1 << view.turned

    def holdings(self, view: SeatView) -> dict[int, CardMask]:
        return {} if view.turned is None or view.caller is None else {view.caller: 1 << view.turned}

    def call_deal(
        self, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card], turned: Card | None
    ) -> TrumpDeal:
        assert turned is not None
        return FrenchDeal(self.opts, dealer, hands, turned, rest)

    def call_weights(self, view: SeatView) -> list[list[float]]:
        return turned_call_weights(view, self.seats)

    def deal_for(self, dealer: int, hands: Sequence[CardMask], caller: int, turned: Card | None) -> TrumpDeal:
        assert turned is not None
        ordered = []
        for seat, h in enumerate(hands):
            cards = [c for c in card_list(h) if c != turned]
            if seat == caller:  # the engine lists the turned card as the taker's sixth
                cards.insert(5, turned)
            ordered.append(cards)
        return FrenchDeal(self.opts, dealer, ordered, turned)


# variant -> (its options model, its piece)
GAMES: dict[str, tuple[type[BaseModel], Callable[[Any], FamilyGame]]] = {
    "bela": (BelaRules, BelaGame),
    "french": (FrenchRules, FrenchGame),
}


@cache
def _game(variant: str, rules: tuple[tuple[str, Any], ...]) -> FamilyGame:
    # The games of three and two players build on the pieces above.
    from .bulgariansmall import BULGARIAN_SMALL_GAMES
    from .smallgames import SMALL_GAMES

    found = GAMES.get(variant) or SMALL_GAMES.get(variant) or BULGARIAN_SMALL_GAMES.get(variant)
    if found is None:
        known = ", ".join([*GAMES, *SMALL_GAMES, *BULGARIAN_SMALL_GAMES])
        raise ValueError(f"no bot plays the game {variant!r}; they play {known} and bulgarian")
    model, piece = found
    return piece(model.model_validate(dict(rules)))


def game_of(view: SeatView) -> FamilyGame:
    """The piece of the view's game under the view's table options."""
    return _game(view.variant, tuple(sorted(view.rules.items())))
