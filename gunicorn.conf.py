"""gunicorn's settings for the scorepad, read from the working directory (the Procfile's
`gunicorn "scorepad:create_app()"`, bench/weight.py and the tests' real server use them). The
app keeps no state in process memory, so any number of workers, or servers, can share the
database."""

import multiprocessing
import os

# gevent workers: each connection is a greenlet, so a client that sends its request slowly
# (a phone on bad Wi-Fi, a preconnect that sends nothing yet, a hostile slow client) waits
# in the event loop without holding anything a board poll or a round's save needs.
# bench/slow_clients.py measures it (bench/README.md). The worker monkey-patches the
# standard library before it loads the app: psycopg 3 (≥ 3.1.14) then waits for PostgreSQL
# through gevent's patched selectors by itself; SQLite's calls are short and local.
worker_class = "gevent"
# One process per core (WEB_CONCURRENCY overrides), each taking up to 1000 connections at once:
# an event loop needs no spare processes to wait in. More processes than cores only add
# processes contending for SQLite's write lock, whose waits block a whole event loop:
# bench/board_load.py measured a save's p99 at 75-92 ms with 5 processes, 21-27 ms with 2.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_connections = 1000
keepalive = 10  # seconds: longer than the board's poll interval, so polls reuse their connection
# No access log by default. If one is turned on (--access-logfile), scorepad.security's filter
# takes the tokens out of the logged paths (/g/<token> carries the game's edit token).
accesslog = None
