"""Club nights on the database (scorepad/nights.py): tokens kept as digests only, finding a
night by a token, the tables' tokens, the board's validator (one indexed query), a close
racing a save, the organiser's swap before a session starts, stale tables. On SQLite, and on
PostgreSQL when TEST_DATABASE_URL names one.

Expected values are worked out by hand in the comments, never from the code under test."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text, update

from scorepad import database
from scorepad.extensions import db
from scorepad.models import StoredEvent, StoredGame, StoredHistory, StoredRound, token_digest
from scorepad.scoring.trust import CONFIRMED, DISPUTED, STATUSES, counts_as_provisional
from scorepad.services import common, games, nights, rounds
from scorepad.services.night_state import night_state, unconfirmed_tables
from scorepad.tokens import derive_token

from .test_api_events import NIGHT, FirstSeat, no_queens, no_tricks, play_the_example, post_round, table
from .test_tokens_at_rest import every_value

EVENING = datetime(2026, 12, 3, 19, 30, tzinfo=UTC)
# The same declarer’s third contract (no hearts: 13 hearts among the four, the ace to seat 0).
NO_HEARTS = {"contract": "no-hearts", "doubles": [], "outcome": {"hearts": [4, 3, 3, 3], "ace": 0}}


@pytest.fixture
def night_app(app):
    app.config["EVENT_RANDOM"] = FirstSeat
    app.config["CLOCK"] = lambda: EVENING
    return app


@pytest.fixture
def client(night_app):
    return night_app.test_client()


@pytest.fixture
def night(night_app, client) -> dict:
    """The issue's night (tests/test_api_events.py), created through the API."""
    response = client.post("/api/v1/events", json=NIGHT)
    assert response.status_code == 201
    return response.json


def held(night_app, night: dict, token: str):
    """The night as :func:`nights.find_night` gives it for ``token`` (within an app context)."""
    found = nights.find_night(token)
    assert found is not None
    return found


def test_only_digests_of_the_nights_tokens_are_stored(night_app, night):
    values = "\n".join(every_value(night_app))
    secrets = [night["director_token"], night["view_token"]] + [
        t[key] for s in night["sessions"] for t in s["tables"] for key in ("edit_token", "confirm_token")
    ]
    for secret in secrets:
        assert secret not in values
    assert token_digest(night["director_token"]) in values
    assert token_digest(night["view_token"]) in values


def test_a_night_is_found_by_its_director_or_view_token_only(night_app, night):
    with night_app.app_context():
        stored, role = held(night_app, night, night["director_token"])
        assert role == nights.NightRole.DIRECTOR
        assert (stored.director_token, stored.view_token) == (night["director_token"], night["view_token"])
        stored, role = held(night_app, night, night["view_token"])
        assert role == nights.NightRole.VIEW
        assert (stored.director_token, stored.view_token) == (None, night["view_token"])
        for other in ("", "x" * 32, night["director_token"][:-1], table(night, 1, 1)["edit_token"], "y" * 65):
            assert nights.find_night(other) is None
        assert nights.authorize_night(night["id"], night["view_token"])[1] == nights.NightRole.VIEW
        assert nights.authorize_night(night["id"], "x" * 32) is None
        assert nights.authorize_night(night["id"] + 1, night["director_token"]) is None
        assert nights.authorize_night(2**31, night["director_token"]) is None  # beyond any id: not asked
        assert nights.authorize_night(0, night["director_token"]) is None


def test_the_tables_tokens_derive_from_the_nights(night_app, night):
    director, view = night["director_token"], night["view_token"]
    assert view == derive_token(director, "view")
    tbl = table(night, 2, 3)
    assert tbl["edit_token"] == nights.table_token(director, 2, 3) == derive_token(director, "table:2:3")
    assert tbl["confirm_token"] == derive_token(tbl["edit_token"], "confirm")
    with night_app.app_context():
        game, can_edit = games.find_by_token(tbl["edit_token"])
        assert can_edit and (game.event_id, game.session_number, game.table_number) == (night["id"], 2, 3)
        # The game's view token, as its scorer page shows it, is the one the night's viewers derive.
        assert game.view_token == derive_token(view, "table:2:3")
        found = games.find_by_token(derive_token(view, "table:2:3"))
        assert found is not None and found[0].id == tbl["game_id"] and found[1] is False


