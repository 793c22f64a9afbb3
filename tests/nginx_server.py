"""nginx with the deploy/ configuration (deploy/nginx/) in front of gunicorn instances on
loopback, for tests/test_deploy.py and bench/federation.py: Debian's nginx (/usr/sbin/nginx),
its files in a temporary directory, stopped at the end."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .gunicorn_server import ROOT, free_port

NGINX = Path("/usr/sbin/nginx")
DEPLOY = ROOT / "deploy" / "nginx"
#: The literal values of deploy/nginx/ that render_site replaces.
ROOT_PATH = "/srv/scorepad"
CACHE_PATH = "/var/cache/nginx/scorepad"
UPSTREAM_LINE = re.compile(r"^( *)server 127\.0\.0\.1:8001( [^;]*)?;\n(?: *server 127\.0\.0\.1:8002[^;]*;\n)", re.M)


@dataclass
class NginxServer:
    """A running nginx: its master process, its address and its main configuration file."""

    process: subprocess.Popen
    port: int
    conf: Path
    host: str = "127.0.0.1"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"


def render_site(
    upstreams: list[int], root: Path, cache_dir: Path, port: int = 8080, access_log: Path | None = None
) -> str:
    """deploy/nginx's http snippet and a server on 127.0.0.1:``port`` with its locations, as
    text for an ``http { }`` block: the upstream's servers on 127.0.0.1 at ``upstreams`` (any
    number, each with deploy's parameters), static files from ``root``/static/, the poll cache
    in ``cache_dir``, requests logged to ``access_log`` (deploy's format) if given. ValueError for
    an empty ``upstreams`` or a deploy file whose literals (127.0.0.1:8001 and :8002,
    /srv/scorepad, /var/cache/nginx/scorepad) have changed."""
    if not upstreams:
        raise ValueError("no upstream port")
    http = (DEPLOY / "scorepad-http.conf").read_text()
    locations = (DEPLOY / "scorepad-locations.conf").read_text()
    match = UPSTREAM_LINE.search(http)
    if match is None or CACHE_PATH not in http or f"{ROOT_PATH}/" not in locations:
        raise ValueError("deploy/nginx/ no longer has the literals tests/nginx_server.py replaces")
    indent, parameters = match.group(1), match.group(2) or ""
    servers = "".join(f"{indent}server 127.0.0.1:{upstream}{parameters};\n" for upstream in upstreams)
    http = http[: match.start()] + servers + http[match.end() :]
    http = http.replace(CACHE_PATH, str(cache_dir))
    locations = locations.replace(f"{ROOT_PATH}/", f"{root}/")
    logged = f"    access_log {access_log} scorepad;\n" if access_log else ""
    return f"{http}\nserver {{\n    listen 127.0.0.1:{port};\n{logged}{locations}\n}}\n"


def main_conf(site: str, tmp: Path, worker_connections: int, workers: int | str = 1) -> str:
    """A whole nginx.conf around ``site`` (:func:`render_site`), in the foreground, every file in
    ``tmp``, with ``workers`` worker processes (``"auto"``: one per core)."""
    temp = "\n".join(
        f"    {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root, nginx's workers would run as nobody, which cannot enter pytest's 0700 directories.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}daemon off;\nmaster_process on;\nworker_processes {workers};\npid {tmp / 'nginx.pid'};\n"
        f"error_log {tmp / 'error.log'} warn;\nworker_rlimit_nofile {max(1024, 2 * worker_connections + 64)};\n"
        f"events {{\n    worker_connections {worker_connections};\n}}\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
        f"    access_log off;\n{temp}\n{site}}}\n"
    )


def config_test(conf: Path) -> subprocess.CompletedProcess:
    """``nginx -t`` of the main configuration file ``conf`` (its prefix: ``conf``'s directory)."""
    return subprocess.run(
        [str(NGINX), "-t", "-c", str(conf), "-p", str(conf.parent), "-e", str(conf.parent / "error.log")],
        capture_output=True,
        text=True,
        check=False,
    )


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


@contextlib.contextmanager
def nginx(
    upstreams: list[int],
    tmp: Path,
    worker_connections: int = 1024,
    workers: int | str = 1,
    access_log: Path | None = None,
) -> Iterator[NginxServer]:
    """nginx with deploy/'s configuration (:func:`render_site`: static files from this
    checkout's static/, the poll cache in ``tmp``/cache) on a free 127.0.0.1 port, in front of
    gunicorn instances on 127.0.0.1 at ``upstreams``, ``workers`` worker processes of
    ``worker_connections`` each, logging requests to ``access_log`` if given; stopped at exit (SIGQUIT, after 10 s
    SIGKILL). RuntimeError when it does not answer within 10 s (with its error log)."""
    tmp.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = tmp / "nginx.conf"
    conf.write_text(
        main_conf(render_site(upstreams, ROOT, tmp / "cache", port, access_log), tmp, worker_connections, workers)
    )
    log = tmp / "error.log"
    process = subprocess.Popen(
        [str(NGINX), "-c", str(conf), "-p", str(tmp), "-e", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    server = NginxServer(process, port, conf)
    try:
        deadline = time.monotonic() + 10
        while not answers(server):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nginx did not start:\n" + (log.read_text()[-3000:] if log.exists() else ""))
            time.sleep(0.05)
        yield server
    finally:
        stop(process)


def answers(server: NginxServer) -> bool:
    """Whether nginx answers HTTP on its port (any status: a missing static file's 404)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=2)
    try:
        connection.request("GET", "/static/nginx-start-up-probe")
        connection.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        connection.close()


def stop(process: subprocess.Popen) -> None:
    """Stop nginx's master ``process`` and its workers: SIGQUIT (it finishes its requests), then SIGKILL."""
    workers = children(process.pid)
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGQUIT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        for pid in [*workers, *children(process.pid)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.kill()
        process.wait()
