"""Every message the bot can show is translated in every language of ``bot.i18n.LANGUAGES``.

Message ids are extracted from all of ``bot/`` with Babel's Python extractor (keywords ``gettext``, ``ngettext``,
``_``), exactly as ``pybabel extract`` would, and looked up in every domain's catalog of each language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, LOCALES_DIR, Translator, normalize_language

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "_": None}


def extracted() -> dict[str, str]:
    """msgid (the singular for plurals) -> where it is used."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for lineno, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            msgid = message if isinstance(message, str) else message[0]
            if msgid:
                found.setdefault(msgid, f"{path.relative_to(ROOT)}:{lineno}")
    return found


def test_messages_are_found() -> None:
    # A sanity check on the extraction itself: core strings must be seen.
    found = extracted()
    assert "It is not your turn." in found
    assert "{n} second" in found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_has_a_translation(lang: str) -> None:
    tr = Translator(lang)
    missing = [f"{where}: {msgid!r}" for msgid, where in extracted().items() if not tr.has(msgid)]
    assert not missing, f"{len(missing)} messages lack a {lang} translation:\n" + "\n".join(missing[:40])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_domain(lang: str) -> None:
    domains = {po.name for po in (LOCALES_DIR / "en" / "LC_MESSAGES").glob("*.po")}
    assert domains == {po.name for po in (LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_the_languages_forms_and_keep_their_placeholders(lang: str) -> None:
    # As many forms as the language's CLDR rule has (Bulgarian and English 2, Croatian 3), and a Plural-Forms
    # header that says the same, so other gettext tools read the catalogs as the bot does.
    wanted_forms = get_plural(lang).num_plurals
    problems = []
    for po in sorted((LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        if catalog.num_plurals != wanted_forms or catalog.plural_expr != get_plural(lang).plural_expr:
            problems.append(f"{po.name}: Plural-Forms must be {get_plural(lang).plural_forms!r}")
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, tuple | list):
                forms = [str(s) for s in message.string] if message.string else []
                if len(forms) != wanted_forms or not all(forms):
                    problems.append(f"{po.name}: {message.id[0]!r} needs {wanted_forms} plural forms, has {forms}")
                ids, texts = [str(i) for i in message.id], forms
            else:
                ids, texts = [str(message.id)], [str(message.string)]
            wanted = {p for i in ids for p in _placeholders(i)}
            for text in texts:
                if text and _placeholders(text) - wanted - {"n"}:
                    problems.append(f"{po.name}: {message.id!r} -> {text!r} names unknown placeholders")
    assert not problems, "\n".join(problems[:40])


def test_bulgarian_card_and_suit_names() -> None:
    tr = Translator("bg")
    assert [tr.gettext(s) for s in ("clubs", "diamonds", "hearts", "spades")] == ["спатия", "каро", "купа", "пика"]
    assert [tr.gettext(r) for r in ("jack", "queen", "king", "ace")] == ["вале", "дама", "поп", "асо"]
    assert tr.ngettext("{n} second", "{n} seconds", 1) == "1 секунда"
    assert tr.ngettext("{n} second", "{n} seconds", 5) == "5 секунди"


def test_croatian_card_and_suit_names() -> None:
    tr = Translator("hr")
    assert [tr.gettext(s) for s in ("clubs", "diamonds", "hearts", "spades")] == ["tref", "karo", "herc", "pik"]
    assert [tr.gettext(r) for r in ("jack", "queen", "king", "ace")] == ["dečko", "dama", "kralj", "as"]
    words = ("Pass", "belote", "No trumps", "Contra")
    assert [tr.gettext(w) for w in words] == ["Dalje", "bela", "Bez aduta", "Kontra"]


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "1 bod"), (2, "2 boda"), (4, "4 boda"), (5, "5 bodova"), (11, "11 bodova"), (12, "12 bodova"),
     (21, "21 bod"), (22, "22 boda"), (25, "25 bodova"), (111, "111 bodova"), (0, "0 bodova")],
)
def test_croatian_plurals_have_three_forms(n: int, text: str) -> None:
    # one (1, 21, 101), few (2-4, 22-24; not 12-14), other (the rest): 1 karta, 2 karte, 5 karata.
    assert Translator("hr").ngettext("{n} point", "{n} points", n) == text


def test_platform_codes_of_kindred_languages_read_croatian() -> None:
    assert [normalize_language(c) for c in ("hr", "hr-HR", "hr_HR", "sr", "sr-Latn", "bs", "BS-ba")] == ["hr"] * 7
    others = ("bg", "en-GB", "fr-CA", "de", "sl", "")
    assert [normalize_language(c) for c in others] == ["bg", "en", "fr", "en", "en", "bg"]


def _placeholders(text: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