def test_a_viewers_state_holds_no_edit_token(night_app, night):
    with night_app.app_context():
        state = night_state(*held(night_app, night, night["view_token"]))
        assert all(t.edit_token is None and t.confirm_token is None for s in state.sessions for t in s.tables)
        state = night_state(*held(night_app, night, night["director_token"]))
        assert all(t.edit_token for s in state.sessions for t in s.tables)


# -- the board's validator ------------------------------------------------------------------------


def test_the_stamp_moves_with_every_change_at_any_table_and_nowhere_else(night_app, client, night):
    view = night["view_token"]
    director = {"Authorization": f"Bearer {night['director_token']}"}
    with night_app.app_context():
        first = nights.night_stamp(view)
        assert first is not None
        assert nights.night_stamp(view) == first  # nothing changed
        assert nights.night_stamp(night["director_token"]) is None  # only the view token's digest is looked up
        assert nights.night_stamp("x" * 32) is None
    stamps = [first]

    def changed() -> None:
        with night_app.app_context():
            stamp = nights.night_stamp(view)
        assert stamp not in stamps
        stamps.append(stamp)

    tbl = table(night, 2, 4)  # the last table of the last session
    assert post_round(client, tbl, no_tricks([3, 4, 2, 4])).status_code == 201
    changed()
    assert (
        client.delete(
            f"/api/v1/games/{tbl['game_id']}/rounds/1", headers={"Authorization": f"Bearer {tbl['edit_token']}"}
        ).status_code
        == 204
    )
    changed()
    adjustment = {"player": 1, "points": 3, "reason": "x"}
    assert (
        client.post(f"/api/v1/events/{night['id']}/adjustments", json=adjustment, headers=director).status_code == 201
    )
    changed()
    assert client.post(f"/api/v1/events/{night['id']}/close", headers=director).status_code == 200
    changed()
    # A game of its own changes nothing of the night.
    own = client.post(
        "/api/v1/games", json={"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": "tournament"}
    )
    assert own.status_code == 201
    with night_app.app_context():
        assert nights.night_stamp(view) == stamps[-1]


def test_a_save_committed_after_a_later_stamped_one_still_moves_the_stamp(night_app, client, night):
    # Tables 1 and 2 of session 1 save at the same moment on PostgreSQL: table 1 takes its
    # updated_at (t1), table 2 takes a later one (t2) and commits first; a phone polls and keeps
    # the stamp with t2; then table 1 commits its round with t1 < t2. Replayed here in order: the
    # second save is stored, then its updated_at set back to before the first's, as it was taken.
    # (SQLite serialises every write, so there the saves commit in the order of their
    # updated_at; the order replayed here checks the same stamp on both databases.)
    view = night["view_token"]
    assert post_round(client, table(night, 1, 2), no_tricks([3, 4, 2, 4])).status_code == 201
    with night_app.app_context():
        polled = nights.night_stamp(view)
        second = db.session.get(StoredGame, table(night, 1, 2)["game_id"]).updated_at
    assert post_round(client, table(night, 1, 1), no_tricks([3, 4, 2, 4])).status_code == 201
    with night_app.app_context():
        db.session.execute(
            update(StoredGame)
            .where(StoredGame.id == table(night, 1, 1)["game_id"])
            .values(updated_at=second - timedelta(milliseconds=2))
        )
        db.session.commit()
        assert nights.night_stamp(view) != polled  # a round more at table 1: the board must not answer 304


def test_the_stamp_is_one_query_on_the_indexes(night_app, night):
    with night_app.app_context():
        nights.night_stamp(night["view_token"])
        dialect = db.engine.dialect.name
        style = "numeric_dollar" if dialect == "postgresql" else "default"  # libpq's $1, or the driver's own
        sql, _order = database._STAMPS[("event", dialect, style)]  # compiled once, then reused
        digest = token_digest(night["view_token"])
        if dialect == "sqlite":
            plan = " | ".join(
                row[3]
                for row in db.session.execute(text("EXPLAIN QUERY PLAN " + sql.replace("?", ":d")), {"d": digest})
            )
            assert "SEARCH events USING INDEX ix_events_view_digest" in plan
            assert "SEARCH games USING COVERING INDEX ix_games_event_updated" in plan
        else:
            db.session.execute(text("SET LOCAL enable_seqscan = off"))  # a few rows: make the planner show its index
            statement = sql.replace("$1::VARCHAR", "CAST(:d AS VARCHAR)")
            plan = " | ".join(row[0] for row in db.session.execute(text("EXPLAIN " + statement), {"d": digest}))
            assert "ix_events_view_digest" in plan
            assert "Index Only Scan Backward using ix_games_event_updated" in plan
        db.session.rollback()


