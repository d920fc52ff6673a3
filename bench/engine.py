"""Engine speed on one core: random full deals per second for each variant, and legal-move computations per second.

A "full deal" is dealt (seeded shuffle and cut), bid to a contract by random legal calls, played out by random legal
cards with every legal-move computation the engine makes, announcements included (auto_declarations), and scored.
Passed-out deals are redealt and their time counts against the total.

    python bench/engine.py [--seconds 5] [--variant NAME|all]

NAME is a game of ``VARIANTS``: bulgarian, bela, french, bela-3, bela-2, bela-open, bulgarian-3, bulgarian-2.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Deal, Rules
from bot.engine.familymatch import FamilyMatch
from bot.engine.game import VARIANTS
from bot.engine.match import deal_hands, shuffle_and_cut
from bot.engine.trumpdeal import TrumpDeal

FAMILY = [name for name in VARIANTS if name != "bulgarian"]


def full_deals(seconds: float, rules: Rules) -> tuple[int, int, float]:
    rng = random.Random(1)
    played = passed = 0
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if n % 64 == 0 and time.perf_counter() > deadline:
            break
        deal = Deal(rules, n & 3, deal_hands(shuffle_and_cut(1, n), n & 3))
        n += 1
        while deal.phase == "auction":
            deal.call(rng.choice(deal.legal_calls()))
        if deal.passed_out:
            passed += 1
            continue
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
        assert deal.result is not None
        played += 1
    return played, passed, time.perf_counter() - start


def family_deal(match: FamilyMatch, n: int) -> TrumpDeal:
    """Deal ``n`` of seed 1, dealt by the game's own dealing (the match only deals it; its score stays 0)."""
    return match._deal_from(shuffle_and_cut(1, n), n % match.SEATS)


def family_full_deals(seconds: float, variant: str) -> tuple[int, int, float]:
    """As full_deals, for a one-trump family game (auto_declarations: every declaration and bela is found); the
    3-player discard and the 2-player seven exchange are random legal answers."""
    game = VARIANTS[variant]
    fields = game.rules.model_fields
    # Every announcement found automatically (the open game: its declarations and bela options on).
    options = {k: True for k in ("auto_declarations", "open_declarations", "open_bela") if k in fields}
    match = game.new_match(game.rules(**options), seed=1, auto_deal=False)
    assert isinstance(match, FamilyMatch)
    rng = random.Random(1)
    played = passed = 0
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if n % 64 == 0 and time.perf_counter() > deadline:
            break
        deal = family_deal(match, n)
        n += 1
        while deal.phase == "auction":
            deal.call(rng.choice(deal.legal_calls()))
        while deal.phase in ("discard", "exchange"):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == "done":  # passed out (French) or a belot (Bela)
            passed += 1
            continue
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
        assert deal.result is not None
        played += 1
    return played, passed, time.perf_counter() - start


def legal_moves(seconds: float) -> tuple[int, float]:
    """Legal-card computations at every position of random deals (positions prepared first, not timed)."""
    rng = random.Random(2)
    rules = Rules()
    positions = []
    for n in range(300):
        deal = Deal(rules, 0, deal_hands(shuffle_and_cut(2, n), 0))
        deal.call(rng.choice([0, 1, 2, 3, 4, 5]))
        for _ in range(3):
            deal.call(6)
        while deal.phase == "play":
            if deal.trick:  # a lead needs no computation: any card
                positions.append(
                    (deal.held[deal.to_act], deal.trick[0], deal.trick_winner_card, deal._partner_wins(), deal.contract)
                )
            deal.play(rng.choice(deal.legal_cards()))
    from bot.engine.play import legal_cards

    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for hand, led, winning, partner, contract in positions:
            legal_cards(hand, led, winning, partner, contract)
        count += len(positions)
    return count, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--variant", choices=["bulgarian", *FAMILY, "all"], default="all")
    args = parser.parse_args()
    if args.variant in ("bulgarian", "all"):
        for label, rules in (("auto_declarations", Rules(auto_declarations=True)), ("no announcements", Rules())):
            played, passed, elapsed = full_deals(args.seconds, rules)
            rate = played / elapsed
            print(
                f"bulgarian full deals/s ({label}): {rate:,.0f}  ({played} played, {passed} passed out, "
                f"{elapsed:.1f} s)"
            )
        count, elapsed = legal_moves(args.seconds)
        print(f"bulgarian legal-move computations/s: {count / elapsed:,.0f}")
    for variant in FAMILY:
        if args.variant in (variant, "all"):
            played, passed, elapsed = family_full_deals(args.seconds, variant)
            print(
                f"{variant} full deals/s (auto_declarations): {played / elapsed:,.0f}  ({played} played, "
                f"{passed} not played, {elapsed:.1f} s)"
            )


if __name__ == "__main__":
    main()
