"""`make run` serves with the production server, `make dev` with the reloading development
server (issue 26, item 20): each target run as a person runs it (HOST, PORT; the database
migrated first, the phones' addresses printed), minus the install steps, which the test's
own environment has done (``make -o``: taken as up to date).

Which server answered shows in its ``Server`` header: gunicorn's ``gunicorn``, Werkzeug's
``Werkzeug/<version> Python/<version>``; Werkzeug's development server also prints its red
warning ("This is a development server. Do not use it in a production deployment").

Marked ``server``: it runs once, in the SQLite pass (``make test``).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from .gunicorn_server import request, shell_server

pytestmark = pytest.mark.server

BIN = Path(sys.executable).parent  # the environment running the tests: its flask, gunicorn, pybabel
DEVELOPMENT_WARNING = "This is a development server"


def make(target: str) -> str:
    """``make <target>`` on 127.0.0.1 at $PORT with this environment's programs, the install
    steps skipped."""
    skipped = " ".join(f"-o {step}" for step in (".venv/.install-run.stamp", "system-deps", "compile-translations"))
    return f"make --no-print-directory {skipped} {target} HOST=127.0.0.1 PORT=$PORT BIN={shlex.quote(str(BIN))}"


def test_make_run_serves_with_gunicorn_and_gunicorn_conf(tmp_path):
    with shell_server(make("run"), tmp_path, "Booting worker with pid") as (server, output):
        status, headers, _ = request(server, "GET", "/api/v1/health", timeout=120)
        assert status == 200
        assert headers["Server"] == "gunicorn"
    log = "".join(output)
    assert f"http://127.0.0.1:{server.port}" in log  # the addresses printout
    assert "Using worker: BoundedGeventWorker" in log  # gunicorn.conf.py's worker
    assert DEVELOPMENT_WARNING not in log


def test_make_dev_serves_with_the_reloading_development_server(tmp_path):
    with shell_server(make("dev"), tmp_path, "Debugger is active") as (server, output):
        status, headers, _ = request(server, "GET", "/api/v1/health", timeout=120)
        assert status == 200
        assert headers["Server"].startswith("Werkzeug/")
    log = "".join(output)
    assert f"http://127.0.0.1:{server.port}" in log
    assert "Restarting with" in log  # the reloader
