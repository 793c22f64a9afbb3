"""Slow request bodies against the plain server (issue 26, item 3): does the Procfile's gunicorn
(gunicorn.conf.py, no proxy) keep answering a board read and a round's save while many sockets
send their POST bodies a byte at a time?

Runs gunicorn with gunicorn.conf.py (``--worker-class gevent`` compares gunicorn's stock gevent
worker, the code before the fix) and ``WEB_CONCURRENCY`` processes (2 unless set) on loopback
and a fresh SQLite file, makes a game through the API, then for ``--seconds`` seconds:

- ``--slow`` sockets (2,100) from ``--sources`` loopback addresses (127.0.0.2, 127.0.0.3, …:
  Linux answers all of 127/8) each send a POST's headers (``Content-Length: 1000``) at once and
  then one byte of the body every ``--every`` seconds (2); a socket the server closes connects
  again a second later;
- from 127.0.0.1, a board read (``GET /b/<view>/live``) every half second and a round's save
  (``POST /api/v1/games/<id>/rounds``, the game's next round; a new game after 28) every
  second, each on a new connection, timed (a 30 s client timeout counts as a failure).

Prints the reads' and saves' median, p95 and maximum, their failures, and what the slow
sockets met (connections, answers 408 / 429, other closes). Run by hand, bounded by
``--seconds``: `.venv/bin/python bench/slow_bodies.py` (results in bench/README.md "Slow bodies").
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from server import HOST, ROOT, start_gunicorn, stop_gunicorn  # bench/server.py

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
CLIENT_TIMEOUT = 30.0


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, bytes]:
    """One request on a fresh connection from 127.0.0.1: (status, body)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=CLIENT_TIMEOUT)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def new_game(port: int) -> tuple[int, str, str]:
    """A game of the tournament example with no rounds: (id, edit token, board's live path)."""
    status, body = call(port, "POST", "/api/v1/games", {**EXAMPLE["game"], "rounds": []})
    assert status == 201, body
    game = json.loads(body)
    board = game["links"]["board"]
    return game["id"], game["edit_token"], board[board.index("/b/") :] + "/live"


class Timed(threading.Thread):
    """Runs ``step`` every ``every`` seconds until stopped; the seconds each took, and failures."""

    def __init__(self, step, every: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.step, self.every, self.stop = step, every, stop
        self.times: list[float] = []
        self.failures: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            try:
                outcome = self.step()
                if outcome is None:
                    self.times.append(time.monotonic() - start)
                else:
                    self.failures.append(outcome)
            except OSError as error:
                self.failures.append(type(error).__name__)
            self.stop.wait(max(0.0, self.every - (time.monotonic() - start)))


class SlowBodies(threading.Thread):
    """The slow sockets, in an event loop of their own; ``met`` counts what they met."""

    def __init__(self, port: int, sockets: int, sources: list[str], every: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.sockets, self.sources, self.every, self.stop = port, sockets, sources, every, stop
        self.met: Counter[str] = Counter()

    async def one(self, source: str) -> None:
        headers = (
            f"POST /api/v1/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n"
        ).encode()
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port, local_addr=(source, 0))
            except OSError:
                self.met["connect failed"] += 1
                await asyncio.sleep(1)
                continue
            self.met["connections"] += 1
            answer = b""
            try:
                writer.write(headers)
                await writer.drain()
                while not self.stop.is_set():
                    try:
                        piece = await asyncio.wait_for(reader.read(4096), self.every)
                    except TimeoutError:
                        writer.write(b" ")
                        await writer.drain()
                        continue
                    if not piece:
                        break
                    answer += piece
            except OSError:
                self.met["reset"] += 1
            finally:
                writer.close()
            if answer:
                self.met[answer.split(b"\r\n", 1)[0].decode(errors="replace").removeprefix("HTTP/1.1 ")] += 1
            elif not self.stop.is_set():
                self.met["closed without an answer"] += 1
            await asyncio.sleep(1)

    async def attack(self) -> None:
        tasks = [asyncio.create_task(self.one(self.sources[n % len(self.sources)])) for n in range(self.sockets)]
        while not self.stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def run(self) -> None:
        asyncio.run(self.attack())


def summary(name: str, timed: Timed) -> str:
    """One line: how many, median, p95, max (ms), failures."""
    if not timed.times:
        return f"  {name}: none answered, {len(timed.failures)} failed ({Counter(timed.failures).most_common(3)})"
    ordered = sorted(timed.times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    causes = f" ({Counter(timed.failures).most_common(3)})" if timed.failures else ""
    failed = f"{len(timed.failures)} failed{causes}"
    return (
        f"  {name}: {len(ordered)} answered, median {statistics.median(ordered) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms, {failed}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=2100, help="slow sockets (2100)")
    parser.add_argument("--sources", type=int, default=1, help="loopback addresses they come from (1)")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between a slow socket's bytes (2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the reads and saves run (30)")
    parser.add_argument("--worker-class", help="another gunicorn worker class than gunicorn.conf.py's, to compare")
    args = parser.parse_args()
    workers = os.environ.get("WEB_CONCURRENCY", "2")
    sources = [f"127.0.0.{2 + n}" for n in range(args.sources)]
    with tempfile.TemporaryDirectory(prefix="slow-bodies-") as tmp:
        env = {"SECRET_KEY": "slow-bodies-bench", "WEB_CONCURRENCY": workers}
        extra = ("--worker-class", args.worker_class) if args.worker_class else ()
        process, port = start_gunicorn(f"sqlite:///{Path(tmp) / 'slow.sqlite3'}", env, extra)
        stop, attack_stop = threading.Event(), threading.Event()
        game = list(new_game(port))
        saved = [0]

        def read() -> str | None:
            status, _ = call(port, "GET", game[2])
            return None if status == 200 else str(status)

        def save() -> str | None:
            if saved[0] == len(ROUNDS):
                game[:] = new_game(port)
                saved[0] = 0
            n = saved[0] + 1
            status, _ = call(port, "POST", f"/api/v1/games/{game[0]}/rounds", {**ROUNDS[n - 1], "number": n}, game[1])
            if status != 201:
                return str(status)
            saved[0] = n
            return None

        try:
            for _ in range(4):  # warm-up: each worker's first answers compile the templates
                read()
            attack = SlowBodies(port, args.slow, sources, args.every, attack_stop)
            attack.start()
            time.sleep(3)  # the slow sockets connect and send their headers
            reads, saves = Timed(read, 0.5, stop), Timed(save, 1.0, stop)
            reads.start()
            saves.start()
            stop.wait(args.seconds)
            stop.set()
            reads.join(CLIENT_TIMEOUT + 5)
            saves.join(CLIENT_TIMEOUT + 5)
            attack_stop.set()
            attack.join(30)
        finally:
            stop.set()
            attack_stop.set()
            stop_gunicorn(process)
    print(f"worker: {args.worker_class or 'gunicorn.conf.py'}, {workers} processes, SQLite")
    print(
        f"{args.slow} slow bodies from {len(sources)} address(es), a byte every {args.every:g} s; "
        f"{args.seconds:g} s of reads (every 0.5 s) and saves (every 1 s) from 127.0.0.1:"
    )
    print(summary("board reads", reads))
    print(summary("saves", saves))
    print(f"  the slow sockets met: {dict(attack.met.most_common())}")


if __name__ == "__main__":
    main()
