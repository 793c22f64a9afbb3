"""Slow clients do not take the board offline (issue 12, Availability): the Procfile's own
command (gunicorn with gunicorn.conf.py's gevent worker), one worker, 50 sockets that each
send a request line and one header line and then nothing more; a board poll is still answered.

With a synchronous worker the poll waits behind the first slow socket until gunicorn's
timeout; with a stock gthread worker each slow socket holds a thread. The poll's client
timeout only keeps such a failure from hanging the suite: it is no speed target
(bench/slow_clients.py measures the latency, bench/README.md).

Marked ``server``: it tests the HTTP server, not the database, so it runs once, in the
SQLite pass (``make test``), on a SQLite file whatever TEST_DATABASE_URL says.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from .gunicorn_server import ROOT, Server, free_port, request

pytestmark = pytest.mark.server

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
SLOW_SOCKETS = 50
GUARD_S = 10  # a client timeout that fails the test instead of hanging it; not a latency target


def procfile_command() -> str:
    """The Procfile's ``web:`` command, as a platform runs it."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:").strip()
    raise AssertionError("the Procfile has no web process")


@pytest.fixture
def procfile_server(tmp_path) -> Iterator[tuple[Server, list[str]]]:
    """The Procfile's command run from the repository root with PORT set and one worker, on a
    fresh SQLite file (it migrates it first); its output lines. Ready once gunicorn has bound
    its port and boots its worker: connections made from then on wait in the listen queue."""
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'slow.sqlite3'}",
        "SECRET_KEY": "slow-clients-test",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",  # flask, gunicorn
    }
    process = subprocess.Popen(
        ["sh", "-c", procfile_command()],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # the shell, flask and gunicorn's processes: one group to stop
    )
    lines: list[str] = []
    booted = threading.Event()

    def read_output() -> None:
        for line in process.stdout or ():
            lines.append(line)
            if "Booting worker with pid" in line:
                booted.set()
        booted.set()  # the command ended: the test fails on what it printed

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        assert booted.wait(120) and process.poll() is None, "".join(lines)
        yield Server(process, "127.0.0.1", port, tmp_path / "unused.log"), lines
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=15)
        if process.stdout:
            process.stdout.close()


def test_the_board_answers_while_50_sockets_send_their_requests_slowly(procfile_server):
    server, output = procfile_server
    status, _, data = request(server, "POST", "/api/v1/games", EXAMPLE["game"], timeout=120)  # the worker loads the app
    assert status == 201, data
    live = f"/b/{json.loads(data)['view_token']}/live"
    assert "Using worker: gevent" in "".join(output)  # the Procfile's gunicorn reads gunicorn.conf.py

    with ExitStack() as stack:
        for _ in range(SLOW_SOCKETS):
            slow = stack.enter_context(socket.create_connection((server.host, server.port)))
            slow.sendall(f"GET {live} HTTP/1.1\r\nHost: {server.host}\r\n".encode())  # never finished
        # Accepted in order: this poll reaches the worker after all 50 slow sockets.
        status, headers, _ = request(server, "GET", live, timeout=GUARD_S)
        assert status == 200
        status, _, _ = request(server, "GET", live, headers={"If-None-Match": headers["ETag"]}, timeout=GUARD_S)
        assert status == 304
