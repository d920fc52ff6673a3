"""What every view of a table shares: button payloads, seat names, a hand's order and text, a trick's text, and
the fair-dealing lines. Pure functions of the table state and a translator."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.calls import ALL_TRUMPS, NO_TRUMPS
from bot.engine.cards import PLAIN_STRENGTH, SUIT_SYMBOLS, TRUMP_STRENGTH
from bot.engine.deal import Announcement, Trick
from bot.engine.shuffle import SCHEME, commitment
from bot.i18n import Translator

from . import names
from .messages import Button
from .payload import encode
from .table import Table

# Suits in display order (colours alternate); a trump suit goes first.
_SUIT_ORDER = (3, 2, 0, 1)

_CALL_CODES = ("c", "d", "h", "s", "nt", "at", "pass", "x", "xx")
CALL_BY_CODE = {code: i for i, code in enumerate(_CALL_CODES)}


def call_code(call: int) -> str:
    return _CALL_CODES[call]


def card_code(card: int) -> str:
    return "789TJQKA"[card & 7] + "CDHS"[card >> 3]


def payload(table: Table, action: str) -> str:
    return encode(table.table_id, table.version, action)


def seat_name(table: Table, seat: int, tr: Translator) -> str:
    s = table.seats[seat]
    if s.kind == "empty":
        return tr.gettext("free")
    if s.kind == "bot":
        if s.name:
            return tr.gettext("{name} (bot)", name=s.name)
        return tr.gettext("Bot {n}", n=seat + 1)
    return s.name or tr.gettext("Player {n}", n=seat + 1)


def sort_hand(cards: list[int], contract: int | None) -> list[int]:
    """The hand grouped by suit (trumps first) and ordered by strength in the contract, strongest first."""

    def strength(card: int) -> int:
        suit = card >> 3
        trump = contract == ALL_TRUMPS or (contract is not None and contract < NO_TRUMPS and suit == contract)
        return (TRUMP_STRENGTH if trump else PLAIN_STRENGTH)[card & 7]

    order = list(_SUIT_ORDER)
    if contract is not None and contract < NO_TRUMPS:
        order.remove(contract)
        order.insert(0, contract)
    return sorted(cards, key=lambda c: (order.index(c >> 3), -strength(c)))


def hand_text(cards: list[int], contract: int | None) -> str:
    groups: dict[int, list[str]] = {}
    for card in sort_hand(cards, contract):
        groups.setdefault(card >> 3, []).append(names.card_label(card)[:-1])
    return "  ".join(SUIT_SYMBOLS[s] + " " + " ".join(ranks) for s, ranks in groups.items())


def trick_text(seat_names: list[str], leader: int, cards: tuple[int, ...] | list[int]) -> str:
    n = len(seat_names)
    return ", ".join(f"{seat_names[(leader + i) % n]} {names.card_label(c)}" for i, c in enumerate(cards))


def seat_names(table: Table, tr: Translator) -> list[str]:
    return [seat_name(table, i, tr) for i in range(len(table.seats))]


def side_scores(table: Table, values: list[int] | tuple[int, ...], tr: Translator, fell: int = -1) -> str:
    """Points per player of a game for three or two, by name ("Ana 120 · Boris 40 · Vera —"): every player is his
    own side. ``fell``: a player whose zero is written as a dash."""
    named = seat_names(table, tr)
    return " · ".join(
        f"{named[s]} {'—' if s == fell and v == 0 else v}" for s, v in enumerate(values)
    )


def deal_heading(table: Table, dealer: int, number: int, named: list[str], tr: Translator) -> list[str]:
    """The first lines of deal ``number`` in the group: its dealer, the teams at a table of four, the score before
    it."""
    before = score_before(table, number - 1)
    lines = [tr.gettext("**Deal {n}** · dealer: {name}", n=number, name=named[dealer])]
    if table.teams:
        lines += [
            tr.gettext("A: {a1} & {a2} · B: {b1} & {b2}", a1=named[0], a2=named[2], b1=named[1], b2=named[3]),
            tr.gettext("Score: A {a} · B {b}", a=before[0], b=before[1]),
        ]
    else:
        lines.append(tr.gettext("Score: {scores}", scores=side_scores(table, before, tr)))
    return lines


def announcement_parts(table: Table, announced: Sequence[Announcement], tr: Translator) -> list[str]:
    """Each announcement of a deal by its player's name: a belote with its suit, or the declarations' kinds."""
    parts = []
    for a in announced:
        who = seat_name(table, a.seat, tr)
        if a.belote_suit >= 0:
            parts.append(f"{who}: {names.declaration_name('belote', tr)} {SUIT_SYMBOLS[a.belote_suit]}")
        else:
            parts.append(f"{who}: " + ", ".join(names.declaration_name(k, tr) for k in a.kinds))
    return parts


def played_lines(
    table: Table,
    named: list[str],
    tricks: Sequence[Trick],
    tricks_won: Sequence[int],
    trick_leader: int,
    trick: Sequence[int],
    tr: Translator,
) -> list[str]:
    """The play of a deal in the group: every trick taken and by whom, the tricks of each side, the trick on the
    table."""
    # Every trick of the deal stays listed: a busy group's view is edited less often than tricks end (its budget is
    # twenty messages a minute), and no trick may pass unseen between two edits.
    lines = [
        tr.gettext(
            "Trick {n}: {cards} (taken by {name})",
            n=n,
            cards=trick_text(named, done.leader, done.cards),
            name=named[done.winner],
        )
        for n, done in enumerate(tricks, 1)
    ]
    if tricks and table.teams:
        lines.append(tr.gettext("Tricks: A {a} · B {b}", a=tricks_won[0], b=tricks_won[1]))
    elif tricks:
        lines.append(tr.gettext("Tricks: {scores}", scores=side_scores(table, tuple(tricks_won), tr)))
    if trick:
        lines.append(tr.gettext("Trick: {cards}", cards=trick_text(named, trick_leader, tuple(trick))))
    return lines


def trick_line(table: Table, leader: int, cards: tuple[int, ...], tr: Translator) -> str:
    """The trick on the table, each card by its player's name."""
    seat_names = [seat_name(table, i, tr) for i in range(len(table.seats))]
    return tr.gettext("Trick: {cards}", cards=trick_text(seat_names, leader, cards))


