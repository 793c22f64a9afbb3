"""Federation night on loopback (issue 17): PostgreSQL, two gunicorn instances (deploy/gunicorn.conf.py, the
stock sync worker) and nginx with deploy/'s configuration in front of them, as deploy/ sets them up. Run by hand,
as root (Debian's postgresql, nginx and wrk are installed when missing): `make bench-federation` or
`.venv/bin/python bench/federation.py`.

PostgreSQL: the machine's cluster (started if need be), with a role and database ``scorepad_fed`` dropped and
created again at each run; the instances reach it over TCP loopback, DB_POOL_SIZE=2 and DB_MAX_OVERFLOW=1 per
worker (deploy/scorepad.env.example). Only 127.0.0.1 is ever targeted. The phases run one after the other, so that
their figures do not fight each other for the machine's cores:
1. the trivial endpoint ``/api/v1/health`` and the PostgreSQL 304 (a board's live fragment with its ETag) straight
   on one instance, alternating in slices (board_load.ratio_phases): R = 304 rps / trivial rps;
2. board polls through nginx: ``--connections2`` wrk connections (2,000) over ``--games`` boards (200), each
   request with its board's ETag (the boards do not change in this phase) as fast as wrk can:
   N = their rps / phase 1's trivial rps;
3. steady: ``--tables`` tables saving rounds through nginx (the games API, each round with an Idempotency-Key)
   while ``--viewers`` connections poll their boards through nginx every ~``--poll`` s, each keeping the last ETag
   it got (board_load.evening): the saves' p99 (ms);
4. the same with other tables, one gunicorn instance SIGKILLed (master and workers) ``--kill-at`` s in and started
   again (same port) ``--down`` s later. A save that fails is sent again with the same Idempotency-Key until it is
   stored, as the phones do; at the end each game's stored rounds (``GET /api/v1/games/<id>``) are compared with
   the rounds the tables had acknowledged: lost L (missing), duplicated D (more than that).
CPU time (µs per request, user + system from /proc/<pid>/stat) of the instances' processes, the PostgreSQL
processes serving ``scorepad_fed`` (with its WAL writer, checkpointer and background writer) and nginx's, for: the
trivial request and the 304 (phase 1's slices), a changed poll answered from the worker's fragment cache (200,
straight on one instance, no If-None-Match), a board's first render, a poll through nginx (phase 2), a save
(``--save-window`` s of saves through nginx, nothing else running).
The last line reads exactly
`federation: cached polls Nx trivial, pg 304 ratio R, save p99 X ms, lost L, duplicated D`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# This checkout's scorepad and tests/ (the nginx runner), not the ones the venv has installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board_load import (  # noqa: E402 (bench/)
    EXAMPLE,
    ROW,
    Saves,
    call,
    ensure_wrk,
    evening,
    live_etag,
    options,
    play,
    poll_path,
    print_row,
    ratio_phases,
    start_server,
    wrk,
)
from server import HOST, ROOT, free_port  # noqa: E402

from tests.gunicorn_server import Server  # noqa: E402
from tests.nginx_server import nginx  # noqa: E402

DATABASE = "scorepad_fed"
DATABASE_URL = f"postgresql://{DATABASE}:{DATABASE}@127.0.0.1/{DATABASE}"
#: PostgreSQL's processes that work for every database (and so for this one's writes too).
PG_SHARED = ("walwriter", "checkpointer", "background writer")
DEPLOY_CONF = ROOT / "deploy" / "gunicorn.conf.py"


def root_run(*command: str) -> None:
    """Run ``command`` quietly; it must succeed."""
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    )


def ensure_postgres() -> str:
    """Debian's PostgreSQL installed (when missing and root) with a running cluster, and an empty database
    ``scorepad_fed`` owned by a role of that name (both dropped and created again); its URL."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/postgres")):
        if os.geteuid() != 0:
            sys.exit("PostgreSQL is missing: apt-get install postgresql (as root)")
        root_run("apt-get", "update")
        root_run("apt-get", "install", "-y", "postgresql")
    if os.geteuid() != 0:
        sys.exit("run as root: the bench creates its own PostgreSQL role and database (su postgres)")
    clusters = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True).stdout.split()
    if not clusters:
        version = sorted(p.name for p in Path("/usr/lib/postgresql").iterdir())[-1]
        root_run("pg_createcluster", version, "main")
        clusters = [version, "main"]
    if subprocess.run(["pg_isready", "-q", "-h", HOST], check=False).returncode != 0:
        root_run("pg_ctlcluster", clusters[0], clusters[1], "start")
        deadline = time.monotonic() + 30
        while subprocess.run(["pg_isready", "-q", "-h", HOST], check=False).returncode != 0:
            if time.monotonic() > deadline:
                sys.exit("PostgreSQL did not start")
            time.sleep(0.5)
    sql = f"""
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{DATABASE}') THEN
    CREATE ROLE {DATABASE} LOGIN PASSWORD '{DATABASE}';
  END IF;
END $$;
DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE);
CREATE DATABASE {DATABASE} OWNER {DATABASE};
"""
    subprocess.run(["su", "postgres", "-c", "psql -v ON_ERROR_STOP=1 -q"], input=sql, text=True, check=True, cwd="/tmp")
    return DATABASE_URL


