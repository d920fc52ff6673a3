"""The card tracker through discord.py and the fake Discord: the "Cards played" button on a person's ephemeral hand
answers on that same ephemeral message (no one else sees it) with exactly the cards played so far, per suit."""

from __future__ import annotations

import random
from pathlib import Path

from bot.core.messages import DISCORD, UserRef
from bot.engine.cards import SUIT_SYMBOLS
from tests.discord_fakes import FakeDiscord, button_ids, message_text
from tests.test_discord_adapter import is_game_action, open_table, people, start_bot

RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
HEADERS = ("Неизиграни (и изиграни) карти по бои:", "Cards still out (and played), by suit:")
PLAYED = ("(изиграни: ", "(played: ")


def tracker_in(text: str) -> tuple[set[int], set[int]] | None:
    """(still out, played) from the tracker's lines in a message, or None if it shows none."""
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.strip() in HEADERS]
    if not starts:
        return None
    out: set[int] = set()
    played: set[int] = set()
    for line in lines[starts[0] + 1 : starts[0] + 5]:
        suit = SUIT_SYMBOLS.index(line[0])
        left, right = line[2:], ""
        for marker in PLAYED:
            if marker in line:
                left, _, right = line[2:].partition(marker)
        out |= {suit * 8 + RANKS[r] for r in left.split() if r != "—"}
        played |= {suit * 8 + RANKS[r] for r in right.rstrip(")").split()}
    return out, played


async def test_tracker_answers_on_the_pressers_ephemeral_hand(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    table = await open_table(running, people(fake), options="target_score=51 tracker=on")
    rng = random.Random(3)
    answered = 0
    for _ in range(200):
        core = running.host.table(table.table_id)
        if core is None or core.deal is None or answered >= 3:
            break
        deal = core.deal
        for user in table.users:
            tracker = [b for b in button_ids(table.hand(user)) if b.endswith(":k")]
            if deal.phase == "play" and deal.trick and tracker and answered < 3:
                public_before = [message_text(m) for m in fake.public(table.channel)]
                others_before = {o.id: message_text(table.hand(o)) for o in table.users if o is not user}
                await fake.press(user, table.hand_ids[user.id], tracker[0])
                await running.settle()
                shown = tracker_in(message_text(table.hand(user)))
                assert shown is not None, message_text(table.hand(user))
                played = {c for t in deal.tricks for c in t.cards} | set(deal.trick)
                assert shown == (set(range(32)) - played, played)
                assert [message_text(m) for m in fake.public(table.channel)] == public_before
                others_after = {o.id: message_text(table.hand(o)) for o in table.users if o is not user}
                assert others_after == others_before, "another person's hand changed"
                view = await running.host.private_view(table.table_id, UserRef(DISCORD, str(user.id)))
                assert view is not None and tracker_in(view.text) is None  # an answer, not part of the hand
                answered += 1
        turn = [u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u)))]
        if not turn:
            await running.settle()
            continue
        user = turn[0]
        choice = rng.choice([b for b in button_ids(table.hand(user)) if is_game_action(b)])
        await fake.press(user, table.hand_ids[user.id], choice)
        await running.settle()
    assert answered >= 1
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await running.stop()
