"""Tables of three and two in the core: the game's words after /belot, the seats its row gives, a lobby switch
that would leave someone without a seat, and a discard press that is not the caller's or not his picks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.core.games import game_at
from bot.core.payload import decode
from bot.engine.game import VARIANTS
from tests.core_helpers import ANA, BORIS, CHAT, VERA, make_host, shut


@pytest.mark.parametrize(
    ("words", "game"),
    [
        (["bela", "utroje"], "bela-3"),
        (["Bela", "UTROJE", "target_score=501"], "bela-3"),
        (["бела", "за", "трима"], "bela-3"),
        (["udvoje"], "bela-2"),
        (["otvorena", "bela"], "bela-open"),
        (["bela-open"], "bela-open"),
        (["bela"], "bela"),
    ],
)
async def test_words_people_type_open_a_table_of_three_or_two(tmp_path: Path, words: list[str], game: str) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", words)
        assert opened.ok, opened.text
        table = host.table(opened.table_id)
        assert table is not None and table.game == game and len(table.seats) == VARIANTS[game].seats
        await host.command(CHAT, ANA, "start")
        assert table.match is not None and all(s.kind != "empty" for s in table.seats)  # bots filled the rest
    finally:
        await shut(host, storage)


def test_a_phrase_naming_a_game_the_engine_lacks_names_nothing() -> None:
    # "белот за трима" is the Bulgarian game for three once the engine has it; until then only "белот" is a game.
    expected = ("bulgarian-3", 3) if "bulgarian-3" in VARIANTS else ("bulgarian", 1)
    assert game_at(["белот", "за", "трима"], 0) == expected
    assert game_at(["chess"], 0) is None


async def test_a_switch_that_would_unseat_someone_is_refused(tmp_path: Path) -> None:
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela"])
        await host.command(CHAT, BORIS, "join")
        await host.command(CHAT, VERA, "join")
        refused = await host.command(CHAT, ANA, "set", ["game", "bela-2"])
        assert not refused.ok and "3 seats are taken" in refused.text, refused.text
        switched = await host.command(CHAT, ANA, "set", ["game", "bela-3"])
        assert switched.ok, switched.text
        table = host.table(opened.table_id)
        assert table is not None and [s.name for s in table.seats] == ["Ana", "Boris", "Vera"]
        lobby = outbox.latest[f"{opened.table_id}:lobby"]
        assert "(A)" not in lobby.text and "3 players, each on their own." in lobby.text
        # The lobby's Game button passes over the games for two while three sit.
        game = next(b.payload for row in lobby.buttons for b in row if decode(b.payload).action == "g")
        await host.press(ANA, game)
        assert VARIANTS[table.game].seats >= 3
    finally:
        await shut(host, storage)


async def test_discard_presses_that_are_not_the_callers_change_nothing(tmp_path: Path) -> None:
    """A forged Confirm of cards never picked, a pick of a card the caller does not hold, and a pick by the
    other person are refused; the log does not move until the caller's own Confirm."""
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela-3"])
        await host.command(CHAT, BORIS, "join")
        table = host.table(opened.table_id)
        assert table is not None
        await host.command(CHAT, ANA, "start")
        await host.idle()
        while table.match is not None and table.match.deal.phase != "discard":
            seat = table.to_act
            assert seat is not None
            if table.seats[seat].kind != "human":
                await host.idle()
                continue
            who = ANA if table.seats[seat].user_id == ANA.user_id else BORIS
            hand = outbox.latest[f"{table.table_id}:h{seat}:{who.user_id}"]
            move = next(b.payload for row in hand.buttons for b in row if decode(b.payload).action[:2] in ("c:", "p:"))
            await host.press(who, move)
            await host.idle()
        seat = table.to_act
        assert seat is not None and table.match is not None
        caller = ANA if table.seats[seat].user_id == ANA.user_id else BORIS
        other = BORIS if caller is ANA else ANA
        hand = outbox.latest[f"{table.table_id}:h{seat}:{caller.user_id}"]
        picks = [b.payload for row in hand.buttons for b in row if decode(b.payload).action.startswith("dp:")]
        events = len(await storage.events(table.table_id))
        prefix = picks[0].rsplit(":", 2)[0]
        held = set(table.match.deal.legal_cards())
        foreign = next(c for c in range(32) if c not in held)
        code = "789TJQKA"[foreign & 7] + "CDHS"[foreign >> 3]
        for user, action in [(other, picks[0].split(":", 3)[3]), (caller, f"dp:{code}"),
                             (caller, "dc:" + picks[0][-2:] + picks[1][-2:])]:
            answer = await host.press(user, f"{prefix}:{action}")
            assert not answer.ok and answer.text, (user, action)
        assert not table.picks and len(await storage.events(table.table_id)) == events
        await host.press(caller, picks[0])
        await host.press(caller, picks[1])
        assert len(await storage.events(table.table_id)) == events
        hand = outbox.latest[f"{table.table_id}:h{seat}:{caller.user_id}"]
        [confirm] = [b.payload for row in hand.buttons for b in row if decode(b.payload).action.startswith("dc:")]
        both = await asyncio.gather(host.press(caller, confirm), host.press(caller, confirm))  # the same instant
        assert sorted(a.ok for a in both) == [False, True]
        logged = [e.data for e in await storage.events(table.table_id)]
        assert logged[events]["e"] == "discard" and logged[events]["seat"] == seat
        assert [e["e"] for e in logged[events:]].count("discard") == 1
        assert table.match.deal.phase != "discard" or len(table.match.deals) > 1
    finally:
        await shut(host, storage)


