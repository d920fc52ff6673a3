"""Croatian Bela and French belote on Discord, end to end: ``/belot new game:`` opens the table, two people press
the buttons of their ephemeral hands, two bots fill the other seats, and the match is played to its end through the
real discord.py client and the fake Discord. After every press each hand shows only its owner's cards (the first
six or five until trump is chosen) and what the table has seen, and offers exactly the legal calls or cards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.core.messages import DISCORD, ChatRef
from bot.core.views import CALL_BY_CODE
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import replay_family_record
from bot.engine.french import FrenchDeal
from bot.engine.seatview import view as seat_view
from bot.engine.trumpdeal import TrumpDeal
from tests.discord_fakes import FakeDiscord, button_ids, message_text
from tests.test_discord_adapter import Table, action_of, cards_in, is_game_action, people, play_turn, start_bot


def public_cards(deal: TrumpDeal) -> set[int]:
    out = set(deal.trick) | {c for t in deal.tricks for c in t.cards}
    out |= {c for _, _, cards in seat_view(deal, 0).shown for c in cards}
    if isinstance(deal, FrenchDeal):
        out.add(deal.turned)
    return out


def card_code(card: int) -> str:
    return "789TJQKA"[card & 7] + "CDHS"[card >> 3]


@pytest.mark.parametrize(("game", "name"), [("bela", "Бела (хърватска)"), ("french", "Френски белот")])
async def test_two_people_and_two_bots_play_a_family_match_on_discord(
    fake: FakeDiscord, tmp_path: Path, game: str, name: str
) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    ana, boris = people(fake)[:2]
    channel = fake.add_channel()
    await fake.command(ana, channel, "belot", "new", game=game)
    await running.settle()
    await fake.command(boris, channel, "belot", "join")
    for _ in range(2):
        await fake.command(ana, channel, "belot", "addbot", level="random")
    await running.settle()
    table_id = running.host.table_for_chat(ChatRef(DISCORD, str(channel)))
    assert table_id is not None
    assert any(name in message_text(m) for m in fake.public(channel)), "the lobby names the game (in Bulgarian)"
    await fake.command(ana, channel, "belot", "start")
    await running.settle()
    table = Table(running, channel, [ana, boris], table_id)
    await table.open_hands()
    live = running.host.table(table_id)
    assert live is not None and isinstance(live.match, FamilyMatch) and live.game == game
    rng = random.Random(game)
    turns = 0
    while True:
        await running.settle()
        match = live.match
        assert isinstance(match, FamilyMatch)
        deal = match.deal
        for user in table.users:
            seat = live.seat_of(str(user.id))
            assert seat is not None
            hand = table.hand(user)
            text = message_text(hand)
            own = set(deal.hands[seat][: deal.CALL_CARDS]) if deal.phase == "auction" else set(deal.hands[seat])
            leaked = cards_in(text) - own - public_cards(deal)
            assert not leaked, f"{user.name} sees {leaked}: {text!r}"
            offered = {action_of(b) for b in button_ids(hand) if is_game_action(b)}
            if live.status != "playing" or deal.to_act != seat or deal.phase == "done":
                assert not offered, f"{user.name} is offered {offered} out of turn"
            elif deal.phase == "auction":
                assert {CALL_BY_CODE[a[2:]] for a in offered} == set(deal.legal_calls())
            else:
                assert {a[2:] for a in offered} == {card_code(c) for c in deal.legal_cards()}
        if not await play_turn(table, rng):
            break
        turns += 1
    assert live.status == "finished" and turns > 30
    assert not fake.errors, [e.errors or e.message for e in fake.errors]
    stored = await running.storage.match_record(table_id)
    assert stored is not None and stored["variant"] == game
    replayed = replay_family_record(stored)
    assert replayed.over and replayed.totals == match.totals
    end = [message_text(m) for m in fake.public(channel) if str(replayed.totals[0]) in message_text(m)]
    assert end, "the group was told the final score"
    await running.stop()