# -- closing ---------------------------------------------------------------------------------------


def test_a_save_waiting_behind_a_close_sees_the_night_closed(night_app, night):
    """The director's close holds the night's row; a save at one of its tables, started
    meanwhile, waits for it (PostgreSQL: the save reads the night FOR SHARE; SQLite: the write
    lock) and then is refused: no round is stored on a night its director was told is closed."""
    tbl = table(night, 1, 1)
    outcome: dict[str, object] = {}

    def save() -> None:
        with night_app.app_context():
            game = games.find_by_token(tbl["edit_token"])[0]
            try:
                rounds.record_round(game, no_tricks([3, 4, 2, 4]))
                outcome["saved"] = True
            except common.Conflict as exc:
                outcome["refused"] = exc.message

    with night_app.app_context():
        stored = held(night_app, night, night["director_token"])[0]
        nights._lock_night(stored)  # the close's transaction, before its commit
        stored.closed = True
        saver = threading.Thread(target=save)
        saver.start()
        if db.engine.dialect.name == "postgresql":
            waiting = text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            with db.engine.connect() as watcher:
                while not watcher.execute(waiting).scalar():  # until the save waits on the night's lock
                    watcher.rollback()
        db.session.commit()
        saver.join()
    assert outcome == {"refused": "the night is closed"}
    with night_app.app_context():
        assert db.session.get(StoredGame, tbl["game_id"]).rounds == []


def test_a_closed_nights_finished_table_is_not_played_again(night_app, client, night):
    tbl = table(night, 1, 2)
    play_the_example(client, tbl)
    director = {"Authorization": f"Bearer {night['director_token']}"}
    assert client.post(f"/api/v1/events/{night['id']}/close", headers=director).status_code == 200
    edit = {"Authorization": f"Bearer {tbl['edit_token']}"}
    refused = client.post(f"/api/v1/games/{tbl['game_id']}/rematch", headers=edit)
    assert refused.status_code == 409 and refused.json["error"] == "the night is closed"
    assert client.post(f"/api/v1/events/{night['id']}/reopen", headers=director).status_code == 200
    assert client.post(f"/api/v1/games/{tbl['game_id']}/rematch", headers=edit).status_code == 201


def test_closing_twice_and_reopening_twice_is_harmless(night_app, night):
    with night_app.app_context():
        stored = held(night_app, night, night["director_token"])[0]
        nights.close_night(stored)
        nights.close_night(stored)
        assert db.session.get(StoredEvent, night["id"]).closed is True
        assert stored.director_token == night["director_token"]  # still held after the commits
        nights.reopen_night(stored)
        nights.reopen_night(stored)
        assert db.session.get(StoredEvent, night["id"]).closed is False


# -- a night that requires confirmation (issue 15) -------------------------------------------------


@pytest.fixture
def required(night_app, client) -> dict:
    """The issue's night with ``confirmation: required``."""
    response = client.post("/api/v1/events", json={**NIGHT, "confirmation": "required"})
    assert response.status_code == 201
    return response.json


def set_status(night_app, tbl: dict, number: int, status: str) -> None:
    """Round ``number`` of table ``tbl`` takes ``status``, written in the database."""
    with night_app.app_context():
        db.session.execute(
            update(StoredRound)
            .where(StoredRound.game_id == tbl["game_id"], StoredRound.number == number)
            .values(status=status)
        )
        db.session.commit()


