"""What the family games' Telegram tests share: two people (Alice reads English, Bob Croatian) at a table with two
bots, a watch that judges every private message the instant the fake server receives it, and a player who presses
the buttons of their hand until the match ends."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from bot.adapters.telegram.outbox import FloodPolicy
from bot.core.table import Table
from bot.core.views import CALL_BY_CODE
from bot.engine import parse_card
from bot.engine.bela2 import BelaTwoDeal
from bot.engine.calls import PASS
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_report, replay_family_record
from bot.engine.french import FrenchDeal
from bot.engine.game import VARIANTS
from bot.engine.seatview import view as seat_view
from bot.engine.trumpdeal import TrumpDeal
from bot.i18n import translator
from tests.fake_telegram import Entry, FakeTelegram, Sent
from tests.telegram.harness import Harness, Person, action_of, buttons_with, cards_in

GROUP = -100555
POLICY = FloodPolicy().scaled(0.005)
ALICE = Person(2001, "Alice", "en")
BOB = Person(2002, "Bob", "hr")
PEOPLE = (ALICE, BOB)


def public_cards(deal: TrumpDeal) -> set[int]:
    """What everyone at the table has seen of a deal: the played cards, the turned card, the declarations the
    contest's winner showed, the open game's face-up cards and a stock lying face up."""
    out = set(deal.trick) | {c for t in deal.tricks for c in t.cards}
    seen = seat_view(deal, 0, turned=getattr(deal, "turned", None))
    out |= {c for _, _, cards in seen.shown for c in cards}
    if seen.turned is not None:
        out.add(seen.turned)
    if seen.layout is not None:
        out |= {c for piles in seen.layout for pile in piles for c in pile if c is not None}
    if seen.stock is not None:
        out |= set(seen.stock)
    if isinstance(deal, BelaTwoDeal) and deal.exchanged:  # the exchanged seven lies face up in the turned card's place
        out.add(deal.seven)
    return out


def own_cards(deal: TrumpDeal, seat: int) -> set[int]:
    """What a seat may know of its own cards: those it holds now (its first cards only while trump is chosen, its
    face-up uncovered cards in the open game) and, for a 3-player caller, the two it discarded."""
    return set(deal.hand_of(seat)) | set(deal.view_fields(seat).get("discard") or ())


def deal_number_pattern(lang: str) -> re.Pattern[str]:
    """The "Deal n · dealer" line of a private hand, in that language."""
    line = translator(lang).gettext("**Deal {n}** · dealer: {name}")
    before = line.split("{n}")[0].replace("**", "")
    return re.compile(re.escape(before) + r"(\d+)")


@dataclass
class PrivacyWatch:
    """Judges every private message as the fake server receives it, against the table as it is at that instant
    (never behind what the message was rendered from: a card unplayed now was unplayed then)."""

    table: Table | None = None
    checked: int = 0
    problems: list[str] = field(default_factory=list)

    group_checked: int = 0

    def __call__(self, chat_id: int, entry: Entry) -> None:
        if chat_id == GROUP:
            self._group(entry)
            return
        person = next((p for p in PEOPLE if p.user_id == chat_id), None)
        if person is None or entry.text is None or not entry.ok or self.table is None:
            return
        shown = cards_in(entry.text)
        match = self.table.match
        if self.table.seat_of(str(person.user_id)) is None:  # not seated: nothing but what the table has seen
            if shown and (match is None or shown - public_cards(match.deal)):
                self.problems.append(f"{person.name} (not seated) was shown {shown}: {entry.text!r}")
            return
        found = deal_number_pattern(person.language).search(entry.text)
        if match is None or found is None:
            if shown:
                self.problems.append(f"{person.name} was shown cards {shown} outside a deal: {entry.text!r}")
            return
        assert isinstance(match, FamilyMatch)
        deal = match.deals[int(found.group(1)) - 1]
        seat = self.table.seat_of(str(person.user_id))
        assert seat is not None
        leaked = shown - own_cards(deal, seat) - public_cards(deal)
        if leaked:
            self.problems.append(f"{person.name} (seat {seat}) saw {sorted(leaked)}: {entry.text!r}")
        self.checked += 1


    def _group(self, entry: Entry) -> None:
        """The group sees only public cards: never a hand, a discard, the stock or a face-down card."""
        if entry.text is None or not entry.ok or self.table is None or self.table.match is None:
            return
        found = deal_number_pattern("en").search(entry.text)
        shown = cards_in(entry.text)
        if found is None:
            return
        match = self.table.match
        deal = match.deals[int(found.group(1)) - 1]
        assert isinstance(deal, TrumpDeal)
        leaked = shown - public_cards(deal)
        if leaked:
            self.problems.append(f"the group saw {sorted(leaked)}: {entry.text!r}")
        self.group_checked += 1


async def hand_of(h: Harness, table_id: str, seat: int, person: Person) -> Sent | None:
    ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{person.user_id}")
    return None if ref is None else h.tg.messages.get(ref)


async def group_deal(h: Harness, table_id: str, number: int) -> Sent | None:
    ref = await h.adapter.refs.get(f"{table_id}:d{number}")
    return None if ref is None else h.tg.messages.get(ref)


async def open_family_table(
    h: Harness, tg: FakeTelegram, command: str, game_name: str, bots: int = 2, bob: bool = True
) -> str:
    """Alice opens the table with ``command`` in an English group; Bob joins (unless not ``bob``); Alice seats
    ``bots`` bots."""
    for person in PEOPLE:
        tg.start_private(person.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/lang en")
    await h.settle()  # updates are handled concurrently: the language first
    tg.send_text(ALICE.user_id, GROUP, command)
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    assert game_name in lobby.text, lobby.text
    table_id = lobby.buttons()[0][1].split(":")[1]
    if bob:
        join = next(d for _, d in buttons_with(lobby, "j") if action_of(d) == "j")
        await h.press(BOB, lobby, join)
        await h.settle()
    for _ in range(bots):
        lobby = tg.messages[(GROUP, lobby.message_id)]
        await h.press(ALICE, lobby, buttons_with(lobby, "a")[0][1])
        await h.settle()
    lobby = tg.messages[(GROUP, lobby.message_id)]
    await h.press(ALICE, lobby, buttons_with(lobby, "s")[0][1])
    await h.settle()
    return table_id


def check_call_buttons(deal: TrumpDeal, seat: int, person: Person, hand: Sent) -> None:
    """The call buttons are the legal calls, in the game's words: Bela's four suits and "dalje" (none for the
    dealer in the mus); French belote's "take" of the turned suit or pass, then the other three suits or pass."""
    calls = buttons_with(hand, "c:")
    codes = {CALL_BY_CODE[action_of(d)[2:]] for _, d in calls}
    assert codes == set(deal.legal_calls()), (codes, deal.legal_calls())
    tr = translator(person.language)
    labels = {CALL_BY_CODE[action_of(d)[2:]]: label for label, d in calls}
    if PASS in labels:
        assert labels[PASS] == tr.gettext("Pass")
    if isinstance(deal, FrenchDeal):
        turned = deal.turned >> 3
        if len(deal.calls) < 4:
            assert codes == {turned, PASS}
            take = tr.gettext("Take {suit}", suit="").strip()
            assert labels[turned].startswith(take), labels
        else:
            assert turned not in codes and len(codes) == 4
    elif deal.variant == "bela":
        assert len(codes) == (4 if seat == deal.dealer else 5)


