"""A card one rule of the scanner holds back, on a committed photo: asked about with the rule, named without it."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.cards import card_str
from bot.scanner import Scan, scan_bytes


def as_text(scan: Scan) -> tuple[set[str], set[str]]:
    """The cards a scan names and those it asks about."""
    return {card_str(f.card) for f in scan.cards}, {card_str(f.card) for f in scan.unsure}


def held_back(data: bytes, card: str, present: set[str], without_rule: Callable[[], None]) -> tuple[set[str], set[str]]:
    """Scans the photo ``data``: no card named that is not ``present`` and ``card`` asked about; then, once
    ``without_rule`` has undone the rule, the same scan names ``card`` and reads every other card alike. The cards
    named and asked about with the rule."""
    named, asked = as_text(scan_bytes(data))
    assert named <= present, f"invented: {sorted(named - present)}"
    assert card in asked
    without_rule()
    assert as_text(scan_bytes(data)) == (named | {card}, asked - {card})
    return named, asked