@pytest.mark.parametrize("visible", [False, True])
async def test_the_bela2_stock_is_shown_only_with_stock_visible(tmp_path: Path, visible: bool) -> None:
    """The eleven cards out of play: never in any message by default; face up for both players (in the group's
    deal and each hand while trump is chosen) with ``stock_visible``."""
    from bot.engine.bela2 import BelaTwoDeal
    from tests.core_helpers import cards_in_text

    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        words = ["bela-2"] + (["stock_visible=true"] if visible else [])
        opened = await host.command(CHAT, ANA, "new", words)
        assert opened.ok, opened.text
        await host.command(CHAT, ANA, "start")
        await host.idle()
        table = host.table(opened.table_id)
        assert table is not None and table.match is not None
        deal = table.match.deal
        assert isinstance(deal, BelaTwoDeal)
        stock = set(deal.stock)
        group = outbox.latest[f"{table.table_id}:d1"].text
        hand = outbox.latest[f"{table.table_id}:h0:{ANA.user_id}"].text
        if visible:
            assert "Stock (out of play)" in group and stock <= cards_in_text(group)
            if deal.phase == "auction":  # the hand repeats the table's cards while trump is chosen
                assert stock <= cards_in_text(hand)
        else:
            for text in (group, hand):
                assert "Stock" not in text and not stock & cards_in_text(text)
    finally:
        await shut(host, storage)


async def test_the_open_games_layouts_are_piles_with_backs(tmp_path: Path) -> None:
    """The group's deal of `bela-open` shows each player's eight piles: the face-up card on top, a back for the
    face-down card under it, and never the face-down card's identity."""
    from bot.core.familypieces import BACK
    from bot.engine.belaopen import BelaOpenDeal
    from tests.core_helpers import cards_in_text

    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela-open"])
        await host.command(CHAT, ANA, "start")
        await host.idle()
        table = host.table(opened.table_id)
        assert table is not None and table.match is not None
        deal = table.match.deal
        assert isinstance(deal, BelaOpenDeal)
        group = outbox.latest[f"{table.table_id}:d{len(table.match.deals)}"].text
        piles = [ln for ln in group.splitlines() if "'s piles: " in ln]
        assert len(piles) == 2 and piles[0].startswith("Ana's piles: ")
        face_down = {c for s in range(2) for pile in deal.piles[s] for c in pile[:1] if len(pile) == 2}
        assert not face_down & cards_in_text(group)
        if not deal.tricks and not deal.trick:  # before the first card: 8 piles of two on each side
            assert all(ln.count(BACK) == 8 for ln in piles), piles
    finally:
        await shut(host, storage)