async def play_to_the_end(h: Harness, table_id: str, rng: random.Random, watch: PrivacyWatch) -> dict[str, int]:
    """The humans press until the match ends; wrong-person, replayed and stale presses are tried on the way."""
    table = h.host.table(table_id)
    assert table is not None and table.match is not None
    watch.table = table
    counts = {"presses": 0, "calls": 0, "toggles": 0, "talons": 0, "refused": 0, "discards": 0, "exchanges": 0}
    stale: tuple[Person, Sent, str] | None = None
    talon_seen: set[tuple[int, int]] = set()
    while table.status == "playing":
        await h.delivered()
        match = table.match
        assert isinstance(match, FamilyMatch)
        deal = match.deal
        seat = table.to_act
        if seat is None:
            break
        person = next(p for p in PEOPLE if str(p.user_id) == table.seats[seat].user_id)
        hand = await hand_of(h, table_id, seat, person)
        assert hand is not None
        if deal.phase == "play" and not deal.tricks:  # the call is over: each person sees their own talon
            for other in PEOPLE:
                other_seat = table.seat_of(str(other.user_id))
                if other_seat is None or (len(match.deals), other_seat) in talon_seen:
                    continue
                talon_seen.add((len(match.deals), other_seat))
                shown = await hand_of(h, table_id, other_seat, other)
                assert shown is not None
                talon = set(deal.talon_of(other_seat)) & set(deal.hand_of(other_seat))
                if not talon:  # the open game: no talon
                    continue
                starts = _new_words(other.language)
                line = next(x for x in shown.text.splitlines() if any(x.startswith(w) for w in starts))
                assert cards_in(line) == talon, (line, talon)
                counts["talons"] += 1
        if deal.phase == "auction":
            check_call_buttons(deal, seat, person, hand)
            counts["calls"] += 1
            if isinstance(deal, FrenchDeal):
                group = await group_deal(h, table_id, len(match.deals))
                if group is not None:
                    assert f"{'789TJQKA'[deal.turned & 7].replace('T', '10')}{'♣♦♥♠'[deal.turned >> 3]}" in group.text
        elif deal.phase == "discard":
            await discard_twice(h, table_id, seat, person, rng, counts)
            stale = None
            continue
        elif deal.phase == "exchange":
            assert sorted(action_of(d) for _, d in buttons_with(hand, "e:")) == ["e:0", "e:1"]
            counts["exchanges"] += 1
        else:
            offered = sorted(parse_card(action_of(d)[2:]) for _, d in buttons_with(hand, "p:"))
            assert offered == sorted(deal.legal_cards())
        before = len(await h.storage.events(table_id))
        toggles = buttons_with(hand, "d:") + buttons_with(hand, "b")
        if toggles and rng.random() < 0.4:
            other = next(p for p in PEOPLE if p is not person)
            _, data = rng.choice(toggles)
            assert (await h.press(other, hand, data)).text  # someone else's switch: refused, nothing changes
            assert len(await h.storage.events(table_id)) == before
            await h.press(person, hand, data)
            assert len(await h.storage.events(table_id)) == before + 1
            counts["toggles"] += 1
            await h.delivered()
            hand = await hand_of(h, table_id, seat, person)
            assert hand is not None
            before += 1
        moves = buttons_with(hand, "c:") + buttons_with(hand, "p:") + buttons_with(hand, "e:")
        _, data = rng.choice(moves)
        other = next(p for p in PEOPLE if p is not person)
        assert (await h.press(other, hand, data)).text  # the wrong person: refused, nothing changes
        assert len(await h.storage.events(table_id)) == before
        await h.press(person, hand, data)
        await h.delivered()  # the bots move on to the next person's turn
        events = [e.data for e in await h.storage.events(table_id)]
        assert len(events) > before, f"{person.name}'s press changed nothing"
        assert events[before]["seat"] == seat and events[before]["by"] == "human"
        again = await h.press(person, hand, data)  # a double tap
        if stale is not None:
            assert (await h.press(*stale)).text  # an older message's button
        await h.delivered()
        assert again.text and len(await h.storage.events(table_id)) == len(events)
        counts["refused"] += 2
        stale = (person, hand, data)
        counts["presses"] += 1
    await h.settle()
    return counts


