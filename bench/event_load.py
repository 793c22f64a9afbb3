"""Club night load on loopback (issue 14): one night of 80 players in one session (20 tables)
created through ``POST /api/v1/events``, its 20 tables saving rounds through the games API
while 500 viewers poll the event board's live fragment, against gunicorn with the app's
default config (gunicorn.conf.py, as the Procfile runs it) on a fresh SQLite file (or
DATABASE_URL). Run by hand: `make bench-events` or `.venv/bin/python bench/event_load.py`.

The machinery is bench/board_load.py's (wrk from Debian's packages; only 127.0.0.1 is ever
targeted):
1. ceiling (``/api/v1/health``) against unchanged polls of the event board's live fragment
   (``/n/<view token>/live…``, the ``hx-get`` of the board page, with its ETag: 304), as fast
   as wrk can, alternating in slices — the "304 ratio" is their throughput's ratio in this run;
2. the evening: 500 viewer connections polling the event board every ~POLL s, each keeping the
   last ETag it got, while the 20 tables each save a round every ~SAVE s (the example
   tournament game's rounds, its seats turned to the table's first declarer);
3. the tables then play to their end (28 rounds each), and the board is rendered without an
   ETag (200): the board page and the live fragment, each time after the director closed or
   reopened the night (a new state, so no process holds the fragment rendered yet).
The last line reads `304 ratio: R, save p99: X ms, board render p50: Y ms, errors: E`.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
from urllib.parse import urlsplit

from board_load import (  # bench/board_load.py
    EXAMPLE,
    call,
    evening,
    live_etag,
    options,
    play,
    poll_path,
    print_figures,
    print_row,
    ratio_phases,
    serving,
)
from server import HOST

from scorepad.scoring import parse_game

#: Outcome fields that name one seat, and those that list a figure per seat (game-format.md).
SEAT_FIELDS = ("penultimate", "last", "king", "ace")
PER_SEAT_FIELDS = ("tricks", "queens", "hearts", "most")


def turned(rnd: dict, shift: int) -> dict:
    """``rnd`` (a round of game-format.md) with every seat s moved to seat (s + shift) mod 4: the
    same round played by the same cards one seat further on. Valid wherever ``rnd`` was, with a
    first declarer ``shift`` seats further (the rules only ever name seats relative to the
    declarer: doubles, redoubles, the dealer)."""

    def seat(s: int) -> int:
        return (s + shift) % 4

    outcome: dict = {}
    for key, value in rnd["outcome"].items():
        if key in SEAT_FIELDS:
            outcome[key] = seat(value)
        elif key in PER_SEAT_FIELDS:
            outcome[key] = [value[(s - shift) % 4] for s in range(4)]
        else:  # "order": seats in finishing order
            outcome[key] = [seat(s) for s in value]
    return {**rnd, "doubles": [[seat(a), seat(b)] for a, b in rnd["doubles"]], "outcome": outcome}


def table_rounds(first_declarer: int) -> list[dict]:
    """The example tournament game's 28 rounds for a table whose first declarer is ``first_declarer``."""
    game = EXAMPLE["game"]
    rounds = [turned(rnd, (first_declarer - game["first_declarer"]) % 4) for rnd in game["rounds"]]
    parse_game({**game, "first_declarer": first_declarer, "rounds": rounds})  # ScoringError if not valid
    return rounds


def night(players: int, sessions: int) -> dict:
    """The night's document (club-format.md "Club night"), the tournament preset at every table."""
    return {
        "format": "barbu-scorepad/event@1",
        "title": "Benchmark club night",
        "date": time.strftime("%Y-%m-%d"),
        "timezone": "Europe/Amsterdam",
        "preset": "tournament",
        "sessions": sessions,
        "ranking": "points",
        "players": [f"Player {n + 1}" for n in range(players)],
    }


