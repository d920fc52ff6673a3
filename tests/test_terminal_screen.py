"""What the terminal table prints and how it takes input, as a person sees it: deals in order and only what changed,
one language on the screen, Enter for the only choice, ``t`` for the card tracker, Ctrl-C and Ctrl-D through a real
pseudo-terminal, a resumed match in the language asked for, ``--new``, and the database in the user's data folder.
"""

from __future__ import annotations

import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.adapters.terminal import TerminalTable
from bot.config import Settings
from bot.core.host import Host
from bot.core.messages import TERMINAL, Button, UserRef
from bot.engine.cards import SUIT_SYMBOLS
from bot.engine.record import parse_record, replay_record
from bot.storage.sqlite import SqliteStorage

RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
CYRILLIC = re.compile("[а-яА-Я]")


async def _host(path: Path, language: str) -> tuple[Host, SqliteStorage]:
    storage = SqliteStorage(path)
    await storage.open()
    settings = Settings(_env_file=None, turn_seconds=0, bot_level="random", language=language)  # type: ignore[call-arg]
    return Host(storage, settings), storage


# A finished trick as the group's view lists it ("Ръка 3: ... (взе ...)"), printed once when it first shows.
TRICK = re.compile(r"Ръка [1-8]: ")


async def test_watching_prints_each_deal_in_order_once_and_in_bulgarian(tmp_path: Path) -> None:
    host, storage = await _host(tmp_path / "t.sqlite3", "bg")
    out = io.StringIO()
    terminal = TerminalTable(host, out, ansi=False, language="bg")
    await host.start()
    assert await terminal.watch() == 0
    lines = out.getvalue().splitlines()
    record = await storage.match_record(terminal.table_id)  # the finished match, as stored
    assert record is not None
    match = replay_record(parse_record(record))

    def index(prefix: str) -> int:
        found = [i for i, ln in enumerate(lines) if ln.startswith(prefix)]
        assert len(found) == 1, (prefix, found)
        return found[0]

    played_deals = 0
    for number, result in enumerate(match.results, 1):
        start = index(f"Раздаване {number} · ")
        end = len(lines) if number == len(match.deals) else index(f"Раздаване {number + 1} · ")
        tricks = [i for i in range(start, end) if TRICK.match(lines[i])]
        if result is None:  # passed out: no cards, no result
            assert not tricks
            continue
        played_deals += 1
        summary = index(f"Раздаване {number}: ")
        # All eight tricks, then the result, then (later) the next deal's header.
        assert len(tricks) == 8 and tricks[-1] < summary < end, lines[start:end]
    assert played_deals >= 1
    assert index("Край на играта") > max(i for i, ln in enumerate(lines) if TRICK.match(ln))
    # Only what changed: no "whose turn", no trick in progress, the auction once per deal.
    assert not [ln for ln in lines if ln.startswith(("На ход:", "Ръка: "))]
    assert len([ln for ln in lines if ln.startswith("Обявяване: ")]) <= len(match.deals)
    assert len(lines) < 45 * len(match.deals)
    # One language: no English word of ours, and no lobby prompt the program answers itself.
    text = "\n".join(lines)
    for english in ("Watcher", "terminal", "You", "Take a seat", "Седнете"):
        assert english not in text
    await host.close()
    await storage.close()


def _parse_tracker(block: str) -> tuple[set[int], set[int]]:
    out: set[int] = set()
    played: set[int] = set()
    for line in block.splitlines():
        if not line or line[0] not in SUIT_SYMBOLS:
            continue
        suit = SUIT_SYMBOLS.index(line[0])
        left, _, right = line[2:].partition("(изиграни: ")
        out |= {suit * 8 + RANKS[r] for r in left.split() if r != "—"}
        played |= {suit * 8 + RANKS[r] for r in right.rstrip(")").split()}
    return out, played


async def test_playing_enter_takes_the_only_choice_and_t_shows_only_played_cards(tmp_path: Path) -> None:
    host, storage = await _host(tmp_path / "t.sqlite3", "bg")
    out = io.StringIO()
    me = UserRef(TERMINAL, "player", "Вие", "bg")
    asked: list[str] = []
    checks: list[tuple[set[int], set[int], set[int]]] = []  # (still out, played, public) per tracker answer
    pending: dict[str, object] = {}

    async def person(prompt: str) -> str | None:
        asked.append(prompt)
        table = host.table(terminal.table_id)
        assert table is not None and table.deal is not None
        deal = table.deal
        if "mark" in pending:  # the tracker's answer was printed since the mark
            block = out.getvalue()[int(str(pending.pop("mark"))):]
            still, played = _parse_tracker(block)
            checks.append((still, played, {c for t in deal.tricks for c in t.cards} | set(deal.trick)))
            return "1"
        if deal.phase == "play" and len(checks) < 3 and deal.trick:
            pending["mark"] = len(out.getvalue())
            return "t"
        return "" if "Enter:" in prompt else "1"

    terminal = TerminalTable(host, out, user=me, read_line=person, ansi=False, language="bg")
    await host.start()
    assert await terminal.play() == 0
    text = out.getvalue()
    assert "Край на играта" in text
    # The last trick leaves one card in the hand: it is offered as the default in every deal that was played.
    record = await storage.match_record(terminal.table_id)
    assert record is not None
    played_deals = sum(1 for result in replay_record(parse_record(record)).results if result is not None)
    assert played_deals >= 1
    assert sum(1 for p in asked if p.startswith("Вашият избор (Enter: ")) >= played_deals
    assert len(checks) == 3
    for still, played, public in checks:
        assert played == public  # never a card that is still in someone's hand
        assert still == set(range(32)) - public
    assert "Неизиграни (и изиграни) карти по бои:" in text
    hands = [ln for ln in text.splitlines() if ln.startswith("Вашите карти: ")]
    assert hands and not [ln for ln in hands if "…" in ln]  # the hand is always shown whole
    assert not re.search(r"\b(Your|Watcher|terminal|Deal|Trick)\b", text)
    await host.close()
    await storage.close()


