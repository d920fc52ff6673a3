"""`belote-bot scan PHOTO`: name the cards in a photo of won cards and count their card points."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

LETTERS = ("latin", "cyrillic")  # bot.scanner.LETTERS, without loading the scanner to check an option
CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
SUIT_CONTRACTS = {"bela": CONTRACTS[:4], "french": CONTRACTS[:4], "bulgarian": CONTRACTS}

DESCRIPTION = """\
Read a photo of cards spread on a table (corners visible, as people fan them) and name every card of the
32-card pack it can see, each with its confidence and where its corner index is in the picture. With --contract,
add up their card points under that contract (the last ten is not counted: it goes to whoever took the last
trick). Cards read without enough confidence are listed as unsure and not counted.
"""

EPILOG = """\
the --json answer (docs/scanner.md): {"format": "belote-scan/1", "width", "height", "cards": [{"card": "JH",
"confidence": 0.98, "x": 412.5, "y": 230.0, "angle": 22.5}, ...], "unsure": [...same...], "letters" ("latin" or
"cyrillic"), and with --contract "contract", "variant", "points" (the cards' points), "unsure_points" (what the
unsure cards would add)}.
Exit status: 0 read (even with no card found), 2 the photo or the options cannot be used.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="name the cards in a photo of won cards and count their points",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("photo", help="the photo (JPEG, PNG, WebP or HEIC), or - for standard input")
    parser.add_argument("--contract", help=f"count the points under this contract: {' | '.join(CONTRACTS)}")
    parser.add_argument(
        "--variant", default="bulgarian", help="bulgarian (default), bela or french (suit contracts only)"
    )
    parser.add_argument(
        "--letters",
        default="latin",
        help="the letters on the pack's jacks, queens and kings: latin (J Q K, or B D K; default) or cyrillic "
        "(В Д П, as many Bulgarian packs)",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON (docs/scanner.md)")
    parser.set_defaults(func=run)


def _fail(text: str) -> int:
    print(f"belote-bot scan: {text}", file=sys.stderr)
    return 2


def _read(name: str, limit: int) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read(limit + 1)
    path = Path(name)
    if not path.is_file():
        raise OSError(f"{name}: no such file")
    with path.open("rb") as handle:
        return handle.read(limit + 1)  # one byte past the limit is enough to refuse it


def run(args: argparse.Namespace) -> int:
    variant = str(args.variant).lower()
    if variant not in SUIT_CONTRACTS:
        return _fail(f"unknown variant {args.variant!r}; known: {', '.join(SUIT_CONTRACTS)}")
    contract: int | None = None
    if args.contract is not None:
        allowed = SUIT_CONTRACTS[variant]
        name = str(args.contract).lower()
        if name not in allowed:
            return _fail(f"contract {args.contract!r} is not one of {variant}'s: {', '.join(allowed)}")
        contract = CONTRACTS.index(name)
    letters = str(args.letters).lower()
    if letters not in LETTERS:
        return _fail(f"unknown letters {args.letters!r}; known: latin (J Q K, B D K) or cyrillic (В Д П)")

    from bot.engine.cards import card_str, card_symbol
    from bot.engine.play import CARD_POINTS
    from bot.scanner import MAX_BYTES, ScanError, scan_bytes

    try:
        data = _read(args.photo, MAX_BYTES)
    except OSError as exc:
        return _fail(exc.strerror if exc.filename is None and exc.strerror else str(exc))
    try:
        scan = scan_bytes(data, letters)
    except ScanError as exc:
        return _fail(f"{args.photo}: {exc}")

    points = unsure_points = None
    if contract is not None:
        points = sum(CARD_POINTS[contract][f.card] for f in scan.cards)
        unsure_points = sum(CARD_POINTS[contract][f.card] for f in scan.unsure)
    if args.json:
        def entry(f: Any) -> dict[str, Any]:
            return {"card": card_str(f.card), "confidence": f.confidence, "x": f.x, "y": f.y, "angle": f.angle}

        answer: dict[str, Any] = {
            "format": "belote-scan/1",
            "width": scan.width,
            "height": scan.height,
            "cards": [entry(f) for f in scan.cards],
            "unsure": [entry(f) for f in scan.unsure],
            "letters": letters,
        }
        if contract is not None:
            answer.update(
                contract=CONTRACTS[contract], variant=variant, points=points, unsure_points=unsure_points
            )
        print(json.dumps(answer, ensure_ascii=False))
        return 0
    if not scan.cards and not scan.unsure:
        print("No cards found in this photo. Spread the cards so that each one's corner (rank and suit) shows.")
        return 0
    if letters == "cyrillic":
        print("read as a pack lettered В Д П")
    print(f"{len(scan.cards)} cards: " + " ".join(card_symbol(f.card) for f in scan.cards))
    for f in scan.cards:
        print(f"  {card_symbol(f.card):4} {f.confidence:6.1%}  at ({f.x:.0f}, {f.y:.0f})")
    if scan.unsure:
        print(f"unsure, not counted ({len(scan.unsure)}): " + " ".join(card_symbol(f.card) + "?" for f in scan.unsure))
        for f in scan.unsure:
            print(f"  {card_symbol(f.card) + '?':5} {f.confidence:6.1%}  at ({f.x:.0f}, {f.y:.0f})")
    if contract is not None:
        line = f"card points under {CONTRACTS[contract]}: {points}"
        if scan.unsure:
            line += f" (+{unsure_points} if the unsure cards are right)"
        print(line + "; the last ten is not included")
    if letters == "latin":  # a pack lettered В Д П read as J Q K loses its court cards and may gain eights
        print("(read as a pack lettered J Q K or B D K; for one lettered В Д П give --letters cyrillic)")
    return 0
