"""Engine speed on one core: random full deals per second, and legal-move computations per second.

A "full deal" is dealt (seeded shuffle and cut), bid to a contract by random legal calls, played out by random legal
cards with every legal-move computation the engine makes, announcements included (auto_declarations), and scored.
Passed-out deals are redealt and their time counts against the total.

    python bench/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Deal, Rules
from bot.engine.match import deal_hands, shuffle_and_cut


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
    args = parser.parse_args()
    for label, rules in (("auto_declarations", Rules(auto_declarations=True)), ("no announcements", Rules())):
        played, passed, elapsed = full_deals(args.seconds, rules)
        rate = played / elapsed
        print(f"full deals/s ({label}): {rate:,.0f}  ({played} played, {passed} passed out, {elapsed:.1f} s)")
    count, elapsed = legal_moves(args.seconds)
    print(f"legal-move computations/s: {count / elapsed:,.0f}")


if __name__ == "__main__":
    main()
