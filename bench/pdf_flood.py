"""PDF floods (issue 12): do the board's polls keep their latency while many sheet PDFs are
asked for at once, and how long do the PDFs take?

Runs gunicorn with gunicorn.conf.py (the Procfile's command) on loopback, a fresh SQLite file
and a fresh PDF folder (``PDF_CACHE_DIR``), makes games through the API, then:

1. **one render, one worker** (``WEB_CONCURRENCY=1``): one PDF is asked for while a client
   polls the board's live part every 0.1 s on the same (only) worker; the polls answered during
   the render show whether the worker's event loop stalls for it;
2. **floods** (``--workers`` processes, 2 by default): ``--pdfs`` concurrent requests (25) for
   the PDF of one game, then one each for ``--pdfs`` different games, while a client polls the
   board every 0.25 s. With ``--retry`` a refused request (503) waits its ``Retry-After`` and
   asks again until it gets its PDF.

Prints for each: the time until every PDF request was answered, the 200 and 503 counts (and
connections dropped), the PDFs rendered (files in the PDF folder) and the polls' median and maximum latency. Run by hand
(not in the test suite): `.venv/bin/python bench/pdf_flood.py` (results in bench/README.md).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from server import HOST, ROOT, start_gunicorn, stop_gunicorn  # bench/server.py

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())


def call(port: int, method: str, path: str, body: dict | None = None, timeout: float = 120) -> tuple[int, dict, bytes]:
    """One request on a fresh connection: (status, headers, body)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json"} if payload else {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def new_game(port: int, n: int) -> str:
    """A game of the tournament example with its first 6 + n % 20 rounds: its view token."""
    game = {**EXAMPLE["game"], "title": f"Table {n}", "rounds": EXAMPLE["game"]["rounds"][: 6 + n % 20]}
    status, _, body = call(port, "POST", "/api/v1/games", game)
    assert status == 201, body
    return json.loads(body)["view_token"]


class Poller(threading.Thread):
    """Polls ``path`` every ``every`` seconds until stopped, timing each answer (seconds)."""

    def __init__(self, port: int, path: str, every: float) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.every = port, path, every
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.failures = 0

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            try:
                status, _, _ = call(self.port, "GET", self.path, timeout=30)
                if status == 200:
                    self.latencies.append(time.monotonic() - start)
                else:
                    self.failures += 1
            except OSError:
                self.failures += 1
            self.stop.wait(max(0.0, self.every - (time.monotonic() - start)))

    def summary(self) -> str:
        if not self.latencies:
            return f"no poll answered ({self.failures} failed)"
        return (
            f"{len(self.latencies)} polls: median {statistics.median(self.latencies) * 1000:.0f} ms, "
            f"max {max(self.latencies) * 1000:.0f} ms, failed {self.failures}"
        )


def fetch_pdf(port: int, token: str, retry: bool, results: list[int]) -> None:
    """Ask for the sheet PDF of ``token``; with ``retry``, again after each 503's Retry-After."""
    while True:
        try:
            status, headers, body = call(port, "GET", f"/s/{token}/sheet.pdf")
        except OSError:  # the connection dropped (a worker killed for blocking past gunicorn's timeout)
            results.append(0)
            return
        results.append(status)
        if status != 503 or not retry:
            assert status != 200 or body.startswith(b"%PDF"), body[:200]
            return
        time.sleep(int(headers.get("Retry-After", "5")))


def flood(port: int, tokens: list[str], retry: bool) -> tuple[float, list[int]]:
    """One concurrent PDF request per token: (seconds until all answered, every status seen)."""
    results: list[int] = []
    threads = [threading.Thread(target=fetch_pdf, args=(port, token, retry, results)) for token in tokens]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - start, results


class Server:
    """gunicorn (gunicorn.conf.py) with ``workers`` processes on a fresh database and PDF folder."""

    def __init__(self, workers: int) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="pdf-flood-")
        self.sheets = Path(self.tmp.name) / "sheets"
        env = {"SECRET_KEY": "pdf-flood-bench", "WEB_CONCURRENCY": str(workers), "PDF_CACHE_DIR": str(self.sheets)}
        self.process, self.port = start_gunicorn(f"sqlite:///{Path(self.tmp.name) / 'pdf.sqlite3'}", env)

    def rendered(self) -> int:
        return len(list(self.sheets.glob("*.pdf")))

    def close(self) -> None:
        stop_gunicorn(self.process)
        self.tmp.cleanup()


def one_render() -> None:
    """Scenario 1: one PDF on a single worker while its board is polled every 0.1 s."""
    server = Server(workers=1)
    try:
        token = new_game(server.port, 0)
        live = f"/b/{token}/live"
        call(server.port, "GET", live)  # warm-up: templates compiled
        poller = Poller(server.port, live, 0.1)
        poller.start()
        time.sleep(0.5)
        start = time.monotonic()
        status, _, _ = call(server.port, "GET", f"/s/{token}/sheet.pdf")
        took = time.monotonic() - start
        time.sleep(0.2)
        poller.stop.set()
        poller.join()
        print(f"1. one PDF on 1 worker: {status} in {took:.1f} s; board polls meanwhile: {poller.summary()}")
    finally:
        server.close()


def floods(workers: int, pdfs: int, retry: bool) -> None:
    """Scenario 2: ``pdfs`` concurrent PDFs of one game, then of ``pdfs`` different games."""
    server = Server(workers)
    try:
        tokens = [new_game(server.port, n) for n in range(pdfs + 2)]
        live = f"/b/{tokens[0]}/live"
        for _ in range(2 * workers):
            call(server.port, "GET", live)  # warm-up
        for label, wanted in (("one game", [tokens[1]] * pdfs), (f"{pdfs} games", tokens[2:])):
            before = server.rendered()
            poller = Poller(server.port, live, 0.25)
            poller.start()
            took, statuses = flood(server.port, wanted, retry)
            poller.stop.set()
            poller.join()
            print(
                f"2. {pdfs} PDFs of {label} ({workers} workers{', retrying' if retry else ''}): all answered in "
                f"{took:.1f} s; {statuses.count(200)} × 200, {statuses.count(503)} × 503, "
                f"{statuses.count(0)} dropped, {sum(s not in (0, 200, 503) for s in statuses)} other; "
                f"{server.rendered() - before} rendered; board: {poller.summary()}"
            )
    finally:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=int, default=25, help="concurrent PDF requests (25)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))
    parser.add_argument("--retry", action="store_true", help="a refused request asks again after Retry-After")
    parser.add_argument("--skip-single", action="store_true", help="only the floods")
    args = parser.parse_args()
    print(f"PDF_RENDERS={os.environ.get('PDF_RENDERS', os.cpu_count())}, PDF_WAIT={os.environ.get('PDF_WAIT', '10')}")
    if not args.skip_single:
        one_render()
    floods(args.workers, args.pdfs, args.retry)


if __name__ == "__main__":
    main()
