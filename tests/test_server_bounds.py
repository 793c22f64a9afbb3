"""Slow request bodies do not take the plain server down (issue 26, item 3): the Procfile's own
command (gunicorn with gunicorn.conf.py's worker, scorepad/gevent_worker.py), one worker of
1000 connections, on loopback.

- A body that trickles in (a byte every half second) is answered 408 and closed within its
  deadline (5 s, plus a second per 2 KiB received), long before it has all arrived.
- One client address holds at most a quarter of a worker's connections: 1000 / 4 = 250. The
  251st is answered 429 at once; a club's 40 phones behind one NAT address, 6 connections each
  (a browser's most per host), are 240 and all served.
- 1,100 sockets from one address (127.0.0.2: Linux answers the whole of 127/8) that each send a
  POST's headers and then a byte of the body every 2 s, more than the worker's 1000
  connections: a round's save and a board read from another address are still answered. With
  gunicorn's stock gevent worker they wait in the listen queue behind the attack.

Client timeouts (``GUARD_S``) only keep a failure from hanging the suite: nothing here is a
speed target (bench/slow_bodies.py measures the times, bench/README.md "Slow bodies").

Marked ``server``: it tests the HTTP server, not the database, so it runs once, in the SQLite
pass (``make test``), on a SQLite file whatever TEST_DATABASE_URL says.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack, closing

import pytest

from .gunicorn_server import ROOT, Server, bearer, procfile, request

pytestmark = pytest.mark.server

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
GUARD_S = 20  # a client timeout that fails the test instead of hanging it; not a latency target
SHARE = 1000 // 4  # gunicorn.conf.py's worker_connections, a quarter per address
ATTACKER = "127.0.0.2"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[Server, dict]]:
    """The Procfile's server (one worker) and a game made through its API (its JSON answer)."""
    with procfile(tmp_path_factory.mktemp("bounds")) as (server, _output):
        game = {**EXAMPLE["game"], "rounds": []}
        status, _, data = request(server, "POST", "/api/v1/games", game, timeout=120)  # the worker loads the app
        assert status == 201, data
        yield server, json.loads(data)


def connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A connection to the server from loopback address ``source``."""
    return socket.create_connection((server.host, server.port), timeout=GUARD_S, source_address=(source, 0))


def read_answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or the guard times out)."""
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_a_body_that_trickles_in_is_answered_408_before_it_has_arrived(served):
    server, _game = served
    with closing(connect(server)) as sock:
        sock.sendall(
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 60\r\n\r\n"
        )
        sock.settimeout(0.5)  # a byte every half second: the whole body would take 30 s
        answer = b""
        for _byte in range(60):
            try:
                sock.sendall(b" ")
                answer = sock.recv(4096)
            except TimeoutError:
                continue  # nothing answered yet: the next byte
            except ConnectionResetError:
                break
            break
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), answer


def test_one_address_holds_at_most_a_quarter_of_the_connections(served):
    """250 connections from 127.0.0.3 that have sent half a request are held; the 251st from
    that address is answered 429 and closed; another address is still served."""
    server, game = served
    with ExitStack() as stack:
        for _ in range(SHARE):
            held = stack.enter_context(closing(connect(server, "127.0.0.3")))
            held.sendall(b"GET /api/v1/health HTTP/1.1\r\n")  # never finished (headers time out in 10 s)
        with closing(connect(server, "127.0.0.3")) as one_more:
            assert read_answer(one_more).startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
        status, _, _ = request(server, "GET", "/api/v1/health", timeout=GUARD_S)
        assert status == 200


def test_a_clubs_40_phones_behind_one_address_are_all_served(served):
    """240 connections open at once from one address (40 phones x 6), then a request on each."""
    server, _game = served
    with ExitStack() as stack:
        phones = [stack.enter_context(closing(connect(server, "127.0.0.4"))) for _ in range(40 * 6)]
        for sock in phones:
            sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answers = [read_answer(sock) for sock in phones]
    assert [answer.split(b"\r\n", 1)[0] for answer in answers] == [b"HTTP/1.1 200 OK"] * 240


class SlowBodies:
    """``sockets`` connections from ``source`` that each send a POST's headers at once and
    then a byte of its 1000-byte body every ``every`` seconds, reconnecting a second after the
    server closes one; run in an event loop on its own thread until stopped."""

    def __init__(self, server: Server, sockets: int, source: str = ATTACKER, every: float = 2.0):
        self.server, self.sockets, self.source, self.every = server, sockets, source, every
        self.connected = 0  # connections that have sent their headers, reconnections included
        self.all_connected = threading.Event()  # each socket has sent its headers once
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._attack()), daemon=True)

    async def _one(self) -> None:
        headers = (
            f"POST /api/v1/games HTTP/1.1\r\nHost: {self.server.host}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n"
        ).encode()
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    self.server.host, self.server.port, local_addr=(self.source, 0)
                )
            except OSError:
                await asyncio.sleep(1)
                continue
            try:
                writer.write(headers)
                await writer.drain()
                self.connected += 1
                if self.connected >= self.sockets:
                    self.all_connected.set()
                while not self.stop.is_set():
                    try:
                        if not await asyncio.wait_for(reader.read(4096), self.every):
                            break  # closed (an answer was read before: 408 or 429)
                    except TimeoutError:
                        writer.write(b" ")
                        await writer.drain()
            except OSError:
                pass
            finally:
                writer.close()
            await asyncio.sleep(1)

    async def _attack(self) -> None:
        tasks = [asyncio.create_task(self._one()) for _ in range(self.sockets)]
        while not self.stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __enter__(self) -> SlowBodies:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def test_a_save_and_the_board_answer_while_one_address_sends_1100_slow_bodies(served):
    server, game = served
    live = game["links"]["board"][game["links"]["board"].index("/b/") :] + "/live"
    rounds = f"/api/v1/games/{game['id']}/rounds"
    with SlowBodies(server, 1100) as attack:
        # Every socket has sent its headers: the kernel's listen queue takes a connection and
        # its bytes even when no worker accepts it.
        assert attack.all_connected.wait(GUARD_S)
        status, _, data = request(
            server, "POST", rounds, {**EXAMPLE["game"]["rounds"][0], "number": 1}, bearer(game["edit_token"]), GUARD_S
        )
        assert status == 201, data
        status, _, data = request(server, "GET", live, timeout=GUARD_S)
        assert status == 200, data