async def discard_twice(
    h: Harness, table_id: str, seat: int, person: Person, rng: random.Random, counts: dict[str, int]
) -> None:
    """The 3-player caller's discard as people make it: pick a card, pick another, change one, confirm. Every
    step before Confirm changes nothing in the log; someone else's press, a forged Confirm and a second Confirm
    change nothing at all; the picks are the caller's only (the other person's hand never shows them)."""
    table = h.host.table(table_id)
    assert table is not None and table.match is not None
    deal = table.match.deal
    other = next(p for p in PEOPLE if p is not person)
    before = len(await h.storage.events(table_id))

    async def hand() -> Sent:
        await h.delivered()
        shown = await hand_of(h, table_id, seat, person)
        assert shown is not None
        return shown

    def group_calls() -> int:
        return sum(1 for _, params in h.tg.calls if params.get("chat_id") == GROUP)

    await h.settle()  # the group's view has caught up: the picks below must not touch it
    quiet = group_calls()
    first = await hand()
    picks = buttons_with(first, "dp:")
    assert sorted(parse_card(action_of(d)[3:]) for _, d in picks) == sorted(deal.legal_cards())
    assert len(picks) == 12 and not buttons_with(first, "dc:")
    a, b, c = rng.sample(picks, 3)
    assert (await h.press(other, first, a[1])).text  # someone else's pick: refused
    await h.press(person, first, a[1])
    assert (await h.press(person, first, a[1])).text  # a double tap of the same pick: already picked
    now = await hand()
    await h.press(person, now, b[1])
    now = await hand()
    confirm = buttons_with(now, "dc:")
    assert len(confirm) == 1 and len(buttons_with(now, "du:")) == 2
    assert (await h.press(person, now, c[1])).text  # a third pick: put one back first
    await h.press(person, now, buttons_with(now, "du:")[0][1])  # change: the first pick goes back
    now = await hand()
    assert not buttons_with(now, "dc:")
    assert (await h.press(person, now, confirm[0][1])).text  # the old Confirm no longer names the picks
    forged = confirm[0][1].rsplit(":", 1)[0] + ":" + action_of(a[1])[3:] + action_of(c[1])[3:]
    assert (await h.press(person, now, forged)).text  # a Confirm of cards that are not the picks
    await h.press(person, now, c[1])
    now = await hand()
    assert len(await h.storage.events(table_id)) == before, "nothing is logged before Confirm"
    await h.settle()
    assert group_calls() == quiet, "the picks are private: the group's messages are not touched before Confirm"
    [(_, data)] = buttons_with(now, "dc:")
    assert (await h.press(other, now, data)).text  # someone else's Confirm
    picked = {parse_card(action_of(d)[3:]) for _, d in buttons_with(now, "du:")}
    assert len(picked) == 2 and parse_card(action_of(c[1])[3:]) in picked
    await h.press(person, now, data)
    await h.delivered()
    events = [e.data for e in await h.storage.events(table_id)]
    assert events[before]["e"] == "discard" and events[before]["seat"] == seat and events[before]["by"] == "human"
    assert {parse_card(x) for x in events[before]["cards"]} == picked
    count = len(events)
    assert (await h.press(person, now, data)).text  # a double tap of Confirm
    assert (await h.press(person, first, a[1])).text  # a pick from an older message
    await h.delivered()
    assert len(await h.storage.events(table_id)) == count
    counts["discards"] += 1
    counts["presses"] += 1


