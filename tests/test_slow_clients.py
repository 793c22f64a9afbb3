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
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from .gunicorn_server import ROOT, Server, procfile, request

pytestmark = pytest.mark.server

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
SLOW_SOCKETS = 50
GUARD_S = 10  # a client timeout that fails the test instead of hanging it; not a latency target


@pytest.fixture
def procfile_server(tmp_path) -> Iterator[tuple[Server, list[str]]]:
    """The Procfile's command with one worker on a fresh SQLite file; its output lines."""
    with procfile(tmp_path) as served:
        yield served


def test_the_board_answers_while_50_sockets_send_their_requests_slowly(procfile_server):
    server, output = procfile_server
    status, _, data = request(server, "POST", "/api/v1/games", EXAMPLE["game"], timeout=120)  # the worker loads the app
    assert status == 201, data
    live = f"/b/{json.loads(data)['view_token']}/live"
    assert "Using worker: BoundedGeventWorker" in "".join(output)  # the Procfile's gunicorn reads gunicorn.conf.py

    with ExitStack() as stack:
        for _ in range(SLOW_SOCKETS):
            slow = stack.enter_context(socket.create_connection((server.host, server.port)))
            slow.sendall(f"GET {live} HTTP/1.1\r\nHost: {server.host}\r\n".encode())  # never finished
        # Accepted in order: this poll reaches the worker after all 50 slow sockets.
        status, headers, _ = request(server, "GET", live, timeout=GUARD_S)
        assert status == 200
        status, _, _ = request(server, "GET", live, headers={"If-None-Match": headers["ETag"]}, timeout=GUARD_S)
        assert status == 304