def test_the_unconfirmed_rounds_of_a_night_are_one_query_in_table_order(night_app, client, required):
    """Rounds 1-3 at session 2 table 4, rounds 1-2 at session 1 table 3, one at session 1
    table 1; round 2 of s2 T4 confirmed, round 3 disputed, s1 T1's round confirmed: s1 T3
    rounds 1, 2 and s2 T4 rounds 1, 3 are not confirmed."""
    for (session, number), played in (((2, 4), 3), ((1, 3), 2), ((1, 1), 1)):
        for round_doc in [no_tricks([3, 4, 2, 4]), no_queens([1, 1, 1, 1]), NO_HEARTS][:played]:
            assert post_round(client, table(required, session, number), round_doc).status_code == 201
    set_status(night_app, table(required, 2, 4), 2, "confirmed")
    set_status(night_app, table(required, 2, 4), 3, "disputed")
    set_status(night_app, table(required, 1, 1), 1, "confirmed")
    with night_app.app_context():
        stored = held(night_app, required, required["director_token"])[0]
        statements: list[str] = []
        listener = lambda *args: statements.append(args[2])  # noqa: E731 (conn, cursor, statement, ...)
        sqlalchemy.event.listen(db.engine, "before_cursor_execute", listener)
        try:
            found = unconfirmed_tables(stored)
        finally:
            sqlalchemy.event.remove(db.engine, "before_cursor_execute", listener)
        # Round 3 of s2 T4 is disputed (set_status leaves no note).
        assert found == [(1, 3, (1, 2), ()), (2, 4, (1, 3), ((3, None),))]
        assert len(statements) == 1
        state = night_state(stored, nights.NightRole.DIRECTOR)
        waiting = {(t.session, t.number): t.unconfirmed for s in state.sessions for t in s.tables if t.unconfirmed}
        assert waiting == {(1, 3): (1, 2), (2, 4): (1, 3)}


#: The tables given rounds below, (session, table): how many each plays.
PLAYED = {(1, 1): 2, (1, 3): 1, (2, 2): 3}


@pytest.fixture
def played(night_app, client, required) -> dict:
    """The night that requires confirmation, with :data:`PLAYED`'s rounds recorded."""
    for (session, number), count in PLAYED.items():
        for round_doc in [no_tricks([3, 4, 2, 4]), no_queens([1, 1, 1, 1]), NO_HEARTS][:count]:
            assert post_round(client, table(required, session, number), round_doc).status_code == 201
    return required


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.fixed_dictionaries(
        {key: st.lists(st.sampled_from(STATUSES), min_size=n, max_size=n) for key, n in PLAYED.items()}
    )
)
def test_the_unconfirmed_rounds_query_agrees_with_the_engines_provisional_rule(night_app, played, statuses):
    """Whatever the rounds' statuses, the night's one query finds the rounds not confirmed, and
    a table (and every player at it) is provisional exactly when the engine's
    ``counts_as_provisional`` says so for its rounds' statuses."""
    for key, table_statuses in statuses.items():
        for number, status in enumerate(table_statuses, 1):
            set_status(night_app, table(played, *key), number, status)
    with night_app.app_context():
        stored = held(night_app, played, played["director_token"])[0]
        found = {(t.session, t.table): t for t in unconfirmed_tables(stored)}
        for key, table_statuses in statuses.items():
            waiting = [n for n, status in enumerate(table_statuses, 1) if status != CONFIRMED]
            disputed = [(n, None) for n, status in enumerate(table_statuses, 1) if status == DISPUTED]
            got = found.get(key)
            assert (got is not None) is counts_as_provisional(
                "required", table_statuses
            )  # the SQL's rule is the engine's
            assert ((list(got.rounds), list(got.disputed)) if got else ([], [])) == (waiting, disputed)
        assert set(found) <= set(PLAYED)
        state = night_state(stored, nights.NightRole.DIRECTOR)
        seated = {(s.number, t.number): t.players for s in state.sessions for t in s.tables}
        for entry in state.leaderboard:
            expected = any(
                counts_as_provisional("required", statuses.get(key, [])) and entry.player in players
                for key, players in seated.items()
            )
            assert entry.provisional is expected


def test_a_refused_close_changes_nothing(night_app, client, required):
    assert post_round(client, table(required, 1, 2), no_tricks([3, 4, 2, 4])).status_code == 201
    with night_app.app_context():
        stamp = nights.night_stamp(required["view_token"])
        stored = held(night_app, required, required["director_token"])[0]
        with pytest.raises(nights.Unconfirmed) as refused:
            nights.close_night(stored)
        assert refused.value.message == "rounds are not confirmed: session 1 table 2 round 1"
        assert refused.value.tables == ((1, 2, (1,), ()),)
        assert stored.director_token == required["director_token"]  # still held after the rollback
        assert db.session.get(StoredEvent, required["id"]).closed is False
        assert nights.night_stamp(required["view_token"]) == stamp  # the board has nothing new to show
        assert (
            db.session.scalar(select(func.count()).select_from(StoredHistory).where(StoredHistory.action == "close"))
            == 0
        )
    set_status(night_app, table(required, 1, 2), 1, "confirmed")
    with night_app.app_context():
        stored = held(night_app, required, required["director_token"])[0]
        nights.close_night(stored)
        assert db.session.get(StoredEvent, required["id"]).closed is True


