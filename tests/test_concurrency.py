"""Nothing lost, nothing doubled: real parallel requests against a real gunicorn (several
worker processes on the test database, SQLite or TEST_DATABASE_URL's PostgreSQL), and
workers killed with SIGKILL in the middle of a burst of saves."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlencode

import pytest

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.scoring import export_game, parse_game

from .conftest import database_uri
from .gunicorn_server import Phone, bearer, gunicorn, request

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
EXPECTED = EXAMPLE["expected"]["rounds"]
T = TypeVar("T")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One app and one gunicorn (3 workers) on a fresh database for the whole module (each
    test makes its own games): starting gunicorn takes seconds."""
    tmp = tmp_path_factory.mktemp("concurrency")

    class Config(TestConfig):
        SQLALCHEMY_DATABASE_URI = database_uri(tmp)

    app = create_app(Config)
    with app.app_context():
        db.drop_all()
        db.create_all()
    with gunicorn(database_uri(tmp), workers=3, log=tmp / "gunicorn.log") as server:
        yield app, server
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(served):
    return served[0]


@pytest.fixture
def server(served):
    return served[1]


def new_game(server, rounds: int = 0) -> tuple[int, str]:
    """The example game with its first ``rounds`` rounds, through the API: (id, edit token)."""
    status, _, data = request(server, "POST", "/api/v1/games", {**EXAMPLE["game"], "rounds": ROUNDS[:rounds]})
    assert status == 201, data
    body = json.loads(data)
    return body["id"], body["edit_token"]


def form_fields(rnd: dict, number: int, csrf: str) -> str:
    """The round form's fields (templates/rounds/_form.html) for a round document."""
    fields: list[tuple[str, str]] = [("csrf_token", csrf), ("contract", rnd["contract"]), ("number", str(number))]
    for key in ("trump", "start_rank"):
        if key in rnd:
            fields.append((key, rnd[key]))
    for part, value in rnd.get("outcome", {}).items():
        if part in ("tricks", "queens", "hearts", "order"):
            fields += [(f"{part}-{i}", str(v)) for i, v in enumerate(value)]
        elif part == "most":
            fields += [("most", str(v)) for v in value]
        else:
            fields.append((part, str(value)))
    fields += [("doubles", f"{a}-{b}") for a, b in rnd["doubles"]]
    return urlencode(fields)


def stored_rounds(app, game_id: int) -> list[int]:
    with app.app_context():
        numbers = [r.number for r in db.session.get(StoredGame, game_id).rounds]
        db.session.remove()
    return numbers