async def test_a_house_game_says_so_wherever_it_is_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row with ``house_rules`` (the Bulgarian games for three and two) is labelled on the lobby's Game button,
    in the list of games, and in the answer to the /belot that opens it."""
    import dataclasses

    from bot.core.games import games_list
    from bot.engine.game import VARIANTS as ROWS
    from bot.i18n import translator

    monkeypatch.setitem(ROWS, "bela-3", dataclasses.replace(ROWS["bela-3"], house_rules=True))  # type: ignore[index]
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela-3"])
        assert opened.ok and "house rules" in opened.text, opened.text
        lobby = outbox.latest[f"{opened.table_id}:lobby"]
        labels = [b.label for row in lobby.buttons for b in row]
        assert "Game: Bela for three (utroje), house rules" in labels, labels
        assert "Bela for three (utroje), house rules" in games_list(translator("en"))
        assert "домашни правила" in games_list(translator("bg"))
        switched = await host.command(CHAT, ANA, "set", ["game", "bela"])
        assert "house rules" not in switched.text
    finally:
        await shut(host, storage)


async def test_the_seven_exchange_is_a_button_of_its_holder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`bela-2` with ``seven_exchange=always``: Ana holds the 7 of the turned suit among her first six, calls, and
    is asked to exchange it; the other person's press and a second press change nothing; her Exchange puts the
    turned card into her hand and tells the group, never which seven-less cards anyone holds."""
    import secrets

    from bot.engine.bela2 import BelaTwoDeal, BelaTwoMatch, BelaTwoRules
    from bot.engine.shuffle import SCHEME

    rules = BelaTwoRules(seven_exchange="always")
    seed = next(
        s for s in (f"{i:064x}" for i in range(1, 500))
        if (d := BelaTwoMatch(rules, seed=s, first_dealer=1, scheme=SCHEME).deal)
        and isinstance(d, BelaTwoDeal) and d.seven in d.hands[0][:6]
    )
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: seed)  # the deal's seed and dealer, chosen
    monkeypatch.setattr(secrets, "randbelow", lambda n: 1)
    host, storage, outbox = await make_host(tmp_path / "db.sqlite3")
    try:
        opened = await host.command(CHAT, ANA, "new", ["bela-2", "seven_exchange=always"])
        await host.command(CHAT, BORIS, "join")
        await host.command(CHAT, ANA, "start")
        table = host.table(opened.table_id)
        assert table is not None and table.match is not None and table.match.deal.dealer == 1
        hand = outbox.latest[f"{table.table_id}:h0:{ANA.user_id}"]
        call = next(b.payload for row in hand.buttons for b in row if decode(b.payload).action.startswith("c:"))
        await host.press(ANA, call)
        deal = table.match.deal
        assert isinstance(deal, BelaTwoDeal) and deal.phase == "exchange" and table.to_act == 0
        hand = outbox.latest[f"{table.table_id}:h0:{ANA.user_id}"]
        actions = {decode(b.payload).action: b.payload for row in hand.buttons for b in row}
        assert {"e:1", "e:0"} <= set(actions) and "exchange it for the turned card" in hand.text
        events = len(await storage.events(table.table_id))
        assert not (await host.press(BORIS, actions["e:1"])).ok  # not his seven
        assert len(await storage.events(table.table_id)) == events
        assert (await host.press(ANA, actions["e:1"])).ok
        assert not (await host.press(ANA, actions["e:1"])).ok  # a double tap
        logged = [e.data for e in await storage.events(table.table_id)]
        assert len(logged) == events + 1 and logged[events] == {"e": "exchange", "seat": 0, "take": True,
                                                                "by": "human", "at": logged[events]["at"]}
        assert deal.turned in deal.hand_of(0) and deal.seven not in deal.hand_of(0)
        group = outbox.latest[f"{table.table_id}:d1"].text
        assert "The seven of the turned suit was exchanged for the turned card." in group
    finally:
        await shut(host, storage)
