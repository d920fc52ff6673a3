"""The Review button through discord.py and the fake Discord: a press on the deal's public result answers the
presser alone with an ephemeral message holding their seat's review; a stranger gets an ephemeral refusal."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.adapters.discord.text import markup
from bot.ai.review import review_deal
from bot.core.review import review_text
from bot.core.table import Table as CoreTable
from bot.engine.deal import Deal
from bot.i18n import translator
from tests.discord_fakes import FakeDiscord, FakeUser, InteractionRecord, button_ids, message_text, wait_until
from tests.test_discord_adapter import action_of, is_game_action, open_table, people, start_bot

# A review's budget only guards against a slow machine: with a loose one, a review is the same whenever it is made
# (here and in the bot), however busy the machine is.
LOOSE = 120.0


def is_review(custom_id: str) -> bool:
    return custom_id.startswith("b:") and action_of(custom_id).startswith("v:")


async def private_answer(fake: FakeDiscord, record: InteractionRecord) -> str:
    """The ephemeral answer of a press, once it is there (a review takes seconds: the press is deferred first)."""

    def answered() -> bool:
        return any(fake.ephemeral_owner.get(m) == record.user.id for m in [record.original_id, *record.followup_ids]
                   if m is not None)

    await wait_until(answered, timeout=60.0, what="the review's ephemeral answer")
    return message_text(fake.messages[fake.private_reply(record)])


def expected(table: CoreTable, index: int, seat: int, lang: str) -> str:
    """The review the analysis gives for the seat in deal ``index`` (0-based), as Discord shows it."""
    assert table.match is not None
    deal = table.match.deals[index]
    assert isinstance(deal, Deal)
    before = [0, 0]
    for r in table.match.results[:index]:
        if r is not None:
            before = [before[0] + r.score[0], before[1] + r.score[1]]
    review = review_deal(deal, seat, (before[0], before[1]), f"{table.table_id}/{index}", LOOSE, call_cpu=LOOSE)
    return markup(review_text(table, index, review, translator(lang)))


async def test_a_review_press_answers_the_presser_alone(fake: FakeDiscord, tmp_path: Path, pinned_deals: str) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    running.host.reviews.cpu = running.host.reviews.call_cpu = LOOSE  # the test's reviews compare whole
    users = people(fake)
    table = await open_table(running, users)
    rng = random.Random(7)
    result: dict[str, object] | None = None
    for _ in range(300):
        # The first scored deal need not be the first dealt (a pass-out has no result).
        results = [m for m in fake.public(table.channel) if any(is_review(b) for b in button_ids(m))]
        if results:
            result = results[0]
            break
        turn = [u for u in table.users if any(is_game_action(b) for b in button_ids(table.hand(u)))]
        if not turn:
            await running.settle()
            continue
        user = turn[0]
        choice = rng.choice([b for b in button_ids(table.hand(user)) if is_game_action(b)])
        await fake.press(user, table.hand_ids[user.id], choice)
        await running.settle()
    assert result is not None, "no deal result with a review button"
    [review_id] = [b for b in button_ids(result) if is_review(b)]
    index = int(action_of(review_id)[2:]) - 1
    core = running.host.table(table.table_id)
    assert core is not None
    public_before = [message_text(m) for m in fake.public(table.channel)]
    # Two players press at the same instant (users[0] reads Bulgarian, users[1] English).
    first, second = await asyncio.gather(
        fake.press(users[0], int(result["id"]), review_id),  # type: ignore[call-overload]
        fake.press(users[1], int(result["id"]), review_id),  # type: ignore[call-overload]
    )
    await running.settle()
    for record, user, lang in ((first, users[0], "bg"), (second, users[1], "en")):
        seat = core.seat_of(str(user.id))
        assert seat is not None
        # Off the event loop, as the bot's own review is: a loop held for seconds drops the gateway connection.
        want = await asyncio.to_thread(expected, core, index, seat, lang)
        assert want in await private_answer(fake, record)
    assert [message_text(m) for m in fake.public(table.channel)] == public_before  # the channel saw nothing
    stranger = FakeUser(fake.next_id(), "Ivo", "en-US")
    refused = await fake.press(stranger, int(result["id"]), review_id)  # type: ignore[call-overload]
    await running.settle()
    assert "Only the players of this table can ask for its review." in await private_answer(fake, refused)
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    await running.stop()
