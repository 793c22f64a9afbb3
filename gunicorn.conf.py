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
# (2 × cores) + 1 processes; WEB_CONCURRENCY overrides. Each takes up to 1000 connections at once.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_connections = 1000
keepalive = 10  # seconds: longer than the board's poll interval, so polls reuse their connection
# No access log by default. If one is turned on (--access-logfile), scorepad.security's filter
# takes the tokens out of the logged paths (/g/<token> carries the game's edit token).
accesslog = None
