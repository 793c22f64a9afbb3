"""The command line: `scorepad settle FILE` (the installed console script) and
`flask --app scorepad settle FILE` (the Flask CLI, through the `runner` fixture).

Expected results come from the examples' `expected` (tests/data/examples/).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorepad.cli import network_addresses, serving_lines
from tests.conftest import fresh_app
from tests.test_hosts import lan_address

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


# ---------------------------------------------------------------- flask --app scorepad addresses

# A machine's names as hosts.machine_names() gives them: loopback, link-local, private and
# public addresses of both families, the host name and its mDNS name.
NAMES = frozenset(
    {
        "127.0.0.1",
        "::1",
        "192.168.1.20",
        "10.0.0.5",
        "93.184.216.34",
        "169.254.3.4",
        "fe80::1c2d",
        "2a00:1450::5",
        "fd00::2",
        "clubpc",
        "clubpc.local",
    }
)


def test_every_address_lists_the_reachable_ipv4_addresses_private_first():
    assert serving_lines("0.0.0.0", 5000, None, NAMES) == [
        "Phones on this network open: http://10.0.0.5:5000",
        "  or: http://192.168.1.20:5000",
        "  or: http://93.184.216.34:5000",
        "Open it on this computer too: the share box’s QR code then carries it.",
    ]


def test_every_ipv6_address_adds_the_reachable_ipv6_addresses_in_brackets():
    assert network_addresses(NAMES, ipv6=True) == [
        "10.0.0.5",
        "192.168.1.20",
        "93.184.216.34",
        "fd00::2",
        "2a00:1450::5",
    ]
    assert serving_lines("[::]", 8000, None, NAMES)[-2] == "  or: http://[2a00:1450::5]:8000"


def test_public_url_is_the_address_whatever_the_server_listens_on():
    for host in ("0.0.0.0", "127.0.0.1"):
        lines = serving_lines(host, 5000, "https://scores.club.example/barbu", NAMES)
        assert lines[0] == "Phones open: https://scores.club.example/barbu/"


def test_a_loopback_server_says_phones_cannot_open_it():
    assert serving_lines("127.0.0.1", 5001, None, NAMES) == [
        "This computer only: http://127.0.0.1:5001",
        "Phones cannot open it: serve them with `make run HOST=0.0.0.0`.",
    ]
    assert serving_lines("::1", 5001, None, NAMES)[0] == "This computer only: http://[::1]:5001"


def test_a_server_on_one_address_names_it():
    assert serving_lines("192.168.1.20", 5000, None, NAMES) == ["Phones open: http://192.168.1.20:5000"]


def test_short_ipv4_forms_are_read_as_flask_run_reads_them():
    # `flask run --host 0` listens on every address (the socket library reads "0" as 0.0.0.0)
    # and --host 127.1 on 127.0.0.1: the probe found "Phones open: http://0:5000" and
    # "Phones open: http://127.1:5000", which no phone can open.
    assert serving_lines("0", 5000, None, NAMES)[0] == "Phones on this network open: http://10.0.0.5:5000"
    assert serving_lines("127.1", 5000, None, NAMES) == [
        "This computer only: http://127.0.0.1:5000",
        "Phones cannot open it: serve them with `make run HOST=0.0.0.0`.",
    ]
    assert serving_lines("192.168.276", 5000, None, NAMES) == ["Phones open: http://192.168.1.20:5000"]
    assert serving_lines("999.1.1.1", 5000, None, NAMES) == ["Phones open: http://999.1.1.1:5000"]


def test_a_machine_without_a_network_address_says_so():
    lines = serving_lines("0.0.0.0", 5000, None, {"127.0.0.1", "::1", "fe80::1", "clubpc"})
    assert lines[0] == "No network address found: is this computer on the club’s Wi-Fi?"


def test_flask_addresses_prints_this_machines_lan_address(runner):
    address = lan_address()  # read with ifaddr by the test, not by the app
    result = runner.invoke(args=["addresses", "--host", "0.0.0.0", "--port", "5099"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Phones on this network open: http://")
    if not address.startswith("169.254."):
        assert f"http://{address}:5099" in result.output
    assert "127.0.0.1" not in result.output


def test_flask_addresses_prints_public_url_when_set(tmp_path):
    for app in fresh_app(tmp_path, PUBLIC_URL="https://scores.club.example/"):
        result = app.test_cli_runner().invoke(args=["addresses", "--host", "0.0.0.0"])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == "Phones open: https://scores.club.example/"


def test_flask_addresses_defaults_to_this_computer_only(runner):
    result = runner.invoke(args=["addresses"])
    assert result.output.splitlines()[0] == "This computer only: http://127.0.0.1:5000"


# ---------------------------------------------------------------- the Makefile's install sets


@pytest.fixture
def fake_checkout(tmp_path):
    """The Makefile and pyproject.toml in a folder whose venv's pip only writes down how it
    was called (one line per call, in pip.log)."""
    root = Path(__file__).parent.parent
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(root / name, tmp_path / name)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "pip").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "pip.log"}\n')
    for tool in ("python", "pip"):
        (bin_dir / tool).chmod(0o755)
    past = time.time() - 1000
    os.utime(tmp_path / "pyproject.toml", (past, past))
    return tmp_path


def make_installs(checkout: Path, stamp: str) -> list[str]:
    """The pip calls `make .venv/<stamp>` makes in ``checkout`` (new lines of pip.log)."""
    log = checkout / "pip.log"
    before = log.read_text().splitlines() if log.exists() else []
    done = subprocess.run(["make", "-s", f".venv/{stamp}"], cwd=checkout, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    after = log.read_text().splitlines() if log.exists() else []
    return after[len(before) :]


RUN, TEST = ".install-run.stamp", ".install-test.stamp"


def test_make_run_installs_what_running_needs_and_make_test_adds_the_extras(fake_checkout):
    assert make_installs(fake_checkout, RUN) == ["install -e ."]
    assert make_installs(fake_checkout, RUN) == []
    assert make_installs(fake_checkout, TEST) == ["install -e .[test]"]
    assert make_installs(fake_checkout, TEST) == []
    assert make_installs(fake_checkout, RUN) == []


def test_make_test_first_leaves_make_run_nothing_to_install(fake_checkout):
    assert make_installs(fake_checkout, TEST) == ["install -e .[test]"]
    assert make_installs(fake_checkout, RUN) == []


def test_changed_dependencies_are_installed_again(fake_checkout):
    make_installs(fake_checkout, TEST)
    older = time.time() - 2000
    for stamp in (RUN, TEST):
        os.utime(fake_checkout / ".venv" / stamp, (older, older))
    assert make_installs(fake_checkout, RUN) == ["install -e ."]
    assert make_installs(fake_checkout, TEST) == ["install -e .[test]"]


@pytest.mark.parametrize(("args", "host"), [((), "127.0.0.1"), (("HOST=0.0.0.0",), "0.0.0.0")])
def test_make_run_serves_and_prints_on_the_same_host(args, host):
    root = Path(__file__).parent.parent
    done = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", "run", "PORT=5099", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"flask --app scorepad addresses --host {host} --port 5099" in done.stdout
    assert f"gunicorn --bind {host}:5099 " in done.stdout