def until(condition: Callable[[], T | None], seconds: float, what: str) -> T:
    """Ask ``condition`` again every 10 ms until it answers something other than None or
    False, and return that: a wait on a condition, never a fixed pause. AssertionError
    naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (answer := condition()) is None or answer is False:
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.01)
    return answer


def run_together(*calls):
    """Start the calls at the same instant (a barrier in each thread); their results."""
    barrier = threading.Barrier(len(calls))

    def go(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(go, calls))


# -- two phones, one round -------------------------------------------------------------------


def test_two_api_clients_saving_the_same_round_store_it_once(app, server):
    """Many times over: each pair sends round n+1 at once; one 201, one 409, one row."""
    for _game in range(3):
        game_id, edit = new_game(server)
        for n in range(1, 9):
            rnd = {**ROUNDS[n - 1], "number": n}
            post = partial(request, server, "POST", f"/api/v1/games/{game_id}/rounds", rnd, bearer(edit))
            results = run_together(post, post)
            statuses = sorted(status for status, _, _ in results)
            assert statuses == [201, 409], [(s, d[:200]) for s, _, d in results]
            conflict = next(json.loads(d) for s, _, d in results if s == 409)
            assert f"another phone saved round {n} first" in conflict["error"]
        assert stored_rounds(app, game_id) == list(range(1, 9))


def test_phones_tapping_play_again_at_once_start_one_game(app, server):
    """Four taps of Play again on one finished game at the same instant: one 201, three 200s
    naming that same game; one new game stored (the claim is one conditional UPDATE)."""
    game_id, edit = new_game(server, rounds=28)
    with app.app_context():
        before = db.session.query(StoredGame).count()
    post = partial(request, server, "POST", f"/api/v1/games/{game_id}/rematch", None, bearer(edit))
    results = run_together(post, post, post, post)
    assert sorted(status for status, _, _ in results) == [200, 200, 200, 201], [(s, d[:200]) for s, _, d in results]
    assert len({json.loads(d)["id"] for _, _, d in results}) == 1
    with app.app_context():
        assert db.session.query(StoredGame).count() == before + 1


def test_two_api_clients_without_a_number_still_store_one_round(app, server):
    """No "number" in the body: the round is the next one of the game as each request
    found it; whichever is second either meets the first's round (409) or, arriving after
    it, is refused by the engine because the declarer already declared that contract.
    (Only within a declarer's run: a phone that means the round must send its number.)"""
    game_id, edit = new_game(server)
    for n in range(1, 7):
        post = partial(request, server, "POST", f"/api/v1/games/{game_id}/rounds", ROUNDS[n - 1], bearer(edit))
        results = run_together(post, post)
        statuses = sorted(status for status, _, _ in results)
        assert statuses in ([201, 409], [201, 422])
        for status, _, data in results:
            if status == 409:  # names no round number: the client sent none (issue 11)
                assert json.loads(data)["error"] == "another phone saved this round first; reload to see it"
    assert stored_rounds(app, game_id) == list(range(1, 7))


def test_retries_of_one_key_at_once_store_one_round_and_replay_it(app, server):
    """A phone's save and its retries, all at the same instant with the same key: one 201,
    and every other one the replay (200, Idempotent-Replayed), never a 409 or a second row."""
    game_id, edit = new_game(server)
    for n in range(1, 6):
        headers = {**bearer(edit), "Idempotency-Key": f"key-of-round-{n}-{game_id}"}
        post = partial(
            request, server, "POST", f"/api/v1/games/{game_id}/rounds", {**ROUNDS[n - 1], "number": n}, headers
        )
        results = run_together(post, post, post, post)
        assert sorted(status for status, _, _ in results) == [200, 200, 200, 201], [(s, d[:200]) for s, _, d in results]
        for status, headers_of, data in results:
            assert headers_of.get("Idempotent-Replayed") == ("true" if status == 200 else None)
            assert json.loads(data)["result"]["total"] == EXPECTED[n - 1]["result"]["total"]
    assert stored_rounds(app, game_id) == list(range(1, 6))


def test_one_key_in_two_games_at_once_is_stored_in_one(app, server):
    """Two games have no lock in common: the key's unique constraint decides, and the loser
    hears the key is another game's (not that another phone saved its round)."""
    games = [new_game(server), new_game(server)]
    key = {"Idempotency-Key": f"shared-key-{games[0][0]}"}
    results = run_together(
        *[
            partial(request, server, "POST", f"/api/v1/games/{game_id}/rounds", ROUNDS[0], {**bearer(edit), **key})
            for game_id, edit in games
        ]
    )
    assert sorted(status for status, _, _ in results) == [201, 409], [(s, d[:200]) for s, _, d in results]
    conflict = next(json.loads(d) for s, _, d in results if s == 409)
    assert conflict["error"] == "this idempotency key was already used for a round of another game"
    assert sorted(len(stored_rounds(app, game_id)) for game_id, _ in games) == [0, 1]


def test_two_phones_saving_the_same_round_form_store_it_once(app, server):
    """The scorer's page on two phones (CSRF, cookies, the round form): one 303 to the game,
    one 409 page that says another phone saved the round."""
    game_id, edit = new_game(server)
    phones = [Phone(server), Phone(server)]
    for n in range(1, 8):
        forms = [form_fields(ROUNDS[n - 1], n, phone.csrf_token(f"/g/{edit}")) for phone in phones]
        results = run_together(
            *[partial(p.request, "POST", f"/g/{edit}/rounds", f) for p, f in zip(phones, forms, strict=True)]
        )
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [303, 409], [(s, d[-300:]) for s, _, d in results]
        page = next(d.decode() for s, _, d in results if s == 409)
        assert f"Another phone saved round {n} first" in page
    assert stored_rounds(app, game_id) == list(range(1, 8))


def test_a_phone_and_an_api_client_racing_store_one_round(app, server):
    game_id, edit = new_game(server, rounds=4)
    phone = Phone(server)
    for n in range(5, 10):
        form = form_fields(ROUNDS[n - 1], n, phone.csrf_token(f"/g/{edit}"))
        results = run_together(
            partial(phone.request, "POST", f"/g/{edit}/rounds", form),
            partial(
                request, server, "POST", f"/api/v1/games/{game_id}/rounds", {**ROUNDS[n - 1], "number": n}, bearer(edit)
            ),
        )
        assert sorted(status for status, _, _ in results) in ([201, 409], [303, 409])
    assert stored_rounds(app, game_id) == list(range(1, 10))


def test_undo_racing_a_save_leaves_no_gap(app, server):
    """Undo of round n and a save of round n+1 at once: either order is fine, a gap is not."""
    for _ in range(6):
        game_id, edit = new_game(server, rounds=5)
        results = run_together(
            partial(request, server, "DELETE", f"/api/v1/games/{game_id}/rounds/5", None, bearer(edit)),
            partial(
                request, server, "POST", f"/api/v1/games/{game_id}/rounds", {**ROUNDS[5], "number": 6}, bearer(edit)
            ),
        )
        statuses = [status for status, _, _ in results]
        numbers = stored_rounds(app, game_id)
        assert numbers == list(range(1, len(numbers) + 1))
        # Undo first: 204 then 409 (round 6 is no longer next); save first: 201 then 409.
        assert statuses in ([204, 409], [409, 201]), statuses


def test_a_confirm_racing_an_edit_never_confirms_what_the_witness_did_not_see(app, server):
    """The witness confirms round 5 as shown (If-Match: its ETag) while the scorer changes it
    (the king of hearts to Beth instead of Diana): either the confirm comes first and the edit
    makes the round provisional again (200, 200), or the edit comes first and the confirm is
    refused (412, 200). Never a confirmed round that the witness did not see."""
    changed = {**ROUNDS[4], "outcome": {"king": 1}}
    for _ in range(6):
        status, _, data = request(server, "POST", "/api/v1/games", {**EXAMPLE["game"], "rounds": ROUNDS[:4]})
        game = json.loads(data)
        status, headers, _ = request(
            server, "POST", f"/api/v1/games/{game['id']}/rounds", ROUNDS[4], bearer(game["edit_token"])
        )
        assert status == 201
        seen = {**bearer(game["confirm_token"]), "If-Match": headers["ETag"]}
        results = run_together(
            partial(request, server, "POST", f"/api/v1/games/{game['id']}/rounds/5/confirm", None, seen),
            partial(
                request, server, "PUT", f"/api/v1/games/{game['id']}/rounds/5", changed, bearer(game["edit_token"])
            ),
        )
        statuses = [status for status, _, _ in results]
        assert statuses in ([200, 200], [412, 200]), statuses
        _, _, data = request(server, "GET", f"/api/v1/games/{game['id']}", None, bearer(game["view_token"]))
        document = json.loads(data)
        assert document["rounds"][4]["outcome"] == {"king": 1} and document["rounds"][4]["status"] == "provisional"
        actions = [entry["action"] for entry in document["history"]]
        assert actions == (
            ["import", "record", "confirm", "edit"] if statuses[0] == 200 else ["import", "record", "edit"]
        )


def test_many_tables_saving_at_once_lose_nothing(app, server):
    """Eight tables each record ten rounds, all at the same time: every game ends with
    exactly its rounds, scored as the example says."""
    games = [new_game(server) for _ in range(8)]

    def table(game):
        game_id, edit = game
        for n in range(1, 11):
            status, _, data = request(
                server, "POST", f"/api/v1/games/{game_id}/rounds", {**ROUNDS[n - 1], "number": n}, bearer(edit)
            )
            assert status == 201, data
        return game_id

    with ThreadPoolExecutor(len(games)) as pool:
        ids = list(pool.map(table, games))
    with app.app_context():
        for game_id in ids:
            export = export_game(db.session.get(StoredGame, game_id).to_game())
            assert [r["result"]["running"] for r in export["rounds"]] == [r["result"]["running"] for r in EXPECTED[:10]]
        db.session.remove()


# -- a server killed mid-save ---------------------------------------------------------------


def test_workers_killed_during_a_burst_of_saves_leave_no_partial_round(app, server):
    """Twelve tables keep saving (and now and then undoing) while workers are SIGKILLed:
    afterwards every game's rounds are numbered 1..n without a gap, every game still parses
    (each round valid for the engine), and every round the server acknowledged is there."""
    games = [new_game(server) for _ in range(12)]
    stop = threading.Event()
    acknowledged: dict[int, int] = {}  # game id -> rounds the server confirmed last
    answers = []  # every save or undo the server answered (201, 204, 409), in order
    failures = []
    interrupted = []  # requests cut off by a kill

    def rounds_now(game_id, edit) -> int:
        def ask() -> int | None:
            try:
                status, _, data = request(server, "GET", f"/api/v1/games/{game_id}", None, bearer(edit), timeout=10)
            except (OSError, http.client.HTTPException):
                return None  # this one hit a dying worker too
            return len(json.loads(data)["rounds"]) if status == 200 else None

        return until(ask, 30, "the server answers again")

    def table(game):
        game_id, edit = game
        rng = random.Random(game_id)
        n = 0
        while not stop.is_set() and n < 20:
            try:
                if n and rng.random() < 0.15:
                    status, _, _ = request(
                        server, "DELETE", f"/api/v1/games/{game_id}/rounds/{n}", None, bearer(edit), timeout=10
                    )
                    if status == 204:
                        n -= 1
                        acknowledged[game_id] = n
                        answers.append(status)
                    continue
                status, _, data = request(
                    server,
                    "POST",
                    f"/api/v1/games/{game_id}/rounds",
                    {**ROUNDS[n], "number": n + 1},
                    bearer(edit),
                    timeout=10,
                )
            except (OSError, http.client.HTTPException):
                # The worker died under this request: was it stored? Ask, as a phone would.
                interrupted.append(game_id)
                n = rounds_now(game_id, edit)
                acknowledged[game_id] = n
                continue
            if status == 201:
                n += 1
                acknowledged[game_id] = n
                answers.append(status)
            elif status == 409:  # a retry of a save that had been stored after all
                n = rounds_now(game_id, edit)
                acknowledged[game_id] = n
                answers.append(status)
            else:
                failures.append((status, data[:300]))

    workers = len(server.workers())

    def replaced(pid: int | None) -> bool:
        """The master runs as many workers as before, ``pid`` no longer among them."""
        running = server.workers()
        return len(running) == workers and pid not in running

    def answered_after(count: int) -> bool:
        return len(answers) > count

    kills = 0
    with ThreadPoolExecutor(len(games)) as pool:
        futures = [pool.submit(table, game) for game in games]
        # Kill only once every table is saving, and again only after the master has replaced
        # the killed worker and the tables have gone on saving: each kill meets a live burst.
        until(lambda: len(acknowledged) == len(games), 30, "every table saves a round")
        for _ in range(5):
            killed, answered = server.kill_a_worker(), len(answers)
            kills += killed is not None
            until(partial(replaced, killed), 30, "the master replaces the killed worker")
            until(partial(answered_after, answered), 30, "a save after the kill")
        stop.set()
        for future in futures:
            future.result()
    assert kills == 5 and interrupted, "the kills must cut requests off"
    assert failures == []
    with app.app_context():
        for game_id, _ in games:
            stored = db.session.get(StoredGame, game_id)
            numbers = [r.number for r in stored.rounds]
            assert numbers == list(range(1, len(numbers) + 1)), (game_id, numbers)
            game = parse_game(stored.document())  # every round valid again for the engine
            # Exactly what the table last heard from the server: nothing lost, nothing extra.
            assert len(game.rounds) == acknowledged.get(game_id, 0), game_id
            assert [r.contract for r in game.rounds] == [r["contract"] for r in ROUNDS[: len(numbers)]]
        db.session.remove()
