"""The card tracker for learners (table option ``tracker``): a button in each private hand answers the presser alone
with the cards played and still out per suit; only what everyone at the table saw, never a card still in a hand."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ai.simple import RandomAgent
from bot.core.messages import OutMessage
from bot.core.payload import decode, encode
from bot.core.table import Table
from bot.core.tracker import tracker_text
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.game import VARIANTS
from bot.i18n import translator

from .core_helpers import ANA, BORIS, CHAT, make_host

RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}


def parse_tracker(text: str) -> tuple[set[int], set[int]]:
    """(still out, played) as card ids, from an English tracker answer."""
    out: set[int] = set()
    played: set[int] = set()
    lines = text.splitlines()
    assert lines[0] == "Cards still out (and played), by suit:"
    assert len(lines) == 5
    for line in lines[1:]:
        suit = SUIT_SYMBOLS.index(line[0])
        left, _, right = line[2:].partition("(played: ")
        out |= {suit * 8 + RANKS[r] for r in left.split() if r != "—"}
        played |= {suit * 8 + RANKS[r] for r in right.rstrip(")").split()}
    return out, played


def public_cards(table: Table) -> set[int]:
    deal = table.deal
    assert deal is not None
    return {c for t in deal.tricks for c in t.cards} | set(deal.trick)


def tracker_button(hand: OutMessage) -> str | None:
    found = [b.payload for row in hand.buttons for b in row if decode(b.payload).action == "k"]
    return found[0] if found else None


async def test_tracker_answers_only_what_was_played_to_the_presser(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new", ["tracker=on"])
    table = host.table(opened.table_id)
    assert table is not None and table.options.tracker
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    checked = 0
    while table.status == "playing" and checked < 40:
        await host.idle()
        if table.status != "playing":
            break
        hand = outbox.for_user(ANA)[-1]
        deal = table.deal
        assert deal is not None
        payload = tracker_button(hand)
        assert (payload is not None) == (deal.phase != "auction"), hand.text  # once the contract is known
        if payload is not None:
            groups_before = len(outbox.group())
            version = table.version
            answer = await host.press(ANA, payload)
            assert answer.ok and table.version == version  # it changes nothing
            assert len(outbox.group()) == groups_before  # and nothing goes to the group: the answer is private
            out, played = parse_tracker(answer.text)
            assert played == public_cards(table)
            assert out == set(range(32)) - played  # every unplayed card, whoever holds it: no hint of whose
            # No card of another hand is singled out: every seat, Ana's included, gets the same text.
            assert table.match is not None
            assert {tracker_text(table.match.observe(seat), translator("en")) for seat in range(4)} == {answer.text}
            if not checked:  # someone not seated gets nothing but a short refusal
                stranger = await host.press(BORIS, payload)
                assert not stranger.ok and stranger.text == "Не седите на тази маса."  # Boris speaks Bulgarian
            checked += 1
        buttons = [b for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:")]
        await host.press(ANA, buttons[0].payload)
    assert checked >= 8  # at least a whole deal's tricks were looked at
    await host.close()
    await storage.close()


async def test_tracker_is_off_unless_the_table_switches_it_on(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None and not table.options.tracker
    bad = await host.command(CHAT, ANA, "set", ["tracker", "maybe"])
    assert not bad.ok and "on, off" in bad.text
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    while table.deal is not None and table.deal.phase == "auction":
        await host.idle()
        hand = outbox.for_user(ANA)[-1]
        assert tracker_button(hand) is None
        buttons = [b for row in hand.buttons for b in row]
        await host.press(ANA, buttons[0].payload)
    await host.idle()
    assert all(tracker_button(h) is None for h in outbox.for_user(ANA))
    forged = await host.press(ANA, encode(table.table_id, table.version, "k"))
    assert not forged.ok and forged.text == "The card tracker is off at this table."
    assert re.search(r"\d", forged.text) is None
    await host.close()
    await storage.close()


def test_the_tracker_of_a_24_card_game_lists_no_7s_or_8s() -> None:
    """The Bulgarian house games play 9 to A: a tracker offering 7s and 8s "still out" would mislead the learner."""
    for name, pack_size in (("bulgarian-3", 24), ("bulgarian-2", 24), ("bela-3", 32)):
        game = VARIANTS[name]
        match = game.new_match(game.rules(), seed=7)
        agent = RandomAgent(7)
        for _ in range(200):  # into the play, where the tracker is offered
            if match.deal.phase == "play" and match.deal.tricks:
                break
            match.apply(agent.act(match.observe(match.to_act)))
        out, played = parse_tracker(tracker_text(match.observe(0), translator("en")))
        assert len(out | played) == pack_size, name
        assert played and not out & played
