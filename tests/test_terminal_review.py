"""The terminal's ``r``: the hard bot's review of the player's seat in the last finished deal."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.terminal import TerminalTable
from bot.ai.base import View
from bot.ai.review import review_deal
from bot.ai.simple import RandomAgent
from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import TERMINAL, UserRef
from bot.core.review import review_text
from bot.engine import Action, Bid
from bot.engine.calls import CONTRA, RECONTRA
from bot.engine.deal import Deal
from bot.i18n import translator
from bot.storage.sqlite import SqliteStorage


class NoDoubling(RandomAgent):
    """A random player that never says contra or recontra: a quadrupled first deal can reach 151 and end the match
    before the player could ask for its review."""

    def act(self, observation: View) -> Action:
        calls = [c for c in observation.legal_calls if c not in (CONTRA, RECONTRA)]
        return Bid(self._rng.choice(calls)) if calls else super().act(observation)


async def test_r_reviews_the_last_deal_for_the_player(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "t.sqlite3")
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="random", language="en")  # type: ignore[call-arg]
    host = Host(storage, settings, agent_factory=lambda level, seed: NoDoubling(seed))
    me = UserRef(TERMINAL, "player", "Ana", "en")
    out = io.StringIO()
    asked: list[str] = []

    async def typing(prompt: str) -> str | None:
        table = host.table(terminal.table_id)
        assert table is not None and table.match is not None
        if not asked:
            asked.append("early")
            return "r"  # nothing has ended yet
        if len(table.match.deals) > 1 or table.match.deals[0].phase == "done":
            if len(asked) == 1:
                asked.append("review")
                return "r"
            return "q"
        return "1"

    terminal = TerminalTable(host, out, user=me, read_line=typing, ansi=False, language="en")
    host.reviews.cpu = host.reviews.call_cpu = 120.0  # loose: the review is the same here and below, however busy
    await host.start()
    assert await terminal.play() == 0
    text = out.getvalue()
    assert "No deal has ended yet." in text
    assert asked == ["early", "review"]
    table = host.table(terminal.table_id)
    assert table is not None and table.match is not None
    deal = table.match.deals[0]
    assert isinstance(deal, Deal)
    review = review_deal(deal, 0, (0, 0), f"{table.table_id}/0", 120.0, call_cpu=120.0)
    assert "Deal 1: the hard bot's review for Ana" in text
    # Printed without the bold marks, line by line as the analysis gives it.
    expected = review_text(table, 0, review, translator("en")).replace("**", "")
    assert expected in text
    await host.close()
    await storage.close()
