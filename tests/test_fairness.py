"""Dealing from a secret seed through a keyed hash (docs/fairness.md), and the old scheme kept for old tables."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.engine import Match, card_str
from bot.engine.match import deal_hands
from bot.engine.record import MatchState, restore_match
from bot.engine.shuffle import LEGACY_SCHEME, SCHEME, commitment, shuffle_and_cut

from .core_helpers import ANA, CHAT, make_host, shut

pytestmark = pytest.mark.unsalted  # these tests check which cards a seed deals

# --- docs/fairness.md, implemented again from its text alone ---


def _doc_deck(seed: str, n: int) -> list[int]:
    key = seed.encode("utf-8")
    stream: list[int] = []
    blocks = 0

    def below(m: int) -> int:
        nonlocal blocks
        while True:
            if not stream:
                stream.extend(hmac.new(key, f"deal/{n}/{blocks}".encode("ascii"), hashlib.sha256).digest())
                blocks += 1
            x = stream.pop(0)
            if x < 256 - (256 % m):
                return x % m

    deck = list(range(32))
    for i in range(31, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    k = 3 + below(27)
    return deck[k:] + deck[:k]


def test_every_deal_follows_the_published_steps() -> None:
    for seed in ("fair-example", "0" * 64, "3f" * 32, "сид"):
        for n in range(40):
            assert shuffle_and_cut(seed, n) == _doc_deck(seed, n), (seed, n)


def test_the_worked_example_of_the_page_holds() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "fairness.md").read_text(encoding="utf-8")
    assert commitment("fair-example") == hashlib.sha256(b"fair-example").hexdigest()
    assert commitment("fair-example") in page
    deck = " ".join(card_str(c) for c in shuffle_and_cut("fair-example", 0))
    assert deck in page
    seat0 = " ".join(card_str(c) for c in deal_hands(shuffle_and_cut("fair-example", 0), 0)[0])
    assert f"`{seat0}`" in page


def test_every_card_reaches_every_position_evenly() -> None:
    # 6,400 decks: each card should top the deck about 200 times. A chi-square over 31 degrees of freedom above 70
    # happens by chance about once in 10,000; a biased draw (modulo without rejection, a short cut) lands far above.
    for position in (0, 13, 31):
        tops = Counter(shuffle_and_cut("evenness", n)[position] for n in range(6400))
        chi2 = sum((tops[c] - 200) ** 2 / 200 for c in range(32))
        assert chi2 < 70, (position, chi2)


def test_the_deals_of_one_seed_differ_and_repeat() -> None:
    decks = [tuple(shuffle_and_cut("a-seed", n)) for n in range(200)]
    assert len(set(decks)) == 200
    assert all(sorted(d) == list(range(32)) for d in decks)
    assert decks == [tuple(shuffle_and_cut("a-seed", n)) for n in range(200)]
    assert tuple(shuffle_and_cut("b-seed", 0)) != decks[0]


def test_a_new_match_deals_by_the_keyed_hash() -> None:
    match = Match(seed="table-seed", first_dealer=1)
    assert match.scheme == SCHEME
    assert [list(h) for h in match.deal.hands] == deal_hands(_doc_deck("table-seed", 0), 1)


# --- the host: 256 secret bits, and tables stored before keep their deals ---

HEX64 = re.compile(r"[0-9a-f]{64}")


async def test_the_host_deals_each_match_from_256_secret_bits(tmp_path: Path) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    seeds = []
    for chat in ("-1", "-2"):
        opened = await host.command(type(CHAT)(CHAT.platform, chat), ANA, "new")
        for _ in range(3):
            await host.command(type(CHAT)(CHAT.platform, chat), ANA, "addbot")
        await host.command(type(CHAT)(CHAT.platform, chat), ANA, "start")
        start = next(e.data for e in await storage.events(opened.table_id) if e.data["e"] == "start")
        assert start["scheme"] == SCHEME and HEX64.fullmatch(str(start["seed"]))
        seeds.append(str(start["seed"]))
        table = host.table(opened.table_id)
        assert table is not None and table.match is not None
        first = table.match.deals[0]
        assert [list(h) for h in first.hands] == deal_hands(_doc_deck(seeds[-1], 0), first.dealer)
    assert seeds[0] != seeds[1]
    await shut(host, storage)


# What the code before the keyed hash dealt for seed 1234567 with seat 2 dealing first: the regression vector of a
# table stored then. Deals 0, 1, 2 (dealers 2, 3, 0), each seat's cards in the order received.
OLD_DEALS = [
    [["AC", "9D", "8C", "8S", "AD", "9C", "9H", "TS"], ["KC", "QS", "KS", "KH", "TD", "JH", "QC", "9S"],
     ["TC", "AS", "8H", "JS", "JC", "QH", "7C", "7H"], ["TH", "8D", "7S", "AH", "7D", "JD", "KD", "QD"]],
    [["7C", "7H", "8C", "TC", "TD", "9H", "7D", "QC"], ["AD", "JH", "9S", "KC", "JS", "KS", "9C", "JD"],
     ["QS", "KD", "8D", "9D", "TH", "TS", "AH", "QD"], ["JC", "AS", "8H", "QH", "7S", "8S", "KH", "AC"]],
    [["AC", "7C", "TD", "KC", "TS", "TH", "QD", "9S"], ["8S", "TC", "AD", "9C", "8D", "QC", "QH", "8H"],
     ["9H", "7H", "JS", "JH", "KS", "AH", "8C", "KH"], ["AS", "7D", "KD", "7S", "QS", "9D", "JC", "JD"]],
]


def _hands(match: Match, n: int) -> list[list[str]]:
    return [[card_str(c) for c in h] for h in match.deals[n].hands]


async def test_a_table_stored_before_the_keyed_hash_replays_the_same_deals(tmp_path: Path) -> None:
    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    opened = await host.command(CHAT, ANA, "new")
    for _ in range(3):
        await host.command(CHAT, ANA, "addbot")
    live = host._tables[opened.table_id]
    async with live.lock:  # the start event exactly as the host logged it then: an int seed, no scheme
        await host._commit(live, {"e": "start", "seed": 1234567, "dealer": 2})
    await shut(host, storage)

    host, storage, _ = await make_host(tmp_path / "db.sqlite3")
    table = host.table(opened.table_id)
    assert table is not None and table.match is not None and table.match.scheme == LEGACY_SCHEME
    assert _hands(table.match, 0) == OLD_DEALS[0]
    await shut(host, storage)


def test_a_match_state_saved_before_schemes_deals_the_old_future() -> None:
    empty = {"format": "belote-record/1", "seats": ["N", "E", "S", "W"], "deals": []}
    state = MatchState.model_validate({"seed": 1234567, "first_dealer": 2, "record": empty})
    match = restore_match(state)
    assert _hands(match, 0) == OLD_DEALS[0]
    for n, hands in enumerate(OLD_DEALS):
        dealt = deal_hands(shuffle_and_cut(1234567, n, LEGACY_SCHEME), (2 + n) % 4)
        assert [[card_str(c) for c in h] for h in dealt] == hands
