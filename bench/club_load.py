"""A club's season on loopback (issue 16): one club of 60 members and 2,000 complete games of
28 rounds (the tournament preset), bulk-imported, then its pages timed one request at a time and
the saves of 20 club tables timed while viewers load those pages. Against gunicorn with the app's
default config (gunicorn.conf.py, as the Procfile runs it) on a fresh SQLite file (or
DATABASE_URL: an empty database). Run by hand: `make bench-club` or `.venv/bin/python bench/club_load.py`.

1. Import (in this process, not through the API): the club and its members through
   ``scorepad.services.clubs``; then the games, their rounds, their history (a ``record`` entry per
   round, as a game played at the table has) and their per-game results in a few multi-row
   ``INSERT``s (SQLAlchemy Core, ``executemany``). Each game is the example tournament game
   (tests/data/examples/tournament-full.json) turned to a first declarer drawn at random, each
   round's outcome given to the seats in a random order wherever the rules allow it (checked
   by the engine's ``parse_round``: otherwise the round is kept as it was), played by 4 of the
   members drawn at random (1 game in 20 with a guest), dated over a season. The results rows
   are the engine's (``scoring.club.seat_results``) as ``clubs.refresh_results`` stores them;
   the ratings are ``scorepad.services.rating.catch_up``'s, run twice: the second run, every game marked
   unrated again, is the **rating replay** of the last line (what an edit of the season's first
   game asks for), in this process.
2. Pages, one client on loopback, one request at a time (server time: the app has no
   Server-Timing header, so this is the client's latency, loopback, nothing else running): a
   member's page (every member in turn), the ladder, the club page — the browser pages under the
   view link when the app has them (``/k/<view token>/m/<member id>``, with its two chart images
   timed apart, ``/k/<view token>/ladder``, ``/k/<view token>``), else (or with ``--api``) the
   JSON API (``GET /api/v1/clubs/<id>/members/<mid>``, ``…/ladder``, ``/api/v1/clubs/<id>``);
   the script says which. Target: p95 ≤ 150 ms each.
3. The evening: ``--tables`` club games created through ``POST /api/v1/games`` with ``club``,
   ``members`` and the club's admin token as ``X-Club-Token`` (their first ``--start`` rounds
   in the document), each saving a round every ~SAVE s to its 28th (a save that completes a game
   updates the ratings), while ``--viewers`` connections (wrk) load one of those three pages
   every ~POLL s (12 every ~6 s by default: 2 pages a second) and one scorer edits a round of
   one of the season's first games every ~EDIT s (the ratings of every later game are replayed,
   after the answer if need be): a save's p50/p99
   (target: the load test's save p99 ≤ 50 ms, bench/README.md), the completing saves' and the
   edits' times apart. Then, the server quiet again, one more edit of the season's first game and
   a member's statistics read until their rating no longer says ``updating``: the replay through
   the server.
The last line reads
`club: member page p95 X ms, ladder p95 Y ms, club page p95 Z ms, save p99 S ms, rating replay R ms`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

# This checkout's scorepad (the one gunicorn runs here), not the one the venv has installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board_load import EXAMPLE, Saves, call, ensure_wrk, print_row, quantile, save_rounds, wrk  # noqa: E402 (bench/)
from event_load import PER_SEAT_FIELDS, SEAT_FIELDS, turned  # noqa: E402
from server import HOST, start_gunicorn, upgrade  # noqa: E402

from scorepad.scoring import ScoringError, parse_game  # noqa: E402
from scorepad.scoring.document import parse_round, round_to_dict  # noqa: E402

PRESET = "tournament"
#: Figures a viewer's page loads, in the last line's order.
PAGES = ("member page", "ladder", "club page")


def permuted(rnd: dict, order: list[int]) -> dict:
    """``rnd`` with its outcome given to other seats: what seat s took goes to seat ``order[s]``
    (the declarer, the contract and the doubles stay). Legal or not is the engine's to say."""
    outcome: dict = {}
    for key, value in (rnd.get("outcome") or {}).items():
        if key in SEAT_FIELDS:
            outcome[key] = order[value]
        elif key in PER_SEAT_FIELDS:
            moved = [0] * 4
            for seat, figure in enumerate(value):
                moved[order[seat]] = figure
            outcome[key] = moved
        else:  # "order": seats in finishing order
            outcome[key] = [order[s] for s in value]
    return {**rnd, "outcome": outcome} if "outcome" in rnd else rnd


