"""What the benchmarks share: a free loopback port and the app under gunicorn, as the Procfile
runs it (``gunicorn.conf.py``), on a migrated database."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def healthy(port: int) -> bool:
    """True once the app answers ``/api/v1/health`` on ``port``."""
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", "/api/v1/health")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def upgrade(env: dict[str, str]) -> None:
    """``flask db upgrade`` with the environment ``env`` (its DATABASE_URL names the database)."""
    subprocess.run(
        [str(BIN / "flask"), "--app", "scorepad", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_gunicorn(
    database_url: str, env: dict[str, str], args: tuple[str, ...] = (), port: int | None = None, migrate: bool = True
) -> tuple[subprocess.Popen, int]:
    """``flask db upgrade`` on ``database_url`` (unless ``migrate`` is false: a second
    instance, or one restarted), then gunicorn with ``gunicorn.conf.py`` on ``port`` (a free
    one by default) with ``env`` added to the environment and ``args`` added to its command
    line; returns the process and the port once the app answers (exits the benchmark if it
    does not within 30 s)."""
    full_env = {**os.environ, "DATABASE_URL": database_url, **env}
    if migrate:
        upgrade(full_env)
    port = port or free_port()
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "--bind", f"{HOST}:{port}", *args, "scorepad:create_app()"],
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not healthy(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            sys.exit("gunicorn did not start")
        time.sleep(0.1)
    return process, port


def stop_gunicorn(process: subprocess.Popen) -> None:
    """Stop a gunicorn of :func:`start_gunicorn`: SIGTERM (its graceful stop), killed after 10 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
