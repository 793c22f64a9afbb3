"""Board load on loopback (an evening of play): 20 tables saving a round every few seconds while 500 viewers poll
their boards, against gunicorn with the app's default config (gunicorn.conf.py) on a fresh
SQLite file (or DATABASE_URL). Run by hand: `make bench` or `.venv/bin/python bench/board_load.py`.

Phases (wrk, installed from Debian's packages if missing; only 127.0.0.1 is ever targeted):
1. ceiling: the trivial endpoint /api/v1/health, as fast as wrk can;
2. board polls that did not change (304, If-None-Match), as fast as wrk can — the "304 ratio"
   is their throughput over the ceiling's, measured on the same server in the same run (the
   two phases alternate in slices of a couple of seconds, so a shared machine's other work
   weighs on both alike);
3. the evening: 500 viewer connections polling a board every POLL seconds (wrk with a Lua
   think time) while 20 tables each save a round every SAVE seconds (Python threads, API).
Throughput and p50/p99 latency per endpoint; the last line reads
`304 ratio: R, save p99: X ms, errors: E`.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from server import HOST, ROOT, start_gunicorn  # bench/server.py

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())


def ensure_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    if os.geteuid() != 0:
        sys.exit("wrk is missing: apt-get install wrk (as root)")
    subprocess.run(
        ["apt-get", "install", "-y", "wrk"],
        check=False,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        stdout=subprocess.DEVNULL,
    )
    if not shutil.which("wrk"):
        subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "wrk"], check=True, stdout=subprocess.DEVNULL)
    return shutil.which("wrk")


def call(port: int, method: str, path: str, body=None, headers=None, timeout=30):
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if payload else {})}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def start_server(port: int, database_url: str) -> subprocess.Popen:
    """gunicorn with gunicorn.conf.py on ``port`` and a migrated ``database_url``."""
    env = {"SECRET_KEY": "board-load-bench", "MAX_GAMES_PER_ADDRESS": "100000", "MAX_GAMES_PER_ADDRESS_BURST": "100000"}
    return start_gunicorn(database_url, env, port=port)[0]


def poll_path(port: int, view_token: str) -> str:
    """The path the board page of ``view_token`` polls (its live fragment's ``hx-get``)."""
    status, _, page = call(port, "GET", f"/b/{view_token}")
    assert status == 200, status
    found = re.search(r'id="board_live"[^>]*?hx-get="([^"]+)"', page.decode(), re.S)
    assert found, "no hx-get on the board's live fragment"
    return html.unescape(found.group(1))


WRK_LATENCY = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def parse_wrk(output: str) -> dict:
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    latency = {f"p{p}": float(v) * scale[u] for p, v, u in WRK_LATENCY.findall(output)}
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    errors = (int(bad.group(1)) if bad else 0) + (sum(map(int, sock.groups())) if sock else 0)
    return {"rps": rps, "requests": requests, "errors": errors, **latency}


def wrk(
    binary: str, url: str, connections: int, seconds: int, script: str | None = None, headers=(), threads: int = 2
) -> dict:
    args = [binary, f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    for header in headers:
        args += ["-H", header]
    if script:
        args += ["-s", script]
    output = subprocess.run([*args, url], capture_output=True, text=True, check=True).stdout
    return parse_wrk(output)


def combine(slices: list[dict]) -> dict:
    """One endpoint's figures over several equal wrk runs: throughput over all of them, the
    median of their medians and the worst of their 99th percentiles."""
    return {
        "rps": statistics.fmean(r["rps"] for r in slices),
        "requests": sum(r["requests"] for r in slices),
        "errors": sum(r["errors"] for r in slices),
        "p50": statistics.median(r["p50"] for r in slices),
        "p99": max(r["p99"] for r in slices),
    }


# One wrk thread per board (its connections are that board's viewers): a thread's Lua state
# keeps the board's last ETag, as each browser does, so only a changed board answers 200.
POLL_SCRIPT = """
local boards = {%(paths)s}
local next_board = 0
function setup(thread)
  next_board = next_board %% #boards + 1
  thread:set("board", boards[next_board])
end
function init(args)
  etag = ""
end
function request()
  return wrk.format("GET", board, {["If-None-Match"] = etag, ["HX-Request"] = "true"})
end
function response(status, headers, body)
  if headers["ETag"] then etag = headers["ETag"] end
end
function delay()
  return math.random(%(low)d, %(high)d)
end
"""


def quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of values sorted in ascending order; NaN if there are none."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def board_load(args) -> None:
    binary = ensure_wrk()
    port = args.port
    tmp = Path(tempfile.mkdtemp(prefix="board-load-"))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp / 'board-load.sqlite3'}"
    server = start_server(port, database_url)
    try:
        tables = []
        for table in range(args.tables):
            doc = {**EXAMPLE["game"], "title": f"Table {table + 1}", "rounds": EXAMPLE["game"]["rounds"][:2]}
            status, _, data = call(port, "POST", "/api/v1/games", doc)
            assert status == 201, data
            body = json.loads(data)
            tables.append({"id": body["id"], "edit": body["edit_token"], "view": body["view_token"], "n": 2})
        # Each viewer polls what its board page polls: the live fragment's URL in the page.
        boards = [poll_path(port, t["view"]) for t in tables]
        etags = []
        for path in boards:
            status, headers, _ = call(port, "GET", path, headers={"HX-Request": "true"})
            assert status == 200 and headers["ETag"], (path, status)
            etags.append(headers["ETag"])
        assert call(port, "GET", boards[0], headers={"If-None-Match": etags[0], "HX-Request": "true"})[0] == 304

        base = f"http://{HOST}:{port}"
        print(f"gunicorn on {base}, {args.tables} games; warming up", flush=True)
        # The unchanged polls send the board's current ETag as a fixed header, so wrk does the
        # same work per request as for the ceiling (a Lua response hook would cost wrk, on the
        # same two cores, more than the ceiling's plain requests).
        unchanged_headers = (f"If-None-Match: {etags[0]}", "HX-Request: true")
        wrk(binary, base + "/api/v1/health", args.connections, 2)
        wrk(binary, base + boards[0], args.connections, 2, headers=unchanged_headers)
        # The two alternate in slices, so that a burst of other work on the machine weighs
        # on both alike rather than on whichever ran at the time.
        ceilings, polls = [], []
        for _ in range(args.slices):
            ceilings.append(wrk(binary, base + "/api/v1/health", args.connections, args.seconds // args.slices))
            polls.append(
                wrk(binary, base + boards[0], args.connections, args.seconds // args.slices, headers=unchanged_headers)
            )
        ceiling, unchanged = combine(ceilings), combine(polls)
        ratio = unchanged["rps"] / ceiling["rps"]

        # The evening: viewers with a think time of about POLL seconds, tables saving rounds.
        script = tmp / "poll.lua"
        paths = ", ".join(json.dumps(board) for board in boards)
        poll_ms = int(args.poll * 1000)
        script.write_text(POLL_SCRIPT % {"paths": paths, "low": poll_ms // 2, "high": poll_ms * 3 // 2})
        saves: list[float] = []
        slowest: list[tuple[float, float]] = []  # (ms, seconds into the evening) of each save
        save_errors: list[str] = []
        stop = threading.Event()

        def table_loop(table: dict) -> None:
            rng = random.Random(table["id"])
            time.sleep(rng.uniform(0, args.save))
            while not stop.is_set() and table["n"] < len(EXAMPLE["game"]["rounds"]):
                rnd = {**EXAMPLE["game"]["rounds"][table["n"]], "number": table["n"] + 1}
                started = time.perf_counter()
                try:
                    status, _, data = call(
                        port,
                        "POST",
                        f"/api/v1/games/{table['id']}/rounds",
                        rnd,
                        {"Authorization": f"Bearer {table['edit']}"},
                    )
                except OSError as exc:
                    save_errors.append(str(exc))
                    continue
                saves.append((time.perf_counter() - started) * 1000)
                slowest.append((saves[-1], started - evening_start))
                if status == 201:
                    table["n"] += 1
                else:
                    save_errors.append(f"{status} {data[:120]!r}")
                stop.wait(rng.uniform(args.save * 0.5, args.save * 1.5))

        evening_start = time.perf_counter()
        threads = [threading.Thread(target=table_loop, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        viewers = wrk(binary, base + boards[0], args.viewers, args.evening, str(script), threads=len(boards))
        stop.set()
        for thread in threads:
            thread.join()
        saves.sort()
        save_p50, save_p99 = quantile(saves, 0.50), quantile(saves, 0.99)
        errors = ceiling["errors"] + unchanged["errors"] + viewers["errors"] + len(save_errors)

        row = "{:<34} {:>10} {:>9} {:>9} {:>8}"
        print(row.format("endpoint", "req/s", "p50 ms", "p99 ms", "errors"))
        print(
            row.format(
                "ceiling: GET /api/v1/health",
                f"{ceiling['rps']:.0f}",
                f"{ceiling['p50']:.1f}",
                f"{ceiling['p99']:.1f}",
                ceiling["errors"],
            )
        )
        print(
            row.format(
                "board poll, unchanged (304)",
                f"{unchanged['rps']:.0f}",
                f"{unchanged['p50']:.1f}",
                f"{unchanged['p99']:.1f}",
                unchanged["errors"],
            )
        )
        print(
            f"evening: {args.viewers} viewers polling every ~{args.poll:g} s, "
            f"{args.tables} tables saving every ~{args.save:g} s, {args.evening} s"
        )
        print(
            row.format(
                "board poll (304 or 200)",
                f"{viewers['rps']:.0f}",
                f"{viewers['p50']:.1f}",
                f"{viewers['p99']:.1f}",
                viewers["errors"],
            )
        )
        print(
            row.format(
                "save a round (POST, 201)",
                f"{len(saves) / args.evening:.1f}",
                f"{save_p50:.1f}",
                f"{save_p99:.1f}",
                len(save_errors),
            )
        )
        slowest.sort(reverse=True)
        print("slowest saves (ms @ s into the evening):", ", ".join(f"{ms:.0f} @ {at:.1f}" for ms, at in slowest[:5]))
        for problem in save_errors[:5]:
            print("  save error:", problem)
        print(f"304 ratio: {ratio:.2f}, save p99: {save_p99:.1f} ms, errors: {errors}")
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between a viewer's polls (the board's)")
    parser.add_argument("--save", type=float, default=3.0, help="seconds between a table's saves")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections for the ceiling and 304 phases")
    parser.add_argument("--seconds", type=int, default=20, help="length of the ceiling and 304 phases")
    parser.add_argument(
        "--slices", type=int, default=10, help="the ceiling and 304 phases alternate in this many slices"
    )
    parser.add_argument(
        "--evening", type=int, default=60, help="length of the evening phase (a table saves its 26 rounds in ~80 s)"
    )
    board_load(parser.parse_args())


if __name__ == "__main__":
    main()