def play_rounds(rng: random.Random, first_declarer: int, players: list[str]) -> list[dict]:
    """28 legal rounds of the tournament preset for a game whose first declarer is
    ``first_declarer``: the example game's rounds turned to that declarer, each round's outcome
    moved to a random order of the seats when the engine accepts it (else as it was)."""
    example = EXAMPLE["game"]
    shift = (first_declarer - example["first_declarer"]) % 4
    game = parse_game({**example, "players": players, "first_declarer": first_declarer, "rounds": []})
    done: list = []
    for base in (turned(rnd, shift) for rnd in example["rounds"]):
        order = rng.sample(range(4), 4)
        for candidate in (permuted(base, order), base):
            try:
                done.append(parse_round(game.preset, game.players, first_declarer, tuple(done), candidate, ""))
                break
            except ScoringError:
                continue
        else:
            raise AssertionError("the example's round no longer validates")
    return [round_to_dict(rnd) for rnd in done]


@dataclass
class Club:
    """What the benchmark knows of the imported club: its API id, tokens, members' ids and names,
    and the edit tokens of the season's first games (the edits of the evening)."""

    id: str
    admin_token: str
    view_token: str
    members: list[tuple[str, str]]
    old_games: list[dict] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


def season_dates(games: int, start: date, days: int) -> list[date]:
    """``games`` dates over ``days`` days from ``start``, in order: club nights on two
    evenings a week, each night's share of the games alike."""
    nights = [start + timedelta(days=d) for d in range(days) if (start + timedelta(days=d)).weekday() in (1, 4)]
    return [nights[i * len(nights) // games] for i in range(games)]


def import_club(database_url: str, args, rng: random.Random) -> Club:
    """Migrate ``database_url`` and fill it with the benchmark's club (see the module's docstring)."""
    from sqlalchemy import func, insert, select, update

    from scorepad import create_app
    from scorepad.config import database_url as driver_url
    from scorepad.extensions import db
    from scorepad.models import StoredGame, StoredHistory, StoredResult, StoredRound, token_digest
    from scorepad.scoring import preset_to_dict
    from scorepad.scoring.club import seat_results
    from scorepad.services import clubs, rating
    from scorepad.services.games import CONFIRM, VIEW
    from scorepad.tokens import derive_token, new_token

    url = driver_url(database_url)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "club-load-bench"})
    timings: dict[str, float] = {}
    with app.app_context():
        started = time.perf_counter()
        season_start = date.today() - timedelta(days=args.days)
        ladder = {"best": 10, "min_games": 5, "by": "points", "from": season_start.isoformat(), "to": None}
        stored_club = clubs.create_club({"name": "Benchmark club", "ladder": ladder})
        members = [clubs.add_member(stored_club, f"Player {n + 1:02d}") for n in range(args.members)]
        db.session.commit()
        club = Club(
            id=stored_club.public_id,
            admin_token=stored_club.admin_token,
            view_token=stored_club.view_token,
            members=[(m.public_id, m.name) for m in members],
        )

        preset = parse_game({**EXAMPLE["game"], "rounds": []}).preset
        preset_doc = preset_to_dict(preset)
        dates = season_dates(args.games, season_start, args.days)
        connection = db.session.connection()
        games_made = rounds_made = 0
        for batch_start in range(0, args.games, args.batch):
            game_rows, round_rows, history_rows, result_rows = [], [], [], []
            games = []
            for index in range(batch_start, min(args.games, batch_start + args.batch)):
                seated = rng.sample(members, 4)
                guest = rng.random() < args.guests
                if guest:
                    seated[rng.randrange(4)] = None
                players = [m.name if m else f"Guest {index}" for m in seated]
                first_declarer = rng.randrange(4)
                rounds = play_rounds(rng, first_declarer, players)
                day = dates[index]
                created = datetime(day.year, day.month, day.day, 19, 30, tzinfo=UTC) + timedelta(seconds=index)
                finished = created + timedelta(minutes=150)
                edit_token = new_token()
                game_rows.append(
                    {
                        "title": f"Season game {index + 1}",
                        "date": day,
                        "timezone": "Europe/Amsterdam",
                        "players": players,
                        "first_declarer": first_declarer,
                        "preset": preset_doc,
                        "edit_digest": token_digest(edit_token),
                        "view_digest": token_digest(derive_token(edit_token, VIEW)),
                        "confirm_digest": token_digest(derive_token(edit_token, CONFIRM)),
                        "confirmation": "optional",
                        "club_id": stored_club.id,
                        "members": [m.public_id if m else None for m in seated],
                        "created_at": created,
                        "updated_at": finished,
                    }
                )
                games.append((seated, rounds, created, edit_token, first_declarer, players))
            ids = connection.execute(
                insert(StoredGame).returning(StoredGame.id, sort_by_parameter_order=True), game_rows
            ).scalars()
            for game_id, (seated, rounds, created, edit_token, first_declarer, players), row in zip(
                ids, games, game_rows, strict=True
            ):
                for number, rnd in enumerate(rounds, start=1):
                    at = created + timedelta(minutes=5 * number)
                    round_rows.append(
                        {
                            "game_id": game_id,
                            "number": number,
                            "contract": rnd["contract"],
                            "trump": rnd.get("trump"),
                            "start_rank": rnd.get("start_rank"),
                            "doubles": rnd["doubles"],
                            "outcome": rnd.get("outcome"),
                            "status": "provisional",
                            "created_at": at,
                        }
                    )
                    history_rows.append(
                        {
                            "game_id": game_id,
                            "at": at,
                            "action": "record",
                            "round": number,
                            "by": "scorer",
                            "after": rnd,
                        }
                    )
                game = parse_game(
                    {**EXAMPLE["game"], "players": players, "first_declarer": first_declarer, "rounds": rounds}
                )
                for seat, member in zip(seat_results(game), seated, strict=True):
                    result_rows.append(
                        {
                            "game_id": game_id,
                            "seat": seat.seat,
                            "club_id": stored_club.id,
                            "member_id": member.id if member else None,
                            "date": row["date"],
                            "created_at": created,
                            "complete": seat.complete,
                            "rounds_played": seat.rounds_played,
                            "final": seat.final,
                            "rank": seat.rank,
                            "by_contract": {c: line.to_dict() for c, line in seat.by_contract.items()},
                            "given": seat.given,
                            "received": seat.received,
                            "net": seat.net,
                            "against": list(seat.against),
                            "mu": None,
                            "sigma": None,
                            "rated": False,
                            "version": 1,
                        }
                    )
                if len(club.old_games) < args.edits_pool:
                    club.old_games.append(
                        {"id": game_id, "edit": edit_token, "rounds": rounds, "first_declarer": first_declarer}
                    )
            connection.execute(insert(StoredRound), round_rows)
            connection.execute(insert(StoredHistory), history_rows)
            connection.execute(insert(StoredResult), result_rows)
            games_made += len(game_rows)
            rounds_made += len(round_rows)
        db.session.commit()
        timings["import"] = time.perf_counter() - started

        started = time.perf_counter()
        rating.catch_up(stored_club.id)
        timings["rating"] = time.perf_counter() - started
        # Again from the first game: the replay an edit of the season's first game asks for.
        db.session.execute(update(StoredResult).where(StoredResult.club_id == stored_club.id).values(rated=False))
        db.session.commit()
        started = time.perf_counter()
        rating.catch_up(stored_club.id)
        timings["rating again"] = time.perf_counter() - started
        club.counts = {
            "games": db.session.scalar(select(func.count()).select_from(StoredGame)),
            "rounds": db.session.scalar(select(func.count()).select_from(StoredRound)),
            "results": db.session.scalar(select(func.count()).select_from(StoredResult)),
        }
        db.session.remove()
    club.timings = timings
    return club


