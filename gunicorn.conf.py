"""gunicorn's settings for the scorepad, read from the working directory (the Procfile's
`gunicorn "scorepad:create_app()"`, bench/weight.py and the tests' real server use them). The
app keeps no state in process memory, so any number of workers, or servers, can share the
database.

gunicorn reads ./gunicorn.conf.py by default, so the Procfile's command (and `make run`), run
from the repository root, uses this file; tests/test_slow_clients.py runs that command and
checks that its worker is this file's.
"""

import importlib.util
import logging
import multiprocessing
import os
from pathlib import Path

from gunicorn.glogging import Logger


def _load(name):
    """scorepad/<name>.py, loaded from its file: importing it as scorepad.<name> would import
    the app's package (Flask, SQLAlchemy) into the master, before the gevent workers patch the
    standard library. Such a module imports neither the app nor anything that does."""
    spec = importlib.util.spec_from_file_location(
        f"scorepad_{name}", Path(__file__).with_name("scorepad") / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# gevent workers: each connection is a greenlet, so a client that sends its request slowly
# (a phone on bad Wi-Fi, a preconnect that sends nothing yet, a hostile slow client) waits
# in the event loop without holding anything a board poll or a round's save needs.
# bench/slow_clients.py measures it (bench/README.md). The worker monkey-patches the
# standard library before it loads the app: psycopg 3 (≥ 3.1.14) then waits for PostgreSQL
# through gevent's patched selectors by itself; SQLite's calls are short and local.
# gunicorn's own gevent worker bounds how long a request's headers may take (keepalive, below);
# scorepad/gevent_worker.py adds a deadline on the body and a share of the connections per
# client address, so slow bodies from one address cannot hold the others' connections.
worker_class = _load("gevent_worker").BoundedGeventWorker
# One process per core (WEB_CONCURRENCY overrides), each taking up to 1000 connections at once:
# an event loop needs no spare processes to wait in. More processes than cores only add
# processes contending for SQLite's write lock, whose waits block a whole event loop:
# bench/board_load.py measured a save's p99 at 75-92 ms with 5 processes, 21-27 ms with 2.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_connections = 1000
keepalive = 10  # seconds: longer than the board's poll interval, so polls reuse their connection
# No access log by default. If one is turned on (--access-logfile), the filter of scorepad/logs.py
# takes the tokens out of it (/g/<token> carries the game's edit token), as out of the error log.
accesslog = None
# gunicorn believes X-Forwarded-Proto (and -Ssl, -Protocol) from the addresses listed here, by
# default loopback's: a client on this machine would turn every link to https:// even with
# TRUSTED_PROXIES=0. TRUSTED_PROXIES is the one setting for proxies: the app (ProxyFix,
# scorepad/security.py) believes that many hops of X-Forwarded-For/-Proto/-Host, and none when
# it is 0. So gunicorn believes no address, whatever TRUSTED_PROXIES says: with 0 nothing
# forwarded counts, and behind a proxy the app alone reads what the proxy sent.
forwarded_allow_ips = ""
# No control socket (gunicorn ≥ 25 opens one at ~/.gunicorn/gunicorn.ctl for `gunicornc`): the
# scorepad does not use it, and two instances on one machine (deploy/, the tests' servers, the
# benchmarks) would take each other's socket at that one path.
control_socket_disable = True


_logs = _load("logs")


class RedactingLogger(Logger):
    """gunicorn's logger, with tokens taken out of every line of its error and access logs
    (their handlers, as setup() makes them at start and on every reload). The master sets it
    up; each worker is forked with it, so master and workers write through the filter alike."""

    def setup(self, cfg):
        super().setup(cfg)
        _logs.install(self.error_log, self.access_log, logging.getLogger())


logger_class = RedactingLogger
