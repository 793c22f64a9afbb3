"""PostgreSQL's connections (issue 17): a board's 304 is one round trip to the server, and a
connection the server closed (a restart) or a statement it dropped is replaced before a
request meets it. Marked ``postgresql``: the PostgreSQL pass runs them (`make test-postgres`);
they fail, rather than pass unseen, on another database.

The round trips are read from libpq's own trace of the protocol (``PQtrace``, through
``psycopg.pq``): each round trip the client waits on ends with a ``Sync`` (extended protocol)
or is a ``Query`` (simple protocol), so their count is the count of those two messages sent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import psycopg
import pytest
from psycopg import pq
from sqlalchemy import event

from scorepad import database
from scorepad.extensions import db
from scorepad.services import games, rounds, stamps

pytestmark = pytest.mark.postgresql

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())


@pytest.fixture
def board(app, client):
    """A stored game with 3 rounds: (its poll URL, the poll's ETag). The app must be on PostgreSQL."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.fail("run with TEST_DATABASE_URL on PostgreSQL (make test-postgres)")
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:3]})
        view = stored.view_token
        db.session.remove()
    url = f"/b/{view}/live?layout=board&lang=en"
    first = client.get(url)
    assert first.status_code == 200
    return url, first.headers["ETag"]


class Trace:
    """libpq's protocol trace of every connection the app checks out of its pool meanwhile
    (a context manager): ``sent`` lists the message types the client sent."""

    def __init__(self, app, tmp_path: Path) -> None:
        with app.app_context():
            self.engine = db.engine
        self.file = open(tmp_path / "libpq.trace", "w+")  # noqa: SIM115 (closed in __exit__)

    def _on(self, dbapi_connection, _record, _proxy) -> None:
        dbapi_connection.pgconn.trace(self.file.fileno())
        dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)

    def _off(self, dbapi_connection, _record) -> None:
        if not dbapi_connection.closed:
            dbapi_connection.pgconn.untrace()

    def __enter__(self) -> Trace:
        event.listen(self.engine, "checkout", self._on)
        event.listen(self.engine, "checkin", self._off)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "checkout", self._on)
        event.remove(self.engine, "checkin", self._off)
        self.file.seek(0)
        self.text = self.file.read()
        # Lines read "F 13 Query ..." (sent by the client, F) or "B ..." (sent by the server).
        self.sent = [match.group(1) for match in re.finditer(r"^F\s+\d+\s+(\w+)", self.text, re.M)]
        self.file.close()

    def round_trips(self) -> int:
        return sum(1 for message in self.sent if message in ("Sync", "Query"))


def other_backends(app) -> list[int]:
    """The server process ids of the app's pooled connections: every backend of this database
    but the one asking, and under pytest-xdist only this worker's (its ``application_name``,
    tests/conftest.py ``worker_schema``: the other workers' connections to the same database
    were closed too, failing a test of theirs)."""
    with app.app_context():
        url = db.engine.url
    name = url.query.get("application_name")
    with psycopg.connect(
        host=url.host, port=url.port or 5432, user=url.username, password=url.password, dbname=url.database
    ) as watcher:
        rows = watcher.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND (%(name)s::text IS NULL OR application_name = %(name)s)",
            {"name": name},
        ).fetchall()
    return [pid for (pid,) in rows]


def terminate(app, pids: list[int]) -> None:
    """Close the app's connections from the server's side, as a restart does (the server sends
    "terminating connection due to administrator command" and closes the socket), and wait
    until the server has let them go."""
    with app.app_context():
        url = db.engine.url
    with psycopg.connect(
        host=url.host, port=url.port or 5432, user=url.username, password=url.password, dbname=url.database
    ) as killer:
        for pid in pids:
            killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
        while killer.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()[0]:
            killer.rollback()


def test_a_304_is_one_round_trip(app, client, board, tmp_path):
    url, etag = board
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304  # the statement is prepared now
    with Trace(app, tmp_path) as trace:
        response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 304
    # Bind, Describe and Execute the prepared statement, then Sync: no SELECT 1 (pre-ping), no ROLLBACK.
    assert trace.round_trips() == 1
    assert trace.sent == ["Bind", "Describe", "Execute", "Sync"]


