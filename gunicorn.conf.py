"""gunicorn's settings for the scorepad, read from the working directory (the Procfile's
`gunicorn "scorepad:create_app()"` and bench/club_night.py use them). The app keeps no
state in process memory, so any number of workers, or servers, can share the database."""

import multiprocessing
import os

# Threaded workers: a phone's idle keep-alive connection (a board polling every few
# seconds) waits in the worker's poller instead of holding a sync worker hostage.
# (2 × cores) + 1 processes of 4 threads; WEB_CONCURRENCY and GUNICORN_THREADS override.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
keepalive = 10  # seconds: longer than the board's poll interval, so polls reuse their connection
# No access log by default. If one is turned on (--access-logfile), scorepad.security's filter
# takes the tokens out of the logged paths (/g/<token> carries the game's edit token).
accesslog = None
