"""`belote-bot score` run as a real process: exit status, the JSON answer's shape, errors without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "score", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_text_line_in_words() -> None:
    done = run("купа", "102", "60", "белот", "ние", "--lang", "bg")
    assert done.returncode == 0, done.stderr
    first, *steps = done.stdout.strip().splitlines()
    assert first == "Ние 12 : Вие 6 (изкарана игра)"
    assert steps[0].startswith("1. Игра: купа") and "белот" in done.stdout


def test_croatian_answer_and_explanation() -> None:
    # The score line keeps the Bulgarian and English words; the answer and every step are in Croatian.
    done = run("купа", "102", "60", "белот", "ние", "--lang", "hr")
    assert done.returncode == 0, done.stderr
    first, *steps = done.stdout.strip().splitlines()
    assert first == "Mi 12 : Vi 6 (igra je prošla)"
    assert steps[0] == "1. Igra: herc, zvao: Mi."
    assert "Mi: bela ×1, 20 bodova (bela se nikad ne uspoređuje)." in steps[2]
    assert steps[-1] == "8. Upisano: Mi 12, Vi 6; visi nakon dijeljenja: 0."
    wrong = run("купа 100 50", "--lang", "hr")
    assert wrong.returncode == 1 and "Traceback" not in wrong.stderr
    assert "moraju dati ukupno 162 (karte i zadnji štih), a 100 + 50 = 150" in wrong.stderr


def test_json_request_from_a_file(tmp_path: Path) -> None:
    request = {"contract": "clubs", "points": {"A": 81}, "hanging_in": 4}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    done = run("--json", str(path), "--lang", "en")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"raw", "score", "hanging", "outcome", "explanation", "teams"}
    assert answer["raw"] == {"A": 81, "B": 81} and answer["score"] == {"A": 0, "B": 8}
    assert answer["hanging"] == 12 and answer["outcome"] == "hanging"
    assert answer["teams"] == {"A": "We", "B": "You"}
    assert all(isinstance(step, str) for step in answer["explanation"])


def test_json_request_from_standard_input_with_teams_and_an_option() -> None:
    request = {"contract": "hearts", "multiplier": 2, "points": {"A": 81}}
    done = run("--json", "-", "--teams", "Ана", "Боби", "--rule", "contra_tie=split", stdin=json.dumps(request))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["score"] == {"A": 0, "B": 16} and answer["hanging"] == 16
    assert answer["teams"] == {"A": "Ана", "B": "Боби"}


def test_text_line_answered_as_json() -> None:
    done = run("hearts 102 A belote B tierce:K", "--output", "json", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == {"A": 12, "B": 8}


def test_invalid_text_names_the_field_without_a_traceback() -> None:
    done = run("купа 100 50", "--lang", "bg")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "points:" in done.stderr and "162" in done.stderr
    assert "Traceback" not in done.stderr


def test_invalid_json_request_answers_with_errors_as_json() -> None:
    request = {"contract": "no-trumps", "points": {"A": 80}, "declarations": {"B": ["tierce"]}, "rules": {"x": 1}}
    done = run("--json", "-", "--lang", "en", stdin=json.dumps(request))
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    assert {e["field"] for e in errors} == {"declarations.B[0]", "rules.x"}
    assert "Traceback" not in done.stderr


def test_malformed_json_and_missing_file() -> None:
    done = run("--json", "-", "--lang", "en", stdin="{not json")
    assert done.returncode == 1 and "not valid JSON (line 1" in done.stderr and "Traceback" not in done.stderr
    done = run("--json", "/nonexistent/deal.json", "--lang", "bg")
    assert done.returncode == 1 and "не може да се прочете" in done.stderr and "Traceback" not in done.stderr


def test_bad_option_and_bad_usage() -> None:
    done = run("купа 102", "--rule", "contra_tie=sometimes", "--lang", "en")
    assert done.returncode == 1 and "rules.contra_tie" in done.stderr and "Traceback" not in done.stderr
    assert run().returncode == 2


def test_help_documents_the_grammar() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "score", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0
    for example in ("купа 102 60", "hearts 102 A belote B tierce:K", "висящи 8", "капо"):
        assert example in done.stdout


def test_bela_and_french_json_requests() -> None:
    # The examples of formats §7.5, with a table option given on the command line.
    bela = {"variant": "bela", "declarer": "A", "points": {"A": 92}, "valat": None,
            "declarations": {"A": ["carre:J", "belote"], "B": ["quarte"]}, "hanging_in": 0, "rules": {}}
    done = run("--json", "-", "--lang", "en", stdin=json.dumps(bela))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["score"], answer["outcome"], answer["fell"]) == ({"A": 312, "B": 70}, "passed", False)
    french = {"variant": "french", "points": {"A": 71}, "declarations": {"A": ["tierce"]}}
    done = run("--json", "-", "--rule", "tie=litige", "--lang", "fr", stdin=json.dumps(french))
    answer = json.loads(done.stdout)
    assert (answer["score"], answer["hanging"], answer["outcome"]) == ({"A": 0, "B": 91}, 91, "litige")
    assert answer["teams"] == {"A": "Nous", "B": "Vous"}
    # An option of another game, and a two-player deal without the other player's points (cards stay out of
    # play in bela-2): located errors, no traceback.
    done = run("--json", "-", "--rule", "contra_tie=split", "--lang", "en", stdin=json.dumps(french))
    assert done.returncode == 1 and json.loads(done.stdout)["errors"][0]["field"] == "rules.contra_tie"
    done = run("--json", "-", "--lang", "en", stdin=json.dumps({"variant": "bela-2", "points": {"0": 80}}))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["errors"] == [{"field": "points", "message": 'missing the points of "1": in '
                                                  "bela-2 some cards stay out of play, so every player's points "
                                                  "are needed"}]


def test_bela_and_french_lines_in_words() -> None:
    done = run("bela", "mi", "92", "zvanje", "50", "bela", "--lang", "hr")
    assert done.returncode == 0, done.stderr
    first, *steps = done.stdout.strip().splitlines()
    assert first == "Bela: Mi 162 : Vi 70 (prošli)"
    assert steps[0] == "1. Zvali su Mi." and steps[-1] == "6. Upisano: Mi 162, Vi 70; visi nakon dijeljenja: 0."
    done = run("belote pris 65 belote", "--lang", "fr", "--output", "json")
    assert json.loads(done.stdout)["score"] == {"A": 20, "B": 162}
    wrong = run("belote nous 90 anonce 50", "--lang", "fr")
    assert wrong.returncode == 1 and "Traceback" not in wrong.stderr
    said = "«\u00a0anonce\u00a0» n'est pas compris\u202f; vouliez-vous dire «\u00a0annonce\u00a0»\u202f?"
    assert said in wrong.stderr
