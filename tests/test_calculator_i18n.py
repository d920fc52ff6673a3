"""The calculator's catalogs are complete: every message in the code has a translation in bg and en with the same
placeholders, so no player ever sees an English fallback or a ``{name}`` left unfilled."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    *sorted((ROOT / "bot" / "calculator").glob("*.py")),
    ROOT / "bot" / "cli" / "score.py",
    ROOT / "bot" / "cli" / "sheet.py",
]
# The chats' calculator and sheet: their newer messages live in the calculator's domain too.
CHAT_SOURCES = [
    ROOT / "bot" / "adapters" / "telegram" / "calculator.py",
    ROOT / "bot" / "adapters" / "telegram" / "score_form.py",
    ROOT / "bot" / "adapters" / "telegram" / "small_form.py",
    ROOT / "bot" / "adapters" / "telegram" / "sheet.py",
    ROOT / "bot" / "adapters" / "discord" / "calculator.py",
    ROOT / "bot" / "adapters" / "discord" / "score_form.py",
    ROOT / "bot" / "adapters" / "discord" / "small_form.py",
]
# Msg("...") and _("...") carry a message id first; problem(field, "...") second.
KEYWORDS = {"_": None, "Msg": None, "problem": (2,)}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def message_ids(sources: list[Path] = SOURCES) -> list[str]:
    ids: list[str] = []
    keywords = KEYWORDS if sources is SOURCES else {**KEYWORDS, "gettext": None}
    for path in sources:
        for _lineno, message, _comments, _context in extract_from_file("python", str(path), keywords=keywords):
            if isinstance(message, str) and message not in ids:
                ids.append(message)
    return ids


def catalog(lang: str, domain: str = "calculator") -> dict[str, str]:
    with (ROOT / "locales" / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as fh:
        return {str(m.id): str(m.string) for m in read_po(fh, locale=lang) if m.id and not m.fuzzy}


def translations_of(lang: str) -> dict[str, str]:
    """The calculator's domain, and the fairness domain that holds its messages about hostile input."""
    return {**catalog(lang, "fairness"), **catalog(lang)}


def test_the_code_has_messages() -> None:
    assert len(message_ids()) > 100


@pytest.mark.parametrize("lang", ["bg", "en", "hr", "fr"])
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    translations = translations_of(lang)
    missing = [i for i in message_ids() if not translations.get(i)]
    assert not missing
    for msgid in message_ids():
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(translations[msgid])), msgid


@pytest.mark.parametrize("lang", ["bg", "en", "hr", "fr"])
def test_no_stale_entries(lang: str) -> None:
    assert set(catalog(lang)) <= set(message_ids()) | set(message_ids(CHAT_SOURCES))
    assert set(message_ids()) <= set(translations_of(lang))


def test_bulgarian_uses_the_players_words() -> None:
    text = " ".join(catalog("bg").values())
    for word in ("изкарана", "вкарана", "висяща", "капо", "валат", "контра", "реконтра", "последните 10", "белот",
                 "терца", "кварта", "квинта", "каре", "закръгляне"):
        assert word in text, word