def raise_open_files(wanted: int = 65536) -> None:
    """As many open files as ``wanted`` for this process and what it starts (wrk's and nginx's thousands of
    connections), or as many as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), max(hard, wanted)))
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Instance:
    """One gunicorn instance on a fixed port, which :meth:`kill` SIGKILLs (master and workers) and :meth:`start`
    starts again."""

    def __init__(self, port: int, database_url: str, env: dict[str, str], args: tuple[str, ...]) -> None:
        self.port, self.database_url, self.env, self.args = port, database_url, env, args
        self.process: subprocess.Popen | None = None

    def start(self, migrate: bool = False) -> None:
        self.process = start_server(self.port, self.database_url, self.env, self.args, migrate=migrate)

    def pids(self) -> list[int]:
        """The master's and its workers' pids (none when it is not running)."""
        if self.process is None or self.process.poll() is not None:
            return []
        return [self.process.pid, *Server(self.process, HOST, self.port, Path("/dev/null")).workers()]

    def kill(self) -> None:
        """SIGKILL the master and its workers at once (no graceful stop: a machine or process lost)."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def proc_ticks(pid: int) -> int | None:
    """utime + stime of process ``pid`` so far (clock ticks), None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


def postgres_pids() -> list[int]:
    """The PostgreSQL processes working for this bench: the backends of database ``scorepad_fed`` (their title
    names it: ``postgres: 15/main: scorepad_fed scorepad_fed 127.0.0.1(…) idle``) and the shared writers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and (f" {DATABASE} " in title or title.rstrip().endswith(PG_SHARED)):
            found.append(int(entry.name))
    return found


class Cpu:
    """CPU time of the stack's parts (app: both gunicorn instances; postgres; nginx), read from /proc."""

    def __init__(self, instances: list[Instance]) -> None:
        self.instances = instances
        self.nginx: subprocess.Popen | None = None

    def snapshot(self) -> dict[str, dict[int, int]]:
        """Each part's processes' ticks so far, by pid."""
        nginx = []
        if self.nginx is not None:
            nginx = [self.nginx.pid, *Server(self.nginx, HOST, 0, Path("/dev/null")).workers()]
        parts = {
            "app": [pid for instance in self.instances for pid in instance.pids()],
            "postgres": postgres_pids(),
            "nginx": nginx,
        }
        return {part: {pid: t for pid in pids if (t := proc_ticks(pid)) is not None} for part, pids in parts.items()}

    @staticmethod
    def since(before: dict[str, dict[int, int]], after: dict[str, dict[int, int]]) -> dict[str, float]:
        """Each part's CPU seconds between two snapshots (a process started since counts from 0; one gone since is
        not counted)."""
        tick = os.sysconf("SC_CLK_TCK")
        return {part: sum(t - before[part].get(pid, 0) for pid, t in after[part].items()) / tick for part in after}

    @contextlib.contextmanager
    def measure(self, into: dict[str, float]) -> Iterator[None]:
        """Add the parts' CPU seconds spent in the ``with`` block to ``into``."""
        before = self.snapshot()
        yield
        for part, seconds in self.since(before, self.snapshot()).items():
            into[part] = into.get(part, 0.0) + seconds


