"""Game words in a player's language: suits, ranks, cards, calls, declarations, teams, options.

Every msgid is a literal here so the catalogs can be checked; adapters reuse these for their own texts.
"""

from __future__ import annotations

from bot.engine.calls import ALL_TRUMPS, CONTRA, NO_TRUMPS, PASS, RECONTRA
from bot.engine.cards import SUIT_SYMBOLS, card_symbol
from bot.engine.game import VARIANTS
from bot.i18n import Translator


def suit_name(suit: int, tr: Translator) -> str:
    return (
        tr.gettext("clubs"),
        tr.gettext("diamonds"),
        tr.gettext("hearts"),
        tr.gettext("spades"),
    )[suit]


def rank_name(rank: int, tr: Translator) -> str:
    return (
        tr.gettext("seven"),
        tr.gettext("eight"),
        tr.gettext("nine"),
        tr.gettext("ten"),
        tr.gettext("jack"),
        tr.gettext("queen"),
        tr.gettext("king"),
        tr.gettext("ace"),
    )[rank]


def card_name(card: int, tr: Translator) -> str:
    """The card in words: "jack of hearts" / "вале купа"."""
    return tr.gettext("{rank} of {suit}", rank=rank_name(card & 7, tr), suit=suit_name(card >> 3, tr))


def card_label(card: int) -> str:
    """The card as shown on a button or in a trick: "J♥", "10♠" (the same in every language)."""
    return card_symbol(card)


def call_name(call: int, tr: Translator) -> str:
    if call < NO_TRUMPS:
        return f"{SUIT_SYMBOLS[call]} {suit_name(call, tr).capitalize()}"
    if call == NO_TRUMPS:
        return tr.gettext("No trumps")
    if call == ALL_TRUMPS:
        return tr.gettext("All trumps")
    if call == PASS:
        return tr.gettext("Pass")
    if call == CONTRA:
        return tr.gettext("Contra")
    if call == RECONTRA:
        return tr.gettext("Recontra")
    raise ValueError(f"not a call: {call}")


def declaration_name(kind: str, tr: Translator) -> str:
    names = {
        "tierce": tr.gettext("tierce"),
        "quarte": tr.gettext("quarte"),
        "quint": tr.gettext("quint"),
        "carre": tr.gettext("carré"),
        "belote": tr.gettext("belote"),
    }
    return names[kind]


def game_name(game: str, tr: Translator) -> str:
    """A game of the family by its name in bot.engine.game.VARIANTS."""
    names = {
        "bulgarian": tr.gettext("Bridge-Belote"),
        "bela": tr.gettext("Bela (Croatian)"),
        "french": tr.gettext("French belote"),
        "bela-3": tr.gettext("Bela for three (utroje)"),
        "bela-2": tr.gettext("Bela for two (udvoje)"),
        "bela-open": tr.gettext("Open Bela for two (otvorena)"),
        "bulgarian-3": tr.gettext("Bridge-Belote for three"),
        "bulgarian-2": tr.gettext("Bridge-Belote for two"),
    }
    return names.get(game, game)


def game_label(game: str, tr: Translator) -> str:
    """The game's name as a player choosing it sees it: a house game (``Variant.house_rules``, family §8–§9) says
    so, and a game for three or two says how many play."""
    row = VARIANTS.get(game)
    label = game_name(game, tr)
    if row is not None and row.house_rules:
        label = tr.gettext("{game}, house rules", game=label)
    return label



def team_name(team: int, tr: Translator) -> str:
    return tr.gettext("team A") if team == 0 else tr.gettext("team B")


def outcome_name(outcome: str, tr: Translator) -> str:
    names = {
        "made": tr.gettext("made"),
        "inside": tr.gettext("inside"),
        "hanging": tr.gettext("hanging"),
    }
    return names[outcome]


def level_name(level: str, tr: Translator) -> str:
    names = {
        "random": tr.gettext("random"),
        "easy": tr.gettext("easy"),
        "medium": tr.gettext("medium"),
        "hard": tr.gettext("hard"),
    }
    return names.get(level, level)


def away_name(policy: str, tr: Translator) -> str:
    names = {
        "bot_turn": tr.gettext("a bot plays the turn"),
        "bot_seat": tr.gettext("a bot takes the seat"),
        "wait": tr.gettext("wait"),
    }
    return names[policy]


def language_name(lang: str, tr: Translator) -> str:
    names = {
        "bg": tr.gettext("Bulgarian"),
        "en": tr.gettext("English"),
        "hr": tr.gettext("Croatian"),
        "fr": tr.gettext("French"),
    }
    return names.get(lang, lang)


def seconds(n: int, tr: Translator) -> str:
    return tr.ngettext("{n} second", "{n} seconds", n)


def points(n: int, tr: Translator) -> str:
    return tr.ngettext("{n} point", "{n} points", n)