async def test_a_pass_that_is_the_only_call_is_taken_by_enter_and_a_choice_of_two_is_not(tmp_path: Path) -> None:
    # Whether a random match ever leaves the person nothing but a pass is chance, so this asks the question directly.
    host, storage = await _host(tmp_path / "t.sqlite3", "bg")
    out = io.StringIO()
    me = UserRef(TERMINAL, "player", "Вие", "bg")
    answers = ["", "", "2"]
    asked: list[str] = []

    async def person(prompt: str) -> str | None:
        asked.append(prompt)
        return answers.pop(0)

    terminal = TerminalTable(host, out, user=me, read_line=person, ansi=False, language="bg")
    passing = Button("Пас", "pass-payload")
    assert await terminal._choose(me, [passing]) is passing
    assert asked == ["Вашият избор (Enter: Пас; t: изиграни карти; r: разбор; q: изход): "]
    two = [Button("♣", "c-payload"), passing]
    assert await terminal._choose(me, two) is passing  # Enter alone is refused, then "2" names the pass
    assert asked[1] == asked[2] == "Вашият избор (номер; t: изиграни карти; r: разбор; q: изход): "
    assert "Въведете число от 1 до 2." in out.getvalue()
    await storage.close()


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
    env.update(BELOTE_DATABASE=str(tmp_path / "play.sqlite3"), BELOTE_BOT_LEVEL="random", PYTHONUNBUFFERED="1")
    return env


def _read_until(fd: int, wanted: bytes, seen: bytearray, limit: float = 20.0) -> bool:
    deadline = time.monotonic() + limit
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return wanted in seen
            if not chunk:
                break
            seen += chunk
    return wanted in seen


def _in_terminal(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session leader with the pseudo-terminal as its controlling terminal
        os.chdir(cwd)
        os.execve(sys.executable, [sys.executable, "-m", "bot", *args], env)
    return pid, fd


def _exit_status(pid: int, limit: float) -> int | None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def test_ctrl_c_at_the_prompt_leaves_at_once_and_ctrl_d_too(tmp_path: Path) -> None:
    env = _env(tmp_path)
    prompt = "Вашият избор".encode()
    pid, fd = _in_terminal(["play", "--lang", "bg", "--delay", "0"], env, tmp_path)
    seen = bytearray()
    try:
        assert _read_until(fd, prompt, seen), seen.decode(errors="replace")
        os.write(fd, b"\x03")  # Ctrl-C, and no Enter after it
        status = _exit_status(pid, 5.0)
        _read_until(fd, b"\x00", seen, 0.5)  # whatever is left
    finally:
        os.close(fd)
    text = seen.decode(errors="replace")
    assert status == 130, text
    assert "Масата е запазена" in text.split("Вашият избор")[-1]
    assert "The table is saved" not in text and "Traceback" not in text

    pid, fd = _in_terminal(["play", "--delay", "0"], env, tmp_path)
    seen = bytearray()
    try:
        assert _read_until(fd, prompt, seen), seen.decode(errors="replace")
        os.write(fd, b"\x04")  # Ctrl-D: end of input
        status = _exit_status(pid, 5.0)
        _read_until(fd, b"\x00", seen, 0.5)
    finally:
        os.close(fd)
    text = seen.decode(errors="replace")
    assert status == 0, text
    assert "Продължаваме маса" in text and "Масата е запазена" in text


def _play(args: list[str], env: dict[str, str], cwd: Path, typed: str = "q\n") -> str:
    done = subprocess.run([sys.executable, "-m", "bot", "play", "--delay", "0", *args], input=typed, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_resumed_match_takes_the_language_asked_for_and_new_starts_another(tmp_path: Path) -> None:
    env = _env(tmp_path)
    first = _play(["--lang", "bg"], env, tmp_path)
    table = re.search(r"Белот маса (\w+)", first)
    assert table is not None
    english = _play(["--lang", "en"], env, tmp_path)
    assert f"Resuming table {table.group(1)}." in english
    assert "Your hand:" in english and "Your choice" in english and "The table is saved" in english
    assert not CYRILLIC.search(english.replace("Вие", "")), english  # the name chosen at the start stays
    kept = _play([], env, tmp_path)  # no --lang: the match keeps its language
    assert f"Resuming table {table.group(1)}." in kept
    fresh = _play(["--new"], env, tmp_path)
    assert "Resuming" not in fresh and table.group(1) not in fresh
    other = re.search(r"(?:Belote table|Белот маса) (\w+)", fresh)
    assert other is not None and other.group(1) != table.group(1)


def test_the_database_goes_to_the_user_data_folder_not_the_working_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELOTE_")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), BELOTE_BOT_LEVEL="random")
    work = tmp_path / "work"
    work.mkdir()
    _play(["--watch"], env, work, typed="")
    assert (tmp_path / "data" / "belote-bot" / "belote.sqlite3").is_file()
    assert not list(work.iterdir())
    explicit = tmp_path / "mine.sqlite3"
    _play(["--watch", "--database", str(explicit)], env, work, typed="")
    assert explicit.is_file()


def test_play_help_gives_the_defaults() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "play", "--help"], capture_output=True, text=True, timeout=30)
    assert "default: 0.3" in done.stdout and "--new" in done.stdout
