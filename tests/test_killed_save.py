"""A worker killed mid-save leaves neither a change without its history row nor a history row
without its change (issue 15): each change (record, edit, undo, confirm) is made by a worker
(tests/killed_save.py) killed with SIGKILL just before each statement it sends the database in
turn, its COMMIT last; then by one left to finish. After every kill the game's export (rounds,
statuses, history) is exactly as before; after the whole change it has the change and one more
history entry; and the history replayed always gives the rounds (scoring.trust.replay). On
SQLite and PostgreSQL alike (TEST_DATABASE_URL)."""

import json
import subprocess
import sys
from pathlib import Path

from scorepad.scoring.trust import replay
from tests.test_api import NEW_GAME, WORKED_NO_QUEENS, create, fetch, post_round
from tests.test_trust_api import NO_HEARTS

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("contract", "trump", "start_rank", "doubles", "outcome", "status")


def replays(export: dict) -> bool:
    """True when the export's history replayed gives its rounds and their statuses."""
    rebuilt = [{**dict(r.round), "status": r.status} for r in replay(export["history"])]
    return rebuilt == [{k: rnd[k] for k in KEYS if k in rnd} for rnd in export["rounds"]]


#: Each change, and the rounds after it: a third round recorded; round 1 edited, or confirmed:
#: still two; round 2 undone: one.
CHANGES = {"record": 3, "edit": 2, "undo": 1, "confirm": 2}


def test_a_worker_killed_at_any_statement_of_a_change_leaves_the_game_as_before(app, client):
    games, before = {}, {}
    for action in CHANGES:
        games[action] = game = create(client, NEW_GAME)
        for doc in (WORKED_NO_QUEENS, NO_HEARTS):
            assert post_round(client, game, doc).status_code == 201
        before[action] = fetch(client, game)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    specs = [f"{games[a]['id']}:{games[a]['edit_token']}:{a}" for a in CHANGES]
    done = subprocess.run(
        [sys.executable, "-m", "tests.killed_save", url, *specs], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    for action, runs in zip(CHANGES, json.loads(done.stdout), strict=True):
        *killed, whole = runs
        assert len(killed) >= 3, action  # at least the lock, the change and the COMMIT were kill points
        for run in killed:
            assert run["exit"] == -9, (action, run["kill_at"])
            assert run["export"] == before[action], f"{action} killed at statement {run['kill_at']}"
        assert whole["exit"] == 0, action
        after = fetch(client, games[action])
        assert whole["export"] == after
        assert len(after["rounds"]) == CHANGES[action]
        assert after["history"][:-1] == before[action]["history"] and after["history"][-1]["action"] == action
        assert replays(before[action]) and replays(after)
