"""Fit the medium bot's auction model (``bot/ai/bidding.py``: ``WEIGHTS``) on played-out deals.

Run: ``python bench/fit_bidding.py collect --deals 20000 --out calls.jsonl [--workers 2]``, then
``python bench/fit_bidding.py fit calls.jsonl``.

``collect`` deals random deals and runs their auction with the medium bot in every seat. At every auction decision
with a choice it tries *each* legal call: the call is made, the rest of the auction and the play are finished by the
medium bot on the true hands, and the written score of the caller's team minus the other team's is recorded. The
cards are the same for every call of a decision, so the differences between calls are not blurred by luck; the
decisions are the ones the medium bot really meets, so the cards behind them follow the real distribution.

``fit`` turns each decision into samples "gain of this call over passing" (``bidding.call_features`` of the call,
and the recorded value of the call minus that of passing) and fits one linear model per kind of call by ridge least
squares. It prints the weights in the form ``bidding.WEIGHTS`` takes, and for each model how well it predicts.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.auction_sim import play_out
from bot.ai.medium import MediumAgent
from bot.engine import DEFAULT_RULES, PASS, Deal, Observation, observe
from bot.engine.match import deal_hands, shuffle_and_cut

RIDGE = 1.0  # a light ridge keeps rarely seen features (say, four jacks) from wild weights


def deal_of(seed: str, number: int) -> Deal:
    dealer = number % 4
    return Deal(DEFAULT_RULES, dealer, deal_hands(shuffle_and_cut(seed, number), dealer))


def collect_range(args: tuple[str, int, int]) -> list[str]:
    """The decisions of deals ``start..stop`` as JSON lines: the calls before, and each legal call's value."""
    seed, start, stop = args
    player = MediumAgent()
    lines: list[str] = []
    for number in range(start, stop):
        deal = deal_of(seed, number)
        hands = [list(h) for h in deal.hands]
        while deal.phase == "auction":
            obs = observe(deal, deal.to_act)
            if len(obs.legal_calls) > 1:
                team = obs.seat & 1
                values = {}
                for call in obs.legal_calls:
                    result = play_out(obs, hands, call, player).result
                    values[call] = 0 if result is None else result.score[team] - result.score[1 - team]
                lines.append(json.dumps({"n": number, "calls": list(obs.calls), "values": values}))
            deal.apply(player.act(obs))
    return lines


def collect(seed: str, deals: int, out: Path, workers: int) -> None:
    chunk = 250
    jobs = [(seed, s, min(deals, s + chunk)) for s in range(0, deals, chunk)]
    started = time.perf_counter()
    with out.open("w") as f, multiprocessing.Pool(workers) as pool:
        f.write(json.dumps({"seed": seed}) + "\n")
        for i, lines in enumerate(pool.imap(collect_range, jobs)):
            f.writelines(line + "\n" for line in lines)
            done = min(deals, (i + 1) * chunk)
            print(f"{done} deals, {time.perf_counter() - started:.0f} s", file=sys.stderr)


def decisions(path: Path, file_number: int = 0) -> Iterator[tuple[int, Observation, dict[int, float]]]:
    """(deal key, observation, value of each legal call) for every decision in a file written by collect."""
    with path.open() as f:
        seed = json.loads(f.readline())["seed"]
        for line in f:
            row = json.loads(line)
            deal = deal_of(seed, row["n"])
            for call in row["calls"]:
                deal.call(call)
            values = {int(c): float(v) for c, v in row["values"].items()}
            yield file_number * 10**9 + row["n"], observe(deal, deal.to_act), values


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(paths: list[Path], holdout: int, focus: float | None) -> None:
    """Ridge least squares per model; the decisions of every ``holdout``-th deal are kept out to report the fit.

    With ``focus``, each model is fitted a second time on the samples the first fit values above ``focus`` only:
    the calls near the line between bidding and passing, where the fit matters, rather than hopeless ones."""
    from bot.ai.bidding import FEATURE_NAMES, call_features, model_of

    samples: dict[str, list[tuple[list[float], float]]] = {}
    held: list[tuple[int, Observation, dict[int, float]]] = []
    for number, obs, values in (d for i, path in enumerate(paths) for d in decisions(path, i)):
        if holdout and number % holdout == 0:
            held.append((number, obs, values))
            continue
        base = values.get(PASS, 0.0)
        for call, value in values.items():
            if call != PASS:
                samples.setdefault(model_of(obs, call), []).append((call_features(obs, call), value - base))
    weights = {model: least_squares(rows) for model, rows in samples.items()}
    if focus is not None:
        weights = {
            model: least_squares([(x, y) for x, y in rows if dot(weights[model], x) > focus] or rows)
            for model, rows in samples.items()
        }
    print("WEIGHTS: dict[str, tuple[float, ...]] = {")
    for model in sorted(weights):
        print(f"    {model!r}: (  # {len(samples[model])} samples")
        for name, w in zip(FEATURE_NAMES[model], weights[model], strict=True):
            print(f"        {w:+.2f},  # {name}")
        print("    ),")
    print("}")
    if held:
        report(held, weights, call_features, model_of)


def dot(w: list[float], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


def least_squares(rows: list[tuple[list[float], float]]) -> list[float]:
    k = len(rows[0][0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in rows:
        for i, xi in enumerate(x):
            if xi:
                xty[i] += xi * y
                row = xtx[i]
                for j, xj in enumerate(x):
                    row[j] += xi * xj
    for i in range(1, k):
        xtx[i][i] += RIDGE
    return solve(xtx, xty)


def report(
    held: list[tuple[int, Observation, dict[int, float]]],
    weights: dict[str, list[float]],
    features: Callable[[Observation, int], list[float]],
    model_of: Callable[[Observation, int], str],
) -> None:
    """On held-out deals: what the recorded calls (the bot that collected) and the fitted model's calls gained over
    passing, per deal; each decision is valued alone, the rest of the auction played as recorded."""
    recorded = fitted = 0.0
    made: dict[str, int] = {}
    for i, (number, obs, values) in enumerate(held):
        base = values.get(PASS, 0.0)
        nxt = held[i + 1] if i + 1 < len(held) else None
        same = nxt is not None and nxt[0] == number and len(nxt[1].calls) > len(obs.calls)
        chosen = nxt[1].calls[len(obs.calls)] if same and nxt is not None else PASS
        recorded += values.get(chosen, base) - base
        best, gain = PASS, 0.0
        for call in values:
            if call != PASS:
                g = dot(weights[model_of(obs, call)], features(obs, call))
                if g > gain:
                    best, gain = call, g
        fitted += values[best] - base
        if best != PASS:
            made[model_of(obs, best)] = made.get(model_of(obs, best), 0) + 1
    deals = len({number for number, _, _ in held})
    print(f"# held out: {deals} deals, {len(held)} decisions")
    print(f"# gain over passing per deal: recorded calls {recorded / deals:+.3f}, fitted model {fitted / deals:+.3f}")
    print(f"# calls the model makes: {made}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--deals", type=int, default=20000)
    c.add_argument("--seed", default="fit")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--workers", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path, nargs="+", help="files written by collect")
    f.add_argument("--holdout", type=int, default=5, help="keep every n-th deal out to report (0: none)")
    f.add_argument("--focus", type=float, default=None, help="refit on samples the first fit values above this")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.seed, args.deals, args.out, args.workers)
    else:
        fit(args.data, args.holdout, args.focus)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
