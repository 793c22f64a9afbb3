"""Database engine settings that make several workers (or servers) safe on one database.

SQLite: write-ahead logging, so readers never wait for a writer and a writer never waits
for readers; a busy timeout, so a second writer waits for the first instead of failing
with "database is locked"; foreign keys enforced like on PostgreSQL. On PostgreSQL, row locks
(see ``services._lock_game``) serialise writers of one game.

SQLite's ``synchronous = NORMAL``: in WAL mode a commit then writes the log without waiting for the
disk (fsync happens at checkpoints). The database stays consistent, and a committed round
survives the server process being killed; only a power cut or a crash of the machine itself
may lose the last commits. Waiting for the disk on every save cost up to 14-27 ms a commit
on this machine under load (p99), which alone broke the board load target (bench/board_load.py:
save p99 ≤ 50 ms).

PostgreSQL's pooled connections are checked at each checkout without a round trip
(:func:`_closed_by_server`): an idle connection's socket has nothing to read unless the server
closed it (a restart or a crash sends its goodbye and closes the socket), and such a
connection is replaced before the request uses it. ``pool_pre_ping`` did the same with a
``SELECT 1`` per request: a third of a board's 304 poll (bench/federation.py). A connection
that dies silently (a cable pulled between the machines) is met by neither check; its
request fails once and the pool drops every connection of that age (SQLAlchemy's
disconnect handling).

Every engine hides SQL parameters (``hide_parameters``): a database error's message and SQL
logging then carry ``[SQL parameters hidden due to hide_parameters=True]`` instead of the
values, which include tokens and their digests. The traceback of such an error is logged
redacted too (scorepad.logs), for what the database itself quotes in its message.
"""

from __future__ import annotations

import select
import sqlite3
import sys
from typing import Any

import psycopg
from flask import Flask
from psycopg import pq
from sqlalchemy import Select, String, cast, event, exc
from sqlalchemy.engine import Dialect

from .extensions import db

try:  # a poll that does not wait needs no event loop: gevent's workers use the system's own
    from gevent.monkey import get_original  # type: ignore[import-untyped]

    _poll: Any = get_original("select", "poll")
except ImportError:  # pragma: no cover - gevent is installed with the app
    _poll = select.poll

# Milliseconds a writer waits for another one's commit before giving up.
SQLITE_BUSY_TIMEOUT_MS = 15_000


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")  # persistent: stored in the database file
    cursor.execute("PRAGMA synchronous = NORMAL")  # per connection: see the module's docstring
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _no_automatic_prepare(dbapi_connection: Any, _record: Any) -> None:
    """Turn off psycopg's own prepared statements on a new PostgreSQL connection
    (``prepare_threshold = None``). psycopg prepares a query after its fifth run on a connection,
    and after rolling back a transaction in which it did, it sends ``DEALLOCATE ALL``, which drops
    the board's prepared ETag lookup too (:func:`read_row`): with every page view's rollback the
    next poll found its statement gone and prepared it again (three round trips and an error in
    PostgreSQL's log each time), where one round trip was the point. The ORM's statements are
    then planned at each run, as without psycopg's cache."""
    if hasattr(dbapi_connection, "prepare_threshold"):
        dbapi_connection.prepare_threshold = None