def page_paths(port: int, club: Club, api: bool) -> tuple[str, dict[str, list[str]], dict[str, str]]:
    """Which pages to time: the browser pages under the view link if the app serves them (and
    not ``api``), with the member page's two charts, else the JSON API. Returns the kind
    (``"pages"`` or ``"JSON API"``), each figure's paths (every member's, for a member's page)
    and the headers to send."""
    view = club.view_token
    if not api and call(port, "GET", f"/k/{view}/m/{club.members[0][0]}")[0] == 200:
        member = [f"/k/{view}/m/{m}" for m, _ in club.members]
        paths = {"member page": member, "ladder": [f"/k/{view}/ladder"], "club page": [f"/k/{view}"]}
        paths["  its rating chart"] = [f"{p}/rating.svg" for p in member]
        paths["  its results chart"] = [f"{p}/results.svg" for p in member]
        return "pages", paths, {}
    base = f"/api/v1/clubs/{club.id}"
    member = [f"{base}/members/{m}" for m, _ in club.members]
    return (
        "JSON API",
        {"member page": member, "ladder": [f"{base}/ladder"], "club page": [base]},
        {"Authorization": f"Bearer {view}"},
    )


def time_pages(port: int, paths: dict[str, list[str]], headers: dict, samples: int) -> dict[str, list[float]]:
    """``samples`` loads of each figure's pages (cycling through its paths), one request at a
    time, interleaved (member, ladder, club, member, …) so a burst of the machine's other work
    weighs on all three alike; each load's time in ms, sorted."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    for sample in range(samples):
        for name, options in paths.items():
            path = options[sample % len(options)]
            started = time.perf_counter()
            status, _, body = call(port, "GET", path, headers=headers)
            times[name].append((time.perf_counter() - started) * 1000)
            assert status == 200, (path, status, body[:200])
    return {name: sorted(values) for name, values in times.items()}


def worker_cpu(master: int) -> float | None:
    """CPU seconds (user + system) that the gunicorn ``master``'s worker processes have used so
    far, from Linux's /proc (None elsewhere): unlike a request's latency, it does not count the
    time the workers waited for a core the machine's other work held."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        ticks = 0
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    except OSError:
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_per_page(master: int, port: int, paths: dict[str, list[str]], headers: dict, loads: int) -> dict:
    """Each figure's mean CPU time per load (ms) in the server's workers over ``loads`` loads one
    at a time (None without /proc)."""
    cpu: dict[str, float | None] = {}
    for name, options in paths.items():
        before = worker_cpu(master)
        for load in range(loads):
            call(port, "GET", options[load % len(options)], headers=headers)
        after = worker_cpu(master)
        cpu[name] = None if before is None or after is None else (after - before) * 1000 / loads
    return cpu


