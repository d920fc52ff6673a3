"""Chaos at the host: several tables at once (one in a group's topic), people who join, leave, seat and remove bots,
change options and languages, press any button they were ever sent (current, stale, someone else's, forged, twice
at once), vote to stop; turn timers that run out under every away policy; bots that think while all this happens,
and now and then answer with a move the rules refuse or fail outright; restarts on the same database, some of them
in the middle of a bot's move.

Each seed is one deterministic run (bots think only when the run releases them, see ``chaos_rig``). After every step
the run checks what must always hold:

- nothing escapes the host (no exception from a call, none in a host task, no error logged);
- a press is answered briefly, and a refused one changes no table and shows nobody else's view;
- no message shows a card its audience may not see (another seat's hand, a card not yet played), and every message
  and answer is in its audience's language;
- what the chat shows is current: each seated person's view, and every button of the group's messages;
- no table stalls: a bot with the turn is thinking, a person with the turn was sent a view with legal buttons
  (and those buttons work), a timed turn has its timer running;
- the stored log replays to the live table (and the stored deadline is the running one), a restart brings every
  open table back as it was, and a finished match's stored record replays to the score the table reached.

At the end every table is played to its end, which no table may fail to reach.

``CHAOS_SEEDS=200`` runs seeds 0-199 (default: a few); ``CHAOS_SEED=17`` runs one; ``CHAOS_STEPS`` sets the steps
of chaos before the tables are played to the end (default 500). A failure names its seed and step.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import random
import time
from collections import Counter, deque
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

import bot.core.commands as commands_module
import bot.core.seating as seating_module
from bot.config import Settings
from bot.core import views
from bot.core.clock import ManualClock
from bot.core.host import Host
from bot.core.live import WAITING, LiveTable
from bot.core.messages import Answer, ChatRef, OutMessage, UserRef
from bot.core.payload import decode, encode, to_base36
from bot.core.review import is_review
from bot.core.table import Table, replay
from bot.engine import Match
from bot.engine.familymatch import FamilyMatch
from bot.engine.familyrecord import family_match_report, is_family_record, replay_family_record
from bot.engine.record import match_report, match_to_record, replay_record
from bot.i18n import normalize_language
from bot.storage.sqlite import SqliteStorage

from .chaos_rig import (
    BotBlunder,
    Gate,
    HostTasks,
    Parked,
    SeededSecrets,
    gated_factory,
    glued_cards,
    hand_cards,
    played,
)

PLATFORM = "test"
T = TypeVar("T")

PEOPLE = [
    UserRef(PLATFORM, "11", "Ana", "en"),
    UserRef(PLATFORM, "12", "Boris", "bg"),
    UserRef(PLATFORM, "13", "Vera", "de"),
    UserRef(PLATFORM, "14", "Georgi"),
    UserRef(PLATFORM, "15", "Mila", "bg-BG"),
    UserRef(PLATFORM, "16", "Petar", "en-GB"),
]
CHATS = [
    *(ChatRef(PLATFORM, f"-70{i}", title=f"Club {i}") for i in range(3)),
    ChatRef(PLATFORM, "-700", "9", title="Club 0"),  # a topic inside Club 0's group: a table of its own
]
OUTSIDER = UserRef("elsewhere", "11", "Ana")  # the same id on another platform

SEED_COUNT = int(os.environ.get("CHAOS_SEEDS", "6"))
ONE_SEED = os.environ.get("CHAOS_SEED")
STEPS = int(os.environ.get("CHAOS_STEPS", "500"))
SEEDS = [int(ONE_SEED)] if ONE_SEED else list(range(SEED_COUNT))
BLUNDERS = 0.06  # of bot answers: an illegal action or an exception, which the host must play around
MAX_ANSWER = 200  # characters: a press's answer is a toast, not a page


class ChaosFailure(AssertionError):
    pass


@dataclass(frozen=True)
class StalePress:
    """What the rule says of a press on an older message: why it must be refused ("" if it may be taken), and
    whether it must be taken."""

    refuse: str
    must_work: bool
    lasting: bool = True  # the reason to refuse holds whatever else happens (the table can only move further on)


@dataclass
class Sent:
    """What the chat platform would show: every message in order, and the latest of each key."""

    messages: list[OutMessage] = field(default_factory=list)
    latest: dict[str, OutMessage] = field(default_factory=dict)


def snapshot(table: Table) -> dict[str, Any]:
    """Everything about a table that its log must restore."""
    match = table.match
    return {
        "version": table.version,
        "status": table.status,
        "chat": table.chat,
        "creator": table.creator,
        "options": table.options.to_json(),
        "seats": [(s.kind, s.user_id, s.name, s.level, s.away) for s in table.seats],
        "seed": table.seed,
        "declare_off": [sorted(d) for d in table.declare_off],
        "belote_off": list(table.belote_off),
        "votes": sorted(table.votes),
        "stopped_by": table.stopped_by,
        "hints": dict(table.hints),
        "match": None if match is None else (match_to_record(match), list(match.totals), match.hanging, match.winner),
    }


class World:
    """People, chats, one database, and the host of the moment (a restart replaces it)."""

    def __init__(self, seed: int, path: Path, caplog: pytest.LogCaptureFixture) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.path = path
        self.caplog = caplog
        self.clock = ManualClock()
        self.gate = Gate()
        self.tasks = HostTasks()
        self.sent = Sent()
        self.step = 0
        self.trace: deque[str] = deque(maxlen=25)
        self.digest = hashlib.sha256()  # of every step and what it did
        self.problems: list[str] = []
        self.known: dict[str, Table] = {}  # every table seen, as last held by a host
        self.ended: set[str] = set()  # tables whose end was checked
        self.records_checked = 0
        self.restarts = 0
        self.refused = 0
        self.presses = 0
        self.stale_taken = 0  # presses on an older message that acted
        self.crowd_joins = 0  # people seated by an older lobby's Join pressed in a crowd
        self.chosen: dict[str, str] = {}  # user id -> the language they chose
        self.chats = list(CHATS)  # a group that got a new id is here under it
        self.moves = 0
        self.coverage: Counter[str] = Counter()
        self.expected_stats: dict[str, Counter[str]] = {u.user_id: Counter() for u in PEOPLE}
        s = random.Random(seed * 31 + 7)
        self.settings = Settings(
            _env_file=None,
            turn_seconds=s.choice([0, 30, 60]),
            away_policy=s.choice(["bot_turn", "bot_seat", "wait"]),
            bot_level="random",
            language=s.choice(["bg", "en"]),
            quick_bot_threads=32,  # a bot parked at the gate holds its thread: one for each that may be thinking
            lobby_minutes=s.choice([5, 20]),  # short enough that lobbies close and idle matches stop in a run
            idle_minutes=s.choice([10, 30]),
            max_tables_per_user=s.choice([2, 3]),
        )
        self.host: Host
        self.storage: SqliteStorage

    # --- failing with the seed and the step ---

    def fail(self, what: str) -> None:
        steps = "\n  ".join(self.trace)
        raise ChaosFailure(
            f"seed {self.seed}, step {self.step}: {what}\n"
            f"(run again with CHAOS_SEED={self.seed} pytest tests/test_host_chaos.py)\nlast steps:\n  {steps}"
        )

    def note(self, step: str) -> None:
        self.trace.append(f"{self.step}: {step}")
        self.digest.update(f"{self.step}: {step}; {len(self.sent.messages)} sent\n".encode())

    def problem(self, what: str) -> None:
        self.problems.append(what)

    def check_problems(self) -> None:
        errors = [r for r in self.caplog.records if r.levelno >= logging.ERROR and r.name.startswith("bot")
                  and not (r.exc_info and isinstance(r.exc_info[1], BotBlunder))]  # those are the test's doing
        for record in errors:
            self.problems.append(f"logged: {record.getMessage()} {record.exc_text or ''}")
        self.caplog.clear()
        self.problems.extend(self.tasks.errors)
        self.tasks.errors.clear()
        if self.problems:
            self.fail("; ".join(self.problems[:3]))

    async def call(self, what: str, awaitable: Awaitable[T]) -> T:
        """A call into the host: nothing may escape it."""
        try:
            return await awaitable
        except Exception as exc:  # the invariant is that nothing does
            self.fail(f"{what} raised {exc!r}")
            raise

    # --- the host's life ---

    async def boot(self) -> None:
        self.storage = SqliteStorage(self.path)
        await self.storage.open()
        bots = gated_factory(self.gate, BLUNDERS)
        self.host = Host(self.storage, self.settings, clock=self.clock, agent_factory=bots)
        self.host.add_sink(PLATFORM, self.deliver)
        await self.call("start", self.host.start())
        for user in PEOPLE:  # the host reads each person's language once; do it now, not amid a burst
            await self.host.user_language(user)
        await self.settle()

    async def shut(self, settled: bool = True) -> None:
        if settled:
            await self.settle()
        await self.call("close", self.host.close())
        self.gate.open_all()  # bots cancelled mid-thought: let their threads end
        while self.gate.busy:
            await asyncio.sleep(0.001)
        self.gate.close_all()
        await self.storage.close()

    async def restart(self, midway: Parked | None = None) -> str:
        """Close the host and start a new one on the same database. ``midway``: a thinking bot that is let go just
        before, and the host closed at the first moment its move is in the table (while the host still follows it
        up: renders, stores the finished match, ...)."""
        if midway is not None:
            assert midway.live is not None and midway.observation is not None
            moving, version = midway.live.table, midway.live.table.version
            self.gate.release(midway.observation)
            started = time.monotonic()
            while moving.version == version and not midway.task.done():
                await asyncio.sleep(0)  # no real pause: close before the host's next storage read returns
                if time.monotonic() - started > 10:
                    self.fail("a released bot never moved")
        before = {tid: snapshot(t) for tid, t in self._open_tables().items()}
        expiring = {tid: self.host._expires_at(live) for tid, live in self.host._tables.items()}
        await self.shut(settled=midway is None)
        down = self.rng.choice([0, 0, 5, 45, 400])  # the process may be down past a turn's deadline
        await self.clock.advance(down)
        await self.boot()
        self.restarts += 1
        for tid, state in before.items():
            table = self.host.table(tid)
            due = expiring.get(tid)
            if table is None and due is not None and due <= self.clock.now():
                # It expired while the bot was down: its log is the old one and the stop, nothing else.
                events = [e.data for e in await self.storage.events(tid)]
                if len(events) != state["version"] + 1 or events[-1] != {"e": "stop", "by": "expired"}:
                    self.fail(f"table {tid} expired at the restart with the log tail {events[state['version']:]}")
                self.known[tid] = replay(tid, state["chat"], state["creator"], events)
                continue
            if table is None:
                self.fail(f"table {tid} was open before the restart and is gone after it")
                return ""
            now = snapshot(table)
            if now["version"] < state["version"]:
                self.fail(f"table {tid} lost actions in the restart: version {state['version']} -> {now['version']}")
            if now["version"] == state["version"] and now != state:
                diff = [k for k in state if state[k] != now[k]]
                self.fail(f"table {tid} came back from the restart changed in {diff}")
        return f"restart after {down}s down" + (" in the middle of a bot's move" if midway else "")

    def _open_tables(self) -> dict[str, Table]:
        return {tid: live.table for tid, live in self.host._tables.items() if live.table.open}

    async def settle(self) -> list[Parked]:
        try:
            return await self.tasks.settle(self.gate, self.clock)
        except AssertionError as exc:
            self.fail(str(exc))
            raise

    # --- what the platform receives ---

    async def deliver(self, msg: OutMessage) -> None:
        self.sent.messages.append(msg)
        self.sent.latest[msg.key] = msg
        await self.storage.set_message_ref(PLATFORM, msg.key, str(len(self.sent.messages)))  # as adapters do
        table = self.host.table(msg.table_id) if msg.table_id else None
        if table is None:
            self.problem(f"message {msg.key} for a table the host does not hold")
            return
        self.check_shown(table, msg)

    def private_language(self, user_id: str, table: Table) -> str:
        """A person's language at a table: the one they chose, else their platform's, else the table's."""
        hint = table.hints.get(user_id)
        return self.chosen.get(user_id) or (normalize_language(hint) if hint else table.options.lang)

    def answer_language(self, user: UserRef) -> str:
        """The language of answers to a person: the one they chose, else their platform's, else the bot's."""
        if user.platform != PLATFORM:
            return normalize_language(user.language) if user.language else self.settings.language
        hint = user.language
        return self.chosen.get(user.user_id) or (normalize_language(hint) if hint else self.settings.language)

    def check_language(self, text: str, lang: str, what: str) -> None:
        """Bulgarian text has Cyrillic letters; English text has none (every name here is in Latin letters)."""
        if text and any("\u0400" <= ch <= "\u04ff" for ch in text) != (lang == "bg"):
            self.problem(f"{what} should be in {lang}: {text!r}")

    def check_shown(self, table: Table, msg: OutMessage) -> None:
        """The audience sees only what it may: a group the played cards, a person their own hand too."""
        shown = glued_cards(msg.text) | hand_cards(msg.text)
        if isinstance(msg.audience, ChatRef):
            self.check_language(msg.text, table.options.lang, f"the group's {msg.key}")
        else:
            self.check_language(msg.text, self.private_language(msg.audience.user_id, table), msg.key)
        match = table.match
        if isinstance(msg.audience, ChatRef):
            if msg.audience != table.chat:
                self.problem(f"{msg.key} went to chat {msg.audience.key}, the table is in {table.chat.key}")
            suffix = msg.key.rsplit(":", 1)[-1]
            allowed: set[int] = set()
            if match is not None and match.deals:
                deal = match.deal
                if suffix[:1] in "dr" and suffix[1:].isdigit() and 1 <= int(suffix[1:]) <= len(match.deals):
                    deal = match.deals[int(suffix[1:]) - 1]
                allowed = played(deal)
            if not shown <= allowed:
                self.problem(f"group message {msg.key} shows unplayed cards {sorted(shown - allowed)}: {msg.text!r}")
            return
        user = msg.audience
        seat = table.seat_of(user.user_id)
        if msg.kind == "ping":
            if seat is None or table.to_act != seat:
                self.problem(f"{user.name} was pinged for a turn that is not theirs ({msg.key})")
            return
        if msg.kind != "hand":
            return
        if seat is None or msg.key != f"{table.table_id}:h{seat}:{user.user_id}":
            self.problem(f"{user.name} was sent the hand {msg.key} but sits at seat {seat}")
            return
        if table.status != "playing" or match is None:
            if shown:
                self.problem(f"{msg.key} shows cards {sorted(shown)} with no deal on")
            return
        deal = match.deal
        own = set(deal.hand_of(seat))
        if hand_cards(msg.text) != own:
            self.problem(f"{msg.key} shows the hand {sorted(hand_cards(msg.text))}, the seat holds {sorted(own)}")
        if not glued_cards(msg.text) <= played(deal) | own:
            self.problem(f"{msg.key} shows cards nobody played: {sorted(glued_cards(msg.text) - played(deal))}")
        self.check_buttons(table, seat, msg)

    def check_buttons(self, table: Table, seat: int, msg: OutMessage) -> None:
        """A hand's moves are exactly the legal ones, on its owner's turn only, and carry the current nonce."""
        actions = []
        for row in msg.buttons:
            for b in row:
                p = decode(b.payload)
                if p.table_id != table.table_id or p.nonce != table.version:
                    self.problem(f"{msg.key} carries a button of {p.table_id} v{p.nonce}, table is at {table.version}")
                actions.append(p.action)
        moves = {a for a in actions if a[:2] in ("c:", "p:")}
        match = table.match
        assert match is not None
        deal = match.deal
        mine = table.to_act == seat and not table.seats[seat].away
        if not mine:
            if moves:
                self.problem(f"{msg.key} offers moves {sorted(moves)} out of turn")
            return
        from bot.core.views import CALL_BY_CODE

        if deal.phase == "auction":
            legal = {f"c:{code}" for code, call in CALL_BY_CODE.items() if call in deal.legal_calls()}
        else:
            legal = {"p:" + "789TJQKA"[c & 7] + "CDHS"[c >> 3] for c in deal.legal_cards()}
        if moves != legal:
            self.problem(f"{msg.key} offers {sorted(moves)}, the legal moves are {sorted(legal)}")

    # --- who may press what ---

    def buttons_seen_by(self, user: UserRef, current: bool) -> list[str]:
        source = self.sent.latest.values() if current else self.sent.messages
        out: list[str] = []
        for msg in source:
            if isinstance(msg.audience, ChatRef) or msg.audience == user:
                out.extend(b.payload for row in msg.buttons for b in row)
        return out

    def someone_elses_buttons(self, user: UserRef) -> list[str]:
        return [b.payload for m in self.sent.latest.values()
                if isinstance(m.audience, UserRef) and m.audience != user for row in m.buttons for b in row]

    def forged(self, tid: str | None) -> str:
        """A payload nobody was sent: for a table (mostly the one given), or no payload of ours at all."""
        if tid is None or self.rng.random() < 0.2:
            tid = self.rng.choice(list(self.known) or ["abc123"])
        live = self.host._tables.get(tid)
        version = live.table.version if live is not None else 0
        action = self.rng.choice(["p:ZZ", "p:7X", "p:JH", "c:zz", "c:", "c:at", "d:9", "d:0", "b", "j4", "j9", "o:99",
                                  "o:", "o:0", "od", "x", "back", "h", "q", "s", "a", "r", "l", "jj", "p:10H"])
        nonce = self.rng.choice([version, version, version + 1, max(version - 1, 0), 0, 36**3])
        if self.rng.random() < 0.6:  # well formed, for a real table: only the host's checks stand in the way
            return encode(tid, nonce, action)
        return self.rng.choice([
            "", "v1", "garbage", "v2:abc:0:s", f"v1:{tid}:zz!:s", "v1:" + "x" * 70, f"v1:{tid.upper()}:0:s",
            f"v1:{tid}:0:", f"v1:{tid}:-1:s", "v1:тест:0:s", f"v1:{tid}:{to_base36(version)}:p:JH:extra",
        ])

    # --- one step ---

    def someone_in(self, chat: ChatRef) -> UserRef:
        """Mostly a person of the chat's table (seated, or its creator), sometimes anyone."""
        tid = self.host.table_for_chat(chat)
        table = self.host.table(tid) if tid else None
        if table is not None and self.rng.random() < 0.7:
            ids = {table.creator, *(table.seats[i].user_id for i in table.humans())}
            return self.rng.choice([u for u in PEOPLE if u.user_id in ids])
        return self.rng.choice(PEOPLE)

    def seated(self) -> list[tuple[Table, int, UserRef]]:
        out = []
        for table in self._open_tables().values():
            for seat in table.humans():
                user = next((u for u in PEOPLE if u.user_id == table.seats[seat].user_id), None)
                if user is not None:
                    out.append((table, seat, user))
        return out

    def to_move(self) -> list[tuple[Table, int, UserRef]]:
        return [(t, s, u) for t, s, u in self.seated()
                if t.status == "playing" and t.to_act == s and not t.seats[s].away]

    async def press(self, user: UserRef, payload: str, must_work: bool = False, alone: bool = True) -> str:
        """``alone``: nothing else happens meanwhile, so a refusal must leave every table as it was, and a press on
        an older message is taken exactly when the rule for such presses allows it."""
        before = self._versions() if alone else None
        stale = await self.stale_press(user, payload) if alone else None
        if stale is not None and stale.must_work:
            must_work = True
        answer = await self.call(f"press {payload!r} by {user.name}", self.host.press(user, payload))
        self.presses += 1
        # A review (a deal result's button) is a page for the presser alone, not a toast.
        self.check_answer(user, answer, before, press=not is_review(payload.split(":", 3)[-1]))
        if must_work and not answer.ok:
            self.fail(f"{user.name} pressed {payload!r} from their current view and was refused: {answer.text!r}")
        if stale is not None and before is not None and self._versions() != before:
            self.stale_taken += 1
            if stale.refuse:
                self.fail(f"{user.name}'s press of {payload!r} from an older message was taken, but {stale.refuse}")
        return f"{user.name} presses {payload!r}: {'ok' if answer.ok else 'refused'} {answer.text!r}"

    async def stale_press(self, user: UserRef, payload: str) -> StalePress | None:
        """For a press on an older message of an open table: what the rule says of it, from the stored log alone."""
        try:
            p = decode(payload)
        except ValueError:
            return None
        table = self.host.table(p.table_id)
        if table is None or not table.open or user.platform != PLATFORM or p.nonce >= table.version:
            return None
        events = [e.data for e in await self.storage.events(p.table_id)]
        then = replay(p.table_id, table.chat, table.creator, events[: p.nonce])
        acted = False
        kinds: set[str] = set()
        options: set[str] = set()
        for event in events[p.nonce :]:
            kind = event["e"]
            seat = event.get("seat")
            holder = then.seats[seat] if isinstance(seat, int) else None
            mine = holder is not None and holder.kind == "human" and holder.user_id == user.user_id
            named = event.get("user") == user.user_id or (kind == "stop" and event.get("by") == user.user_id)
            own_seat = mine and (kind in ("leave", "toggle", "back") or event.get("by") == "human")
            acted = acted or named or own_seat
            kinds.add(kind)
            if kind == "set":
                options.add(event["key"])
            then.apply(event)
        action, _, arg = p.action.partition(":")
        refuse = ""
        lasting = True
        if p.action == "h":
            return None
        if acted:
            refuse = "the person acted on the table after that message"
        elif action in ("c", "p", "d", "b") and kinds & {"start", "bid", "play"}:
            refuse = f"the turn moved on since ({sorted(kinds)})"
        elif action == "s" and options:
            refuse = f"the options changed since ({sorted(options)})"
        elif action == "s" and table.free_seats() and kinds & {"sit", "leave", "bot", "unbot"}:
            refuse = f"the seats changed since and the table is not full ({sorted(kinds)})"
            lasting = False  # others pressing at the same instant may fill it
        elif action == "o" and arg and any(views.MENU_CODES.get(k) == arg for k in options):
            refuse = f"that option was changed since ({sorted(options)})"
        elif action == "l" and table.status != "lobby" and "start" in kinds:
            refuse = "the match started since"
        # An old Join of a person who did not act since, on a lobby with a free seat: it must seat them.
        theirs = [t for t in self._open_tables().values() if t.table_id != table.table_id
                  and (t.creator == user.user_id or t.seat_of(user.user_id) is not None)]
        must_work = (not refuse and p.action == "j" and table.status == "lobby" and bool(table.free_seats())
                     and table.seat_of(user.user_id) is None and len(theirs) < self.settings.max_tables_per_user)
        return StalePress(refuse, must_work, lasting)

    def _versions(self) -> dict[str, int]:
        return {tid: live.table.version for tid, live in self.host._tables.items()}

    def check_answer(self, user: UserRef, answer: Answer, before: dict[str, int] | None, press: bool) -> None:
        """``before``: every table's version before the call, if nothing else happened during it."""
        if answer.view is not None:
            if answer.view.audience != user or answer.view.kind != "hand":
                self.problem(f"the answer to {user.name} carries someone else's view {answer.view.key}")
            elif before is not None:
                table = self.host.table(answer.view.table_id)
                if table is not None:
                    self.check_shown(table, answer.view)
        self.check_language(answer.text, self.answer_language(user), f"the answer to {user.name}")
        if press and (len(answer.text) > MAX_ANSWER or "\n" in answer.text):
            self.problem(f"the answer to a press is not short: {answer.text!r}")
        if not answer.ok:
            self.refused += 1
            if not answer.text:
                self.problem(f"a refusal to {user.name} says nothing")
            if before is None:
                return
            after = self._versions()
            changed = {tid for tid in before if after.get(tid) != before[tid]}
            if changed or set(after) - set(before):
                self.problem(f"a refused action changed tables {sorted(changed | (set(after) - set(before)))}: "
                             f"{answer.text!r}")

    async def command(self, chat: ChatRef, user: UserRef, name: str, args: list[str], alone: bool = True) -> str:
        before = self._versions() if alone else None
        answer = await self.call(f"command {name} {args} by {user.name}",
                                 self.host.command(chat, user, name, args))
        self.check_answer(user, answer, before, press=False)
        if answer.table_id and answer.table_id not in self.known and self.host.table(answer.table_id) is not None:
            self.known[answer.table_id] = self.host.table(answer.table_id)  # type: ignore[assignment]
        return f"{user.name} in {chat.title}: /{name} {' '.join(args)} -> {'ok' if answer.ok else 'refused'} " \
               f"{answer.text[:60]!r}"

    def random_command(self) -> tuple[str, list[str]]:
        r = self.rng
        name = r.choice(["new", "new", "join", "join", "leave", "addbot", "addbot", "removebot", "set", "set",
                         "options", "rules", "start", "start", "stop", "view", "back", "stats", "top", "dance",
                         "/START"])
        if name == "new":
            pool = ["timer=0", "timer=5", "timer=30", "away=bot_turn", "away=bot_seat", "away=wait",
                    "target_score=1", "target_score=51", "auto_declarations=true", "must_undertrump=on",
                    "timer=-1", "lang=xx", "nonsense", "level=hard", "timer=³", "target_score=²"]
            return name, r.sample(pool, r.randint(0, 3))
        if name == "join":
            return name, r.choice([[], ["1"], ["2"], ["3"], ["4"], ["5"], ["Ana"], ["@boris"], ["Nobody"], ["²"]])
        if name == "addbot":
            return name, r.choice([[], [], ["2"], ["4"], ["easy"], ["3", "hard"], ["wizard"], ["²"]])
        if name == "removebot":
            return name, r.choice([[], ["1"], ["3"], ["x"], ["²"]])
        if name == "set":
            return name, r.choice([
                ["timer", r.choice(["0", "5", "20", "90s", "-3", "x", "²"])],
                ["away", r.choice(["bot_turn", "bot_seat", "wait", "sleep"])],
                ["target_score", r.choice(["1", "51", "101", "abc", "³", "9" * 4000])],
                ["lang", r.choice(["bg", "en", "hr", "de"])],
                ["auto_declarations", r.choice(["true", "off", "maybe"])],
                ["contra_blocks_bidding", "on"],
                ["unknown_option", "1"],
                ["timer=15"],
                ["level"],
            ])
        return name, []

    async def one_step(self, draining: bool = False) -> str:
        parked = await self.settle()
        thinking = [p for p in parked if p.observation is not None]
        r = self.rng
        moves = self.to_move()
        if draining:
            return await self.drain_step(thinking, moves)
        # A bot about to play a deal's last card: the host then scores the deal and may store a finished match,
        # the moment a stop is most likely to lose something. Stop there more often than anywhere else.
        closing = [p for p in thinking if p.live is not None and _cards_played(p.live.table) == 31]
        if closing and r.random() < 0.25:
            return await self.restart(r.choice(closing))
        kind = r.choices(
            ["bot", "play", "press", "command", "burst", "clock", "language", "view", "restart", "move", "crowd"],
            [24 if thinking else 0, 20 if moves else 0, 18, 18, 4, 6, 3, 5, 1.2, 0.6, 3],
        )[0]
        if kind == "burst":
            return await self.burst()
        if kind == "crowd":
            return await self.crowd()
        if kind == "move":
            return await self.move_chat()
        if kind == "bot":
            chosen = r.choice(thinking)
            assert chosen.observation is not None
            self.gate.release(chosen.observation)
            assert chosen.live is not None
            return f"bot thinks at {chosen.live.table.table_id} seat {chosen.observation.seat}"
        if kind == "play":
            return await self.play(r.choice(moves))
        if kind == "press":
            chat = r.choice(self.chats)
            user = self.someone_in(chat)
            how = r.random()
            if how < 0.55:
                pool = self.buttons_seen_by(user, current=True)
            elif how < 0.75:
                pool = self.buttons_seen_by(user, current=False)
            elif how < 0.8:
                pool = self.someone_elses_buttons(user)
            else:
                pool = []
            payload = r.choice(pool) if pool else self.forged(self.host.table_for_chat(chat))
            if r.random() < 0.03:
                user = OUTSIDER
            return await self.press(user, payload)
        if kind == "command":
            name, args = self.random_command()
            chat = r.choice(self.chats)
            return await self.command(chat, self.someone_in(chat), name, args)
        if kind == "clock":
            seconds = r.choice([1, 4, 10, 29, 31, 61, 125, 301])
            await self.clock.advance(seconds)
            return f"clock +{seconds}s"
        if kind == "language":
            if r.random() < 0.5:
                user, lang = r.choice(PEOPLE), r.choice(["bg", "en", "de"])
                if lang in ("bg", "en"):
                    self.chosen[user.user_id] = lang  # what the host shows them from now on, this call included
                answer = await self.call("set_user_language", self.host.set_user_language(user, lang))
                self.check_language(answer.text, self.answer_language(user), f"the answer to {user.name}")
                return f"{user.name} speaks {lang}: {answer.ok}"
            chat, lang = r.choice(self.chats), r.choice(["bg", "en", "tr"])
            before = self._versions()
            answer = await self.call("set_chat_language", self.host.set_chat_language(chat, lang))
            if not answer.ok and self._versions() != before:
                self.problem(f"a refused chat language {lang!r} changed a table")
            return f"{chat.title} speaks {lang}: {answer.ok}"
        if kind == "view":
            return await self.look(r.choice(PEOPLE))
        return await self.restart(r.choice(thinking) if thinking and r.random() < 0.5 else None)

    async def play(self, mover: tuple[Table, int, UserRef]) -> str:
        """The person whose turn it is presses one of the moves their latest view offers."""
        table, seat, user = mover
        hand = self.sent.latest.get(f"{table.table_id}:h{seat}:{user.user_id}")
        if hand is None:
            self.fail(f"{user.name} has the turn at {table.table_id} and was never sent their hand")
            return ""
        payloads = [b.payload for row in hand.buttons for b in row]
        moves = [p for p in payloads if decode(p).action[:2] in ("c:", "p:")]
        toggles = [p for p in payloads if decode(p).action[:2] in ("d:", "b")]
        if toggles and self.rng.random() < 0.15:
            return await self.press(user, self.rng.choice(toggles), must_work=True)
        if not moves:
            self.fail(f"{user.name} has the turn at {table.table_id} and their view offers no move: {hand.text!r}")
        if self.rng.random() < 0.1:
            return await self.double_press(user, self.rng.choice(moves))
        return await self.press(user, self.rng.choice(moves), must_work=True)

    async def move_chat(self) -> str:
        """A group gets a new id (a Telegram group upgraded to a supergroup): its tables, topics included, go along."""
        old = self.rng.choice(sorted({c.chat_id for c in self.chats}))
        self.moves += 1
        new = f"-100{self.moves}{old.lstrip('-')}"
        going = sorted(tid for tid, t in self._open_tables().items() if t.chat.chat_id == old)
        moved = await self.call("move_chat", self.host.move_chat(PLATFORM, old, new))
        if sorted(moved) != going:
            self.fail(f"moving chat {old} to {new} moved tables {sorted(moved)}, the open ones there are {going}")
        if await self.call("move_chat again", self.host.move_chat(PLATFORM, old, new)):
            self.fail(f"the second signal of moving chat {old} moved tables again")
        self.chats = [ChatRef(PLATFORM, new, c.thread_id, c.title) if c.chat_id == old else c for c in self.chats]
        return f"chat {old} is now {new}, with tables {moved}"

    async def burst(self) -> str:
        """Two or three people at once, in the same chat or not: presses of what they see, and commands."""
        r = self.rng
        actions: list[Awaitable[str]] = []
        for _ in range(r.randint(2, 3)):
            chat = r.choice(self.chats)
            user = self.someone_in(chat)
            pool = self.buttons_seen_by(user, current=True)
            if pool and r.random() < 0.5:
                actions.append(self.press(user, r.choice(pool), alone=False))
            else:
                name, args = self.random_command()
                actions.append(self.command(chat, user, name, args, alone=False))
        done = await asyncio.gather(*actions)
        return "at once: " + " | ".join(done)

    async def crowd(self) -> str:
        """A busy group: people press buttons of a lobby message a few versions old at the same instant. Everyone
        pressing its Join while seats are free (and who did not act since) sits down; a press the rule refuses from
        what the log held before the crowd (the person acted since, the turn or an option moved on) is refused."""
        r = self.rng
        lobbies = [t for t in self._open_tables().values() if t.status == "lobby"]
        if not lobbies:
            return await self.burst()
        table = r.choice(lobbies)
        old = [m for m in self.sent.messages if m.key == f"{table.table_id}:lobby" and m.buttons]
        if not old:
            return await self.burst()
        shown = r.choice(old[-4:])
        payloads = {decode(b.payload).action: b.payload for row in shown.buttons for b in row}
        joiners: list[UserRef] = []
        for user in r.sample(PEOPLE, len(PEOPLE)):
            verdict = await self.stale_press(user, payloads["j"])
            if verdict is not None and verdict.must_work and len(joiners) < len(table.free_seats()):
                joiners.append(user)
        others = [(u, r.choice(list(payloads.values()))) for u in r.sample(PEOPLE, r.randint(0, 2)) if u not in joiners]
        verdicts = [await self.stale_press(u, p) for u, p in others]
        answers = await asyncio.gather(*(self.call("crowd press", self.host.press(u, payloads["j"])) for u in joiners),
                                       *(self.call("crowd press", self.host.press(u, p)) for u, p in others))
        self.presses += len(answers)
        for user, answer in zip(joiners, answers, strict=False):
            self.check_answer(user, answer, None, press=True)
            if not answer.ok or table.seat_of(user.user_id) is None:
                self.fail(f"{user.name} pressed Join on the lobby they were shown, with a seat free, and was "
                          f"refused: {answer.text!r}")
        for (user, payload), verdict, answer in zip(others, verdicts, answers[len(joiners) :], strict=True):
            self.check_answer(user, answer, None, press=True)
            if verdict is not None and verdict.refuse and verdict.lasting and answer.ok:
                self.fail(f"{user.name}'s press of {payload!r} in a crowd was taken, but {verdict.refuse}")
        self.crowd_joins += len(joiners)
        names = ", ".join(u.name for u in joiners)
        return f"a crowd at {table.table_id} presses its lobby v{decode(payloads['j']).nonce}: {names} join"

    async def double_press(self, user: UserRef, payload: str) -> str:
        """A double tap: the same move arrives twice at once. It is made once; the second press is refused."""
        table = self.host.table(decode(payload).table_id)
        assert table is not None
        version = table.version
        answers = await asyncio.gather(*(self.call("double press", self.host.press(user, payload)) for _ in "12"))
        self.presses += 2
        if [a.ok for a in answers] != [True, False]:
            self.fail(f"{user.name} pressed {payload!r} twice at once: {[(a.ok, a.text) for a in answers]}")
        if table.version != version + 1:
            self.fail(f"a double press moved table {table.table_id} from version {version} to {table.version}")
        return f"{user.name} presses {payload!r} twice at once"

    async def look(self, user: UserRef) -> str:
        r = self.rng
        tid = r.choice(list(self.known)) if self.known else "abc123"
        how = r.random()
        if how < 0.4:
            view = await self.call("private_view", self.host.private_view(tid, user))
            table = self.host.table(tid)
            if view is not None and table is not None:
                if view.audience != user:
                    self.problem(f"private_view for {user.name} is addressed to {view.audience}")
                self.check_shown(table, view)
            return f"{user.name} looks at {tid}: {'a view' if view else 'nothing'}"
        if how < 0.7:
            before = self._versions()
            seat = r.choice([None, None, 0, 1, 2, 3])
            answer = await self.call("join", self.host.join(tid, user, seat))
            self.check_answer(user, answer, before, press=False)
            return f"{user.name} joins {tid} by link (seat {seat}): {answer.ok} {answer.text!r}"
        chat = r.choice(self.chats)
        return await self.command(chat, user, "view", [])

    async def drain_step(self, thinking: list[Parked], moves: list[tuple[Table, int, UserRef]]) -> str:
        """Play every table to its end: bots think, people make moves, timers run out, lobbies start."""
        if thinking:
            chosen = thinking[0]
            assert chosen.observation is not None
            self.gate.release(chosen.observation)
            return "bot thinks"
        if moves:
            return await self.play(moves[0])
        for _, table in sorted(self._open_tables().items()):
            if table.status == "lobby":
                creator = next(u for u in PEOPLE if u.user_id == table.creator)
                if not table.humans() and self.rng.random() < 0.5:
                    return await self.command(table.chat, creator, "join", [])  # a table needs a person to start
                return await self.command(table.chat, creator, "start", [])
        await self.clock.advance(301)
        return "clock +301s"

    async def count_events(self) -> Counter[str]:
        """What the run's tables logged, by kind (and who moved): to see what a seed exercised."""
        counts: Counter[str] = Counter()
        for tid in self.known:
            for event in await self.storage.events(tid):
                kind = str(event.data.get("e"))
                by = event.data.get("by")
                counts[f"{kind}/{by}" if by is not None and (kind != "stop" or by == "expired") else kind] += 1
        return counts

    # --- what must hold after every step ---

    async def check(self) -> None:
        parked = await self.settle()
        self.check_problems()
        for tid, live in self.host._tables.items():
            self.known[tid] = live.table
            self.check_moving(live, parked)
            self.check_up_to_date(live)
            if live.table.open and self.host.table_for_chat(live.table.chat) != tid:
                self.fail(f"open table {tid} is not the table of its chat {live.table.chat.key} "
                          f"({self.host.table_for_chat(live.table.chat)} is)")
        await self.check_ended()
        self.check_problems()

    def check_up_to_date(self, live: LiveTable) -> None:
        """What the chat shows of an open table is its current state: each seated person's view, and every button
        of the group's messages (a stale button would only be refused)."""
        table = live.table
        for seat in table.humans():
            s = table.seats[seat]
            shown = self.sent.latest.get(f"{table.table_id}:h{seat}:{s.user_id}")
            expected = self.host._hand(live, seat)
            if shown is None or (shown.text, shown.buttons) != (expected.text, expected.buttons):
                self.fail(f"{s.name} at {table.table_id} seat {seat} was not sent their current view")
        for msg in self.sent.latest.values():
            if msg.table_id != table.table_id or not isinstance(msg.audience, ChatRef):
                continue
            # A deal result's Review button is posted once and never renders again: it reviews a finished deal, and
            # is answered whatever version it carries.
            stale = [b.label for row in msg.buttons for b in row
                     if decode(b.payload).nonce != table.version and not is_review(decode(b.payload).action)]
            if stale:
                self.fail(f"the group's {msg.key} still offers buttons that are out of date: {stale}")

    def check_moving(self, live: LiveTable, parked: list[Parked]) -> None:
        table = live.table
        if table.status == "lobby" or not table.open:
            return
        seat = table.to_act
        if seat is None:
            self.fail(f"table {table.table_id} is playing and nobody has the turn")
            return
        mine = [p for p in parked if p.live is live]
        thinking = [p for p in mine if p.observation is not None]
        s = table.seats[seat]
        if s.bot_plays:
            if not any(p.task is live.bot_task for p in thinking):
                self.fail(f"table {table.table_id} stalls: a bot has seat {seat}'s turn and no bot is thinking")
            return
        user = UserRef(PLATFORM, s.user_id, s.name)
        hand = self.sent.latest.get(f"{table.table_id}:h{seat}:{s.user_id}")
        expected = self.host._hand(live, seat)
        if hand is None or (hand.text, hand.buttons) != (expected.text, expected.buttons):
            self.fail(f"{user.name} has the turn at {table.table_id} but was not sent their current view")
            return
        if not any(decode(b.payload).action[:2] in ("c:", "p:") for row in hand.buttons for b in row):
            self.fail(f"{user.name} has the turn at {table.table_id} and no move to press")
        if live.deadline == WAITING and table.options.away != "wait":
            self.fail(f"table {table.table_id} waits for {user.name} for good, but its away policy is "
                      f"{table.options.away}")
        if table.options.timer > 0 and live.deadline != WAITING:
            timers = [p for p in mine if p.task is live.timer_task]
            if not timers:
                self.fail(f"table {table.table_id}: {user.name}'s turn is timed and no timer runs")
            elif timers[0].deadline is not None and timers[0].deadline > self.clock.now() + table.options.timer:
                self.fail(f"table {table.table_id}: {user.name}'s timer runs out later than a turn's time from now")

    async def check_log(self) -> None:
        """Each open table is what its stored log replays to, and its stored row agrees."""
        for tid, live in list(self.host._tables.items()):
            table = live.table
            events = [e.data for e in await self.storage.events(tid)]
            rebuilt = replay(tid, table.chat, table.creator, events)
            if snapshot(rebuilt) != snapshot(table):
                diff = [k for k, v in snapshot(table).items() if snapshot(rebuilt)[k] != v]
                self.fail(f"table {tid}: the stored log replays to a different table ({diff})")
            row = await self.storage.get_table(tid)
            if row is None or row.status != table.status:
                self.fail(f"table {tid} is {table.status}, its stored row says {row.status if row else None}")
            elif live.deadline != row.deadline and not os.environ.get("CHAOS_SKIP_DEADLINE"):
                self.fail(f"table {tid}: the running turn's deadline is {live.deadline}, stored {row.deadline}")

    async def check_ended(self) -> None:
        """A table the host let go of has ended: finished with its record stored, or stopped."""
        for tid, table in list(self.known.items()):
            if tid in self.ended or tid in self.host._tables:
                continue
            self.ended.add(tid)
            row = await self.storage.get_table(tid)
            if table.open or row is None or row.status != table.status:
                self.fail(f"table {tid} left the host as {table.status}, stored as {row.status if row else None}")
                continue
            if f"{tid}:end" not in self.sent.latest:
                self.fail(f"table {tid} ended ({table.status}) and the group was not told")
            events = [e.data for e in await self.storage.events(tid)]
            rebuilt = replay(tid, table.chat, table.creator, events)
            if snapshot(rebuilt) != snapshot(table):
                self.fail(f"table {tid}: the stored log does not replay to the table as it ended")
            if events and events[-1] == {"e": "stop", "by": "expired"}:
                self.check_expired(tid, table, events)
            record = await self.storage.match_record(tid)
            if table.status == "stopped":
                if record is not None:
                    self.fail(f"table {tid} was stopped and stored a finished match")
                continue
            match = table.match
            assert match is not None
            if record is None:
                self.fail(f"table {tid} finished and its match was not stored")
                continue
            if is_family_record(record):  # a table switched to Bela or French belote in its lobby
                assert isinstance(match, FamilyMatch)
                report, expected = family_match_report(replay_family_record(record)), family_match_report(match)
            else:
                assert isinstance(match, Match)
                report, expected = match_report(replay_record(record)), match_report(match)
            if report != expected:
                self.fail(f"table {tid}: the stored record replays to {report['total']}, the table ended at "
                          f"{match.totals}")
            self.records_checked += 1
            for seat in table.humans():  # who sat there at the end gets the match in their statistics
                team = seat % 2
                won = int(match.winner == team)
                self.expected_stats[table.seats[seat].user_id] += Counter(
                    matches=1, wins=won, points=match.totals[team], deals=len(match.deals)
                )

    def check_expired(self, tid: str, table: Table, events: list[dict[str, Any]]) -> None:
        """A table stopped for want of people only once its time was up: the lobby's since it was opened, the
        match's since a person last acted (every person's event carries its time)."""
        before = replay(tid, table.chat, table.creator, events[:-1])
        times = [float(e["at"]) for e in events[:-1] if "at" in e]
        if before.status == "lobby":
            due = float(events[0]["at"]) + self.settings.lobby_minutes * 60
        else:
            due = max(times) + self.settings.idle_minutes * 60
        if due > self.clock.now():
            self.fail(f"table {tid} ({before.status}) was stopped for want of people at {self.clock.now()}, "
                      f"its time was up only at {due}")

    async def check_stats(self) -> None:
        """Each person's statistics count every finished match they played to the end, once."""
        for user in PEOPLE:
            stats = await self.storage.player_stats(PLATFORM, user.user_id)
            got = Counter() if stats is None else Counter(
                matches=stats.matches, wins=stats.wins, points=stats.points, deals=stats.deals
            )
            expected = self.expected_stats[user.user_id]
            if +got != +expected:
                self.fail(f"{user.name}'s statistics are {dict(got)}, their finished matches make {dict(expected)}")


