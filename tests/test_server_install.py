"""The production server starts from a fresh install (issue 26, item 22): the Procfile's command
run from a virtual environment that holds only the run dependencies of pyproject.toml (what
`make install` installs; not the test extras, which bring more packages in), from the
repository's root as a platform runs it, answers a game's creation and its board.

gunicorn's gevent worker imports ``packaging``, which gunicorn lists only under its ``gevent``
extra: without ``gunicorn[gevent]`` every worker crashed at boot.

The environment is built once per test session with pip, from its cache or the package index
like any install. Marked ``server``: it runs once, in the SQLite pass (``make test``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from .gunicorn_server import ROOT, procfile, request

pytestmark = pytest.mark.server

GAME = {**json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())["game"], "rounds": []}


@pytest.fixture(scope="session")
def run_only_venv(tmp_path_factory) -> Iterator[Path]:
    """The bin/ folder of a new virtual environment with pyproject.toml's run dependencies,
    removed after the session (it takes ~240 MB; pytest keeps its last temporary folders)."""
    venv = tmp_path_factory.mktemp("run-only") / "venv"
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    requirements = venv / "requirements.txt"
    requirements.write_text("\n".join(dependencies) + "\n")
    installed = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "-r", str(requirements)], capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    yield venv / "bin"
    shutil.rmtree(venv)


def test_the_procfiles_server_serves_from_an_install_of_the_run_dependencies(run_only_venv, tmp_path):
    with procfile(tmp_path, bin_dir=run_only_venv) as (server, output):
        status, _, data = request(server, "POST", "/api/v1/games", GAME, timeout=120)  # the worker loads the app
        assert status == 201, "".join(output)
        board = json.loads(data)["links"]["board"]
        status, _, _ = request(server, "GET", board[board.index("/b/") :])
        assert status == 200
    log = "".join(output)
    assert "Traceback" not in log, log
    assert "Using worker: BoundedGeventWorker" in log  # gunicorn.conf.py's worker