def away_parts(table: Table, seat: int, tr: Translator) -> tuple[list[str], list[tuple[Button, ...]]] | None:
    """For a seat a bot plays while its person is away: the line saying so and the "I'm back" button; else None."""
    if not table.seats[seat].away:
        return None
    return [tr.gettext("A bot is playing for you.")], [(Button(tr.gettext("I'm back"), payload(table, "back")),)]


def call_rows(buttons: list[Button]) -> list[tuple[Button, ...]]:
    """Call buttons three to a row."""
    return [tuple(buttons[i : i + 3]) for i in range(0, len(buttons), 3)]


def where(table: Table, tr: Translator) -> str:
    if table.chat.title:
        return tr.gettext("**Table {table}** · {chat}", table=table.table_id, chat=table.chat.title)
    return tr.gettext("**Table {table}**", table=table.table_id)


def score_before(table: Table, index: int) -> list[int]:
    """Each side's match score before deal ``index`` (0-based)."""
    assert table.match is not None
    before = [0] * len(table.match.totals)
    for r in table.match.results[:index]:
        if r is not None:
            for side, points in enumerate(r.score):
                before[side] += points
    return before


def dealing_lines(table: Table, tr: Translator, reveal: bool) -> list[str]:
    """The commitment to the match's secret seed, and the seed itself once the match has ended (docs/fairness.md)."""
    match = table.match
    if match is None or match.scheme != SCHEME:  # not started, or dealt the old way before commitments existed
        return []
    if not reveal:
        return [
            tr.gettext(
                "Fair dealing: every deal follows from a secret seed whose SHA-256 is {commitment}; the "
                "seed is shown when the match ends.",
                commitment=commitment(match.seed),
            )
        ]
    return [
        tr.gettext(
            "The deals' seed: {seed}. Its SHA-256 is the commitment shown at the start; belote-bot verify "
            "checks every deal of the match record against it.",
            seed=match.seed,
        )
    ]


def play_buttons(
    table: Table,
    seat: int,
    legal_cards: tuple[int, ...],
    declarable: tuple[str, ...],
    belote_cards: tuple[int, ...],
    contract: int | None,
    tr: Translator,
) -> tuple[list[str], list[tuple[Button, ...]]]:
    """A seat's turn to play, in any game: its legal cards, and the switches for its declarations and belote/bela
    (all on, unless switched off; none under automatic declarations)."""
    lines = [tr.gettext("Your turn: play a card.")]
    buttons: list[tuple[Button, ...]] = []
    cards = [
        Button(names.card_label(c), payload(table, f"p:{card_code(c)}")) for c in sort_hand(list(legal_cards), contract)
    ]
    per_row = 4 if len(cards) <= 8 else 5  # ten cards (Bela for three or two) in two rows: room for the switches
    buttons.extend(tuple(cards[i : i + per_row]) for i in range(0, len(cards), per_row))
    if not table.rules.auto_declarations:
        toggles = []
        for i, kind in enumerate(declarable):
            mark = "✓" if i not in table.declare_off[seat] else "✗"
            toggles.append(Button(f"{mark} {names.declaration_name(kind, tr)}", payload(table, f"d:{i}")))
        if toggles:
            lines.append(tr.gettext("Declarations go with your first card; switch off any you keep quiet."))
            buttons.append(tuple(toggles[:5]))
        if belote_cards:
            mark = "✓" if not table.belote_off[seat] else "✗"
            lines.append(tr.gettext("You may announce a belote with the king or queen of the pair."))
            buttons.append((Button(f"{mark} {names.declaration_name('belote', tr)}", payload(table, "b")),))
    return lines, buttons