# The viewers: every wrk connection loads one of the pages every ~POLL s (no ETag kept: the
# club's pages are read again at each load).
VIEW_SCRIPT = """
local paths = {%(paths)s}
local auth = %(auth)s
function request()
  local headers = {}
  if auth ~= "" then headers["Authorization"] = auth end
  return wrk.format("GET", paths[math.random(#paths)], headers)
end
function delay()
  return math.random(%(low)d, %(high)d)
end
"""


def club_tables(port: int, club: Club, args, rng: random.Random) -> list[dict]:
    """``args.tables`` club games started through the API (``club``, ``members`` and
    ``X-Club-Token``), each with its first ``args.start`` rounds in the document; the rest of
    their 28 rounds to save."""
    tables = []
    for number in range(args.tables):
        seated = rng.sample(club.members, 4)
        first_declarer = rng.randrange(4)
        players = [name for _, name in seated]
        rounds = play_rounds(rng, first_declarer, players)
        document = {
            **EXAMPLE["game"],
            "title": f"Club table {number + 1}",
            "players": players,
            "first_declarer": first_declarer,
            "rounds": rounds[: args.start],
            "club": club.id,
            "members": [member for member, _ in seated],
        }
        status, _, data = call(port, "POST", "/api/v1/games", document, {"X-Club-Token": club.admin_token})
        assert status == 201, (status, data[:300])
        body = json.loads(data)
        tables.append({"id": body["id"], "edit": body["edit_token"], "rounds": rounds, "n": args.start})
    return tables


