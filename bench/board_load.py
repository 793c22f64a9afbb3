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
import contextlib
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
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
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


def start_server(
    port: int, database_url: str, env: dict[str, str] | None = None, args: tuple[str, ...] = (), migrate: bool = True
) -> subprocess.Popen:
    """gunicorn with gunicorn.conf.py on ``port`` and a migrated ``database_url`` (``env``: more of its environment,
    ``args``: more of its command line; ``migrate``: :func:`server.start_gunicorn`'s)."""
    limits = {"MAX_GAMES_PER_ADDRESS": "100000", "MAX_GAMES_PER_ADDRESS_BURST": "100000"}
    env = {"SECRET_KEY": "board-load-bench", **limits, **(env or {})}
    return start_gunicorn(database_url, env, args, port=port, migrate=migrate)[0]


def poll_path(port: int, page_path: str) -> str:
    """The path the page at ``page_path`` polls (its live fragment's ``hx-get``, ``…/live…``)."""
    status, _, page = call(port, "GET", page_path)
    assert status == 200, (page_path, status)
    found = re.search(r'hx-get="([^"]*/live\b[^"]*)"', page.decode())
    assert found, f"no hx-get of a live fragment on {page_path}"
    return html.unescape(found.group(1))


def live_etag(port: int, path: str) -> str:
    """The ETag of the live fragment at ``path`` now, checked to give 304 when sent back."""
    status, headers, _ = call(port, "GET", path, headers={"HX-Request": "true"})
    assert status == 200 and headers["ETag"], (path, status)
    etag = headers["ETag"]
    assert call(port, "GET", path, headers={"If-None-Match": etag, "HX-Request": "true"})[0] == 304, path
    return etag


WRK_LATENCY = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def parse_wrk(output: str) -> dict:
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    latency = {f"p{p}": float(v) * scale[u] for p, v, u in WRK_LATENCY.findall(output)}
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    sockets = dict(zip(("connect", "read", "write", "timeout"), map(int, sock.groups()), strict=True)) if sock else {}
    non_2xx_3xx = int(bad.group(1)) if bad else 0
    errors = non_2xx_3xx + sum(sockets.values())
    return {"rps": rps, "requests": requests, "errors": errors, "non-2xx-3xx": non_2xx_3xx, **sockets, **latency}


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


class Saves:
    """What the table writers saw: each save's time (ms), the slowest with when they started
    (seconds into the phase), the errors (a refused save or a failed connection) and how many
    saves sent again with their idempotency key were answered as already stored (``replayed``)."""

    def __init__(self) -> None:
        self.replayed = 0
        self.times: list[float] = []
        self.slowest: list[tuple[float, float]] = []
        self.errors: list[str] = []
        self.start = time.perf_counter()

    def quantiles(self) -> tuple[float, float]:
        """p50 and p99 of the saves' times, ms."""
        ordered = sorted(self.times)
        return quantile(ordered, 0.50), quantile(ordered, 0.99)


def save_rounds(
    port: int,
    table: dict,
    pace: float,
    stop: threading.Event,
    saves: Saves,
    completing: list | None = None,
    key_prefix: str | None = None,
) -> None:
    """Save ``table["rounds"]`` from round ``table["n"]`` on through the games API with the
    table's edit token, one every ~``pace`` seconds (0: at once), until they are all saved or
    ``stop`` is set; each save's time and any error go into ``saves``, and the time of the save
    that completes the game into ``completing`` too (when given: a club game's ratings). With
    ``key_prefix``, each round goes with an ``Idempotency-Key`` (``<prefix>-<game id>-<number>``)
    and, as a phone does, a save that failed (no answer, or a refusal) is sent again with the
    same key ~0.1 s later, even after ``stop``, until it is stored (201) or the API answers that
    it was (200, ``Idempotent-Replayed``)."""
    rng = random.Random(table["id"])
    stop.wait(rng.uniform(0, pace))
    failed = False
    while table["n"] < len(table["rounds"]) and (not stop.is_set() or (failed and key_prefix)):
        rnd = {**table["rounds"][table["n"]], "number": table["n"] + 1}
        headers = {"Authorization": f"Bearer {table['edit']}"}
        if key_prefix:
            headers["Idempotency-Key"] = f"{key_prefix}-{table['id']}-{table['n'] + 1}"
        started = time.perf_counter()
        try:
            status, answer, data = call(port, "POST", f"/api/v1/games/{table['id']}/rounds", rnd, headers)
        except OSError as exc:
            saves.errors.append(str(exc))
            failed = True
            if key_prefix:
                time.sleep(0.1)
            continue
        saves.times.append((time.perf_counter() - started) * 1000)
        saves.slowest.append((saves.times[-1], started - saves.start))
        replayed = bool(key_prefix and status == 200 and answer.get("Idempotent-Replayed"))
        saves.replayed += replayed
        failed = not (status == 201 or replayed)
        if not failed:
            table["n"] += 1
            if completing is not None and table["n"] == len(table["rounds"]):
                completing.append(saves.times[-1])
        else:
            saves.errors.append(f"{status} {data[:120]!r}")
        if failed and key_prefix:
            time.sleep(0.1)
        else:
            stop.wait(rng.uniform(pace * 0.5, pace * 1.5))


