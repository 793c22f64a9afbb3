"""Database engine settings that make several workers (or servers) safe on one database.

SQLite: write-ahead logging, so readers never wait for a writer and a writer never waits
for readers; a busy timeout, so a second writer waits for the first instead of failing
with "database is locked"; foreign keys enforced like on PostgreSQL. PostgreSQL needs
nothing here: row locks (see ``services._lock_game``) serialise writers of one game.

SQLite's ``synchronous = NORMAL``: in WAL mode a commit then writes the log without waiting for the
disk (fsync happens at checkpoints). The database stays consistent, and a committed round
survives the server process being killed; only a power cut or a crash of the machine itself
may lose the last commits. Waiting for the disk on every save cost up to 14-27 ms a commit
on this machine under load (p99), which alone broke the board load target (bench/board_load.py:
save p99 ≤ 50 ms).

Every engine hides SQL parameters (``hide_parameters``): a database error's message and SQL
logging then carry ``[SQL parameters hidden due to hide_parameters=True]`` instead of the
values, which include tokens and their digests. The traceback of such an error is logged
redacted too (scorepad.logs), for what the database itself quotes in its message.
"""

from __future__ import annotations

import sqlite3

from flask import Flask
from sqlalchemy import event

from .extensions import db

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
