"""A press made on an older message: taken when it still means what it meant, refused when it does not.

Every button carries the table's version when its message was rendered (the nonce). Group messages are edited at a
paced rate, so in a busy chat people press buttons a few versions old all the time: five people pressing Join in
the same second all press the same lobby. Such a press is judged against the table as it is now:

- A person who has acted on the table since the nonce (their own press or command is in the log after it) is
  refused: that is a replay or a double tap, and it must not act twice.
- Otherwise the press is taken when it still asks for the same thing: join while a seat is free (the host then
  refuses a full table or a taken seat as such), leave, add or remove one bot, open or close the options menu, vote
  to stop, "I'm back"; start unless the options changed since or the seats changed and the table is not full; cycle
  an option (or switch the game) that nobody changed since; a call, a card or a declaration switch while the turn is
  the one the message showed (no call, card or start since).
- Everything else gets a short reason saying what changed.
"""

from __future__ import annotations

from bot.i18n import Translator

from . import names, views
from .payload import READ_ONLY
from .table import Table

CHOICES = ("dp", "du", "dc", "e")  # the discard's picks and confirm, the seven exchange (``Host._choice_press``)


def stale_refusal(table: Table, user_id: str, nonce: int, action: str, tr: Translator) -> str | None:
    """None when the press may go on to the usual checks; else why it is refused (translated)."""
    if nonce > table.version:
        return tr.gettext("This button is out of date; use the newest message.")
    if nonce == table.version or action in READ_ONLY:
        return None
    if table.acted.get(user_id, 0) > nonce:
        return tr.gettext("You acted after this message was shown; use the newest message.")
    kind, _, arg = action.partition(":")
    if kind == "l" and table.status != "lobby" and table.moved > nonce:
        return tr.gettext("The match has started.")
    if kind == "s" and table.status == "lobby":
        if any(version > nonce for version in table.options_changed.values()):
            return tr.gettext("The options changed since; look at them and press Start again.")
        if table.free_seats() and table.seats_changed > nonce:
            return tr.gettext("The seats changed since; look at them and press Start again.")
    if kind == "g" and table.options_changed.get("game", 0) > nonce:
        return tr.gettext("Someone changed the game meanwhile; it is now: {game}.",
                          game=names.game_name(table.game, tr))
    if kind == "o" and arg:
        keys = [key for key, code in views.MENU_CODES.items() if code == arg]
        if keys and table.options_changed.get(keys[0], 0) > nonce:
            return tr.gettext("Someone changed this option meanwhile; it is now: {option}.",
                              option=views._option_label(table, keys[0], tr))
    if kind in ("c", "p", "d", "b") and table.moved > nonce:
        return _moved_on(table, kind, tr)
    if kind in CHOICES and table.moved > nonce:  # a discard pick or confirm, an exchange: that choice is over
        return tr.gettext("That choice is over; use the newest message.")
    return None


def _moved_on(table: Table, kind: str, tr: Translator) -> str:
    """What happened to the turn a move's message showed."""
    deal = table.deal
    if deal is None or table.status != "playing":
        return tr.gettext("This table is closed.")
    if kind == "c":
        if deal.phase == "auction" and deal.calls:
            seat = (deal.dealer + len(deal.calls)) % len(table.seats)  # the seat of the last call
            return tr.gettext("The auction has moved on: {name} said {call}.",
                              name=views.seat_name(table, seat, tr), call=names.call_name(deal.calls[-1], tr))
        return tr.gettext("The auction is over.") if deal.phase != "auction" else tr.gettext("A new deal has begun.")
    last = deal.trick[-1] if deal.trick else deal.tricks[-1].cards[-1] if deal.tricks else None
    if deal.phase != "play" or last is None:
        return tr.gettext("A new deal has begun.")
    n = len(table.seats)
    seat = (deal.trick_leader + len(deal.trick) - 1) % n if deal.trick else (deal.tricks[-1].leader + n - 1) % n
    return tr.gettext("The play has moved on: {name} played {card}.", name=views.seat_name(table, seat, tr),
                      card=names.card_label(last))
