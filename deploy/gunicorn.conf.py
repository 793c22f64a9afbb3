"""gunicorn's settings for an instance behind nginx (deploy/nginx/): `gunicorn -c
deploy/gunicorn.conf.py --bind 127.0.0.1:8001 "scorepad:create_app()"`, run from the
repository's root (deploy/systemd/scorepad@.service, tests/test_deploy.py, bench/federation.py).

The repository's gunicorn.conf.py serves the phones directly, so it runs gevent workers that
let slow clients wait without holding a process. Behind nginx, nginx is what waits for slow
clients: it reads a whole request before passing it on and buffers the whole answer
(deploy/nginx/scorepad-locations.conf). So this file uses gunicorn's stock worker, `sync`, one
request at a time per process, which is the set-up gunicorn's documentation asks for behind a
buffering proxy. The rest (the logger that takes tokens out of the logs, no control socket, no
address whose X-Forwarded-* gunicorn believes: the app's TRUSTED_PROXIES decides) is read from
the repository's gunicorn.conf.py.
"""

import os
import runpy
from pathlib import Path

_base = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))

# The repository's logging, control-socket and forwarded-headers settings (see its comments).
logger_class = _base["logger_class"]
accesslog = _base["accesslog"]
control_socket_disable = _base["control_socket_disable"]
forwarded_allow_ips = _base["forwarded_allow_ips"]

worker_class = "sync"
# A sync worker waits on PostgreSQL while serving; a few per core keep the cores busy. Each
# opens at most DB_POOL_SIZE + DB_MAX_OVERFLOW connections (deploy/scorepad.env.example).
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
# A request taking longer than this is killed (its worker restarted); nginx's proxy_read_timeout
# is the same 30 s.
timeout = 30
# On stop or restart (systemctl restart scorepad@8001), the requests being served get 10 s to finish.
graceful_timeout = 10
