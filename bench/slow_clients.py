"""Slow clients against the board (issue 10, item 6): does the Procfile's plain gunicorn
command keep answering a board's polls while many sockets send their requests slowly?

Runs gunicorn with gunicorn.conf.py (the Procfile's command; ``--worker-class`` compares
another worker) on loopback and a fresh SQLite file (or ``--database-url``'s empty
PostgreSQL database), makes a game through the API, then for ``--seconds`` seconds:

- ``--slow`` sockets each open a connection, send a request line and then one header line
  every ``--every`` seconds, never finishing the request (a slow or hostile client);
- one normal client polls the board's live part (``GET /b/<token>/live``, a new connection
  each time) every half second and times each answer.

Prints the poll latencies (median, 95th percentile, maximum, failures). Run by hand,
bounded by ``--seconds``: `.venv/bin/python bench/slow_clients.py` (results in
bench/README.md). The target: every poll answered within 1 s under 50 slow sockets.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from server import HOST, ROOT, start_gunicorn, stop_gunicorn  # bench/server.py

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
TARGET_S = 1.0


def call(port: int, method: str, path: str, body: dict | None = None, timeout: float = 30) -> tuple[int, bytes]:
    """One request on a fresh connection: (status, body)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json"} if payload else {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def start_server(workdir: Path, database_url: str | None, worker_class: str | None) -> tuple[subprocess.Popen, int]:
    """gunicorn with gunicorn.conf.py (WEB_CONCURRENCY workers, 2 unless set) on a migrated database."""
    env = {"SECRET_KEY": "slow-clients-bench", "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2")}
    args = ("--worker-class", worker_class) if worker_class else ()
    return start_gunicorn(database_url or f"sqlite:///{workdir / 'slow.sqlite3'}", env, args)


def slow_client(port: int, path: str, every: float, stop: threading.Event, opened: list[int]) -> None:
    """Open a connection and send a request one header line every ``every`` seconds until
    ``stop``; reconnect when the server closes it."""
    while not stop.is_set():
        try:
            with socket.create_connection((HOST, port), timeout=5) as sock:
                opened.append(1)
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n".encode())
                n = 0
                while not stop.wait(every):
                    n += 1
                    sock.sendall(f"X-Slow-{n}: {'x' * 10}\r\n".encode())
        except OSError:
            stop.wait(0.2)


def poll(port: int, path: str, seconds: float) -> tuple[list[float], int]:
    """Poll ``path`` every half second for ``seconds``: the latencies of the answers (s) and
    the number of polls that failed or timed out (10 s)."""
    latencies: list[float] = []
    failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            status, _ = call(port, "GET", path, timeout=10)
            if status == 200:
                latencies.append(time.monotonic() - start)
            else:
                failures += 1
        except OSError:
            failures += 1
        time.sleep(max(0.0, 0.5 - (time.monotonic() - start)))
    return latencies, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=50, help="slow sockets (default 50)")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between a slow socket's header lines (3)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the board is polled (20)")
    parser.add_argument("--worker-class", help="another gunicorn worker class than gunicorn.conf.py's, to compare")
    parser.add_argument("--database-url", help="an empty PostgreSQL database instead of a fresh SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slow-") as tmp:
        process, port = start_server(Path(tmp), args.database_url, args.worker_class)
        stop = threading.Event()
        try:
            status, body = call(
                port, "POST", "/api/v1/games", {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:6]}
            )
            assert status == 201, body
            board = json.loads(body)["links"]["board"]
            live = board[board.index("/b/") :] + "/live"
            poll(port, live, 2)  # warm-up: each worker's first answers compile the templates
            quiet, _ = poll(port, live, 3)
            opened: list[int] = []
            threads = [
                threading.Thread(target=slow_client, args=(port, live, args.every, stop, opened), daemon=True)
                for _ in range(args.slow)
            ]
            for thread in threads:
                thread.start()
            time.sleep(1)  # let the slow sockets connect
            latencies, failures = poll(port, live, args.seconds)
        finally:
            stop.set()
            stop_gunicorn(process)
    worker = args.worker_class or "gunicorn.conf.py"
    print(
        f"worker: {worker}, {os.environ.get('WEB_CONCURRENCY', '2')} processes; "
        f"database: {'PostgreSQL' if args.database_url else 'SQLite'}"
    )
    print(f"quiet board poll: median {statistics.median(quiet) * 1000:.0f} ms")
    print(
        f"{args.slow} slow sockets (a header line every {args.every:g} s; {len(opened)} connections opened), "
        f"{len(latencies) + failures} polls in {args.seconds:g} s:"
    )
    if latencies:
        ordered = sorted(latencies)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(
            f"  median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms, failed {failures}"
        )
        ok = failures == 0 and ordered[-1] <= TARGET_S
    else:
        print(f"  no poll answered, failed {failures}")
        ok = False
    print(f"target (every poll within {TARGET_S:g} s): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