def _closed_by_server(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """The pool's checkout check of a psycopg 3 connection: raises
    :class:`sqlalchemy.exc.DisconnectionError` (the pool then opens a new connection, up to
    three times) when the connection's socket has something to read, or is closed, while it
    sits idle in the pool: the server has closed it (its restart's "terminating connection",
    or the end of the socket). No round trip: one ``poll`` of the socket, which does not wait.
    Other drivers' connections are left alone."""
    pgconn = getattr(dbapi_connection, "pgconn", None)
    if pgconn is None:
        return
    if dbapi_connection.closed:
        raise exc.DisconnectionError("the connection is closed")
    poller = _poll()
    poller.register(pgconn.socket, select.POLLIN)
    if poller.poll(0):
        raise exc.DisconnectionError("the server closed the connection")


#: Each stamp query's SQL by (name, dialect name, style): its text and, for a positional
#: paramstyle, the order of its parameters (the SQLite driver's ``?``); PostgreSQL's is ``$1``.
_STAMPS: dict[tuple[str, str, str], tuple[str, tuple[str, ...] | None]] = {}
#: The pool entry's ``info`` key of the stamp statements prepared on that connection (by name).
PREPARED = "scorepad_prepared"
#: PostgreSQL's SQLSTATE of an unknown prepared statement (dropped by a ``DEALLOCATE ALL`` sent
#: by something else than psycopg, whose own preparing is off: :func:`_no_automatic_prepare`).
UNKNOWN_STATEMENT = "26000"


def _compiled(query: Select, name: str, dialect: Dialect, style: str) -> tuple[str, tuple[str, ...] | None]:
    """``query`` with every column cast to text, compiled once per (``name``, dialect, ``style``)."""
    key = (name, dialect.name, style)
    found = _STAMPS.get(key)
    if found is None:
        texts = query.with_only_columns(*(cast(column, String) for column in query.selected_columns))
        if style == "numeric_dollar":
            dialect_class: Any = type(dialect)
            dialect = dialect_class(paramstyle="numeric_dollar")
        statement = texts.compile(dialect=dialect)
        order = tuple(statement.positiontup or ()) if statement.positional else None
        found = _STAMPS[key] = (statement.string, order)
    return found


def _cooperative() -> bool:
    """Whether this process waits for sockets through gevent (its workers patch ``select``), as
    psycopg itself checks before choosing how to wait."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("select")


def read_row(query: Select, name: str, value: str) -> tuple[str | None, ...] | None:
    """The first row of the read-only ``query`` (its one bound parameter, ``digest``, is
    ``value``; ``name`` names its compiled and prepared forms), each column as the database writes it in text, or None
    when there is no row. On a pooled driver connection of ``db.engine``, without the ORM
    session or a Core result: this answers every board poll, mostly with a 304.

    PostgreSQL: one round trip. The query is a statement prepared once per connection (the
    pool entry's ``info`` remembers it) and run through the driver's libpq binding
    (``psycopg.pq``), outside any transaction, so the pool's reset on return has nothing to
    roll back and sends nothing; the checkout check sends nothing either
    (:func:`_closed_by_server`). Half the client CPU of a psycopg cursor (bench/federation.py).
    A statement dropped since (a ``DEALLOCATE ALL``) is prepared
    again. libpq waits for the answer without yielding, so a gevent worker
    (``gunicorn.conf.py``) runs the query through a psycopg cursor in autocommit instead,
    which waits cooperatively. SQLite: its cursor.

    Raises the driver's error (SQLAlchemy's ``DBAPIError`` for the cursor paths, a psycopg
    error for libpq's); the connection is then dropped from the pool (PostgreSQL)."""
    engine = db.engine
    connection = engine.raw_connection()
    driver: Any = connection.driver_connection
    try:
        if engine.dialect.name != "postgresql":
            sql, order = _compiled(query, name, engine.dialect, "default")
            return _cursor_row(connection, sql, (value,) if order is not None else {"digest": value})
        if _cooperative():
            sql, _ = _compiled(query, name, engine.dialect, "default")
            driver.autocommit = True
            try:
                return _cursor_row(connection, sql, {"digest": value})
            finally:
                driver.autocommit = False
        sql, _ = _compiled(query, name, engine.dialect, "numeric_dollar")
        return _prepared_row(driver.pgconn, connection.info.setdefault(PREPARED, set()), name, sql, value)
    except Exception:
        if engine.dialect.name == "postgresql":
            connection.invalidate()
        raise
    finally:
        connection.close()  # back to the pool, which ends a driver's read transaction (SQLite)


def _cursor_row(connection: Any, sql: str, params: Any) -> tuple[str | None, ...] | None:
    cursor = connection.cursor()
    try:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    finally:
        cursor.close()
    return None if found is None else tuple(None if column is None else str(column) for column in found)


def _prepared_row(pgconn: Any, prepared: set[str], name: str, sql: str, value: str) -> tuple[str | None, ...] | None:
    """``sql`` (one ``$1``) run as the statement ``scorepad_<name>`` on libpq connection
    ``pgconn``, prepared first unless ``prepared`` holds ``name`` (or the server has lost it)."""
    statement = f"scorepad_{name}".encode()
    result = None
    if name in prepared:
        result = pgconn.exec_prepared(statement, [value.encode()])
        if result.status == pq.ExecStatus.FATAL_ERROR and _sqlstate(result) == UNKNOWN_STATEMENT:
            prepared.discard(name)
            result = None
    if result is None:
        _check(pgconn.prepare(statement, sql.encode()), pq.ExecStatus.COMMAND_OK)
        prepared.add(name)
        result = pgconn.exec_prepared(statement, [value.encode()])
    _check(result, pq.ExecStatus.TUPLES_OK)
    if result.ntuples == 0:
        return None
    return tuple(_text(result.get_value(0, column)) for column in range(result.nfields))


def _sqlstate(result: Any) -> str:
    state = result.error_field(pq.DiagnosticField.SQLSTATE)
    return state.decode() if state else ""


def _check(result: Any, expected: pq.ExecStatus) -> None:
    if result.status != expected:
        raise psycopg.errors.error_from_result(result)


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


def init_app(app: Flask) -> None:
    """Hide SQL parameters on every engine of ``app`` and install the SQLite settings (call
    after ``db.init_app``, which makes the engines from ``SQLALCHEMY_ENGINE_OPTIONS``)."""
    with app.app_context():
        for engine in db.engines.values():
            # The engine's own setting, as create_engine(hide_parameters=True) sets it: read at
            # each error and log line, so it holds whatever SQLALCHEMY_ENGINE_OPTIONS a
            # configuration passes.
            engine.hide_parameters = True
            if engine.dialect.name == "sqlite" and not event.contains(engine, "connect", _sqlite_pragmas):
                event.listen(engine, "connect", _sqlite_pragmas)
            if engine.dialect.name == "postgresql" and not event.contains(engine, "checkout", _closed_by_server):
                event.listen(engine, "checkout", _closed_by_server)
                event.listen(engine, "connect", _no_automatic_prepare)
