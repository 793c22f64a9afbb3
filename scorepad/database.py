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
from typing import Any

from flask import Flask
from sqlalchemy import event, exc

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


def read_row(sql: str, params: Any) -> tuple[Any, ...] | None:
    """The first row of the read-only query ``sql`` with the driver's ``params`` (a tuple or a
    dict, as the dialect's paramstyle wants), as the driver returns it, or None; on a pooled
    driver connection of ``db.engine``, without the ORM session or a Core result.

    One round trip on PostgreSQL: the query runs in autocommit (psycopg 3 starts no transaction
    for it), so the pool's reset of the connection on its return finds nothing to roll back and
    sends nothing (psycopg skips a ROLLBACK outside a transaction); the checkout's check sends
    nothing either (:func:`_closed_by_server`). Driver errors propagate (``DBAPIError`` through
    SQLAlchemy's pool)."""
    connection = db.engine.raw_connection()
    driver: Any = connection.driver_connection
    autocommit = getattr(driver, "autocommit", None) is False and hasattr(driver, "pgconn")
    try:
        if autocommit:
            driver.autocommit = True
        cursor = connection.cursor()
        try:
            cursor.execute(sql, params)
            found = cursor.fetchone()
        finally:
            cursor.close()
    finally:
        if autocommit and not driver.closed:
            driver.autocommit = False
        connection.close()  # back to the pool, which ends a driver's read transaction (SQLite)
    return None if found is None else tuple(found)


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