CPU_ROW = "{:<36} {:>9} {:>9} {:>9} {:>9} {:>9}"


def print_cpu(rows: list[tuple[str, dict[str, float], int]]) -> None:
    """The CPU table: for each kind of request, µs per request of the app, PostgreSQL, nginx and all together."""
    print(CPU_ROW.format("CPU per request (µs)", "requests", "app", "postgres", "nginx", "total"))
    for label, cpu, requests in rows:
        per = {part: cpu.get(part, 0.0) * 1e6 / max(1, requests) for part in ("app", "postgres", "nginx")}
        print(CPU_ROW.format(label, requests, *(f"{per[p]:.0f}" for p in per), f"{sum(per.values()):.0f}"))


def create_games(port: int, count: int, title: str) -> list[dict]:
    """``count`` games of the example tournament with their first 2 rounds, created through the API: the tables
    (``id``, ``edit``, ``view``, ``rounds``: the 28 rounds to play, ``n``: how many are saved)."""
    tables = []
    for number in range(count):
        doc = {**EXAMPLE["game"], "title": f"{title} {number + 1}", "rounds": EXAMPLE["game"]["rounds"][:2]}
        status, _, data = call(port, "POST", "/api/v1/games", doc)
        assert status == 201, data
        body = json.loads(data)
        tables.append(
            {
                "id": body["id"],
                "edit": body["edit_token"],
                "view": body["view_token"],
                "rounds": EXAMPLE["game"]["rounds"],
                "n": 2,
            }
        )
    return tables


def live_paths(port: int, tables: list[dict]) -> list[str]:
    """Each table's board poll path (the board page's ``hx-get``, read from the first board's page; the others
    differ only by their view token), not yet requested."""
    first = poll_path(port, f"/b/{tables[0]['view']}")
    return [first.replace(tables[0]["view"], table["view"]) for table in tables]


def fleet_script(boards: list[tuple[str, str]]) -> str:
    """wrk's Lua script of phase 2: each request the next board (each thread starting elsewhere) with that board's
    ETag. The boards do not change during the phase, so the ETag each viewer would keep is the one given."""
    entries = ", ".join(f"{{{json.dumps(path)}, {json.dumps(etag)}}}" for path, etag in boards)
    return f"""
local boards = {{{entries}}}
local started = 0
function setup(thread)
  started = started + 1
  thread:set("i", started * 37)
end
function request()
  i = i % #boards + 1
  return wrk.format("GET", boards[i][1], {{["If-None-Match"] = boards[i][2], ["HX-Request"] = "true"}})
end
"""


def kill_and_restart(instance: Instance, kill_at: float, down: float, stop: threading.Event, log: list[str]) -> None:
    """SIGKILL ``instance`` ``kill_at`` s from now and start it again ``down`` s later (unless ``stop`` is set)."""
    if stop.wait(kill_at):
        return
    started = time.perf_counter()
    instance.kill()
    log.append(f"killed the instance on port {instance.port} at {kill_at:.1f} s")
    stop.wait(down)
    instance.start()
    log.append(f"started it again, answering {time.perf_counter() - started:.1f} s after the kill")


def count_rounds(port: int, tables: list[dict]) -> tuple[int, int]:
    """Rounds lost (acknowledged to a table, not stored as sent) and duplicated (stored beyond what the table had
    acknowledged), over ``tables``, read through the API."""
    lost = duplicated = 0
    for table in tables:
        status, _, data = call(
            port, "GET", f"/api/v1/games/{table['id']}", headers={"Authorization": f"Bearer {table['edit']}"}
        )
        assert status == 200, (status, data[:200])
        body = json.loads(data)
        stored = (body.get("game") or body)["rounds"]
        sent = table["rounds"][: table["n"]]
        lost += sum(1 for i, rnd in enumerate(sent) if i >= len(stored) or not same_round(stored[i], rnd))
        duplicated += max(0, len(stored) - len(sent))
    return lost, duplicated


