"""A real gunicorn server on a free loopback port, for tests with real parallel requests
and killed workers (tests/test_concurrency.py); the Procfile's own command, as a platform runs
it (tests/test_slow_clients.py, tests/test_server_*.py); small HTTP helpers for them."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A running gunicorn: its master process, address and log file."""

    process: subprocess.Popen
    host: str
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def workers(self) -> list[int]:
        """The pids of the master's worker processes."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def kill_a_worker(self) -> int | None:
        """SIGKILL one worker (the master starts a new one); its pid, or None if none runs."""
        workers = self.workers()
        if not workers:
            return None
        with contextlib.suppress(ProcessLookupError):
            os.kill(workers[0], signal.SIGKILL)
        return workers[0]


@contextlib.contextmanager
def gunicorn(
    database_uri: str,
    workers: int = 2,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    log: Path | None = None,
) -> Iterator[Server]:
    """Serve ``scorepad:create_app()`` on ``database_uri`` (its tables already created) with
    the default Config, CSRF on; stop it afterwards (SIGTERM, then SIGKILL)."""
    port = free_port()
    log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"gunicorn-{port}.log"
    environment = {**os.environ, "DATABASE_URL": database_uri, "SECRET_KEY": "concurrency-test", **(env or {})}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                str(GUNICORN),
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--graceful-timeout",
                "2",
                *args,
                "scorepad:create_app()",
            ],
            cwd=ROOT,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server(process, "127.0.0.1", port, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _, _ = request(server, "GET", "/api/v1/health")
                if status == 200 and len(server.workers()) == workers:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start:\n" + log.read_text()[-3000:])
            time.sleep(0.1)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def procfile_command() -> str:
    """The Procfile's ``web:`` command, as a platform runs it."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:").strip()
    raise AssertionError("the Procfile has no web process")


@contextlib.contextmanager
def procfile(
    workdir: Path, env: dict[str, str] | None = None, bin_dir: Path = GUNICORN.parent
) -> Iterator[tuple[Server, list[str]]]:
    """The Procfile's command run from the repository root with PORT set, one worker
    (``env`` may say otherwise) and ``bin_dir`` first on PATH (its ``flask`` and ``gunicorn``:
    this venv's by default), on a fresh SQLite file in ``workdir`` (the command migrates it
    first); yields the server and its output lines so far. Ready once gunicorn has bound its
    port and boots its worker: connections made from then on wait in the listen queue."""
    with shell_server(procfile_command(), workdir, "Booting worker with pid", env, bin_dir) as served:
        yield served


@contextlib.contextmanager
def shell_server(
    command: str, workdir: Path, ready: str, env: dict[str, str] | None = None, bin_dir: Path = GUNICORN.parent
) -> Iterator[tuple[Server, list[str]]]:
    """``command`` run by ``sh`` from the repository root with PORT set to a free port, one
    gunicorn worker (``env`` may say otherwise), ``bin_dir`` first on PATH and a fresh SQLite
    file in ``workdir``; yields the server and its output lines so far once a line contains
    ``ready``. Stopped afterwards (SIGTERM to its process group, then SIGKILL)."""
    port = free_port()
    environment = {
        **os.environ,
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "DATABASE_URL": f"sqlite:///{workdir / 'served.sqlite3'}",
        "SECRET_KEY": "served-test",
        **(env or {}),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    process = subprocess.Popen(
        ["sh", "-c", command],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # the shell and the processes it starts: one group to stop
    )
    lines: list[str] = []
    started = threading.Event()

    def read_output() -> None:
        for line in process.stdout or ():
            lines.append(line)
            if ready in line:
                started.set()
        started.set()  # the command ended: the test fails on what it printed

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        assert started.wait(120) and process.poll() is None, "".join(lines)
        yield Server(process, "127.0.0.1", port, workdir / "unused.log"), lines
    finally:
        with contextlib.suppress(ProcessLookupError):  # the command ended by itself
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=15)
        if process.stdout:
            process.stdout.close()


@dataclass
class Phone:
    """One HTTP client with its own cookie jar (a phone)."""

    server: Server
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        status, response_headers, data = request(self.server, method, path, body, headers)
        for cookie in response_headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return status, response_headers, data

    def csrf_token(self, path: str) -> str:
        """GET a page (which sets the session cookie) and read its CSRF token."""
        status, _, data = self.request("GET", path)
        assert status == 200, (path, status)
        return re.search(rb'<meta name="csrf-token" content="([^"]+)"', data).group(1).decode()


def request(
    server: Server, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, timeout: float = 30
):
    """One request on a fresh connection: (status, headers, body bytes). A dict or list
    body goes as JSON, a ``str`` as a form (already encoded)."""
    headers = dict(headers or {})
    payload = None
    if isinstance(body, (dict, list)):
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    elif isinstance(body, str):
        payload = body.encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