def play(
    port: int, tables: list[dict], pace: float, stop: threading.Event, key_prefix: str | None = None
) -> tuple[list[threading.Thread], Saves]:
    """One writer thread per table (:func:`save_rounds`, ``key_prefix`` its), started; join
    them after setting ``stop``."""
    saves = Saves()
    threads = [
        threading.Thread(target=save_rounds, args=(port, t, pace, stop, saves, None, key_prefix)) for t in tables
    ]
    for thread in threads:
        thread.start()
    return threads, saves


def ratio_phases(
    binary: str, base: str, path: str, etag: str, args, around: Callable[[str], AbstractContextManager] | None = None
) -> tuple[dict, dict]:
    """The ceiling (``/api/v1/health``) and the unchanged polls of ``path`` (``etag`` sent as a
    fixed header, so wrk does the same work per request as for the ceiling: a Lua response hook
    would cost wrk, on the same cores, more than the ceiling's plain requests), each as fast as
    wrk can, alternating in ``args.slices`` slices so that a burst of other work on the machine
    weighs on both alike rather than on whichever ran at the time. Returns both :func:`combine`d.
    ``around("ceiling")`` and ``around("304")``, when given, wrap each measured slice (e.g. to
    add up the CPU time the server spent in each)."""
    unchanged_headers = (f"If-None-Match: {etag}", "HX-Request: true")
    wrk(binary, base + "/api/v1/health", args.connections, 2)
    wrk(binary, base + path, args.connections, 2, headers=unchanged_headers)
    around = around or (lambda kind: contextlib.nullcontext())
    ceilings, polls = [], []
    seconds = args.seconds // args.slices
    for _ in range(args.slices):
        with around("ceiling"):
            ceilings.append(wrk(binary, base + "/api/v1/health", args.connections, seconds))
        with around("304"):
            polls.append(wrk(binary, base + path, args.connections, seconds, headers=unchanged_headers))
    return combine(ceilings), combine(polls)