@dataclass
class Edits:
    """The old games' edits of the evening: each one's time (ms) and the errors."""

    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def edit_once(port: int, game: dict, edits: Edits, rng: random.Random) -> None:
    """Replace a random round of the imported ``game`` (``PUT /api/v1/games/<id>/rounds/<n>``
    with its edit token) by its outcome moved to other seats, where the engine accepts it (the
    game's results change, and every rating after it): its time and any error into ``edits``."""
    players = [f"P{s}" for s in range(4)]
    while True:
        number = rng.randrange(1, 29)
        current = game["rounds"][number - 1]
        candidate = permuted(current, rng.sample(range(4), 4))
        rounds = [*game["rounds"][: number - 1], candidate, *game["rounds"][number:]]
        if candidate == current:
            continue
        try:
            parsed = parse_game(
                {**EXAMPLE["game"], "players": players, "first_declarer": game["first_declarer"], "rounds": rounds}
            )
        except ScoringError:
            continue
        break
    replacement = round_to_dict(parsed.rounds[number - 1])
    started = time.perf_counter()
    try:
        status, _, data = call(
            port,
            "PUT",
            f"/api/v1/games/{game['id']}/rounds/{number}",
            {**replacement, "number": number},
            {"Authorization": f"Bearer {game['edit']}"},
        )
    except OSError as exc:
        edits.errors.append(str(exc))
        return
    edits.times.append((time.perf_counter() - started) * 1000)
    if status == 200:
        game["rounds"][number - 1] = replacement
    else:
        edits.errors.append(f"{status} {data[:120]!r}")


def edit_old_games(port: int, club: Club, pace: float, stop: threading.Event, edits: Edits, rng: random.Random):
    """Every ~``pace`` s until ``stop``: :func:`edit_once` one of the season's first games."""
    stop.wait(rng.uniform(0, pace))
    while not stop.is_set():
        edit_once(port, rng.choice(club.old_games), edits, rng)
        stop.wait(rng.uniform(pace * 0.5, pace * 1.5))


