"""How many requests an action costs, and that no saving ever leaves a person's hand stale.

After each action the core re-renders every seated person's hand. The adapter skips an edit only when the ephemeral
message already shows exactly that rendering, and holds the core's updates of a hand while its owner's press is being
answered (the answer shows it). Measured on a four-person match in the fake Discord: 9 requests per action before,
7 after (the press's answer, three other hands, the table, and the turn alert's delete and post).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from pathlib import Path

from bot.adapters.discord.text import EMBED_DESCRIPTION_LIMIT, clip, markup
from bot.core.messages import DISCORD, Button, ChatRef, UserRef
from bot.core.payload import decode, encode
from bot.engine.record import replay_record
from tests.discord_fakes import DEFERRED_UPDATE, FakeDiscord, FakeUser, InteractionRecord, button_ids, wait_until
from tests.test_discord_adapter import (
    Table,
    is_game_action,
    open_table,
    people,
    start_bot,
)

REQUESTS_PER_ACTION = 7  # with four people: the answer, three other hands, the table, the alert's delete and post


async def check_hands_are_current(table: Table) -> None:
    """Every person's ephemeral hand shows the core's current view of it: its text and exactly its buttons."""
    if table.running.host.table(table.table_id) is None:
        return  # the match is over: the host keeps no view of it
    for user in table.users:
        view = await table.running.host.private_view(table.table_id, UserRef(DISCORD, str(user.id)))
        assert view is not None
        message = table.hand(user)
        description = clip(markup(view.text), EMBED_DESCRIPTION_LIMIT)
        assert message["embeds"][0]["description"] == description, f"{user.name}'s hand shows an old text"
        wanted = ["b:" + b.payload for row in view.buttons for b in row]
        assert list(button_ids(message)) == wanted, f"{user.name}'s hand shows old buttons"


def writes_to(fake: FakeDiscord, message_id: int, since: int) -> int:
    """How many times a message was created or changed since ``since`` entries of the fake's history."""
    return sum(1 for mid, _ in fake.history[since:] if mid == message_id)


async def press_a_move(table: Table, rng: random.Random) -> FakeUser | None:
    turn = [u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u)))]
    if not turn:
        return None
    user = turn[0]
    choice = rng.choice([b for b in button_ids(table.hand(user)) if is_game_action(b)])
    await table.fake.press(user, table.hand_ids[user.id], choice)
    await table.running.settle()
    return user


async def test_an_action_costs_seven_requests_and_every_hand_stays_current(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake))
    rng = random.Random(1)
    per_action: list[int] = []
    while True:
        requests, history = len(fake.requests), len(fake.history)
        user = await press_a_move(table, rng)
        if user is None:
            break
        per_action.append(len(fake.requests) - requests)
        # The press's answer shows the pressed hand as the action left it: the core's update of it is not sent again.
        assert writes_to(fake, table.hand_ids[user.id], history) == 1, "the pressed hand was written twice"
        await check_hands_are_current(table)
    stored = await running.storage.match_record(table.table_id)
    assert stored is not None and replay_record(stored).over
    # A deal's end adds its result (and the match's end its last messages); every other action costs the same.
    assert statistics.median(per_action) == REQUESTS_PER_ACTION, per_action
    assert statistics.mean(per_action) < REQUESTS_PER_ACTION + 0.5, per_action
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await running.stop()


async def test_an_update_with_new_buttons_is_sent_and_a_repeated_one_is_not(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake))
    user = next(u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u))))
    view = await running.host.private_view(table.table_id, UserRef(DISCORD, str(user.id)))
    assert view is not None and view.buttons
    adapter = running.client.adapter
    hand_id = table.hand_ids[user.id]

    # What the message already shows: nothing to send.
    requests = len(fake.requests)
    await adapter.deliver(view)
    await running.settle()
    assert len(fake.requests) == requests, "an update identical to what the hand shows was sent"

    # The same text and labels, but buttons of a newer table state (the nonce moved on): it must be sent, or the
    # person's presses would all be refused as out of date.
    def newer(button: Button) -> Button:
        p = decode(button.payload)
        return Button(button.label, encode(p.table_id, p.nonce + 1, p.action))

    moved = dataclasses.replace(view, buttons=tuple(tuple(newer(b) for b in row) for row in view.buttons))
    history = len(fake.history)
    await adapter.deliver(moved)
    await running.settle()
    assert writes_to(fake, hand_id, history) == 1
    assert list(button_ids(table.hand(user))) == ["b:" + b.payload for row in moved.buttons for b in row]

    assert not fake.errors
    await running.stop()


async def answered(table: Table, record: InteractionRecord) -> None:
    """Wait until a deferred press got its answer: the edit of the pressed message through its token."""
    fake = table.fake

    def done() -> bool:
        return any(q.method == "PATCH" and record.token in q.path for q in fake.requests)

    await wait_until(done, what="the answer to a deferred press")
    await table.running.settle()


async def test_bots_moving_while_a_press_is_answered_leave_the_newest_hand(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana = people(fake)[0]
    channel = fake.add_channel()
    await fake.command(ana, channel, "belot", "new", options="target_score=51")
    for _ in range(3):
        await fake.command(ana, channel, "belot", "addbot", level="random")
    await fake.command(ana, channel, "belot", "start")
    await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(channel)))
    assert table_id is not None
    table = Table(running, channel, [ana], table_id)
    await table.open_hands()
    # From now on every press is deferred, so the bots' moves land while its answer is still being written.
    running.client.adapter.ack_budget = 0.0
    rng = random.Random(6)
    presses = 0
    while choices := [b for b in button_ids(table.hand(ana)) if is_game_action(b)]:
        record = await fake.press(ana, table.hand_ids[ana.id], rng.choice(choices))
        assert record.response_type == DEFERRED_UPDATE
        await answered(table, record)
        presses += 1
        await check_hands_are_current(table)
    assert presses >= 9, "she made a call and played eight cards at least"
    stored = await running.storage.match_record(table_id)
    assert stored is not None and replay_record(stored).over
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await running.stop()


async def test_a_slow_edit_that_lands_after_a_press_is_answered_is_corrected(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake))
    ana = table.users[0]
    rng = random.Random(8)
    while not any(is_game_action(b) for b in button_ids(table.hand(ana))):
        assert await press_a_move(table, rng) is not None
    # Ana switches her language: her hand's new text (same buttons) goes out as a webhook edit that Discord is slow
    # to apply. Meanwhile she plays from the hand she sees; the answer shows the hand after her move at once, and
    # then the slow edit lands on top of it with the buttons of before her move.
    fake.slow["PATCH webhooks"] = 0.5
    await fake.command(ana, table.channel, "belot", "lang", language="en")
    choice = next(b for b in button_ids(table.hand(ana)) if is_game_action(b))
    await fake.press(ana, table.hand_ids[ana.id], choice)
    await running.settle()
    fake.slow.clear()
    # Which of the two landed last was unknown to the bot, so it sent the hand again.
    await check_hands_are_current(table)
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await running.stop()
