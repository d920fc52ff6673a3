"""What the hard bot's auction sees for one hand: each candidate call valued on the same deals, two ways.

    python bench/auction_values.py "JS JD JH KS TS"                       # seat 0 opens (dealer 3)
    python bench/auction_values.py "JC JS 9D QS TH" --calls hearts        # seat 1, after seat 0's hearts
    python bench/auction_values.py "JS JD JH KS TS" --seeds 4 --samples 72

The hand is the seat's five cards of the auction; ``--calls`` the calls before it (dealer 3, so the first call is
seat 0's and the seat to value is the next one). For every seed the deals are drawn and weighed by the calls heard
exactly as the hard bot does (``auction_sim``), and each candidate call is valued on them by:

- **play-out**: the rest of the auction and the play by medium players (what the hard bot uses);
- **double-dummy**: the rest of the auction by medium players, then the play solved two tricks deep with the solver's
  evaluation after (as the family games' call simulation does), scored with declarations and belotes.

Values are the seat's team's written score minus the other team's, in game points per deal.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.auction_sim import call_likelihood, candidate_calls, play_out, sample_full_deal
from bot.ai.bidding import BiddingStyle, choose_call
from bot.ai.medium import MediumAgent
from bot.ai.sampling import resample
from bot.ai.solver import Solver
from bot.engine import ALL_TRUMPS, CALL_NAMES, DEFAULT_RULES, NO_TRUMPS, Deal, Observation, observe, parse_card
from bot.engine.cards import KING, QUEEN, mask_of
from bot.engine.deal import AUCTION, DONE
from bot.engine.declarations import BELOTE_POINTS, Combination, best_declarations, compare_declarations
from bot.engine.scoring import LAST_TEN, VALAT_BONUS, card_total, score_deal

DEPTH = 2  # tricks searched before the evaluation


def position(hand: str, calls: list[str]) -> Observation:
    """The seat to call after ``calls`` (dealer 3), holding ``hand`` as its five auction cards."""
    names = {name: call for call, name in enumerate(CALL_NAMES)}
    try:
        mine = [parse_card(t) for t in hand.split()]
        said = [names[c] for c in calls]
    except (KeyError, ValueError) as exc:
        raise SystemExit(f"auction_values.py: {exc}; cards like 'JS TD 9H', calls like {', '.join(names)}") from None
    if len(mine) != 5 or len(set(mine)) != 5:
        raise SystemExit("auction_values.py: give five different cards, like 'JS JD JH KS TS'")
    seat = len(said) % 4
    rest = iter(c for c in range(32) if c not in mine)
    hands = [mine + [next(rest) for _ in range(3)] if p == seat else [next(rest) for _ in range(8)] for p in range(4)]
    deal = Deal(DEFAULT_RULES, 3, hands)
    try:
        for call in said:
            deal.call(call)
    except ValueError as exc:
        raise SystemExit(f"auction_values.py: the calls are not a legal auction ({exc})") from None
    return observe(deal, seat)


def double_dummy(obs: Observation, hands: list[list[int]], call: int, player: MediumAgent) -> float:
    deal = Deal(obs.rules, obs.dealer, hands, obs.hanging)
    for earlier in obs.calls:
        deal.call(earlier)
    deal.call(call)
    while deal.phase == AUCTION:
        deal.apply(player.act(observe(deal, deal.to_act)))
    if deal.phase == DONE or deal.contract < 0:
        return 0.0  # passed out
    contract, rules = deal.contract, obs.rules
    full = [mask_of(h) for h in deal.hands]
    valat_bonus = VALAT_BONUS if contract != NO_TRUMPS or rules.nt_valat_doubled else VALAT_BONUS // 2
    d = Solver(contract, rules.must_undertrump, valat_bonus).value(full, (obs.dealer + 1) & 3, [], 0, DEPTH)
    total = card_total(contract) + LAST_TEN
    valat = 0 if d > total else 1 if d < -total else None
    d = max(-total, min(total, d))
    a = (total + d) // 2
    decl = (0, 0)
    if contract != NO_TRUMPS or rules.nt_aces_carre:
        combos: tuple[list[Combination], list[Combination]] = ([], [])
        for p in range(4):
            combos[p & 1].extend(best_declarations(full[p], contract, rules))
        counted = compare_declarations(combos, rules)
        decl = (sum(c.value for c in counted[0]), sum(c.value for c in counted[1]))
    belotes = [0, 0]
    if contract != NO_TRUMPS:
        for p in range(4):
            for suit in range(4) if contract == ALL_TRUMPS else (contract,):
                pair = (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
                if full[p] & pair == pair:
                    belotes[p & 1] += BELOTE_POINTS
    result = score_deal(
        contract, deal.multiplier, deal.bidder & 1, (a, total - a), decl, (belotes[0], belotes[1]), valat, 0, rules
    )
    team = obs.seat & 1
    return float(result.score[team] - result.score[1 - team])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hand", help="the seat's five auction cards, like 'JS JD JH KS TS'")
    parser.add_argument("--calls", nargs="*", default=[], help="the calls before the seat's, from seat 0 (dealer 3)")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--samples", type=int, default=72, help="deals per seed (three times as many drawn)")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.samples < 1:
        raise SystemExit("auction_values.py: --seeds and --samples must be at least 1")
    obs = position(args.hand, args.calls)
    prior = choose_call(obs, BiddingStyle())
    calls = candidate_calls(obs, prior)
    print(f"seat {obs.seat}, medium's call: {CALL_NAMES[prior]}")
    print(f"{'seed':>6}  {'valued by':<13}" + "".join(f"{CALL_NAMES[c]:>12}" for c in calls))
    player = MediumAgent()
    for seed in range(args.seeds):
        rng = random.Random(seed)
        drawn = [sample_full_deal(obs, rng) for _ in range(3 * args.samples)]
        picked = resample(drawn, [call_likelihood(obs, h) for h in drawn], args.samples, rng)
        n = sum(t for _, t in picked)
        played = {c: 0.0 for c in calls}
        solved = {c: 0.0 for c in calls}
        for hands, times in picked:
            for c in calls:
                result = play_out(obs, hands, c, player).result
                team = obs.seat & 1
                played[c] += times * (0.0 if result is None else result.score[team] - result.score[1 - team])
                solved[c] += times * double_dummy(obs, hands, c, player)
        print(f"{seed:>6}  {'play-out':<13}" + "".join(f"{played[c] / n:>+12.1f}" for c in calls))
        print(f"{seed:>6}  {'double-dummy':<13}" + "".join(f"{solved[c] / n:>+12.1f}" for c in calls))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
