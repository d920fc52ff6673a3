"""ProcessAgent: external programs (tiny scripts in tests/agents, run as separate processes) seated at a table."""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.ai.base import Agent
from bot.ai.registry import make_agent
from bot.ai.simple import RandomAgent
from bot.engine import Action, Bid, Match, Observation, Play, Rules, observe, parse_rules
from bot.engine.record import match_to_record
from bot.protocol.messages import deal_end_of
from bot.protocol.referee import AgentStartError, ProcessAgent

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "agents"
# The agent programs that import the project find it whether or not it is installed.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
SHORT = parse_rules({"target_score": 41})  # a match of a few deals keeps the slow cases fast


def script(name: str, *args: object) -> list[str]:
    return [sys.executable, str(AGENTS / f"{name}.py"), *map(str, args)]


def play_match(agents: list[Agent], seed: int | str, rules: Rules = SHORT) -> Match:
    """A referee loop: every action goes through the engine, so anything illegal that got through would raise."""
    match = Match(rules, seed)
    while not match.over:
        deal = match.deal
        obs = observe(deal, deal.to_act, (match.totals[0], match.totals[1]), match.hanging)
        match.apply(agents[deal.to_act].act(obs))
        if deal.phase == "done":
            report, hands = deal_end_of(deal)
            for agent in agents:
                agent.deal_end(report, hands)
    return match


class FirstLegal:
    """What tests/agents/first_legal.py does, in process: the yardstick for its answers."""

    name = "first-legal"

    def act(self, observation: Observation) -> Action:
        if observation.legal_calls:
            return Bid(observation.legal_calls[0])
        return Play(observation.legal_cards[0])

    def deal_end(self, report: dict[str, object], hands: list[list[str]], extra: object = None) -> None:
        return None

    def close(self) -> None:
        return None


def no_errors(agent: ProcessAgent) -> bool:
    return agent.errors == {"illegal": 0, "malformed": 0, "timeout": 0, "crash": 0}


@pytest.mark.parametrize("opponents", ["random", "easy"])
def test_first_legal_program_plays_whole_matches(opponents: str) -> None:
    for seed in ("p1", "p2"):
        transcript = io.StringIO()
        ours = [ProcessAgent(script("first_legal"), move_time=5, transcript=transcript) for _ in range(2)]
        try:
            seats: list[Agent] = [ours[0], make_agent(opponents, seed), ours[1], make_agent(opponents, seed)]
            match = play_match(seats, seed, parse_rules({}))
        finally:
            for agent in ours:
                agent.close()
        yardstick = play_match(
            [FirstLegal(), make_agent(opponents, seed), FirstLegal(), make_agent(opponents, seed)],
            seed,
            parse_rules({}),
        )
        assert match.over
        assert match_to_record(match) == match_to_record(yardstick)  # the program's answers, not fallbacks
        assert all(no_errors(agent) for agent in ours)
        assert ours[0].name == "first-legal"
        assert ours[0].decisions > 20
        lines = transcript.getvalue().splitlines()
        assert lines[0] == '> {"type":"hello","protocol":"belote-agent/1"}'
        assert lines[-1] == '> {"type":"quit"}'
        sent = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
        assert all(("hands" in m) == (m["type"] == "deal_end") for m in sent)
        assert sum(m["type"] == "deal_end" for m in sent) == 2 * len(match.deals)


