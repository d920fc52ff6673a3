"""Translations: gettext catalogs in ``locales/<lang>/LC_MESSAGES/<domain>.po``, read with Babel.

Every message id is English source text with ``{name}`` placeholders. The catalogs are read straight from the .po
files (no compiled .mo to forget); each domain belongs to one part of the bot (``calculator``, ``core``, ...), and
all domains of a language are merged into one lookup.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Final

_PACKAGE: Final = Path(__file__).resolve().parent
# An installed wheel carries the catalogs as bot/locales; a source checkout keeps them in locales/ beside bot/.
LOCALES_DIR: Final = next((d for d in (_PACKAGE / "locales", _PACKAGE.parent / "locales") if d.is_dir()),
                          _PACKAGE / "locales")
# Every place that offers a choice of language (settings, menus, commands, --lang) takes it from here.
LANGUAGES: Final = ("bg", "en", "hr", "fr")
DEFAULT_LANGUAGE: Final = "bg"
# Platform codes read in a supported language: speakers of Latin Serbo-Croatian (Serbian, Bosnian) read Croatian.
KINDRED: Final = {"sr": "hr", "bs": "hr"}
# Each language's name in itself, for choosers a reader may not yet understand.
ENDONYMS: Final = {"bg": "български", "en": "English", "hr": "hrvatski", "fr": "français"}
log = logging.getLogger(__name__)


def normalize_language(code: str | None) -> str:
    """A supported language for a platform's language code ("bg", "en-US", "hr_HR", "sr-Latn", ...); English for
    any other language, Bulgarian when the platform says nothing."""
    if not code:
        return DEFAULT_LANGUAGE
    base = code.replace("_", "-").split("-")[0].lower()
    base = KINDRED.get(base, base)
    return base if base in LANGUAGES else "en"


class Translator:
    def __init__(self, lang: str) -> None:
        # Babel is imported here, not at the top: a command that never translates does not pay for it.
        from babel.messages.pofile import read_po

        self.lang = lang
        self._singular: dict[str, str] = {}
        self._plural: dict[str, tuple[str, ...]] = {}
        self._plural_index = plural_index(lang)
        folder = LOCALES_DIR / lang / "LC_MESSAGES"
        if not folder.is_dir():
            # Said once per language: every text then stays in English, which is easy to miss.
            log.warning("no %s catalogs in %s: texts stay in English", lang, folder)
        for po in sorted(folder.glob("*.po")) if folder.is_dir() else []:
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=lang)
            for message in catalog:
                if not message.id or message.fuzzy:
                    continue
                if isinstance(message.id, tuple | list):
                    strings = tuple(str(s) for s in message.string) if message.string else ()
                    if any(strings):
                        self._plural[str(message.id[0])] = strings
                elif message.string:
                    self._singular[str(message.id)] = str(message.string)

    def gettext(self, msgid: str, /, **params: object) -> str:
        text = self._singular.get(msgid, msgid)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        forms = self._plural.get(singular)
        if not forms:  # untranslated: the English source text, by the English rule
            return (singular if n == 1 else plural).format(n=n, **params)
        # The language's own rule picks the form: Croatian has three (1 karta, 2 karte, 5 karata).
        text = forms[min(self._plural_index(abs(n)), len(forms) - 1)]
        return text.format(n=n, **params)

    def has(self, msgid: str) -> bool:
        return msgid in self._singular or msgid in self._plural


def plural_index(lang: str) -> Callable[[int], int]:
    """Which msgstr[i] of a plural entry a count takes in ``lang``: the gettext rule Babel derives from CLDR, the
    same one the catalogs' Plural-Forms header states."""
    import gettext

    from babel.messages.plurals import get_plural

    return gettext.c2py(get_plural(lang).plural_expr)


@cache
def translator(lang: str | None) -> Translator:
    return Translator(normalize_language(lang))


def _(msgid: str) -> str:
    """Marks a string for extraction without translating it (translate later with a Translator)."""
    return msgid