def test_a_close_waiting_behind_a_confirm_counts_it(night_app, client, required):
    """The table's last unconfirmed round is being confirmed (its transaction holds the game and
    reads the night FOR SHARE) when the director closes: the close waits for it (PostgreSQL: on
    the night's row; SQLite: the write lock), then finds every round confirmed and closes."""
    tbl = table(required, 1, 1)
    assert post_round(client, tbl, no_tricks([3, 4, 2, 4])).status_code == 201
    outcome: dict[str, object] = {}

    def close() -> None:
        with night_app.app_context():
            stored = held(night_app, required, required["director_token"])[0]
            try:
                nights.close_night(stored)
                outcome["closed"] = True
            except common.Conflict as exc:
                outcome["refused"] = exc.message

    with night_app.app_context():
        game = games.find_by_token(tbl["edit_token"])[0]
        common.lock_game(game)  # the confirm's transaction, before its commit
        game.rounds[0].status = "confirmed"
        db.session.flush()
        closer = threading.Thread(target=close)
        closer.start()
        if db.engine.dialect.name == "postgresql":
            waiting = text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            with db.engine.connect() as watcher:
                while not watcher.execute(waiting).scalar():  # until the close waits on the night's lock
                    watcher.rollback()
        db.session.commit()
        closer.join()
    assert outcome == {"closed": True}


# -- the organiser's swap --------------------------------------------------------------------------


def test_a_swap_before_the_session_starts_moves_the_players_and_their_games(night_app, client, night):
    with night_app.app_context():
        stored = held(night_app, night, night["director_token"])[0]
        # Session 2: Rosa (16) at T1 seat 0 and Lena (11), sitting out, trade places.
        nights.swap_players(stored, 2, 16, 11)
    with night_app.app_context():
        stored = held(night_app, night, night["director_token"])[0]
        assert stored.seating[1]["tables"][0]["players"] == [11, 17, 0, 4]
        assert stored.seating[1]["sit_out"] == [15, 16]
        game = db.session.get(StoredGame, table(night, 2, 1)["game_id"])
        assert game.players == ["Lena", "Sara", "Anne", "Emma"]
    # Once a table of the session has a round, its seating stays.
    tbl = table(night, 2, 3)
    assert post_round(client, tbl, no_queens([1, 1, 1, 1])).status_code == 201
    with night_app.app_context():
        stored = held(night_app, night, night["director_token"])[0]
        with pytest.raises(common.Conflict):
            nights.swap_players(stored, 2, 0, 1)
        assert db.session.get(StoredGame, table(night, 2, 1)["game_id"]).players == ["Lena", "Sara", "Anne", "Emma"]
        # Session 1 has no round yet: it may still change, unless the night is closed.
        nights.close_night(stored)
        with pytest.raises(common.Conflict):
            nights.swap_players(stored, 1, 0, 4)


# -- stale tables ----------------------------------------------------------------------------------


def test_a_table_with_no_save_for_ten_minutes_stands_out(night_app, client, night):
    tbl = table(night, 1, 3)
    assert post_round(client, tbl, no_tricks([3, 4, 2, 4])).status_code == 201
    with night_app.app_context():
        saved_at = db.session.get(StoredGame, tbl["game_id"]).updated_at
    saved_at = saved_at if saved_at.tzinfo else saved_at.replace(tzinfo=UTC)
    for after, stale in ((timedelta(minutes=9, seconds=59), False), (timedelta(minutes=10), True)):
        night_app.config["CLOCK"] = lambda after=after: saved_at + after
        with night_app.app_context():
            state = night_state(*held(night_app, night, night["director_token"]))
        tables = {(t.session, t.number): t for s in state.sessions for t in s.tables}
        assert tables[(1, 3)].stale is stale
        assert tables[(1, 3)].last_save == saved_at
        assert tables[(1, 4)].stale is False and tables[(1, 4)].last_save is None  # not started: never stale
