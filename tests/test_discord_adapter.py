"""The Discord adapter end to end: the real discord.py client, the real host and storage, a fake Discord on 127.0.0.1.

Users act only by pressing buttons they are shown (or by slash commands); every interaction reaches the bot over
the fake gateway as a real INTERACTION_CREATE payload. What the users saw is checked afterwards against a replay of
the stored match record: no public message shows a card that is still in a hand, each ephemeral hand shows only its
owner's cards, and the calls and cards offered as buttons are exactly the legal ones.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.discord import BeloteClient, serve
from bot.adapters.discord.text import markup
from bot.config import Settings
from bot.core.clock import ManualClock
from bot.core.host import Host
from bot.core.messages import DISCORD, ChatRef, OutMessage
from bot.core.views import CALL_BY_CODE
from bot.engine import Match
from bot.engine.cards import parse_card
from bot.engine.record import replay_record
from bot.storage.sqlite import SqliteStorage
from tests.discord_fakes import (
    DEFERRED_UPDATE,
    EPHEMERAL,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeUser,
    button_ids,
    message_text,
    wait_until,
)

CARD = re.compile(r"(10|[789JQKA])([♣♦♥♠])")
SUITS = "♣♦♥♠"
RANKS = {"10": "T"}


# A hand is shown by suit: "♠ Q 9  ♣ A Q J".
SUIT_GROUP = re.compile(r"(?<![0-9JQKA])([♣♦♥♠])((?: (?:10|[789JQKA])(?![♣♦♥♠]))+)")


def card_of(rank: str, suit: str) -> int:
    return parse_card(RANKS.get(rank, rank) + "CDHS"[SUITS.index(suit)])


def cards_in(text: str) -> set[int]:
    """Every card a text shows, written as "J♥" or in a suit group."""
    found = {card_of(rank, suit) for rank, suit in CARD.findall(text)}
    for suit, ranks in SUIT_GROUP.findall(text):
        found |= {card_of(rank, suit) for rank in ranks.split()}
    return found


def mask_cards(mask: int) -> set[int]:
    return {c for c in range(32) if mask >> c & 1}


def action_of(custom_id: str) -> str:
    """The action part of a game button (``b:v1:<table>:<nonce>:<action>``)."""
    return custom_id.split(":", 4)[4]


def is_game_action(custom_id: str) -> bool:
    return action_of(custom_id).startswith(("c:", "p:"))


@dataclass
class Running:
    fake: FakeDiscord
    client: BeloteClient
    host: Host
    storage: SqliteStorage
    task: asyncio.Task[None]
    stopped: bool = False

    async def settle(self) -> None:
        """Wait until the host has nothing in progress and every message has gone out."""
        for _ in range(50):
            await self.host.idle()
            await self.client.adapter.outbox.drain()
            await asyncio.sleep(0.02)
            if not self.client.adapter.outbox._workers:
                await self.host.idle()
                if not self.client.adapter.outbox._workers:
                    return

    async def stop(self) -> None:
        if self.stopped:
            return
        await self.settle()
        await self.close()

    async def close(self) -> None:
        """Stop without waiting for work in progress: what a test that failed midway leaves is closed."""
        if self.stopped:
            return
        self.stopped = True
        await self.client.close()
        await asyncio.wait_for(self.task, 10)
        await self.host.close()
        await self.storage.close()


async def start_bot(fake: FakeDiscord, db: Path, *, ack_budget: float | None = None) -> Running:
    storage = SqliteStorage(db)
    await storage.open()
    settings = Settings(_env_file=None, language="bg", turn_seconds=0, bot_move_seconds=0.01)  # type: ignore[call-arg]
    host = Host(storage, settings, clock=ManualClock())
    client = BeloteClient(host, ack_budget=ack_budget)
    host.add_sink(DISCORD, client.adapter.deliver)
    identified = len(fake.identified)
    task = asyncio.create_task(client.start("fake-token"))
    await wait_until(lambda: len(fake.identified) > identified, what="the bot to connect to the gateway")
    await host.start()
    running = Running(fake, client, host, storage, task)
    fake.leftovers.append(running.close)
    await running.settle()
    return running


PLAYERS = ("Ana", "Boris", "Vera", "Georgi")


def people(fake: FakeDiscord) -> list[FakeUser]:
    locales = ("bg", "en-US", "bg", "en-GB")
    return [FakeUser(fake.next_id(), name, locale) for name, locale in zip(PLAYERS, locales, strict=True)]


def live_table(fake: FakeDiscord, channel: int) -> dict[str, Any] | None:
    """The public message with the "My hand" button: the table of the deal in progress (None once it is over)."""
    live = [m for m in fake.public(channel) if any(action_of(b) == "h" for b in button_ids(m))]
    assert len(live) <= 1, f"expected one live table message, found {len(live)}"
    return live[0] if live else None


def press_id(message: dict[str, Any], action: str) -> str:
    found = [b for b in button_ids(message) if action_of(b) == action]
    assert found, f"no {action!r} button on the message"
    return found[0]


@dataclass
class Snapshot:
    actions: int  # game actions (calls and cards) taken so far in the match
    table: str  # what the live public table message says
    hands: dict[str, str]  # user name -> what their ephemeral hand message says
    offered: dict[str, set[str]]  # user name -> the call and card actions offered as buttons


@dataclass
class Table:
    running: Running
    channel: int
    users: list[FakeUser]
    table_id: str
    hand_ids: dict[int, int] = field(default_factory=dict)  # user id -> their ephemeral hand message

    @property
    def fake(self) -> FakeDiscord:
        return self.running.fake

    async def open_hands(self) -> None:
        for user in self.users:
            record = await self.fake.press(user, int(self.live()["id"]), self.my_hand())
            await self.running.settle()  # a deferred press sends the hand as a follow-up, after the answer
            self.hand_ids[user.id] = self.fake.private_reply(record)

    def live(self) -> dict[str, Any]:
        message = live_table(self.fake, self.channel)
        assert message is not None, "no table message with a My hand button"
        return message

    def my_hand(self) -> str:
        return press_id(self.live(), "h")

    def hand(self, user: FakeUser) -> dict[str, Any]:
        return self.fake.messages[self.hand_ids[user.id]]

    def snapshot(self, actions: int) -> Snapshot:
        return Snapshot(
            actions,
            message_text(live_table(self.fake, self.channel) or {}),
            {u.name: message_text(self.hand(u)) for u in self.users},
            {u.name: {action_of(b) for b in button_ids(self.hand(u)) if is_game_action(b)} for u in self.users},
        )


async def open_table(
    running: Running, users: list[FakeUser], options: str = "target_score=51", channel: int | None = None
) -> Table:
    fake = running.fake
    channel = fake.add_channel() if channel is None else channel
    await fake.command(users[0], channel, "belot", "new", options=options)
    await running.settle()
    for user in users[1:]:
        await fake.command(user, channel, "belot", "join")
        await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(channel)))
    assert table_id is not None, "/belot new opened no table"
    await fake.command(users[0], channel, "belot", "start")
    await running.settle()
    table = Table(running, channel, users, table_id)
    await table.open_hands()
    return table


async def play_turn(table: Table, rng: random.Random) -> bool:
    """The player whose hand offers calls or cards presses one of them (sometimes switching a declaration
    first). False when nobody has anything to press."""
    turn = [u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u)))]
    if not turn:
        return False
    assert len(turn) == 1, "only the player to act may be offered calls or cards"
    user = turn[0]
    hand = table.hand(user)
    toggles = [b for b in button_ids(hand) if action_of(b).startswith("d:") or action_of(b) == "b"]
    if toggles and rng.random() < 0.3:
        await table.fake.press(user, table.hand_ids[user.id], rng.choice(toggles))
        await table.running.settle()
        hand = table.hand(user)
    choice = rng.choice([b for b in button_ids(hand) if is_game_action(b)])
    record = await table.fake.press(user, table.hand_ids[user.id], choice)
    assert record.response_type in (UPDATE_MESSAGE, DEFERRED_UPDATE)
    await table.running.settle()
    return True


def state_after(record: dict[str, Any], actions: int) -> Match:
    """The match after its first ``actions`` calls and cards, replayed from the stored record."""
    deals: list[dict[str, Any]] = []
    left = actions
    for i, deal in enumerate(record["deals"]):
        bids, play = deal["bids"], deal.get("play") or []
        if left < len(bids) + len(play) or i == len(record["deals"]) - 1:
            cut = {**deal, "bids": bids[:left]}
            if "play" in deal:
                cut["play"] = play[: max(0, left - len(bids))]
            deals.append(cut)
            break
        deals.append(deal)
        left -= len(bids) + len(play)
    return replay_record({**record, "deals": deals})


def check_snapshot(snap: Snapshot, match: Match, seat_of: dict[str, int]) -> None:
    deal = match.deal
    held = [mask_cards(deal.held[s]) for s in range(4)]
    anyone = set().union(*held)
    assert not cards_in(snap.table) & anyone, f"after {snap.actions} actions the table shows a card in a hand"
    for name, text in snap.hands.items():
        seat = seat_of[name]
        others = anyone - held[seat]
        assert not cards_in(text) & others, f"{name}'s hand shows another player's card"
        assert held[seat] <= cards_in(text), f"{name}: not all cards shown: {text!r}"
        offered = snap.offered[name]
        if deal.phase == "done" or deal.to_act != seat:
            assert not offered, f"{name} was offered actions out of turn"
        elif deal.phase == "auction":
            calls = {CALL_BY_CODE[a.removeprefix("c:")] for a in offered}
            assert calls == set(deal.legal_calls()), f"{name} was offered {offered}, not the legal calls"
        else:
            legal_cards = {_card_code(c) for c in deal.legal_cards()}
            assert {a.removeprefix("p:") for a in offered} == legal_cards, f"{name}: offered {offered}"


def _card_code(card: int) -> str:
    return "789TJQKA"[card & 7] + "CDHS"[card >> 3]


# --- the tests -----------------------------------------------------------------------------------------------


async def test_four_people_play_a_match_by_pressing_what_they_are_shown(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(7)
    snapshots = [table.snapshot(0)]
    actions = 0
    while await play_turn(table, rng):
        actions += 1
        snapshots.append(table.snapshot(actions))
        assert actions < 2000, "the match does not end"
    stored = await running.storage.match_record(table.table_id)
    assert stored is not None, "the finished match was not stored"
    seat_of = {name: i for i, name in enumerate(stored["seats"])}
    assert set(seat_of) == set(PLAYERS)
    final = replay_record(stored)
    assert final.over, "the stored match is not finished"
    for snap in snapshots:
        check_snapshot(snap, state_after(stored, snap.actions), seat_of)
    assert any(cards_in(snap.table) for snap in snapshots), "the table never showed a played card"
    assert not fake.errors, f"Discord refused requests: {[e.errors or e.message for e in fake.errors]}"
    assert all(r.ack_delay is not None and r.ack_delay < 3 for r in fake.interactions.values())
    await running.stop()


def test_markup_keeps_bold_and_escapes_everything_else() -> None:
    assert markup("**Ana** plays *J♥* _now_") == "**Ana** plays \\*J♥\\* \\_now\\_"
    assert markup("a ** b") == "a \\*\\* b"


def to_act(table: Table) -> FakeUser | None:
    turn = [u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u)))]
    return turn[0] if turn else None


CYRILLIC = re.compile(r"[а-яА-Я]")


async def test_foreign_stale_and_replayed_presses_change_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(3)
    for _ in range(5):
        await play_turn(table, rng)
    actor = to_act(table)
    assert actor is not None
    old_hand = json_copy(table.hand(actor))
    card = next(b for b in button_ids(old_hand) if is_game_action(b))
    await fake.press(actor, table.hand_ids[actor.id], card)
    await running.settle()
    before_table = message_text(table.live())
    before_hands = {u.name: message_text(table.hand(u)) for u in users}

    # The same press again, from a client that still shows the old hand: stale, refused.
    assert not fake.messages[table.hand_ids[actor.id]]["content"], "a hand is its embed and buttons alone"
    replay = await fake.press(actor, table.hand_ids[actor.id], card, seen=old_hand)
    # an update of the hand: at once, or when the loop lags a deferred update and the edit after it
    assert replay.response_type in (UPDATE_MESSAGE, DEFERRED_UPDATE)
    await wait_until(lambda: bool(fake.messages[table.hand_ids[actor.id]]["content"]),
                     what="a refused press to get a reason on the hand")  # fmt: skip
    # Someone who is not seated presses My hand, and forges another player's card button.
    outsider = FakeUser(fake.next_id(), "Outsider", "en-US")
    mine = await fake.press(outsider, int(table.live()["id"]), table.my_hand())
    await wait_until(lambda: bool(fake.private_messages(mine)), what="the outsider's private answer")
    [shown] = fake.private_messages(mine)
    assert not any(is_game_action(b) for b in button_ids(shown))
    nxt = to_act(table)
    assert nxt is not None
    forged_id = next(b for b in button_ids(table.hand(nxt)) if is_game_action(b))
    forged_on = {**table.live(), "components": table.hand(nxt)["components"]}
    for presser in (outsider, next(u for u in users if u != nxt)):
        forged = await fake.press(presser, int(table.live()["id"]), forged_id, seen=forged_on)
        # a refused press is answered privately
        await wait_until(lambda: bool(fake.private_messages(forged)), what="a private answer to a forged press")  # noqa: B023
    await running.settle()
    assert message_text(table.live()) == before_table
    assert {u.name: message_text(table.hand(u)) for u in users if u != actor} == {
        k: v for k, v in before_hands.items() if k != actor.name
    }
    assert not fake.errors
    await running.stop()


async def test_public_text_in_server_language_and_hands_in_each_users(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)  # Ana and Vera use Discord in Bulgarian, Boris and Georgi in English
    table = await open_table(running, users)
    assert CYRILLIC.search(message_text(table.live()))
    assert CYRILLIC.search(message_text(table.hand(users[0])))
    assert not CYRILLIC.search(message_text(table.hand(users[1])))
    # Boris chooses Bulgarian for himself; his hand follows at its next update.
    await fake.command(users[1], table.channel, "belot", "lang", language="bg")
    await running.settle()
    await fake.press(users[1], int(table.live()["id"]), table.my_hand())
    await running.settle()
    bg_hand = fake.ephemeral(users[1])[-1]
    assert CYRILLIC.search(message_text(bg_hand))
    await running.stop()


async def test_restart_mid_deal_resumes_with_the_old_buttons(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(11)
    for _ in range(12):
        assert await play_turn(table, rng)
    live_id = int(table.live()["id"])
    actor = to_act(table)
    assert actor is not None
    await running.stop()

    running = await start_bot(fake, db)
    table.running = running
    assert int(table.live()["id"]) == live_id, "the table message is edited in place after a restart"
    before = message_text(table.live())
    # The button on the hand message sent before the restart still plays.
    choices = [b for b in button_ids(table.hand(actor)) if is_game_action(b)]
    assert choices, message_text(table.hand(actor))
    record = await fake.press(actor, table.hand_ids[actor.id], choices[0])
    assert record.response_type in (UPDATE_MESSAGE, DEFERRED_UPDATE)  # deferred first when the loop lags
    await running.settle()
    await wait_until(lambda: message_text(table.live()) != before, what="the press to play after the restart")
    # The others press their old hands' buttons too (any of them): each old hand refreshes itself.
    for user in users:
        old_buttons = list(button_ids(table.hand(user)))
        if user != actor and old_buttons:
            await fake.press(user, table.hand_ids[user.id], old_buttons[0])
            await running.settle()
    await table.open_hands()
    while await play_turn(table, rng):
        pass
    stored = await running.storage.match_record(table.table_id)
    assert stored is not None and replay_record(stored).over
    assert not fake.errors
    await running.stop()


async def test_a_slow_host_is_deferred_then_answered(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3", ack_budget=0.0)
    users = people(fake)
    table = await open_table(running, users)
    # "My hand" was deferred (type 6) and the hand came as an ephemeral follow-up.
    assert all(fake.ephemeral_owner[table.hand_ids[u.id]] == u.id for u in users)
    rng = random.Random(5)
    for _ in range(6):
        assert await play_turn(table, rng)
    # Presses that needed the storage were deferred (type 6), then answered by editing the hand (@original).
    deferred = [r for r in fake.interactions.values() if r.response_type == DEFERRED_UPDATE]
    assert deferred, "nothing was deferred although the budget was zero"
    edited = {q.path.split("/")[3] for q in fake.requests if q.method == "PATCH" and q.path.startswith("/webhooks/")}
    on_hands = [r for r in deferred if r.message_id in fake.ephemeral_owner]
    assert on_hands and all(r.token in edited for r in on_hands)
    assert not fake.errors
    await running.stop()


async def test_an_expired_hand_stops_updating_but_its_buttons_still_work(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(9)
    fake.advance(16 * 60)  # every interaction token is now dead on Discord's side
    assert await play_turn(table, rng)
    assert any(e.code == 50027 for e in fake.errors), "the bot tried an expired token and was told so"
    fake.errors.clear()
    # The hands whose tokens died were dropped and stopped changing; My hand opens fresh ones.
    await table.open_hands()
    for _ in range(3):
        assert await play_turn(table, rng)
    assert not fake.errors
    await running.stop()


def json_copy(message: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(message))


async def test_commands_are_synced_with_bulgarian_descriptions(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    (belot,) = [c for c in fake.commands if c["name"] == "belot"]
    subcommands = {o["name"] for o in belot["options"]}
    assert {
        "new",
        "join",
        "leave",
        "addbot",
        "start",
        "stop",
        "settings",
        "rules",
        "stats",
        "top",
        "lang",
    } <= subcommands
    assert belot["description_localizations"]["bg"] == "Бридж-белот на масата в този канал"
    assert belot["dm_permission"] is False, "tables live in servers only"
    await running.stop()


async def test_turn_alerts_keep_one_line_per_table(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake))
    rng = random.Random(1)
    for _ in range(8):
        assert await play_turn(table, rng)
    alerts = [m for m in fake.public(table.channel) if m["content"].startswith("<@") and not m["components"]]
    assert len(alerts) == 1, "each alert replaces the previous one"
    actor = to_act(table)
    assert actor is not None and alerts[0]["content"].startswith(f"<@{actor.id}>"), "the alert names who is to act"
    await running.stop()


async def test_serve_runs_until_cancelled_and_explains_a_wrong_token(fake: FakeDiscord, tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "belote.sqlite3")
    await storage.open()
    host = Host(storage, Settings(_env_file=None, discord_token=fake.token))  # type: ignore[call-arg]
    task = asyncio.create_task(serve(host, host_settings(fake.token)))
    await wait_until(lambda: bool(fake.identified), what="serve to connect")
    assert fake.identified[0]["intents"] & 1, "the guilds intent, and nothing privileged"
    assert not fake.identified[0]["intents"] & ((1 << 1) | (1 << 8) | (1 << 15))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(ValueError, match="BELOTE_DISCORD_TOKEN"):
        await asyncio.wait_for(serve(host, host_settings("not-the-token")), 10)
    # A client that never logged in closes at once, even with messages waiting to go out.
    idle = BeloteClient(host)
    await idle.adapter.deliver(OutMessage("t:lobby", ChatRef(DISCORD, "1"), "**Belote**", kind="lobby"))
    await asyncio.wait_for(idle.close(), 5)
    with pytest.raises(ValueError, match="BELOTE_DISCORD_TOKEN is not set"):
        await serve(host, host_settings(None))
    await host.close()
    await storage.close()


def host_settings(token: str | None) -> Settings:
    return Settings(_env_file=None, discord_token=token)  # type: ignore[call-arg]


async def game_actions(running: Running, table_id: str) -> int:
    return sum(1 for e in await running.storage.events(table_id) if "call" in e.data or "card" in e.data)


async def test_one_person_and_three_bots_play_a_match_in_a_thread(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = people(fake)[0]
    thread = fake.add_channel(thread=True)
    await fake.command(ana, thread, "belot", "new", options="target_score=51")
    for _ in range(3):
        await fake.command(ana, thread, "belot", "addbot", level="random")
    await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(fake.parents[thread]), str(thread)))
    assert table_id is not None, "a thread's table is keyed by its channel and the thread"
    await fake.command(ana, thread, "belot", "start")
    await running.settle()
    assert fake.public(thread) and not fake.public(fake.parents[thread]), "the table is posted in the thread"
    table = Table(running, thread, [ana], table_id)
    await table.open_hands()
    rng = random.Random(4)
    snapshots: list[Snapshot] = []
    while True:
        await running.settle()
        snapshots.append(table.snapshot(await game_actions(running, table_id)))
        if not await play_turn(table, rng):
            break
    assert len(snapshots) >= 10  # a played deal gives her at least one call and eight cards, plus the final state
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    stored = await running.storage.match_record(table_id)
    assert stored is not None and replay_record(stored).over
    seat = stored["seats"].index("Ana")
    for snap in snapshots:
        check_snapshot(snap, state_after(stored, snap.actions), {"Ana": seat})
    await running.stop()


async def test_only_a_manager_changes_the_servers_language(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)
    table = await open_table(running, users)
    assert CYRILLIC.search(message_text(table.live()))
    refused = await fake.command(users[1], table.channel, "belot", "lang", language="en", scope="server")
    assert fake.reply(refused)["flags"] & EPHEMERAL and "manage" in fake.reply(refused)["content"]
    boss = FakeUser(fake.next_id(), "Owner", "bg", manager=True)
    await fake.command(boss, table.channel, "belot", "lang", language="en", scope="server")
    await running.settle()
    rng = random.Random(2)
    assert await play_turn(table, rng)  # the next change of the table message is in English
    assert not CYRILLIC.search(message_text(table.live()).replace("Ana", ""))
    assert CYRILLIC.search(message_text(table.hand(users[0]))), "Ana's own hand stays in her language"
    await running.stop()


async def test_belote_bot_run_serves_discord_and_telegram_in_one_loop(fake: FakeDiscord, tmp_path: Path) -> None:
    from bot.cli import run as run_cli
    from bot.config import load_settings
    from tests.fake_telegram import TOKEN, FakeTelegram

    async with FakeTelegram() as telegram:
        settings = load_settings(
            None,
            telegram_token=TOKEN,
            telegram_base_url=telegram.base_url,
            discord_token=fake.token,
            database=str(tmp_path / "belote.sqlite3"),
        )
        stop = asyncio.Event()
        task = asyncio.create_task(run_cli.serve_all(settings, 0.0, stop))
        await wait_until(lambda: bool(fake.identified), what="the Discord side to connect")
        await wait_until(lambda: any(name == "getMe" for name, _ in telegram.calls), what="the Telegram side")
        ana = people(fake)[0]
        channel = fake.add_channel()
        await fake.command(ana, channel, "belot", "new")
        await wait_until(lambda: bool(fake.public(channel)), what="the lobby in the Discord channel")
        stop.set()
        assert await asyncio.wait_for(task, 30) == 0


async def test_four_people_pressing_join_on_one_lobby_message_at_once_are_all_seated(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    opener = FakeUser(fake.next_id(), "Host", "en-US")
    channel = fake.add_channel()
    await fake.command(opener, channel, "belot", "new")
    await fake.command(opener, channel, "belot", "leave")  # the opener only opens: four seats are free
    await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(channel)))
    assert table_id is not None
    table = running.host.table(table_id)
    assert table is not None and len(table.free_seats()) == 4
    [lobby] = [m for m in fake.public(channel) if any(action_of(b) == "j" for b in button_ids(m))]
    seen = json.loads(json.dumps(lobby))  # what all four see when they press
    join = next(b for b in button_ids(seen) if action_of(b) == "j")
    users = people(fake)
    records = await asyncio.gather(*(fake.press(u, int(lobby["id"]), join, seen=seen) for u in users))
    await running.settle()
    table = running.host.table(table_id)
    assert table is not None
    assert sorted(s.user_id for s in table.seats) == sorted(str(u.id) for u in users), "every press took a seat"
    for user, record in zip(users, records, strict=True):
        private = fake.messages[fake.private_reply(record)]
        assert table_id in message_text(private), f"{user.name} was shown the table they sit at"
    assert not fake.errors
    await running.stop()
