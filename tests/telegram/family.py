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
from bot.engine.calls import PASS
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_report, replay_family_record
from bot.engine.french import FrenchDeal
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
    """What everyone at the table has seen of a deal: the played cards, the French turned card, and the
    declarations the contest's winner showed."""
    out = set(deal.trick) | {c for t in deal.tricks for c in t.cards}
    shown = seat_view(deal, 0).shown
    out |= {c for _, _, cards in shown for c in cards}
    if isinstance(deal, FrenchDeal):
        out.add(deal.turned)
    return out


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

    def __call__(self, chat_id: int, entry: Entry) -> None:
        person = next((p for p in PEOPLE if p.user_id == chat_id), None)
        if person is None or entry.text is None or not entry.ok or self.table is None:
            return
        shown = cards_in(entry.text)
        match = self.table.match
        found = deal_number_pattern(person.language).search(entry.text)
        if match is None or found is None:
            if shown:
                self.problems.append(f"{person.name} was shown cards {shown} outside a deal: {entry.text!r}")
            return
        assert isinstance(match, FamilyMatch)
        deal = match.deals[int(found.group(1)) - 1]
        seat = self.table.seat_of(str(person.user_id))
        assert seat is not None
        own = set(deal.hands[seat][: deal.CALL_CARDS]) if deal.phase == "auction" else set(deal.hands[seat])
        leaked = shown - own - public_cards(deal)
        if leaked:
            self.problems.append(f"{person.name} (seat {seat}) saw {sorted(leaked)}: {entry.text!r}")
        self.checked += 1


async def hand_of(h: Harness, table_id: str, seat: int, person: Person) -> Sent | None:
    ref = await h.adapter.refs.get(f"{table_id}:h{seat}:{person.user_id}")
    return None if ref is None else h.tg.messages.get(ref)


async def group_deal(h: Harness, table_id: str, number: int) -> Sent | None:
    ref = await h.adapter.refs.get(f"{table_id}:d{number}")
    return None if ref is None else h.tg.messages.get(ref)


async def open_family_table(h: Harness, tg: FakeTelegram, command: str, game_name: str) -> str:
    """Alice opens the table with ``command`` in an English group; Bob joins; Alice seats two bots."""
    for person in PEOPLE:
        tg.start_private(person.user_id)
    tg.send_text(ALICE.user_id, GROUP, "/lang en")
    await h.settle()  # updates are handled concurrently: the language first
    tg.send_text(ALICE.user_id, GROUP, command)
    await h.settle()
    [lobby] = [m for m in tg.in_chat(GROUP) if buttons_with(m, "j")]
    assert game_name in lobby.text, lobby.text
    table_id = lobby.buttons()[0][1].split(":")[1]
    join = next(d for _, d in buttons_with(lobby, "j") if action_of(d) == "j")
    await h.press(BOB, lobby, join)
    await h.settle()
    for _ in range(2):
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
    else:
        assert len(codes) == (4 if seat == deal.dealer else 5)


async def play_to_the_end(h: Harness, table_id: str, rng: random.Random, watch: PrivacyWatch) -> dict[str, int]:
    """The humans press until the match ends; wrong-person, replayed and stale presses are tried on the way."""
    table = h.host.table(table_id)
    assert table is not None and table.match is not None
    watch.table = table
    counts = {"presses": 0, "calls": 0, "toggles": 0, "talons": 0, "refused": 0}
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
                assert other_seat is not None
                if (len(match.deals), other_seat) in talon_seen:
                    continue
                talon_seen.add((len(match.deals), other_seat))
                shown = await hand_of(h, table_id, other_seat, other)
                assert shown is not None
                talon = set(deal.hands[other_seat][deal.CALL_CARDS :])
                starts = _new_words(other.language)
                line = next(x for x in shown.text.splitlines() if any(x.startswith(w) for w in starts))
                assert cards_in(line) == talon - {c for c in deal.trick}, (line, talon)
                counts["talons"] += 1
        if deal.phase == "auction":
            check_call_buttons(deal, seat, person, hand)
            counts["calls"] += 1
            if isinstance(deal, FrenchDeal):
                group = await group_deal(h, table_id, len(match.deals))
                if group is not None:
                    assert f"{'789TJQKA'[deal.turned & 7].replace('T', '10')}{'♣♦♥♠'[deal.turned >> 3]}" in group.text
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
        moves = buttons_with(hand, "c:") + buttons_with(hand, "p:")
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
    assert final and f"A {replayed.totals[0]} · B {replayed.totals[1]}" in final[-1]
    report = family_match_report(replayed)
    assert report["total"] == {"A": replayed.totals[0], "B": replayed.totals[1]}
    assert table is None  # a finished table leaves the host
    stats = await h.storage.player_stats("telegram", str(ALICE.user_id), game=game)
    assert stats is not None and stats.matches == 1
    assert await h.storage.player_stats("telegram", str(ALICE.user_id), game="bulgarian") is None
