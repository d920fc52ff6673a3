"""The host end to end on a real SQLite file: bots finish matches, a person plays by pressing only what the private
view offers, and nothing a stale, foreign or forged press does changes a table."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.ai.simple import RandomAgent
from bot.core.host import Host
from bot.core.messages import MAX_PAYLOAD_BYTES, ChatRef, OutMessage, UserRef
from bot.core.payload import decode, encode
from bot.core.table import Table
from bot.core.views import CALL_BY_CODE
from bot.engine import Action, Bid, Observation, Play, card_str
from bot.engine.calls import CALL_NAMES
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.record import match_report, replay_record

from .core_helpers import ANA, BORIS, CHAT, PLATFORM, Outbox, Passer, anas_timed_turn, cards_in_text, make_host, shut


def played_cards(table: Table) -> set[int]:
    out: set[int] = set()
    if table.match is None:
        return out
    for deal in table.match.deals:
        for trick in deal.tricks:
            out.update(trick.cards)
        out.update(deal.trick)
    return out


def hand_cards(text: str) -> set[int]:
    """The cards of the "Your hand:" line (suit symbol, then its ranks)."""
    line = next(ln for ln in text.split("\n") if ln.startswith("Your hand:"))
    cards: set[int] = set()
    suit = -1
    for token in line.removeprefix("Your hand:").split():
        if token in SUIT_SYMBOLS:
            suit = SUIT_SYMBOLS.index(token)
        else:
            cards.add(suit * 8 + "789TJQKA".index("T" if token == "10" else token))
    return cards


async def bots_only_match(host: Host, chat: ChatRef = CHAT) -> str:
    opened = await host.command(chat, ANA, "new")
    assert opened.ok, opened.text
    assert (await host.command(chat, ANA, "leave")).ok
    for _ in range(4):
        assert (await host.command(chat, ANA, "addbot")).ok
    assert (await host.command(chat, ANA, "start")).ok
    await host.idle()
    return opened.table_id


async def test_four_bots_finish_a_match_and_the_record_replays_to_the_same_score(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", bot_only_tables=True)
    table_id = await bots_only_match(host)
    end = outbox.latest[f"{table_id}:end"]
    assert end.notify and "Match over" in end.text
    record = await storage.match_record(table_id)
    assert record is not None
    replayed = replay_record(record)
    report = match_report(replayed)
    assert report["winner"] in ("A", "B")
    assert f"Final score: A {report['total']['A']} · B {report['total']['B']}" in end.text
    assert host.table_for_chat(CHAT) is None  # the chat is free for a new table
    row = await storage.get_table(table_id)
    assert row is not None and row.status == "finished"
    await shut(host, storage)


async def test_many_tables_run_at_once_without_blocking_each_other(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", bot_only_tables=True, max_tables_per_user=8)
    import asyncio

    chats = [ChatRef(PLATFORM, str(-i)) for i in range(1, 9)]
    ids = await asyncio.gather(*(bots_only_match(host, c) for c in chats))
    await host.idle()
    for table_id in ids:
        assert f"{table_id}:end" in outbox.latest
        assert await storage.match_record(table_id) is not None
    await shut(host, storage)


async def test_a_person_plays_a_whole_match_by_pressing_only_offered_buttons(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    rng = random.Random(7)
    live_tables: dict[str, Table] = {}
    group_leaks: list[str] = []

    async def checking_sink(msg: OutMessage) -> None:
        table = live_tables.get(msg.table_id)
        if table is not None and isinstance(msg.audience, ChatRef):
            shown = cards_in_text(msg.text)
            if not shown <= played_cards(table):
                group_leaks.append(msg.text)
        await outbox(msg)

    host.add_sink(PLATFORM, checking_sink)
    opened = await host.command(CHAT, ANA, "new")
    table_id = opened.table_id
    table = host.table(table_id)
    assert table is not None
    live_tables[table_id] = table
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    presses = 0
    while table.status == "playing":
        await host.idle()
        if table.status != "playing":
            break
        hand = outbox.for_user(ANA)[-1]
        assert hand.key == f"{table_id}:h0:{ANA.user_id}"
        match = table.match
        assert match is not None
        deal = match.deal
        # The private view shows exactly the owner's cards, and which table this is.
        assert "Friday belote" in hand.text
        assert hand_cards(hand.text) == set(deal.hand_of(0))
        assert table.to_act == 0
        buttons = [b for row in hand.buttons for b in row]
        assert buttons, "it is Ana's turn, so her view must offer actions"
        assert all(len(b.payload.encode()) <= MAX_PAYLOAD_BYTES for b in buttons)
        actions = [decode(b.payload).action for b in buttons]
        calls = [a for a in actions if a.startswith("c:")]
        cards = [a for a in actions if a.startswith("p:")]
        if deal.phase == "auction":
            offered = {CALL_NAMES.index({"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades",
                                         "nt": "no-trumps", "at": "all-trumps", "pass": "pass", "x": "contra",
                                         "xx": "recontra"}[a[2:]]) for a in calls}
            assert offered == set(deal.legal_calls())
        else:
            assert {a[2:] for a in cards} == {card_str(c) for c in deal.legal_cards()}
            toggles = [a for a in actions if a.startswith("d:")]
            assert len(toggles) == len(deal.declarable(0))
        choice = rng.choice([b for b in buttons if decode(b.payload).action[:2] in ("c:", "p:")])
        version = table.version
        answer = await host.press(ANA, choice.payload)
        assert answer.ok, answer.text
        assert table.version > version
        presses += 1
    await host.idle()
    assert table.status == "finished"
    # Every action of Ana's seat was one of her presses (a deal needs at least one call and eight cards from her).
    ana_actions = [e for e in (ev.data for ev in await storage.events(table_id)) if e.get("seat") == 0
                   and e.get("e") in ("bid", "play")]
    assert presses == len(ana_actions) >= 9
    assert all(e.get("by") == "human" for e in ana_actions)
    assert not group_leaks, group_leaks[0]
    # Every hand message went to Ana alone, and the group saw the end.
    assert all(m.audience == ANA for m in outbox.messages if isinstance(m.audience, UserRef))
    assert f"{table_id}:end" in outbox.latest
    await shut(host, storage)


async def _table_at_anas_turn(host: Host, outbox: Outbox) -> tuple[str, Table]:
    opened = await host.command(CHAT, ANA, "new")
    await host.command(CHAT, BORIS, "join")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    table = host.table(opened.table_id)
    assert table is not None
    await host.idle()
    # Let the bots and Boris act until it is Ana's turn.
    for _ in range(200):
        await host.idle()
        if table.to_act == 0:
            break
        seat = table.to_act
        assert seat == 1, "only Boris is left to act when the bots are idle"
        hand = outbox.for_user(BORIS)[-1]
        first = next(b for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:"))
        assert (await host.press(BORIS, first.payload)).ok
    assert table.to_act == 0
    return opened.table_id, table


async def test_stale_foreign_forged_and_out_of_turn_presses_change_nothing(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    table_id, table = await _table_at_anas_turn(host, outbox)
    hand = outbox.for_user(ANA)[-1]
    button = next(b for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:"))
    version = table.version
    events = len(await storage.events(table_id))
    intruder = UserRef(PLATFORM, "99", "Mallory", "en")
    stale = encode(table_id, version - 1, decode(button.payload).action)
    refused = [
        await host.press(intruder, button.payload),  # foreign: not in that seat
        await host.press(BORIS, button.payload),  # seated, but out of turn
        await host.press(ANA, stale),  # a stale nonce
        await host.press(ANA, "v1:zzzzzz:0:p:JH"),  # an unknown table
        await host.press(ANA, "garbage"),  # forged
        await host.press(ANA, encode(table_id, version, "p:ZZ")),  # not a card
        await host.press(UserRef("other", ANA.user_id, "Ana"), button.payload),  # another platform
    ]
    for answer in refused:
        assert not answer.ok and answer.text
    # A well-formed, current payload for a move the rules refuse (in the auction a call it does not allow: a recontra
    # with no contra, a bid no higher than the contract; in the play a card she may not play): refused in her
    # language, without the engine's English reason. Which move that is depends on the deal and the bots' calls.
    assert table.match is not None
    deal = table.match.deal
    if deal.phase == "auction":
        code = next(code for code, call in CALL_BY_CODE.items() if call not in deal.legal_calls())
        action = "c:" + code
    else:
        action = "p:" + card_str(next(c for c in range(32) if c not in deal.legal_cards()))
    forged = await host.press(ANA, encode(table_id, version, action))
    assert not forged.ok and forged.text == "That move is against the rules."
    assert table.version == version
    assert len(await storage.events(table_id)) == events
    # The real press still works once.
    assert (await host.press(ANA, button.payload)).ok
    assert not (await host.press(ANA, button.payload)).ok  # replayed: now stale
    await shut(host, storage)


@pytest.mark.unsalted
async def test_declarations_and_belote_can_be_switched_off_before_the_card(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", agent_factory=lambda level, seed: Passer(seed))
    opened = await host.command(CHAT, ANA, "new")
    table = host.table(opened.table_id)
    assert table is not None
    # Pick a seed whose first deal gives Ana a declaration: try table seeds until one does.
    found = False
    for seed in range(200):
        from bot.engine import Match

        m = Match(table.rules, seed, 3)
        # Ana (seat 0) leads after dealer 3; play only if she can declare with her first card in all trumps.
        m.apply(Bid(5))
        for _ in range(3):
            m.apply(Bid(6))
        if m.deal.declarable(0):
            found = True
            break
    assert found
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    # Start with that seed and dealer through the same event path the host logs.
    live = host._tables[opened.table_id]  # the test needs a known deal; the event is what "start" logs
    async with live.lock:
        await host._commit(live, {"e": "start", "seed": str(seed), "scheme": m.scheme, "dealer": 3})
    hand = outbox.for_user(ANA)[-1]
    call = next(b for row in hand.buttons for b in row if decode(b.payload).action == "c:at")
    assert (await host.press(ANA, call.payload)).ok
    await host.idle()
    deal = table.deal
    assert deal is not None and deal.phase == "play" and table.to_act == 0, "the bots all passed"
    hand = outbox.for_user(ANA)[-1]
    toggles = [b for row in hand.buttons for b in row if decode(b.payload).action.startswith("d:")]
    assert toggles and all(b.label.startswith("✓") for b in toggles)
    answer = await host.press(ANA, toggles[0].payload)
    assert answer.ok and answer.view is not None
    switched = [b for row in answer.view.buttons for b in row if decode(b.payload).action == "d:0"]
    assert switched[0].label.startswith("✗")
    card = next(b for row in answer.view.buttons for b in row if decode(b.payload).action.startswith("p:"))
    kinds = deal.declarable(0)
    assert (await host.press(ANA, card.payload)).ok
    announced = [a.kinds for a in deal.announcements if a.seat == 0 and a.belote_suit < 0]
    assert announced == ([tuple(kinds[1:])] if kinds[1:] else [])
    await shut(host, storage)


async def test_lobby_seats_partners_options_and_bad_commands(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new", ["target_score=101", "timer=30"])
    assert opened.ok and opened.joined
    table = host.table(opened.table_id)
    assert table is not None and table.rules.target_score == 101 and table.options.timer == 30
    joined = await host.command(CHAT, BORIS, "join", ["Ana"])  # sit opposite Ana
    assert joined.ok and joined.joined and table.seat_of(BORIS.user_id) == 2
    taken = await host.command(CHAT, UserRef(PLATFORM, "5", "Zoe"), "join", ["3"])
    assert not taken.ok and taken.text == "Seat 3 is taken."
    for seat in (0, 5):  # a seat that does not exist is named as such, not as taken
        nowhere = await host.join(opened.table_id, UserRef(PLATFORM, "5", "Zoe"), seat - 1)
        assert not nowhere.ok and "1-4" in nowhere.text
    assert not (await host.command(CHAT, ANA, "new")).ok  # one table per chat
    assert not (await host.command(CHAT, ANA, "set", ["target_score", "-3"])).ok
    assert not (await host.command(CHAT, ANA, "set", ["no_such_option", "1"])).ok
    assert not (await host.command(CHAT, ANA, "fly")).ok
    assert (await host.command(CHAT, ANA, "set", ["must_undertrump", "true"])).ok
    assert table.rules.must_undertrump
    assert "must_undertrump=true" in (await host.command(CHAT, BORIS, "rules")).text
    # The options menu cycles values by buttons.
    await host.command(CHAT, ANA, "options")
    menu = outbox.latest[f"{opened.table_id}:opts"]
    target = next(b for row in menu.buttons for b in row if "101" in b.label)
    assert (await host.press(ANA, target.payload)).ok
    assert table.rules.target_score == 201  # 101 -> 201 in the menu's cycle
    lobby = outbox.latest[f"{opened.table_id}:lobby"]
    assert "Ana" in lobby.text and "Boris" in lobby.text
    assert (await host.command(CHAT, BORIS, "leave")).ok
    assert table.seat_of(BORIS.user_id) is None
    await shut(host, storage)


async def test_stop_by_the_creator_or_by_a_majority_vote(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    await host.command(CHAT, BORIS, "join")
    vera = UserRef(PLATFORM, "3", "Vera")
    await host.command(CHAT, vera, "join")
    first = await host.command(CHAT, BORIS, "stop")
    assert first.ok and "(1 от 2)" in first.text  # Boris reads Bulgarian
    assert host.table_for_chat(CHAT) == opened.table_id
    second = await host.command(CHAT, vera, "stop")
    assert second.ok and host.table_for_chat(CHAT) is None
    assert "stopped" in outbox.latest[f"{opened.table_id}:end"].text
    again = await host.command(CHAT, ANA, "new")
    assert (await host.command(CHAT, ANA, "stop")).ok  # the creator stops at once
    row = await storage.get_table(again.table_id)
    assert row is not None and row.status == "stopped"
    await shut(host, storage)


def test_payloads_fit_in_64_bytes_and_reject_garbage() -> None:
    longest = encode("zzzzzz", 36**6 - 1, "o:12")
    assert len(longest.encode()) <= MAX_PAYLOAD_BYTES
    assert decode(longest).nonce == 36**6 - 1
    import pytest

    from bot.core.payload import PayloadError

    for bad in ("", "v2:abc:1:j", "v1:ABC:1:j", "v1:abc:1", "v1:abc:1:" + "x" * 60, "v1:abc:-1:j"):
        with pytest.raises(PayloadError):
            decode(bad)


async def test_the_group_and_each_player_get_their_own_language(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3", language="bg")
    bg_chat = ChatRef(PLATFORM, "-7")
    opened = await host.command(bg_chat, ANA, "new")  # Ana's platform language is English
    await host.command(bg_chat, ANA, "addbot")
    lobby = outbox.latest[f"{opened.table_id}:lobby"]
    assert "Белот маса" in lobby.text
    hand = outbox.for_user(ANA)[-1]
    assert "You sit at seat 1" in hand.text
    await host.set_user_language(ANA, "bg")
    assert "Седите на място 1" in outbox.for_user(ANA)[-1].text
    assert not (await host.set_chat_language(bg_chat, "xx")).ok
    await host.set_chat_language(bg_chat, "en")
    assert "Belote table" in outbox.latest[f"{opened.table_id}:lobby"].text
    await shut(host, storage)


async def test_stats_and_top_after_a_finished_match(tmp_path: Path) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    table = host.table(opened.table_id)
    assert table is not None
    # Ana's away policy makes a bot play her seat, so the match finishes by itself.
    await host.command(CHAT, ANA, "set", ["away", "bot_seat"])
    await host.command(CHAT, ANA, "start")
    live = host._tables[opened.table_id]
    async with live.lock:
        await host._commit(live, {"e": "away", "seat": 0})
    await host.idle()
    assert table.status == "finished"
    stats = await host.command(CHAT, ANA, "stats")
    assert "Ana: 1 matches" in stats.text
    top = await host.command(CHAT, ANA, "top")
    assert "1. Ana" in top.text
    await shut(host, storage)


def _unused(_: Play) -> None:  # keeps the engine import honest for readers: actions are Bid/Play
    return None


async def test_an_external_agent_that_cannot_start_is_replaced_once_and_the_match_goes_on(tmp_path: Path) -> None:
    from bot.core.agents import make_agent_factory

    real = make_agent_factory({"broken": "/nonexistent/agent --play"}, move_time=0.5)
    asked: list[str] = []

    def factory(level: str, seed: int):  # type: ignore[no-untyped-def]
        asked.append(level)
        return real(level, seed)

    host, storage, _ = await make_host(tmp_path / "db.sqlite3", agent_factory=factory, agents={"broken": "x"},
                                       bot_only_tables=True)
    opened = await host.command(CHAT, ANA, "new")
    assert (await host.command(CHAT, ANA, "leave")).ok
    assert (await host.command(CHAT, ANA, "addbot", ["broken"])).ok
    for _ in range(3):
        assert (await host.command(CHAT, ANA, "addbot")).ok
    assert (await host.command(CHAT, ANA, "start")).ok
    await host.idle()
    record = await storage.match_record(opened.table_id)
    assert record is not None and match_report(replay_record(record))["winner"] in ("A", "B")
    assert asked.count("broken") == 1  # not retried on every turn
    await shut(host, storage)


async def test_an_action_that_cannot_be_stored_changes_nothing_and_the_table_goes_on(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    for _ in range(3):
        assert (await host.command(CHAT, ANA, "addbot")).ok
    assert (await host.command(CHAT, ANA, "start")).ok
    await host.idle()
    hand = outbox.for_user(ANA)[-1]
    moves = [b.payload for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:")]
    assert moves, "it is Ana's turn after the bots have moved"
    real_append = storage.append_event
    failures = 0

    async def failing_append(*args: object, **kwargs: object) -> None:
        nonlocal failures
        failures += 1
        raise OSError("disk full")

    storage.append_event = failing_append  # type: ignore[method-assign]
    version_before = host._tables[opened.table_id].table.version
    press = moves[0]
    answer = await host.press(ANA, press)
    assert not answer.ok and "could not be saved" in answer.text and failures == 1
    assert host._tables[opened.table_id].table.version == version_before  # rebuilt from the log
    storage.append_event = real_append  # type: ignore[method-assign]
    answer = await host.press(ANA, press)
    assert answer.ok, answer.text
    await shut(host, storage)


async def test_a_chat_that_got_a_new_id_takes_its_table_and_language_along(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    await host.set_chat_language(CHAT, "bg")
    opened = await host.command(CHAT, ANA, "new")
    for _ in range(3):
        assert (await host.command(CHAT, ANA, "addbot")).ok
    assert (await host.command(CHAT, ANA, "start")).ok
    await host.idle()
    upgraded = ChatRef(PLATFORM, "-1009")
    before = len(outbox.messages)
    assert await host.move_chat(PLATFORM, CHAT.chat_id, upgraded.chat_id, "Friday belote") == [opened.table_id]
    reposted = [m for m in outbox.messages[before:] if isinstance(m.audience, ChatRef)]
    # Every group message of the table comes again, in the new chat: the lobby and the deal's table.
    assert {m.key for m in reposted} == {f"{opened.table_id}:lobby", f"{opened.table_id}:d1"}
    assert all(m.audience == upgraded for m in reposted)
    before = len(outbox.messages)
    assert await host.move_chat(PLATFORM, CHAT.chat_id, upgraded.chat_id) == []  # the second signal of one move
    assert len(outbox.messages) == before
    assert host.table_for_chat(upgraded) == opened.table_id and host.table_for_chat(CHAT) is None
    assert not (await host.command(CHAT, ANA, "view")).ok
    assert (await host.command(upgraded, ANA, "view")).ok
    assert await host.chat_language(upgraded) == "bg"
    # Play goes on: the next action's group messages go to the new chat only.
    hand = outbox.for_user(ANA)[-1]
    moves = [b.payload for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:")]
    before = len(outbox.messages)
    assert (await host.press(ANA, moves[0])).ok
    await host.idle()
    group = [m for m in outbox.messages[before:] if isinstance(m.audience, ChatRef)]
    assert group and all(m.audience == upgraded for m in group)
    await shut(host, storage)
    # A restart keeps the new chat.
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    assert host.table_chat(opened.table_id) == upgraded
    assert host.table_for_chat(upgraded) == opened.table_id
    assert outbox.group() and all(m.audience == upgraded for m in outbox.group())
    assert "Белот" in outbox.latest[f"{opened.table_id}:lobby"].text
    await shut(host, storage)


async def test_a_change_committed_while_a_bot_thinks_does_not_stall_the_table(tmp_path: Path) -> None:
    thinking = threading.Event()
    go_on = threading.Event()

    class SlowFirstMove(RandomAgent):
        def act(self, observation: Observation) -> Action:
            if not thinking.is_set():
                thinking.set()
                assert go_on.wait(10), "the test never let the bot move"
            return super().act(observation)

    host, storage, _ = await make_host(tmp_path / "db.sqlite3", agent_factory=lambda level, seed: SlowFirstMove(seed),
                                       bot_only_tables=True)
    opened = await host.command(CHAT, ANA, "new")
    await host.command(CHAT, ANA, "leave")
    for _ in range(4):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    while not thinking.is_set():
        await asyncio.sleep(0.01)
    # The chat's language changes while the first bot thinks: a table event that is not the bot's move.
    assert (await host.set_chat_language(CHAT, "bg")).ok
    go_on.set()
    await host.idle()
    record = await storage.match_record(opened.table_id)
    assert record is not None, "the table waited forever for a bot that had already thought"
    await shut(host, storage)


async def test_a_match_whose_last_action_was_logged_but_not_followed_up_is_finished_at_start(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    host, storage, _ = await make_host(path, bot_only_tables=True)
    table_id = await bots_only_match(host)
    await shut(host, storage)
    # As if the process had been killed right after logging the match's last card: the table still says
    # "playing" and no finished match was stored.
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tables SET status = 'playing' WHERE table_id = ?", (table_id,))
        conn.execute("DELETE FROM matches WHERE table_id = ?", (table_id,))
    host, storage, outbox = await make_host(path)
    end = outbox.latest.get(f"{table_id}:end")
    assert end is not None and "Match over" in end.text, "the group was never told the match ended"
    record = await storage.match_record(table_id)
    assert record is not None, "the finished match was not stored"
    deals = len(record["deals"])
    assert f"{table_id}:d{deals}" in outbox.latest and f"{table_id}:r{deals}" in outbox.latest  # the last deal
    assert [r.table_id for r in await storage.unfinished_tables()] == []
    await shut(host, storage)
    host, storage, outbox = await make_host(path)  # nothing left to replay, nothing said twice
    assert outbox.messages == []
    await shut(host, storage)


async def test_a_player_back_at_their_turn_keeps_a_fresh_deadline_through_a_restart(tmp_path: Path) -> None:
    """Time ran out (a bot took Ana's seat) and Ana pressed "I'm back" while that bot thought: her turn's new deadline
    must be the stored one, or a restart finds the old, passed deadline and sends her away again at once."""
    from bot.core.clock import ManualClock

    thinking = threading.Event()
    go_on = threading.Event()

    class SlowForAna(RandomAgent):
        def act(self, observation: Observation) -> Action:
            if observation.seat == 0:  # the bot playing Ana's seat while she is away
                thinking.set()
                assert go_on.wait(10), "the test never let the bot move"
            return super().act(observation)

    clock = ManualClock()
    path = tmp_path / "db.sqlite3"
    host, storage, outbox = await make_host(path, clock, agent_factory=lambda level, seed: SlowForAna(seed))
    table = await anas_timed_turn(host, "bot_seat")
    await clock.advance(31)
    for _ in range(1000):
        if thinking.is_set():
            break
        await asyncio.sleep(0.005)
    assert thinking.is_set() and table.seats[0].away, "time ran out and no bot took Ana's seat"
    back = next(b for row in outbox.for_user(ANA)[-1].buttons for b in row if decode(b.payload).action == "back")
    assert (await host.press(ANA, back.payload)).ok
    go_on.set()
    await host.idle()
    assert table.to_act == 0 and not table.seats[0].away
    row = await storage.get_table(table.table_id)
    assert row is not None and row.deadline == clock.now() + 30, "Ana's new deadline was not stored"
    version = table.version
    await shut(host, storage)
    host, storage, outbox = await make_host(path, clock)
    await clock.advance(1)
    await asyncio.sleep(0.05)
    resumed = host.table(table.table_id)
    assert resumed is not None and resumed.version == version and not resumed.seats[0].away, (
        "after the restart Ana was sent away at once, by the deadline that had passed before she came back"
    )
    await shut(host, storage)


async def test_a_stop_while_the_finished_match_is_being_stored_keeps_it_for_the_next_start(tmp_path: Path) -> None:
    """The host is closed right after a bot's move ended the match, while that match is being stored: the next
    start must still store it (and count it in the statistics), not find a finished table with no match."""
    turns = threading.Semaphore(0)

    class OneMoveAtATime(RandomAgent):
        def act(self, observation: Observation) -> Action:
            assert turns.acquire(timeout=10), "the test never let the bot move"
            return super().act(observation)

    path = tmp_path / "db.sqlite3"
    host, storage, _ = await make_host(path, agent_factory=lambda level, seed: OneMoveAtATime(seed),
                                       bot_only_tables=True)
    opened = await host.command(CHAT, ANA, "new", ["target_score=1"])
    await host.command(CHAT, ANA, "leave")
    for _ in range(4):
        await host.command(CHAT, ANA, "addbot")
    await host.command(CHAT, ANA, "start")
    table = host.table(opened.table_id)
    assert table is not None
    while table.status == "playing":
        version = table.version
        turns.release()
        while table.version == version:
            await asyncio.sleep(0)  # no real pause: the test must look before the host's next storage read returns
    # The last move is logged and the table knows the match is over; the host now stores the match. Stop it here.
    await shut(host, storage)
    host, storage, outbox = await make_host(path)
    assert await storage.match_record(opened.table_id) is not None, "the finished match was lost"
    row = await storage.get_table(opened.table_id)
    assert row is not None and row.status == "finished"
    assert f"{opened.table_id}:end" in outbox.latest  # and the group hears how it ended
    await shut(host, storage)


async def test_an_options_menu_open_at_a_restart_is_closed_rather_than_left_with_dead_buttons(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    host, storage, outbox = await make_host(path)

    async def adapter(msg: OutMessage) -> None:  # keeps each key's message id, as the adapters do
        await outbox(msg)
        await storage.set_message_ref(PLATFORM, msg.key, str(len(outbox.messages)))

    host.add_sink(PLATFORM, adapter)
    opened = await host.command(CHAT, ANA, "new")
    assert (await host.command(CHAT, ANA, "options")).ok
    key = f"{opened.table_id}:opts"
    assert outbox.latest[key].buttons
    await shut(host, storage)
    host, storage, outbox = await make_host(path)
    assert (await host.command(CHAT, ANA, "set", ["target_score", "101"])).ok
    table = host.table(opened.table_id)
    assert table is not None
    menu = outbox.latest.get(key)
    assert menu is not None, "the menu shown before the restart was left as it was"
    assert all(decode(b.payload).nonce == table.version for row in menu.buttons for b in row), (
        "the menu offers buttons that are out of date"
    )
    await shut(host, storage)


async def test_a_player_with_no_language_of_their_own_follows_the_tables_language(tmp_path: Path) -> None:
    """Without a language chosen or given by the platform, a player's view is in the table's language, and stays so
    when the table's language changes: not only after the next restart."""
    path = tmp_path / "db.sqlite3"
    host, storage, outbox = await make_host(path)
    plain = UserRef(PLATFORM, "7", "Dimo")  # the platform says nothing about their language
    opened = await host.command(CHAT, ANA, "new", ["lang=bg"])
    assert (await host.command(CHAT, plain, "join")).ok
    key = f"{opened.table_id}:h1:{plain.user_id}"
    assert "Седите на място 2" in outbox.latest[key].text
    assert (await host.command(CHAT, ANA, "set", ["lang", "en"])).ok
    assert "You sit at seat 2" in outbox.latest[key].text, "the view stayed in the table's old language"
    await shut(host, storage)
    host, storage, outbox = await make_host(path)
    assert "You sit at seat 2" in outbox.latest[key].text
    await shut(host, storage)