def timed_get(port: int, path: str, headers: dict | None = None) -> float:
    """One GET of ``path`` answered 200, its time in ms."""
    started = time.perf_counter()
    status, _, body = call(port, "GET", path, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert status == 200, (path, status, body[:200])
    return elapsed


def renders(port: int, event: dict, board: str, live: str, samples: int) -> dict[str, list[float]]:
    """``samples`` renders (200, no ETag) of the board page and of its live fragment, each after
    the director closed or reopened the night, with a health check at the same moment for scale."""
    director = {"Authorization": f"Bearer {event['director_token']}"}
    times: dict[str, list[float]] = {"page": [], "live": [], "health": []}
    for sample in range(samples):
        action = "close" if sample % 2 == 0 else "reopen"
        status, _, body = call(port, "POST", f"/api/v1/events/{event['id']}/{action}", {}, director)
        assert status == 200, (action, status, body[:200])
        times["live"].append(timed_get(port, live, {"HX-Request": "true"}))
        times["page"].append(timed_get(port, board))
        times["health"].append(timed_get(port, "/api/v1/health"))
    return {name: sorted(values) for name, values in times.items()}


def event_load(args) -> None:
    port = args.port
    with serving(port, "event-load") as (binary, tmp):
        started = time.perf_counter()
        status, _, data = call(port, "POST", "/api/v1/events", night(args.players, 1))
        created_ms = (time.perf_counter() - started) * 1000
        assert status == 201, (status, data[:300])
        event = json.loads(data)
        session = event["sessions"][0]
        tables = [
            {"id": t["game_id"], "edit": t["edit_token"], "rounds": table_rounds(t["first_declarer"]), "n": 0}
            for t in session["tables"]
        ]
        args.tables = len(tables)
        board = urlsplit(event["links"]["board"]).path
        live = poll_path(port, board)
        etag = live_etag(port, live)

        base = f"http://{HOST}:{port}"
        workers = os.environ.get("WEB_CONCURRENCY", os.cpu_count())
        print(
            f"gunicorn on {base} ({os.cpu_count()} cores, {workers} workers, load {os.getloadavg()[0]:.1f}); "
            f"a night of {args.players} players, {len(tables)} tables (created in {created_ms:.0f} ms); "
            f"polling {live}; warming up",
            flush=True,
        )
        ceiling, unchanged = ratio_phases(binary, base, live, etag, args)
        viewers, saves = evening(binary, base, port, tables, [live], tmp, args)
        errors = print_figures("event board poll", ceiling, unchanged, viewers, saves, args)

        # Every table to its end (not timed), then the board with 20 tables of 28 rounds.
        threads, rest = play(port, tables, 0, threading.Event())
        for thread in threads:
            thread.join()
        errors += len(rest.errors)
        status, _, data = call(
            port, "GET", f"/api/v1/events/{event['id']}", headers={"Authorization": f"Bearer {event['view_token']}"}
        )
        assert status == 200, status
        played = [t["rounds_played"] for t in json.loads(data)["sessions"][0]["tables"]]
        print(f"render (200, no ETag) after every table played to its end: rounds per table {sorted(set(played))}")
        times = renders(port, event, board, live, args.renders)
        for label, name in (
            ("event board page GET /n/<v>", "page"),
            ("live fragment, new state", "live"),
            ("health, same moments", "health"),
        ):
            ordered = times[name]
            print_row(label, len(ordered) / (sum(ordered) / 1000), statistics.median(ordered), ordered[-1], 0)
        print("(render rows: req/s of one client in a row; p50 and the slowest of the samples)")
        ratio = unchanged["rps"] / ceiling["rps"]
        render_p50 = statistics.median(times["page"])
        print(
            f"304 ratio: {ratio:.2f}, save p99: {saves.quantiles()[1]:.1f} ms, "
            f"board render p50: {render_p50:.1f} ms, errors: {errors} (load {os.getloadavg()[0]:.1f})"
        )


def main() -> None:
    parser = options(__doc__, 8766, "length of the evening phase (a table saves its 28 rounds in ~85 s)")
    parser.add_argument(
        "--players", type=int, default=80, help="players of the night (one session: players / 4 tables)"
    )
    parser.add_argument("--renders", type=int, default=20, help="renders of the full board timed at the end")
    event_load(parser.parse_args())


if __name__ == "__main__":
    main()