def hand_line_cards(text: str, lang: str) -> set[int]:
    """The cards of the "Your hand" line of a private hand."""
    start = translator(lang).gettext("Your hand: {cards}").split("{cards}")[0]
    return cards_in(next(line for line in text.splitlines() if line.startswith(start)))


def _new_words(lang: str) -> set[str]:
    """How the hand's line of new cards starts, in that language (Bela's talon, French belote's rest)."""
    tr = translator(lang)
    return {tr.gettext("Your talon (new in your hand): {cards}").split(":")[0],
            tr.gettext("New in your hand: {cards}").split(":")[0]}


async def check_finished(h: Harness, tg: FakeTelegram, table_id: str, game: str) -> None:
    """The stored record replays to the match the table played; the group got the final score; the statistics
    count the match under its game."""
    record = await h.storage.match_record(table_id)
    assert record is not None and record["variant"] == game
    replayed = replay_family_record(record)
    table = h.host.table(table_id)
    assert replayed.over
    final = [m.text for m in tg.in_chat(GROUP) if "Final score" in m.text]
    report = family_match_report(replayed)
    sides = list(VARIANTS[game].sides)
    assert report["total"] == dict(zip(sides, replayed.totals, strict=True))
    if len(replayed.totals) == 2 and sides == ["A", "B"]:
        assert final and f"A {replayed.totals[0]} · B {replayed.totals[1]}" in final[-1]
    else:  # every player's score by name, each his own side
        names = record["seats"]
        assert final and " · ".join(f"{n} {t}" for n, t in zip(names, replayed.totals, strict=True)) in final[-1]
    assert table is None  # a finished table leaves the host
    stats = await h.storage.player_stats("telegram", str(ALICE.user_id), game=game)
    assert stats is not None and stats.matches == 1
    alice = record["seats"].index(ALICE.name) % len(replayed.totals)
    assert stats.points == replayed.totals[alice], "a player of a game for three or two keeps his own points"
    assert stats.wins == int(replayed.winner == alice)
    assert await h.storage.player_stats("telegram", str(ALICE.user_id), game="bulgarian") is None
