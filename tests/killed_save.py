"""Workers that die in the middle of a change (run by tests/test_killed_save.py as a process of
its own): ``python -m tests.killed_save <database URL> <game id>:<edit token>:<action> …``.

For each game, for ``kill at`` = 1, 2, … it forks a worker that makes one change of the game (``record``,
``edit``, ``undo`` or ``confirm``) through scorepad.services, as a request would, and kills
itself with SIGKILL when the database driver is about to run statement number ``kill at``
(1-based) of that change, its COMMIT counted as the last one: no rollback, no commit, no
clean-up, as when the operating system ends a worker. After each, this process reads the game's
export (rounds with statuses, and history) afresh. It stops after the first worker that was not
killed (it made the whole change). It prints, as JSON, a list per game of one ``{"kill_at",
"exit", "export"}`` per worker.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

from sqlalchemy import event

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import confirmation, games, history, rounds

# Round 3 of the game the test starts (Anne declares No Tricks; Beth doubles her), and round 1
# changed: the worked No Queens with Beth's queen given to Cath.
RECORD = {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [3, 4, 3, 3]}}
EDIT = {
    "contract": "no-queens",
    "doubles": [[1, 0], [1, 2], [1, 3], [2, 0], [0, 2]],
    "outcome": {"queens": [1, 0, 2, 1]},
}


def change(action: str, game_id: int, token: str, kill_at: int) -> None:
    """In a forked worker: the change ``action``, killed at statement ``kill_at``."""
    db.engine.dispose(close=False)  # the parent's pooled connections stay the parent's
    found = games.authorize(game_id, token)
    assert found is not None
    stored = found[0]
    count = 0

    def count_or_die(*_args: object) -> None:
        nonlocal count
        count += 1
        if count == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    event.listen(db.engine, "before_cursor_execute", count_or_die)
    event.listen(db.engine, "commit", count_or_die)  # the last step: killed just before COMMIT
    if action == "record":
        rounds.record_round(stored, RECORD)
    elif action == "edit":
        rounds.replace_round(stored, 1, EDIT)
    elif action == "undo":
        rounds.undo_round(stored)
    else:
        confirmation.confirm_round(stored, 1)


def main(url: str, *changes: str) -> None:
    """Fork the workers and print what each left (see the module's docstring)."""
    config = type("Config", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url})
    app = create_app(config)
    with app.app_context():
        print(json.dumps([kill_one_by_one(*spec.split(":")) for spec in changes]))


def kill_one_by_one(game_id: str, token: str, action: str) -> list[dict[str, Any]]:
    """The workers of one change, each killed one statement later, then one that finishes."""
    runs: list[dict[str, Any]] = []
    for kill_at in range(1, 100):
        db.session.remove()
        db.engine.dispose()
        pid = os.fork()
        if pid == 0:
            try:
                change(action, int(game_id), token, kill_at)
            finally:
                os._exit(0)  # a forked worker never returns into the parent's code
        _pid, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        stored = db.session.get(StoredGame, int(game_id))
        runs.append({"kill_at": kill_at, "exit": code, "export": history.export_stored(stored)})
        if code != -signal.SIGKILL:
            break
    return runs


if __name__ == "__main__":
    main(*sys.argv[1:])
