"""All domains of a language share one lookup, so a message id translated differently in two domains would make
one of them wrong silently. Such ids must be told apart by their text."""

from __future__ import annotations

from collections import defaultdict

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, LOCALES_DIR, translator


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_id_has_two_translations(lang: str) -> None:
    seen: dict[str, dict[str, str]] = defaultdict(dict)
    for po in sorted((LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            for message in read_po(fh, locale=lang):
                if message.id and isinstance(message.id, str) and message.string:
                    seen[message.id][po.stem] = str(message.string)
    clashes = {mid: by_domain for mid, by_domain in seen.items() if len(set(by_domain.values())) > 1}
    assert not clashes, f"message ids translated differently in two domains ({lang}): {clashes}"


def test_translator_formats_and_falls_back_to_the_source_text() -> None:
    t = translator("en-US")
    assert t.lang == "en"
    assert t.gettext("no such message {x}", x=1) == "no such message 1"
    assert translator(None).lang == "bg"
    assert translator("de").lang == "en"
