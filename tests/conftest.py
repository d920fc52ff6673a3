"""Suite-wide fixtures.

A safety net: a test that fails before closing its SQLite storage must be reported, not hang. aiosqlite runs each
connection on a non-daemon thread; a storage left open by a failed assertion would keep the test process alive at
exit (under xdist, the whole run). After every test, any storage still open has its connections closed.

``fake``: the fake Discord server, shared by the Discord test modules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.storage.sqlite import SqliteStorage
from tests.discord_fakes import FakeDiscord
from tests.varied_deals import apply as vary_deals

vary_deals()  # only with BELOTE_TEST_SALT set: other cards for every seed


# The slowest tests (``pytest --durations=15``), started first: with ``--maxschedchunk`` small (make test) two
# workers then share out the rest and finish together, instead of one of them starting a long test at the end.
SLOW_FIRST = (
    "tests/test_telegram_e2e.py::test_four_people_play_a_whole_match_by_pressing_buttons",
    "tests/test_engine_properties.py::test_random_matches_keep_every_invariant",
    "tests/test_protocol_messages.py::test_the_answer_check_agrees_with_the_engine",
    "tests/test_sheet.py::test_sheet_on_the_command_line",
    "tests/test_telegram_migration.py::test_a_match_goes_on_in_the_supergroup_its_group_became",
    "tests/test_telegram_restart.py::test_a_restart_mid_deal_resumes_in_the_same_messages",
    "tests/test_protocol_messages.py::test_an_act_message_never_holds_another_seats_unplayed_card",
    "tests/test_host_chaos.py::test_chaos_at_many_tables_keeps_every_invariant",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, slow in enumerate(SLOW_FIRST) if item.nodeid.startswith(slow)), len(SLOW_FIRST))

    items.sort(key=rank)  # stable: the rest keep their order


@pytest.fixture(autouse=True)
def _stop_storage_left_open(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    opened: list[SqliteStorage] = []
    real_open = SqliteStorage.open

    async def tracking_open(self: SqliteStorage) -> None:
        await real_open(self)
        opened.append(self)

    monkeypatch.setattr(SqliteStorage, "open", tracking_open)
    yield
    for storage in opened:
        reader = storage._reader
        if reader is not None:
            storage._reader = None
            reader.stop()  # the test's event loop may be gone: stop the worker thread directly
        if storage._writer is not None:
            storage._writer.close()
            storage._writer = None


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord (REST and gateway on 127.0.0.1) that the Discord tests' bot connects to."""
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