def _cards_played(table: Table) -> int:
    deal = table.deal
    if deal is None or deal.phase != "play":
        return -1
    return sum(len(t.cards) for t in deal.tricks) + len(deal.trick)


async def run(world: World, steps: int) -> None:
    await world.boot()
    for step in range(steps):
        world.step = step
        if step == steps // 2 and not world.restarts:
            world.note(await world.restart())  # every run restarts at least once
        else:
            world.note(await world.one_step())
        await world.check()
        if step % 25 == 24:
            await world.check_log()
    # Play everything to its end: no table may be left waiting for something that never comes.
    for step in range(steps, steps + 20_000):
        if not world._open_tables():
            break
        world.step = step
        world.note(await world.one_step(draining=True))
        await world.check()
    else:
        world.fail(f"tables never ended: {sorted(world._open_tables())}")
    await world.check_log()
    await world.check_stats()
    world.coverage = await world.count_events()
    await world.shut()
    world.check_problems()


async def chaos(seed: int, path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
                steps: int) -> World:
    """One seed's run, on a database at ``path``."""
    monkeypatch.setattr(commands_module, "secrets", SeededSecrets(seed))
    monkeypatch.setattr(seating_module, "secrets", SeededSecrets(seed + 1))
    caplog.set_level(logging.ERROR, logger="bot")
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=32))  # parked bots hold threads (default: 6 here)
    world = World(seed, path, caplog)
    world.tasks.install(loop)
    try:
        await run(world, steps)
    finally:
        loop.set_task_factory(None)
        world.gate.open_all()
    return world


@pytest.mark.parametrize("seed", SEEDS)
async def test_chaos_at_many_tables_keeps_every_invariant(
    seed: int, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await chaos(seed, tmp_path / "chaos.sqlite3", caplog, monkeypatch, STEPS)
    assert world.ended, "the run ended no table, so nothing was checked at the end"
    print(f"\nseed {seed} (run {world.digest.hexdigest()[:12]}): {world.presses} presses "
          f"({world.stale_taken} taken from an older message, {world.crowd_joins} crowd joins), "
          f"{world.refused} refusals, "
          f"{world.gate.thoughts} bot moves, {world.restarts} restarts, {len(world.ended)} tables ended, "
          f"{world.records_checked} records replayed; logged: {dict(sorted(world.coverage.items()))}")


async def test_a_seed_is_the_same_run_every_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure's seed must bring the failure back: the same seed makes the same steps with the same outcomes."""
    first = await chaos(11, tmp_path / "first.sqlite3", caplog, monkeypatch, 150)
    again = await chaos(11, tmp_path / "again.sqlite3", caplog, monkeypatch, 150)
    assert first.step == again.step and first.coverage == again.coverage
    assert first.digest.hexdigest() == again.digest.hexdigest(), "two runs of one seed took different steps"
