"""Hostile JSON to `belote-bot replay`, `score --json` and `verify`: a located error and exit 1 or 2, never a crash.

Three families the interpreter's own JSON reader turns into tracebacks or unprintable output: a number of more than
4,300 digits, arrays nested thousands deep, and strings holding lone surrogates. Each is put in place of one value of
a valid record or request, anywhere in it.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.main import main
from bot.engine import Match
from bot.engine.record import match_to_record

ROOT = Path(__file__).resolve().parent.parent
SENTINEL = "@@hostile@@"


def _record() -> dict[str, Any]:
    match = Match(seed="hostile", first_dealer=0)
    for _ in range(40):
        match.apply(match.legal_actions()[0])
    return match_to_record(match, ["Ana", "Boris", "Vera", "Georgi"], reveal=True)


RECORD = _record()
REQUEST: dict[str, Any] = {
    "contract": "hearts", "multiplier": 2, "declarer": "A", "points": {"A": 102, "B": 60}, "valat": None,
    "declarations": {"A": ["belote", "tierce:K"], "B": []}, "hanging_in": 0, "rules": {"contra_tie": "split"},
    "teams": {"A": "Ние", "B": "Вие"},
}  # fmt: skip


def _paths(value: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place a value sits (the whole document excluded)."""
    out: list[tuple[Any, ...]] = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def _with_hostile(doc: dict[str, Any], path: tuple[Any, ...], hostile: str) -> str:
    copy = json.loads(json.dumps(doc))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = SENTINEL
    return json.dumps(copy, ensure_ascii=False, indent=1).replace(json.dumps(SENTINEL), hostile)


HOSTILE = st.one_of(
    st.integers(4301, 6000).map(lambda n: "9" * n),
    st.integers(31, 4300).map(lambda n: "-" + "1" * n),
    st.integers(65, 30000).map(lambda n: "[" * n + "]" * n),
    st.integers(65, 3000).map(lambda n: '{"a": ' * n + "1" + "}" * n),
    st.sampled_from(['"\\ud800"', '"Ana\\udfff"', '["x", "\\udc80y"]']),
)


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    # What a real terminal or pipe would do with the text: encode it as UTF-8, strictly.
    out.getvalue().encode("utf-8")
    err.getvalue().encode("utf-8")
    return status, out.getvalue(), err.getvalue()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), HOSTILE)
def test_replay_and_verify_answer_hostile_records_with_a_located_error(
    tmp_path: Path, data: st.DataObject, hostile: str
) -> None:
    path = data.draw(st.sampled_from(_paths(RECORD)))
    file = tmp_path / "record.json"
    file.write_text(_with_hostile(RECORD, path, hostile), encoding="utf-8")
    for args in (["replay", str(file)], ["replay", "--json", str(file)], ["verify", str(file)]):
        status, out, err = _run(*args)
        assert status == 2 and out == "", (args, path, err)
        assert len(err.splitlines()) == 1 and ("line " in err or "surrogate" in err), err


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), HOSTILE)
def test_score_answers_hostile_requests_with_a_located_error(tmp_path: Path, data: st.DataObject, hostile: str) -> None:
    path = data.draw(st.sampled_from(_paths(REQUEST)))
    file = tmp_path / "request.json"
    file.write_text(_with_hostile(REQUEST, path, hostile), encoding="utf-8")
    for lang in ("bg", "en"):
        for output in ("words", "json"):
            status, out, err = _run("score", "--json", str(file), "--output", output, "--lang", lang)
            assert status == 1, (path, err)
            assert err.startswith(f"belote-bot score: {file}: ") and len(err.splitlines()) == 1, err
            if output == "json":
                assert json.loads(out)["errors"]


def test_a_real_process_prints_no_traceback_for_each_family(tmp_path: Path) -> None:
    for name, hostile in (("digits", "9" * 4301), ("deep", "[" * 50000 + "]" * 50000), ("surrogate", '"\\ud800"')):
        record = tmp_path / f"{name}.json"
        record.write_text(_with_hostile(RECORD, ("seats", 1), hostile), encoding="utf-8")
        request = tmp_path / f"{name}-request.json"
        request.write_text(_with_hostile(REQUEST, ("teams", "A"), hostile), encoding="utf-8")
        for args, status in ((["replay", str(record)], 2), (["score", "--json", str(request)], 1)):
            done = subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == status and "Traceback" not in done.stderr, (name, args, done.stderr)
            assert len(done.stderr.splitlines()) == 1


def test_a_hostile_score_sheet_file_is_one_located_line(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.json"
    assert main(["sheet", str(sheet), "new"]) == 0
    good = json.loads(sheet.read_text(encoding="utf-8"))
    for hostile in ("9" * 4301, "[" * 50000 + "]" * 50000, '"\\ud800"'):
        key = next(iter(good))
        sheet.write_text(_with_hostile(good, (key,), hostile), encoding="utf-8")
        status, out, err = _run("sheet", str(sheet), "show")
        assert status == 1 and out == "" and len(err.splitlines()) == 1, err
        assert "line 2, column" in err or "surrogate" in err, err