def test_a_poll_after_saves_and_a_page_view_is_still_one_round_trip(app, client, tmp_path):
    """Saves commit, so psycopg, had it prepared their statements itself (after a query's fifth
    run on a connection), would keep them until a rollback (a page view's end) and then send
    DEALLOCATE ALL, dropping the poll's statement too: the next poll would fail, prepare and run
    again (three round trips, an error in the server's log)."""
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:2]})
        game_id, edit, view = stored.id, stored.edit_token, stored.view_token
        db.session.remove()
    url = f"/b/{view}/live?layout=board&lang=en"
    etag = client.get(url).headers["ETag"]
    for number in range(3, 15):  # twelve saves over the pool's two connections: past five runs of each query
        response = client.post(
            f"/api/v1/games/{game_id}/rounds",
            json={**EXAMPLE["game"]["rounds"][number - 1], "number": number},
            headers={"Authorization": f"Bearer {edit}"},
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    etag = client.get(url).headers["ETag"]
    with Trace(app, tmp_path) as trace:
        assert client.get(f"/b/{view}").status_code == 200  # a page view: read, then rolled back
    assert "DEALLOCATE" not in trace.text
    with Trace(app, tmp_path) as trace:
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert trace.sent == ["Bind", "Describe", "Execute", "Sync"]


def test_a_poll_after_a_save_reads_the_new_stamp_in_one_round_trip(app, client, board, tmp_path):
    url, etag = board
    with app.app_context():
        stored, _ = games.find_by_token(url.split("/")[2])
        rounds.record_round(stored, EXAMPLE["game"]["rounds"][3])
        db.session.remove()
    with Trace(app, tmp_path) as trace:
        changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    # The stamp in one round trip on the prepared statement; then the game is loaded to render it.
    assert trace.sent[:5] == ["Bind", "Describe", "Execute", "Sync", "Query"]


def test_a_connection_the_server_closed_is_replaced_before_use(app, client, board):
    url, etag = board
    pooled = other_backends(app)
    assert pooled  # the poll's connection, back in the pool
    terminate(app, pooled)
    # The next poll gets a new connection (the checkout saw the closed socket), not an error.
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert not set(other_backends(app)) & set(pooled)
    # So does a save through the ORM session, after the server closed its connections again.
    terminate(app, other_backends(app))
    with app.app_context():
        stored, _ = games.find_by_token(url.split("/")[2])
        rounds.record_round(stored, EXAMPLE["game"]["rounds"][3])
        assert len(stored.rounds) == 4
        db.session.remove()
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def test_a_statement_the_server_dropped_is_prepared_again(app, client, board, tmp_path):
    url, etag = board
    with app.app_context():
        connection = db.engine.raw_connection()  # the pool's one connection, which prepared the poll's statement
        assert "game" in connection.info[database.PREPARED]
        cursor = connection.cursor()
        cursor.execute("DEALLOCATE ALL")  # as psycopg would after a rollback, were its own preparing on
        cursor.close()
        connection.commit()
        connection.close()
    with Trace(app, tmp_path) as trace:
        again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    # The failed Execute, then Parse and a new Execute.
    run = ["Bind", "Describe", "Execute", "Sync"]
    assert trace.sent == [*run, "Parse", "Sync", *run]


def test_a_gevent_worker_reads_the_same_stamp_through_a_cursor(app, board, monkeypatch):
    url, _ = board
    view = url.split("/")[2]
    with app.app_context():
        prepared = stamps.updated_stamp(view)
        monkeypatch.setattr(database, "_cooperative", lambda: True)
        cooperative = stamps.updated_stamp(view)
        connection = db.engine.raw_connection()
        assert connection.driver_connection.autocommit is False  # left as the ORM expects it
        assert connection.driver_connection.info.transaction_status == pq.TransactionStatus.IDLE
        connection.close()
    assert prepared == cooperative and prepared is not None
