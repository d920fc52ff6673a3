"""`belote-bot scan PHOTO`: name the cards in a photo of won cards and count their card points."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

LETTERS = ("latin", "cyrillic")  # bot.scanner.LETTERS, without loading the scanner to check an option
CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
# Every game of the family (formats §7.1) and its contracts: the Bulgarian games have six, the others the four suits.
SUIT_CONTRACTS = {
    "bulgarian": CONTRACTS, "bela": CONTRACTS[:4], "french": CONTRACTS[:4], "bela-3": CONTRACTS[:4],
    "bela-2": CONTRACTS[:4], "bela-open": CONTRACTS[:4], "bulgarian-3": CONTRACTS, "bulgarian-2": CONTRACTS,
}

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
unsure cards would add)}; with --variant bulgarian-3 or bulgarian-2 also "not_in_pack": the 7s and 8s read, which
a 24-card pack does not hold (not counted, whatever the contract).
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
        "--variant",
        default="bulgarian",
        help="the game: bulgarian (default), bulgarian-3, bulgarian-2 (24 cards: 7s and 8s are not counted), bela, "
        "bela-3, bela-2, bela-open or french (the Bela and French games: suit contracts only)",
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
    from bot.engine.game import VARIANTS
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

    pack = VARIANTS[variant].pack  # a 24-card game's pack has no 7s or 8s: one read is misread or of another pack
    cards = [f for f in scan.cards if pack >> f.card & 1]
    unsure = [f for f in scan.unsure if pack >> f.card & 1]
    outside = [f for f in (*scan.cards, *scan.unsure) if not pack >> f.card & 1]
    points = unsure_points = None
    if contract is not None:
        points = sum(CARD_POINTS[contract][f.card] for f in cards)
        unsure_points = sum(CARD_POINTS[contract][f.card] for f in unsure)
    if args.json:
        def entry(f: Any) -> dict[str, Any]:
            return {"card": card_str(f.card), "confidence": f.confidence, "x": f.x, "y": f.y, "angle": f.angle}

        answer: dict[str, Any] = {
            "format": "belote-scan/1",
            "width": scan.width,
            "height": scan.height,
            "cards": [entry(f) for f in cards],
            "unsure": [entry(f) for f in unsure],
            "letters": letters,
        }
        if pack != VARIANTS["bulgarian"].pack:
            answer["not_in_pack"] = [entry(f) for f in outside]
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
    print(f"{len(cards)} cards: " + " ".join(card_symbol(f.card) for f in cards))
    for f in cards:
        print(f"  {card_symbol(f.card):4} {f.confidence:6.1%}  at ({f.x:.0f}, {f.y:.0f})")
    if unsure:
        print(f"unsure, not counted ({len(unsure)}): " + " ".join(card_symbol(f.card) + "?" for f in unsure))
        for f in unsure:
            print(f"  {card_symbol(f.card) + '?':5} {f.confidence:6.1%}  at ({f.x:.0f}, {f.y:.0f})")
    if outside:
        print(f"not in a 24-card pack, not counted ({len(outside)}): "
              + " ".join(card_symbol(f.card) for f in outside))
    if contract is not None:
        line = f"card points under {CONTRACTS[contract]}: {points}"
        if unsure:
            line += f" (+{unsure_points} if the unsure cards are right)"
        print(line + "; the last ten is not included")
    if letters == "latin":  # a pack lettered В Д П read as J Q K loses its court cards and may gain eights
        print("(read as a pack lettered J Q K or B D K; for one lettered В Д П give --letters cyrillic)")
    return 0
