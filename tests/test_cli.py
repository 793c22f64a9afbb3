"""The command line: `scorepad settle FILE` (the installed console script) and
`flask --app scorepad settle FILE` (the Flask CLI, through the `runner` fixture).

Expected results come from the examples' `expected` (tests/data/examples/).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES_DIR = Path(__file__).parent / "data" / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
SCOREPAD = Path(sys.executable).parent / "scorepad"

# Anne declares No Queens, No Hearts, then No Tricks, where the tricks add up to 12.
BAD_TRICKS = {
    "format": "barbu-scorepad/game@1",
    "players": ["Anne", "Beth", "Cath", "Diana"],
    "first_declarer": 0,
    "preset": "tournament",
    "rounds": [
        {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}},
        {"contract": "no-hearts", "doubles": [], "outcome": {"hearts": [4, 3, 3, 3], "ace": 0}},
        {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 2]}},
    ],
}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def settle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SCOREPAD), "settle", *args], input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=60
    )


def write(tmp_path: Path, document, name: str = "game.json") -> Path:
    path = tmp_path / name
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def assert_settled_as_expected(output: dict, example: dict) -> None:
    assert output["format"] == "barbu-scorepad/game@1"
    assert output["players"] == example["game"]["players"]
    assert isinstance(output["preset"], dict)  # an export always carries the whole preset
    assert [{k: r[k] for k in ("number", "declarer", "result")} for r in output["rounds"]] == example["expected"][
        "rounds"
    ]
    assert output["standings"] == example["expected"]["standings"]


@pytest.fixture(params=EXAMPLES, ids=[p.stem for p in EXAMPLES])
def example(request) -> dict:
    return load(request.param)


def test_the_console_script_is_installed():
    assert SCOREPAD.exists(), f"{SCOREPAD} missing: run `make test` (it installs the test extras)"


# ---------------------------------------------------------------- scorepad settle


def test_settle_prints_every_result_and_the_standings(tmp_path, example):
    done = settle(str(write(tmp_path, example["game"])))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert_settled_as_expected(json.loads(done.stdout), example)


def test_settle_reads_stdin_for_a_dash():
    example = load(EXAMPLES_DIR / "house-rules.json")
    done = settle("-", stdin=json.dumps(example["game"], ensure_ascii=False))
    assert done.returncode == 0, done.stderr
    assert_settled_as_expected(json.loads(done.stdout), example)


def test_settle_accepts_its_own_export(tmp_path):
    example = load(EXAMPLES[0])
    first = settle(str(write(tmp_path, example["game"])))
    again = settle("-", stdin=first.stdout)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_settle_names_the_round_whose_tricks_do_not_add_up(tmp_path):
    done = settle(str(write(tmp_path, BAD_TRICKS)))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("rounds[2].outcome.tricks: ")
    assert "12" in done.stderr and "13" in done.stderr


def test_settle_refuses_invalid_input_on_stdin_too():
    done = settle("-", stdin=json.dumps(BAD_TRICKS))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("rounds[2].outcome.tricks: ")


@pytest.mark.parametrize(
    "text",
    ['{"players": ["Anne", ', "", "not json at all", "[1, 2, 3]"],
    ids=["truncated", "empty", "not-json", "not-an-object"],
)
def test_settle_refuses_what_is_not_a_game_document(tmp_path, text):
    done = settle(str(write(tmp_path, text)))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip()


def test_settle_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps({**BAD_TRICKS, "rounds": [], "title": "Café"}, ensure_ascii=False).encode("latin-1"))
    done = settle(str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip()


def test_settle_refuses_a_missing_file(tmp_path):
    done = settle(str(tmp_path / "nowhere.json"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert "nowhere.json" in done.stderr


# ---------------------------------------------------------------- flask --app scorepad settle


def test_flask_settle_prints_the_expected_results(runner, tmp_path, example):
    result = runner.invoke(args=["settle", str(write(tmp_path, example["game"]))])
    assert result.exit_code == 0, result.output
    assert_settled_as_expected(json.loads(result.stdout), example)


def test_flask_settle_reads_stdin_for_a_dash(runner):
    example = load(EXAMPLES[0])
    result = runner.invoke(args=["settle", "-"], input=json.dumps(example["game"]))
    assert result.exit_code == 0, result.output
    assert_settled_as_expected(json.loads(result.stdout), example)


def test_flask_settle_refuses_invalid_input_with_status_2(runner, tmp_path):
    result = runner.invoke(args=["settle", str(write(tmp_path, BAD_TRICKS))])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("rounds[2].outcome.tricks: ")