def same_round(stored: dict, sent: dict) -> bool:
    """Whether a stored round (the API's export, with more fields) is the round sent: its contract, declarer,
    doubles and outcome."""
    return all(
        stored.get(key) == value for key, value in sent.items() if key in ("contract", "declarer", "doubles", "outcome")
    )


def phase_args(args, **values) -> argparse.Namespace:
    """board_load.evening's ``args`` for one phase."""
    return argparse.Namespace(**{"viewers": args.viewers, "poll": args.poll, "save": args.save, **values})


@dataclass
class Bench:
    """What the phases share: the options, wrk, the two instances, the CPU accounting and its rows, a folder."""

    args: argparse.Namespace
    binary: str
    instances: list[Instance]
    tmp: Path
    cpu_rows: list[tuple[str, dict[str, float], int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cpu = Cpu(self.instances)

    @contextlib.contextmanager
    def cpu_row(self, label: str) -> Iterator[list[int]]:
        """Measure the CPU of the ``with`` block into a row of the CPU table, per request: the block puts the
        count of requests into the list it gets."""
        spent: dict[str, float] = {}
        requests: list[int] = []
        with self.cpu.measure(spent):
            yield requests
        self.cpu_rows.append((label, spent, sum(requests)))

    def first_renders(self, port: int, paths: list[str]) -> list[str]:
        """Each board's live fragment asked for once, one at a time (no worker has it rendered yet): its ETag."""
        etags = []
        with self.cpu_row("changed poll, first render (200)") as requests:
            for path in paths:
                status, headers, _ = call(port, "GET", path, headers={"HX-Request": "true"})
                assert status == 200, (path, status)
                etags.append(headers["ETag"])
            requests.append(len(paths))
        return etags

    def phase1(self, port: int, path: str, etag: str, other: str) -> tuple[dict, float]:
        """Trivial and 304 polls of ``path`` straight on the instance on ``port``, then changed polls (200, from
        the workers' fragment cache) of the board ``other``; the trivial figures and R."""
        args = self.args
        base = f"http://{HOST}:{port}"
        print(
            f"phase 1: trivial and 304 straight on one instance, {args.seconds} s in {args.slices} slices", flush=True
        )
        by_kind: dict[str, dict[str, float]] = {"ceiling": {}, "304": {}}
        trivial, unchanged = ratio_phases(
            self.binary, base, path, etag, args, lambda kind: self.cpu.measure(by_kind[kind])
        )
        self.cpu_rows.append(("trivial /api/v1/health (phase 1)", by_kind["ceiling"], trivial["requests"]))
        self.cpu_rows.append(("unchanged poll (304, phase 1)", by_kind["304"], unchanged["requests"]))
        with self.cpu_row("changed poll (200, worker's cache)") as requests:
            fresh = wrk(self.binary, base + other, args.connections, args.changed, headers=("HX-Request: true",))
            requests.append(fresh["requests"])
        print(ROW.format("straight on one instance", "req/s", "p50 ms", "p99 ms", "errors"))
        for label, figures in (
            ("trivial GET /api/v1/health", trivial),
            ("board poll, unchanged (304)", unchanged),
            ("board poll, changed (200)", fresh),
        ):
            print_row(label, figures["rps"], figures["p50"], figures["p99"], figures["errors"])
        ratio = unchanged["rps"] / trivial["rps"]
        print(f"pg 304 ratio: {ratio:.2f}", flush=True)
        return trivial, ratio

    def phase2(self, front, boards: list[tuple[str, str]]) -> dict:
        """``--connections2`` wrk connections polling ``boards`` (path, ETag) through nginx; wrk's figures."""
        args = self.args
        script = self.tmp / "fleet.lua"
        script.write_text(fleet_script(boards))
        url = front.base + boards[0][0]
        print(f"phase 2: {args.connections2} connections polling {len(boards)} boards through nginx, {args.fleet} s")
        wrk(self.binary, url, args.connections2, 3, str(script))  # warm up: nginx's cache
        with self.cpu_row("poll through nginx (phase 2)") as requests:
            fleet = wrk(self.binary, url, args.connections2, args.fleet, str(script))
            requests.append(fleet["requests"])
        print(ROW.format("through nginx", "req/s", "p50 ms", "p99 ms", "errors"))
        print_row("board poll (304)", fleet["rps"], fleet["p50"], fleet["p99"], fleet["errors"])
        if fleet["errors"]:
            kinds = ("non-2xx-3xx", "connect", "read", "write", "timeout")
            print("  errors:", ", ".join(f"{kind} {fleet[kind]}" for kind in kinds if fleet.get(kind)))
        return fleet

    def saves_alone(self, port: int, tables: list[dict]) -> None:
        """The tables saving through nginx for ``--save-window`` s, nothing else running: a save's CPU."""
        stop = threading.Event()
        with self.cpu_row("save through nginx (saves alone)") as requests:
            threads, saves = play(port, tables, self.args.save, stop, "fed-s")
            stop.wait(self.args.save_window)
            stop.set()
            for thread in threads:
                thread.join()
            requests.append(len(saves.times))
        print_row("saves alone (201)", len(saves.times) / self.args.save_window, *saves.quantiles(), len(saves.errors))

    def phase3(self, front, tables: list[dict]) -> Saves:
        """The tables saving while the viewers poll their boards, after the viewers alone for ``--warm-up`` s."""
        args = self.args
        paths = live_paths(front.port, tables)
        print(
            f"phase 3: {args.tables} tables saving every ~{args.save:g} s, {args.viewers} viewers polling every "
            f"~{args.poll:g} s through nginx, {args.steady} s (after {args.warm_up} s of the viewers alone)",
            flush=True,
        )
        # The viewers' first polls (each without an ETag yet: every board's first render) are not the steady state.
        evening(self.binary, front.base, front.port, [], paths, self.tmp, phase_args(args, evening=args.warm_up))
        viewers, saves = evening(
            self.binary, front.base, front.port, tables, paths, self.tmp, phase_args(args, evening=args.steady), "fed-s"
        )
        print_phase("phase 3 (steady)", viewers, saves, args.steady)
        return saves

    def phase4(self, front, tables: list[dict]) -> None:
        """Phase 3 again with ``tables``, the second instance killed and started again meanwhile."""
        args = self.args
        paths = live_paths(front.port, tables)
        stop = threading.Event()
        log: list[str] = []
        victim = self.instances[1]
        killer = threading.Thread(target=kill_and_restart, args=(victim, args.kill_at, args.down, stop, log))
        print(
            f"phase 4: the same with other tables, instance {victim.port} killed at {args.kill_at:g} s and started "
            f"again {args.down:g} s later, {args.killed} s",
            flush=True,
        )
        killer.start()
        viewers, saves = evening(
            self.binary, front.base, front.port, tables, paths, self.tmp, phase_args(args, evening=args.killed), "fed-k"
        )
        stop.set()
        killer.join()
        for line in log:
            print("  " + line)
        print_phase("phase 4 (an instance killed)", viewers, saves, args.killed)
        print(
            f"  saves sent again after a failure and answered as already stored (Idempotent-Replayed): {saves.replayed}"
        )


def federation(args) -> None:
    raise_open_files()
    database_url = ensure_postgres()
    gunicorn_args: tuple[str, ...] = ("-c", str(DEPLOY_CONF))
    env = {"WEB_CONCURRENCY": str(args.workers), "DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "1", "TRUSTED_PROXIES": "1"}
    instances = [Instance(port, database_url, env, gunicorn_args) for port in (free_port(), free_port())]
    bench = Bench(args, ensure_wrk(), instances, Path(tempfile.mkdtemp(prefix="federation-")))
    try:
        for number, instance in enumerate(instances):
            instance.start(migrate=number == 0)
        a = instances[0].port
        print(
            f"PostgreSQL {DATABASE}, gunicorn on {' and '.join(str(i.port) for i in instances)} ({args.workers} sync "
            f"workers each), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; creating {args.games} boards and "
            f"{2 * args.tables} tables",
            flush=True,
        )
        boards = create_games(a, args.games, "Board")
        steady_tables = create_games(a, args.tables, "Table")
        killed_tables = create_games(a, args.tables, "Table")
        board_paths = live_paths(a, boards)
        etags = [live_etag(a, board_paths[0]), *bench.first_renders(a, board_paths[1:])]
        trivial, ratio = bench.phase1(a, board_paths[0], etags[0], board_paths[1])

        with nginx([i.port for i in instances], bench.tmp / "nginx", args.connections2 * 2 + 1024) as front:
            bench.cpu.nginx = front.process
            fleet = bench.phase2(front, list(zip(board_paths, etags, strict=True)))
            n = fleet["rps"] / trivial["rps"]
            print(f"cached polls: {n:.2f}x trivial", flush=True)
            bench.saves_alone(front.port, steady_tables)
            saves = bench.phase3(front, steady_tables)
            bench.phase4(front, killed_tables)
            lost, duplicated = count_rounds(front.port, steady_tables + killed_tables)
            acknowledged = sum(t["n"] - 2 for t in steady_tables + killed_tables)
            print(f"rounds saved and acknowledged: {acknowledged}; lost {lost}, duplicated {duplicated}")
            bench.cpu.nginx = None
    finally:
        for instance in instances:
            instance.stop()
        shutil.rmtree(bench.tmp, ignore_errors=True)
    print_cpu(bench.cpu_rows)
    p99 = saves.quantiles()[1]
    print(
        f"federation: cached polls {n:.1f}x trivial, pg 304 ratio {ratio:.2f}, save p99 {p99:.1f} ms, "
        f"lost {lost}, duplicated {duplicated}"
    )


def print_phase(label: str, viewers: dict, saves: Saves, seconds: float) -> None:
    print(ROW.format(label, "req/s", "p50 ms", "p99 ms", "errors"))
    print_row("board poll (304 or 200)", viewers["rps"], viewers["p50"], viewers["p99"], viewers["errors"])
    print_row("save a round (POST)", len(saves.times) / seconds, *saves.quantiles(), len(saves.errors))
    slowest = sorted(saves.slowest, reverse=True)[:5]
    print("  slowest saves (ms @ s into the phase):", ", ".join(f"{ms:.0f} @ {at:.1f}" for ms, at in slowest))
    for problem in sorted(set(saves.errors))[:5]:
        print("  save error:", problem[:160])


def main() -> None:
    parser = options(__doc__, 0, "length of phase 3 (the steady phase), s")
    parser.set_defaults(viewers=1000, poll=1.0, save=1.5, connections=16, seconds=20, slices=10, evening=20)
    parser.add_argument("--workers", type=int, default=3, help="sync workers per gunicorn instance (WEB_CONCURRENCY)")
    parser.add_argument("--games", type=int, default=200, help="boards polled in phase 2")
    parser.add_argument("--connections2", type=int, default=2000, help="wrk connections of phase 2")
    parser.add_argument("--fleet", type=int, default=15, help="length of phase 2, s")
    parser.add_argument("--changed", type=int, default=5, help="length of the changed polls' run (200), s")
    parser.add_argument(
        "--tables",
        type=int,
        default=20,
        help="tables saving in phases 3 and 4 (20 every ~1.5 s: the night's 13 saves/s)",
    )
    parser.add_argument("--save-window", type=float, default=8, help="length of the saves-alone run (CPU), s")
    parser.add_argument("--warm-up", type=int, default=3, help="the viewers alone before phase 3, s")
    parser.add_argument("--killed", type=int, default=20, help="length of phase 4, s")
    parser.add_argument("--kill-at", type=float, default=6, help="when an instance is killed in phase 4, s")
    parser.add_argument("--down", type=float, default=3, help="how long it stays down, s")
    args = parser.parse_args()
    args.steady = args.evening
    federation(args)


if __name__ == "__main__":
    main()
