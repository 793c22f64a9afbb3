"""gunicorn's settings for the scorepad, read from the working directory (the Procfile's
`gunicorn "scorepad:create_app()"` and bench/club_night.py use them). The app keeps no
state in process memory, so any number of workers, or servers, can share the database."""

import errno
import multiprocessing
import os
import selectors
import time
from functools import partial

from gunicorn.workers import gthread


class PollingThreadWorker(gthread.ThreadWorker):
    """gunicorn's gthread worker, except that a new connection waits for its first request
    in the worker's poller, as a kept-alive one does, rather than in a pool thread.

    gunicorn 24+ hands each accepted connection to a pool thread, which waits up to 5 s for
    its first bytes before parking it in the poller (benoitc/gunicorn#3519; #3634 proposes
    this class's way). A room of phones opening connections that send a moment later
    (preconnects, slow Wi-Fi) then holds every thread for seconds, and a round being saved
    waits behind them: bench/club_night.py measured saves of 4-5 s at the start of the
    evening. This parks the connection at once, with the keep-alive timeout, through the
    worker's own path for connections that sent nothing yet (``pending_conns``)."""

    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        client_sock.setblocking(False)
        conn = gthread.TConn(self.cfg, client_sock, client_addr, listener.getsockname())
        conn.timeout = time.monotonic() + self.cfg.keepalive
        self.pending_conns.append(conn)
        self.poller.register(client_sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))

# Threaded workers: a phone's idle keep-alive connection (a board polling every few
# seconds) waits in the worker's poller instead of holding a sync worker hostage.
# (2 × cores) + 1 processes of 4 threads; WEB_CONCURRENCY and GUNICORN_THREADS override.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# gunicorn before 24 already waits in the poller: the stock worker is fine there.
worker_class = PollingThreadWorker if hasattr(gthread.ThreadWorker, "on_pending_socket_readable") else "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
keepalive = 10  # seconds: longer than the board's poll interval, so polls reuse their connection
# No access log by default. If one is turned on (--access-logfile), scorepad.security's filter
# takes the tokens out of the logged paths (/g/<token> carries the game's edit token).
accesslog = None
