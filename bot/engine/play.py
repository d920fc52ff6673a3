"""The play: legal cards (rules §4.3), the trick winner (§4.2) and card points (§1)."""

from __future__ import annotations

from typing import Final

from .calls import ALL_TRUMPS, NO_TRUMPS, Contract
from .cards import (
    HIGHER_PLAIN,
    HIGHER_TRUMP,
    PLAIN_POINTS,
    SUIT_MASK,
    SUIT_NAMES,
    TRUMP_POINTS,
    Card,
    CardMask,
    card_symbol,
)


def _points_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for contract in range(6):
        row = []
        for card in range(32):
            suit, rank = card >> 3, card & 7
            trump = contract == ALL_TRUMPS or suit == contract
            row.append(TRUMP_POINTS[rank] if trump else PLAIN_POINTS[rank])
        table.append(tuple(row))
    return tuple(table)


# CARD_POINTS[contract][card]
CARD_POINTS: Final = _points_table()


def beats(card: Card, best: Card, contract: Contract) -> bool:
    """Does ``card`` take the trick from ``best`` (the card now winning it)?"""
    if contract < NO_TRUMPS:
        if card >> 3 == contract:
            return best >> 3 != contract or bool(HIGHER_TRUMP[best] >> card & 1)
        return card >> 3 == best >> 3 and bool(HIGHER_PLAIN[best] >> card & 1)
    if contract == ALL_TRUMPS:
        return bool(HIGHER_TRUMP[best] >> card & 1)
    return bool(HIGHER_PLAIN[best] >> card & 1)


def trick_winner(cards: list[Card] | tuple[Card, ...], contract: Contract) -> int:
    """Position (0-based, in play order) of the card that wins a trick."""
    best_pos = 0
    best = cards[0]
    for pos in range(1, len(cards)):
        if beats(cards[pos], best, contract):
            best_pos, best = pos, cards[pos]
    return best_pos


def legal_cards(
    hand: CardMask,
    led: Card,
    winning: Card,
    partner_wins: bool,
    contract: Contract,
    must_undertrump: bool = False,
) -> CardMask:
    """Legal cards when a trick is under way (``led`` its first card, ``winning`` the card now winning it).

    The caller handles the empty trick (any card is legal).
    """
    led_suit = led >> 3
    of_led = hand & SUIT_MASK[led_suit]
    if of_led:
        if contract == ALL_TRUMPS or led_suit == contract:
            # Trump led (or all trumps): beat the best card of the led suit if you can, even over your partner.
            higher = of_led & HIGHER_TRUMP[winning]
            return higher or of_led
        return of_led
    if contract >= NO_TRUMPS:
        return hand
    trumps = hand & SUIT_MASK[contract]
    if not trumps or partner_wins:
        return hand
    if winning >> 3 == contract:
        higher = trumps & HIGHER_TRUMP[winning]
        if higher:
            return higher
        return trumps if must_undertrump else hand
    return trumps


def illegal_reason(
    card: Card,
    hand: CardMask,
    led: Card | None,
    winning: Card | None,
    partner_wins: bool,
    contract: Contract,
    must_undertrump: bool = False,
) -> str | None:
    """Why ``card`` may not be played now (the rule it breaks), or None when it is legal."""
    if not hand >> card & 1:
        return f"{card_symbol(card)} is not in the player's hand"
    if led is None or winning is None:
        return None
    legal = legal_cards(hand, led, winning, partner_wins, contract, must_undertrump)
    if legal >> card & 1:
        return None
    led_suit = led >> 3
    if hand & SUIT_MASK[led_suit]:
        if card >> 3 != led_suit:
            return f"must follow suit ({SUIT_NAMES[led_suit]}) (§4.1)"
        return f"must beat {card_symbol(winning)} when able: trump or all-trumps lead (§4.1)"
    if winning >> 3 == contract:
        if hand & SUIT_MASK[contract] & HIGHER_TRUMP[winning]:
            return f"must over-trump {card_symbol(winning)} when an opponent has trumped (§4.1)"
        return "must under-trump: table option must_undertrump (§4.3)"
    return f"must trump ({SUIT_NAMES[contract]}) when void and an opponent wins the trick (§4.1)"