def test_malformed_answers_are_counted_and_replaced_by_legal_actions() -> None:
    with ProcessAgent(script("malformed", 3), move_time=5) as agent:
        match = play_match([agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "m")
    assert match.over
    assert agent.errors["malformed"] == agent.decisions // 3 > 0
    assert agent.errors["illegal"] == agent.errors["timeout"] == agent.errors["crash"] == 0
    # After a line that is no answer the program may be out of step: it is started afresh each time.
    assert agent.restarts == agent.errors["malformed"]
    assert any("not valid JSON" in p for p in agent.problems)


def asked_of(match: Match, seat: int) -> list[str]:
    """What ``seat`` was asked for, in order: "call" or "card"."""
    asked: list[str] = []
    for deal in match.deals:
        asked += ["call"] * sum((deal.dealer + 1 + i) % 4 == seat for i in range(len(deal.calls)))
        asked += ["card"] * (8 if deal.result is not None else 0)
    return asked


def test_illegal_answers_are_counted_and_replaced_by_legal_actions() -> None:
    # Every second answer is wrong; whether some of those fall in an auction and some in the play depends on the
    # cards (a one-deal match where the program calls once has no wrong call), so try seeds until both do.
    for n in range(20):
        with ProcessAgent(script("illegal", 2), move_time=5) as agent:
            others = [RandomAgent(f"i{n}/{seat}") for seat in (0, 2, 3)]
            match = play_match([others[0], agent, others[1], others[2]], "i" if n == 0 else f"i{n}")
        assert len(asked_of(match, 1)) == agent.decisions
        if {"call", "card"} <= set(asked_of(match, 1)[1::2]):
            break
    assert match.over
    assert agent.errors["illegal"] == agent.decisions // 2 > 0
    assert agent.errors["malformed"] == agent.errors["timeout"] == agent.errors["crash"] == 0
    assert agent.restarts == 0  # one wrong move at a time is a wrong move, not a program out of step
    assert any("legal cards:" in p for p in agent.problems)
    assert any("is not a legal call now" in p for p in agent.problems)


def test_a_second_bad_answer_in_a_row_restarts_the_program() -> None:
    with ProcessAgent(script("illegal", 1), move_time=5) as agent:
        match = play_match([RandomAgent(1), agent, RandomAgent(2), RandomAgent(3)], "i2")
    assert match.over
    assert agent.errors["illegal"] == agent.decisions > 0
    assert agent.restarts == agent.decisions // 2
    assert any(p.endswith("the agent is restarted") for p in agent.problems)


def test_slow_answers_time_out_and_the_late_answer_is_never_taken_for_the_next() -> None:
    with ProcessAgent(script("slow", 5, 3.0), move_time=0.5) as agent:
        match = play_match([agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "s")
    assert match.over
    # Each run of the program answers four questions in time and misses the fifth; then it is started afresh.
    assert agent.errors["timeout"] == agent.decisions // 5 > 0
    assert agent.restarts == agent.errors["timeout"]
    # A late answer taken for the next question would have shown up as an illegal or out-of-step answer.
    assert agent.errors["illegal"] == agent.errors["malformed"] == agent.errors["crash"] == 0
    assert agent.slowest < 2.0  # the table never waited for the late answers


@pytest.mark.parametrize("when", ["thinking", "after"])
def test_a_program_that_dies_is_restarted_and_play_goes_on(when: str) -> None:
    with ProcessAgent(script("crashing", 4, when), move_time=5) as agent:
        match = play_match([RandomAgent(1), RandomAgent(2), agent, RandomAgent(3)], "c")
        first_pid = agent.pid
    assert match.over
    if when == "thinking":
        # Each run answers three questions and dies on the fourth.
        assert agent.errors["crash"] == agent.decisions // 4 > 0
    else:
        # Each run answers four questions; its death is seen before the next one, or while it is being asked.
        assert agent.decisions // 5 <= agent.errors["crash"] <= agent.decisions // 4
    assert agent.restarts == agent.errors["crash"]
    assert agent.errors["illegal"] == agent.errors["malformed"] == agent.errors["timeout"] == 0
    assert any("exited with status 3" in p and "giving up on purpose" in p for p in agent.problems)
    assert first_pid is not None


def test_restarts_stop_at_the_limit_and_the_table_still_finishes() -> None:
    with ProcessAgent(script("crashing", 1), move_time=5, max_restarts=2) as agent:
        match = play_match([agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "r")
    assert match.over
    assert agent.restarts == 2
    assert agent.decisions == 3  # the first run and two restarts each got one question
    assert agent.errors["crash"] > 3
    assert any("could not be restarted" in p for p in agent.problems)


def test_a_program_flooding_stderr_and_answering_deal_end_is_not_blocked_and_stays_in_step() -> None:
    # A match of one deal asks nothing after its deal_end, so the stray answer is never read: how many deals a match
    # lasts depends on the cards and the calls, so try seeds until a match has more than one.
    for n in range(20):
        with ProcessAgent(script("chatty"), move_time=5) as agent:
            others = [RandomAgent(f"f{n}/{seat}") for seat in (1, 2, 3)]
            match = play_match([agent, *others], f"f{n}")
        if len(match.deals) > 1:
            break
    assert match.over and len(match.deals) > 1
    assert agent.errors["timeout"] == agent.errors["crash"] == agent.errors["illegal"] == 0
    # Its answer to a deal_end is out of step: counted, and the program is restarted once for it (whether the line
    # comes before the next question or is read as its answer).
    assert 0 < agent.errors["malformed"] <= len(match.deals)
    assert agent.restarts == agent.errors["malformed"]


def test_close_sends_quit_and_the_program_exits() -> None:
    agent = ProcessAgent(script("first_legal"), move_time=5)
    pid = agent.pid
    assert pid is not None
    agent.close()
    assert agent.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # exited and reaped
    agent.close()  # twice is harmless


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ([str(ROOT / "no-such-agent")], "cannot start"),
        (script("bad_hello"), "speaks protocol 'belote-agent/0'"),
        ([sys.executable, "-c", "import sys; print('oops', file=sys.stderr); sys.exit(5)"], "exited with status 5"),
        ([sys.executable, "-c", "import time; time.sleep(30)"], "no hello within 0.5 s"),
        ("", "command is empty"),
    ],
)
def test_a_program_that_cannot_start_is_refused_with_the_reason(command: list[str] | str, says: str) -> None:
    # Half a second only where the wait itself is the test: a busy machine may take that long to start Python.
    with pytest.raises(AgentStartError) as caught:
        ProcessAgent(command, start_time=0.5 if "within 0.5 s" in says else 30)
    assert says in str(caught.value)


def test_a_command_line_string_is_split_like_a_shell_would() -> None:
    command = f"{sys.executable} '{AGENTS / 'first_legal.py'}'"
    with ProcessAgent(command, move_time=5) as agent:
        play_match([agent, RandomAgent(1), RandomAgent(2), RandomAgent(3)], "q")
    assert no_errors(agent)
    assert agent.command == command


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_belote_bot_agent_plays_through_the_protocol_exactly_as_in_process(level: str) -> None:
    seed = f"rt-{level}"
    command = [sys.executable, "-m", "bot", "agent", "--level", level, "--seed", seed]
    with ProcessAgent(command, move_time=5, env=ENV) as agent:
        assert agent.name == level
        match = play_match([RandomAgent(1), agent, RandomAgent(2), RandomAgent(3)], seed, parse_rules({}))
    assert no_errors(agent)
    in_process = play_match(
        [RandomAgent(1), make_agent(level, seed), RandomAgent(2), RandomAgent(3)], seed, parse_rules({})
    )
    assert match_to_record(match) == match_to_record(in_process)


def test_closing_a_seat_while_its_program_thinks_ends_the_wait_without_counting_a_failure() -> None:
    match = Match(SHORT, "close")
    obs = observe(match.deal, match.deal.to_act)
    agent = ProcessAgent(script("slow", 1, 30), move_time=20)
    answers: list[Action] = []
    thinking = threading.Thread(target=lambda: answers.append(agent.act(obs)))
    thinking.start()
    time.sleep(0.3)
    started = time.monotonic()
    agent.close()
    thinking.join(timeout=10)
    assert not thinking.is_alive()
    assert time.monotonic() - started < 5
    assert answers == [Bid(obs.legal_calls[0])]
    assert agent.act(obs) in match.legal_actions()  # a late question after closing still gets a legal answer
    assert no_errors(agent)
