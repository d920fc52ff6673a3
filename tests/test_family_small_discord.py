"""Tables of three and two on Discord, end to end through the real discord.py client and the fake Discord:
``/belot new game:`` with `bela-3`, `bela-2` and `bela-open`, people pressing the buttons of their ephemeral hands
(the 3-player caller's discard picked and confirmed in two steps), bots in the other seats, to the end of the match.
After every press each hand shows only its owner's cards, his own discard and what the table has seen."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.core.messages import DISCORD, ChatRef
from bot.engine import parse_card
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import replay_family_record
from tests.discord_fakes import FakeDiscord, button_ids, message_text
from tests.telegram.family import own_cards, public_cards
from tests.test_discord_adapter import Table, action_of, cards_in, people, start_bot

MOVES = ("c:", "p:", "dp:", "du:", "dc:", "e:")


def moves_of(message: dict[str, object]) -> list[str]:
    return [b for b in button_ids(message) if action_of(b).startswith(MOVES)]


@pytest.mark.parametrize(("game", "humans", "bots"), [("bela-3", 2, 1), ("bela-2", 1, 1), ("bela-open", 2, 0)])
async def test_a_match_for_three_or_two_on_discord(
    fake: FakeDiscord, tmp_path: Path, game: str, humans: int, bots: int
) -> None:
    from bot.adapters.discord.commands import GAMES
    from bot.engine.game import VARIANTS

    assert {c.value for c in GAMES} == set(VARIANTS)  # /belot new game: offers every game the engine has
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    users = people(fake)[:humans]
    channel = fake.add_channel()
    await fake.command(users[0], channel, "belot", "new", game=game)
    await running.settle()
    for user in users[1:]:
        await fake.command(user, channel, "belot", "join")
    for _ in range(bots):
        await fake.command(users[0], channel, "belot", "addbot", level="random")
    await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(channel)))
    assert table_id is not None
    await fake.command(users[0], channel, "belot", "start")
    await running.settle()
    table = Table(running, channel, users, table_id)
    await table.open_hands()
    live = running.host.table(table_id)
    assert live is not None and isinstance(live.match, FamilyMatch) and live.game == game
    rng = random.Random(game)
    presses = discards = 0
    while live.status == "playing":
        await running.settle()
        match = live.match
        assert isinstance(match, FamilyMatch)
        deal = match.deal
        for user in users:  # every hand: its owner's cards and the public ones, its moves only on its turn
            seat = live.seat_of(str(user.id))
            assert seat is not None
            text = message_text(table.hand(user))
            leaked = cards_in(text) - own_cards(deal, seat) - public_cards(deal)
            assert not leaked, f"{user.name} sees {leaked}: {text!r}"
            if deal.to_act != seat or deal.phase == "done":
                assert not moves_of(table.hand(user)), f"{user.name} is offered moves out of turn"
        turn = [u for u in users if moves_of(table.hand(u))]
        if not turn:
            break
        [user] = turn
        hand_id = table.hand_ids[user.id]
        if deal.phase == "discard":  # two picks, then Confirm: nothing is logged before it
            before = len(await running.storage.events(table_id))
            picks = [b for b in moves_of(table.hand(user)) if action_of(b).startswith("dp:")]
            assert len(picks) == 12
            for choice in rng.sample(picks, 2):
                await fake.press(user, hand_id, choice)
                await running.settle()
            assert len(await running.storage.events(table_id)) == before
            [confirm] = [b for b in moves_of(table.hand(user)) if action_of(b).startswith("dc:")]
            await fake.press(user, hand_id, confirm)
            await running.settle()
            [event] = [e.data for e in await running.storage.events(table_id)][before : before + 1]
            assert event["e"] == "discard" and {parse_card(c) for c in event["cards"]} == {
                parse_card(action_of(confirm)[3:5]), parse_card(action_of(confirm)[5:7])}
            discards += 1
        else:
            await fake.press(user, hand_id, rng.choice(moves_of(table.hand(user))))
            await running.settle()
        presses += 1
    assert live.status == "finished" and presses > 10
    if game == "bela-3":
        assert discards >= 1
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    stored = await running.storage.match_record(table_id)
    assert stored is not None and stored["variant"] == game
    replayed = replay_family_record(stored)
    assert replayed.over and replayed.totals == match.totals
    await running.stop()
