"""Translations: gettext catalogs in ``locales/<lang>/LC_MESSAGES/<domain>.po``, read with Babel.

Every message id is English source text with ``{name}`` placeholders. The catalogs are read straight from the .po
files (no compiled .mo to forget); each domain belongs to one part of the bot (``calculator``, ``core``, ...), and
all domains of a language are merged into one lookup.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Final

_PACKAGE: Final = Path(__file__).resolve().parent
# An installed wheel carries the catalogs as bot/locales; a source checkout keeps them in locales/ beside bot/.
LOCALES_DIR: Final = next((d for d in (_PACKAGE / "locales", _PACKAGE.parent / "locales") if d.is_dir()),
                          _PACKAGE / "locales")
LANGUAGES: Final = ("bg", "en")
DEFAULT_LANGUAGE: Final = "bg"
log = logging.getLogger(__name__)


def normalize_language(code: str | None) -> str:
    """A supported language for a platform's language code ("bg", "en-US", "en_GB", ...)."""
    if not code:
        return DEFAULT_LANGUAGE
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else "en"


class Translator:
    def __init__(self, lang: str) -> None:
        # Babel is imported here, not at the top: a command that never translates does not pay for it.
        from babel.messages.pofile import read_po
        from babel.plural import PluralRule

        self.lang = lang
        self._singular: dict[str, str] = {}
        self._plural: dict[str, tuple[str, ...]] = {}
        self._plural_rule = PluralRule({"one": "n is 1"})
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
        # Bulgarian and English both have two forms: one, other.
        pair = (forms[0], forms[min(1, len(forms) - 1)]) if forms else (singular, plural)
        text = pair[0] if n == 1 else pair[1]
        return text.format(n=n, **params)

    def has(self, msgid: str) -> bool:
        return msgid in self._singular or msgid in self._plural


@cache
def translator(lang: str | None) -> Translator:
    return Translator(normalize_language(lang))


def _(msgid: str) -> str:
    """Marks a string for extraction without translating it (translate later with a Translator)."""
    return msgid
