"""`belote-bot verify` on records of the 3- and 2-player Bela games: a match's own record verifies, a swapped card
names the first deal that does not follow from the seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fair_family_record import played, swap, verify


@pytest.mark.parametrize("variant", ["bela-3", "bela-2", "bela-open"])
def test_a_small_table_record_written_by_a_match_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    record = played(variant, f"v-{variant}")
    seats = {"bela-3": 3, "bela-2": 2, "bela-open": 2}[variant]
    record["seats"] = record["seats"][:seats]
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 0, err
    assert f"Every hand of the {len(record['deals'])} deals follows from it" in out
    swap(record, 1, (0, 0), (1, 0))
    status, out, err = verify(tmp_path, record, capsys)
    assert status == 1 and "deal 2 does not follow from the seed" in out + err
