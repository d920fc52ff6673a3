"""`belote-bot arena`: duplicate matches between two agents, with the strength difference and decision times."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.engine import RulesError, parse_rules
from bot.engine.game import VARIANTS, parse_variant_rules


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="play duplicate matches between two agents and report who is stronger",
        description=(
            "Play every deal twice with the teams' seats swapped (duplicate), so card luck cancels out; with three "
            "players three times, one A against two B with A in each seat; with two, head to head and swapped. "
            "An agent is a level (random, easy, medium, hard) or the command line of a program speaking "
            "belote-agent/1."
        ),
    )
    parser.add_argument("--a", required=True, metavar="SPEC", help="agent A: a level or a command line")
    parser.add_argument("--b", required=True, metavar="SPEC", help="agent B: a level or a command line")
    parser.add_argument("--deals", type=int, default=100, metavar="N", help="deal pairs to compare (default 100)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed of the deal sequence (default 0)")
    parser.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="SEC",
        help="time limit per decision; a later answer counts as an error (default: 5 s for programs, none for ours)",
    )
    parser.add_argument("--records", type=Path, default=None, metavar="DIR", help="write each match as belote-record/1")
    parser.add_argument(
        "--variant",
        default="bulgarian",
        metavar="GAME",
        help=f"the game played: {', '.join(VARIANTS)} (default bulgarian)",
    )
    parser.add_argument("--rules", default=None, metavar="JSON", help="table options of the game as JSON")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"belote-bot arena: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from bot.ai.arena import ArenaResult, Side, run_arena, summary
    from bot.ai.registry import LEVELS, make_agent

    if args.deals < 1:
        return _fail(f"--deals must be at least 1, not {args.deals}")
    if args.move_time is not None and args.move_time <= 0:
        return _fail(f"--move-time must be a positive number of seconds, not {args.move_time}")
    if args.variant not in VARIANTS:
        return _fail(f"--variant must be one of {', '.join(VARIANTS)}, not {args.variant!r}")
    try:
        rules_data = json.loads(args.rules) if args.rules else None
        # The Bulgarian options keep their own, more detailed explanations (rules.parse_rules).
        if args.variant == "bulgarian":
            rules = parse_rules(rules_data)
        else:
            rules = parse_variant_rules(args.variant, rules_data)
    except json.JSONDecodeError as exc:
        return _fail(
            f"--rules is not valid JSON ({exc.msg} at column {exc.colno}); write e.g. '{{\"target_score\": 101}}'"
        )
    except RulesError as exc:
        return _fail(f"--rules: {exc}")
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return _fail(f"cannot create the records folder {args.records}: {exc.strerror}")

    def build(spec: str, tag: str) -> Any:
        move_time = args.move_time
        if move_time is None and spec.strip().lower() not in LEVELS:
            move_time = 5.0
        return tuple(make_agent(spec, seed=f"{args.seed}/{tag}/{i}", move_time=move_time) for i in (0, 1))

    try:
        a = Side(args.a, build(args.a, "a"))
        b = Side(args.b, build(args.b, "b"))
    except Exception as exc:  # an external program that does not start
        return _fail(f"cannot start an agent: {exc}")

    def progress(result: ArenaResult) -> None:
        if not args.quiet:
            mean, low, high = result.mean_ci()
            print(
                f"  {len(result.pair_diffs)}/{args.deals} deal pairs: A-B {mean:+.2f} [{low:+.2f}, {high:+.2f}]",
                file=sys.stderr,
                flush=True,
            )

    try:
        result = run_arena(a, b, args.deals, args.seed, rules, args.move_time, args.records, progress, args.variant)
    finally:
        for side in (a, b):
            for agent in side.agents:
                agent.close()
    report = summary(a, b, result)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{args.variant}: A = {report['a']}, B = {report['b']}: "
        f"{report['deal_pairs']} deal pairs ({report['deals_played']} deals)"
    )
    print(
        f"mean game-point difference per deal (A-B): {report['mean_diff_per_deal']:+.2f}"
        f"  95% CI [{report['ci95'][0]:+.2f}, {report['ci95'][1]:+.2f}]"
    )
    if report["matches_finished"]:
        print(
            f"match win rate over {report['matches_finished']} finished matches: "
            f"A {100 * report['a_match_win_rate']:.1f}%  B {100 * report['b_match_win_rate']:.1f}%"
        )
    for key in ("a", "b"):
        errors = report[f"{key}_errors"]
        shown = ", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "none"
        print(
            f"{key.upper()} decision time p50 {report[f'{key}_time_p50_ms']:.2f} ms, "
            f"p99 {report[f'{key}_time_p99_ms']:.2f} ms over {report[f'{key}_decisions']} decisions; errors: {shown}"
        )
    for key, side in (("A", a), ("B", b)):
        for problem in side.problems[:5]:
            print(f"{key} problem: {problem}")
    return 0