def evening(
    binary: str,
    base: str,
    port: int,
    tables: list[dict],
    paths: list[str],
    tmp: Path,
    args,
    key_prefix: str | None = None,
):
    """``args.viewers`` connections polling ``paths`` (one wrk thread per path, at least 2) every
    ~``args.poll`` s, each keeping the last ETag it got, while every table saves a round every
    ~``args.save`` s (:func:`save_rounds`, ``key_prefix`` its), for ``args.evening`` s. Returns
    wrk's figures of the polls and the :class:`Saves`."""
    script = tmp / "poll.lua"
    poll_ms = int(args.poll * 1000)
    script.write_text(
        POLL_SCRIPT % {"paths": ", ".join(map(json.dumps, paths)), "low": poll_ms // 2, "high": poll_ms * 3 // 2}
    )
    stop = threading.Event()
    threads, saves = play(port, tables, args.save, stop, key_prefix)
    viewers = wrk(binary, base + paths[0], args.viewers, args.evening, str(script), threads=max(2, len(paths)))
    stop.set()
    for thread in threads:
        thread.join()
    return viewers, saves


ROW = "{:<34} {:>10} {:>9} {:>9} {:>8}"


def print_row(label: str, rps: float, p50: float, p99: float, errors: int) -> None:
    """One line of the figures' table: an endpoint's throughput (req/s), p50 and p99 (ms), errors."""
    print(ROW.format(label, f"{rps:.0f}" if rps >= 100 else f"{rps:.1f}", f"{p50:.1f}", f"{p99:.1f}", errors))


def print_figures(poll: str, ceiling: dict, unchanged: dict, viewers: dict, saves: Saves, args) -> int:
    """The benchmark's table (``poll`` names the polled endpoint), the slowest saves and the save
    errors; returns the count of all errors."""
    print(ROW.format("endpoint", "req/s", "p50 ms", "p99 ms", "errors"))
    for label, figures in (("ceiling: GET /api/v1/health", ceiling), (f"{poll}, unchanged (304)", unchanged)):
        print_row(label, figures["rps"], figures["p50"], figures["p99"], figures["errors"])
    print(
        f"evening: {args.viewers} viewers polling every ~{args.poll:g} s, "
        f"{args.tables} tables saving every ~{args.save:g} s, {args.evening} s"
    )
    print_row(f"{poll} (304 or 200)", viewers["rps"], viewers["p50"], viewers["p99"], viewers["errors"])
    print_row("save a round (POST, 201)", len(saves.times) / args.evening, *saves.quantiles(), len(saves.errors))
    slowest = sorted(saves.slowest, reverse=True)[:5]
    print("slowest saves (ms @ s into the evening):", ", ".join(f"{ms:.0f} @ {at:.1f}" for ms, at in slowest))
    for problem in saves.errors[:5]:
        print("  save error:", problem)
    return ceiling["errors"] + unchanged["errors"] + viewers["errors"] + len(saves.errors)


@contextlib.contextmanager
def serving(port: int, name: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, Path]]:
    """wrk (installed if missing), a temporary folder and gunicorn on ``port`` on a fresh SQLite
    file in it (or DATABASE_URL); yields wrk's path and the folder, then stops the server and
    removes the folder. ``env``: more of the server's environment."""
    binary = ensure_wrk()
    tmp = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp / f'{name}.sqlite3'}"
    server = start_server(port, database_url, env)
    try:
        yield binary, tmp
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(tmp, ignore_errors=True)


def board_load(args) -> None:
    port = args.port
    with serving(port, "board-load") as (binary, tmp):
        tables, views = [], []
        for table in range(args.tables):
            doc = {**EXAMPLE["game"], "title": f"Table {table + 1}", "rounds": EXAMPLE["game"]["rounds"][:2]}
            status, _, data = call(port, "POST", "/api/v1/games", doc)
            assert status == 201, data
            body = json.loads(data)
            tables.append({"id": body["id"], "edit": body["edit_token"], "rounds": EXAMPLE["game"]["rounds"], "n": 2})
            views.append(body["view_token"])
        # Each viewer polls what its board page polls: the live fragment's URL in the page.
        boards = [poll_path(port, f"/b/{view}") for view in views]
        etags = [live_etag(port, path) for path in boards]

        base = f"http://{HOST}:{port}"
        print(f"gunicorn on {base}, {args.tables} games; warming up", flush=True)
        ceiling, unchanged = ratio_phases(binary, base, boards[0], etags[0], args)
        viewers, saves = evening(binary, base, port, tables, boards, tmp, args)
        errors = print_figures("board poll", ceiling, unchanged, viewers, saves, args)
        ratio = unchanged["rps"] / ceiling["rps"]
        print(f"304 ratio: {ratio:.2f}, save p99: {saves.quantiles()[1]:.1f} ms, errors: {errors}")


def options(description: str, port: int, evening: str) -> argparse.ArgumentParser:
    """The load benchmarks' command line: the server's ``port``, the viewers, the tables' and
    viewers' pace, the ceiling/304 phases, and the evening's length (``evening``: its help)."""
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=port)
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between a viewer's polls (the board's)")
    parser.add_argument("--save", type=float, default=3.0, help="seconds between a table's saves")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections for the ceiling and 304 phases")
    parser.add_argument("--seconds", type=int, default=20, help="length of the ceiling and 304 phases")
    parser.add_argument(
        "--slices", type=int, default=10, help="the ceiling and 304 phases alternate in this many slices"
    )
    parser.add_argument("--evening", type=int, default=60, help=evening)
    return parser


def main() -> None:
    parser = options(__doc__, 8765, "length of the evening phase (a table saves its 26 rounds in ~80 s)")
    parser.add_argument("--tables", type=int, default=20)
    board_load(parser.parse_args())


if __name__ == "__main__":
    main()