def evening(binary: str, port: int, club: Club, tables: list[dict], paths, headers, tmp: Path, args, rng):
    """The tables saving and one scorer editing old games while the viewers load the pages
    (wrk, ``args.evening`` s). Returns wrk's figures, the :class:`Saves`, the completing saves'
    times and the :class:`Edits`."""
    script = tmp / "view.lua"
    every = [p for name in PAGES for p in paths[name][:5]]
    poll_ms = int(args.poll * 1000)
    auth = json.dumps(headers.get("Authorization", ""))
    script.write_text(
        VIEW_SCRIPT
        % {"paths": ", ".join(map(json.dumps, every)), "auth": auth, "low": poll_ms // 2, "high": poll_ms * 3 // 2}
    )
    stop = threading.Event()
    saves, completing, edits = Saves(), [], Edits()
    threads = [threading.Thread(target=save_rounds, args=(port, t, args.save, stop, saves, completing)) for t in tables]
    if args.edit > 0 and club.old_games:
        threads.append(
            threading.Thread(
                target=edit_old_games, args=(port, club, args.edit, stop, edits, random.Random(rng.random()))
            )
        )
    for thread in threads:
        thread.start()
    viewers = wrk(binary, f"http://{HOST}:{port}{every[0]}", args.viewers, args.evening, str(script))
    stop.set()
    for thread in threads:
        thread.join()
    return viewers, saves, sorted(completing), edits


def evening_figures(master: int, binary: str, port: int, club: Club, paths, headers, tmp: Path, args, rng) -> float:
    """The evening (:func:`evening`) and its figures printed, with the CPU the server's workers
    used meanwhile (cores busy on average; of ``os.cpu_count()``); returns the saves' p99 (ms)."""
    tables = club_tables(port, club, args, rng)
    args.tables = len(tables)
    before = worker_cpu(master)
    viewers, saves, completing, edits = evening(binary, port, club, tables, paths, headers, tmp, args, rng)
    after = worker_cpu(master)
    busy = (
        ""
        if before is None or after is None
        else f", the server's workers busy {(after - before) / args.evening:.2f} cores"
    )
    print(
        f"evening: {args.viewers} viewers loading a page every ~{args.poll:g} s, {len(tables)} club tables "
        f"saving every ~{args.save:g} s from round {args.start + 1}, an old game edited every ~{args.edit:g} s, "
        f"{args.evening} s (load {os.getloadavg()[0]:.1f}{busy})"
    )
    print_row("pages (wrk: p50, p99)", viewers["rps"], viewers["p50"], viewers["p99"], viewers["errors"])
    print_row("save a round (POST, 201)", len(saves.times) / args.evening, *saves.quantiles(), len(saves.errors))
    for label, values, errors in (
        ("  of which round 28 (p50, max)", sorted(completing), 0),
        ("edit an old game (PUT; p50, max)", sorted(edits.times), len(edits.errors)),
    ):
        if values:
            print_row(label, len(values) / args.evening, statistics.median(values), values[-1], errors)
    played = sorted({t["n"] for t in tables})
    print(f"rounds the tables reached: {played}")
    slowest = sorted(saves.slowest, reverse=True)[:5]
    print("slowest saves (ms @ s into the evening):", ", ".join(f"{ms:.0f} @ {at:.1f}" for ms, at in slowest))
    for problem in (saves.errors + edits.errors)[:5]:
        print("  error:", problem)
    return saves.quantiles()[1]


def replay_after_edit(port: int, club: Club, rng: random.Random) -> float:
    """Edit a round of the season's first game on the quiet server, then read a member's
    statistics (JSON) every 20 ms until its rating no longer says ``updating``: the ms from
    the edit's answer to the ratings replayed through the server (with the edit's own time)."""
    edits = Edits()
    first = club.old_games[0]
    path = f"/api/v1/clubs/{club.id}/members/{club.members[0][0]}"
    auth = {"Authorization": f"Bearer {club.view_token}"}
    started = time.perf_counter()
    edit_once(port, first, edits, rng)
    assert edits.times and not edits.errors, edits.errors
    while True:
        status, _, data = call(port, "GET", path, headers=auth)
        assert status == 200, (status, data[:200])
        if not json.loads(data)["rating"]["updating"]:
            return (time.perf_counter() - started) * 1000
        time.sleep(0.02)


def club_load(args) -> None:
    binary = ensure_wrk()
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="club-load-"))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp / 'club-load.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": database_url}
    upgrade(env)
    print(
        f"importing {args.members} members and {args.games} games of 28 rounds (load {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    club = import_club(database_url, args, rng)
    print(
        f"imported {club.counts} in {club.timings['import']:.1f} s; rating of the whole season "
        f"{club.timings['rating'] * 1000:.0f} ms, "
        f"again from the first game {club.timings['rating again'] * 1000:.0f} ms",
        flush=True,
    )
    limits = {"MAX_GAMES_PER_ADDRESS": "100000", "MAX_GAMES_PER_ADDRESS_BURST": "100000", "SECRET_KEY": "club-load"}
    logs: tuple[str, ...] = ()
    if args.logs:  # gunicorn's access and error logs, kept (the app takes the tokens out of them)
        Path(args.logs).mkdir(parents=True, exist_ok=True)
        logs = ("--access-logfile", f"{args.logs}/access.log", "--error-logfile", f"{args.logs}/error.log")
    server, port = start_gunicorn(database_url, limits, logs, port=args.port)
    try:
        kind, paths, headers = page_paths(port, club, args.api)
        workers = os.environ.get("WEB_CONCURRENCY", os.cpu_count())
        print(
            f"gunicorn on http://{HOST}:{port} ({os.cpu_count()} cores, {workers} workers, "
            f"load {os.getloadavg()[0]:.1f}); timing the {kind}: {', '.join(p[0] for p in paths.values())}",
            flush=True,
        )
        time_pages(port, paths, headers, 5)  # warm up: every process's templates and caches
        times = time_pages(port, paths, headers, args.samples)
        cpu = cpu_per_page(server.pid, port, paths, headers, args.cpu_loads)
        print(f"one client, one request at a time, {args.samples} loads each (ms; load {os.getloadavg()[0]:.1f}):")
        print("{:<34} {:>10} {:>9} {:>9} {:>8} {:>8}".format("page", "req/s", "p50 ms", "p95 ms", "max ms", "cpu ms"))
        for name, ordered in times.items():
            print(
                "{:<34} {:>10.1f} {:>9.1f} {:>9.1f} {:>8.1f} {:>8}".format(
                    f"{name} ({kind})",
                    len(ordered) / (sum(ordered) / 1000),
                    statistics.median(ordered),
                    quantile(ordered, 0.95),
                    ordered[-1],
                    "—" if cpu[name] is None else f"{cpu[name]:.1f}",
                )
            )
        print(
            "(cpu ms: the server's CPU time per load, the mean over --cpu-loads loads; the rest: latency at the client)"
        )
        save_p99 = float("nan")
        if args.evening > 0:
            save_p99 = evening_figures(server.pid, binary, port, club, paths, headers, tmp, args, rng)
        settled = replay_after_edit(port, club, random.Random(args.seed))
        print(f"an edit of the season's first game, then the member's rating shown updating for {settled:.0f} ms")
        p95 = {name: quantile(times[name], 0.95) for name in PAGES}
        print(
            f"club: member page p95 {p95['member page']:.1f} ms, ladder p95 {p95['ladder']:.1f} ms, "
            f"club page p95 {p95['club page']:.1f} ms, save p99 {save_p99:.1f} ms, "
            f"rating replay {club.timings['rating again'] * 1000:.0f} ms"
        )
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument("--api", action="store_true", help="time the JSON API even when the app has the pages")
    parser.add_argument("--logs", help="a folder to keep the server's access and error logs in")
    parser.add_argument("--members", type=int, default=60)
    parser.add_argument("--games", type=int, default=2000, help="complete games of the season (28 rounds each)")
    parser.add_argument(
        "--days", type=int, default=364, help="the season: the games are dated over the days before today"
    )
    parser.add_argument("--guests", type=float, default=0.05, help="share of games with a guest at one seat")
    parser.add_argument("--batch", type=int, default=250, help="games per batch of INSERTs")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--samples", type=int, default=200, help="loads of each page timed one at a time")
    parser.add_argument("--cpu-loads", type=int, default=40, help="loads of each page for the server's CPU time")
    parser.add_argument("--tables", type=int, default=20, help="club tables saving rounds in the evening")
    parser.add_argument("--start", type=int, default=10, help="rounds in each table's document when it starts")
    parser.add_argument("--save", type=float, default=3.0, help="seconds between a table's saves")
    parser.add_argument("--viewers", type=int, default=12, help="wrk connections loading the pages")
    parser.add_argument(
        "--poll",
        type=float,
        default=6.0,
        help="seconds between a viewer's page loads (under gunicorn's keep-alive: 10 s)",
    )
    parser.add_argument("--edit", type=float, default=10.0, help="seconds between edits of old games (0: none)")
    parser.add_argument("--edits-pool", type=int, default=50, help="the season's first games the edits pick from")
    parser.add_argument(
        "--evening", type=int, default=60, help="length of the evening (a table saves 18 rounds in ~54 s)"
    )
    club_load(parser.parse_args())


if __name__ == "__main__":
    main()
