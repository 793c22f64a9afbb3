"""Forwarded headers count as TRUSTED_PROXIES says, in gunicorn too (issue 26, item 5): the
Procfile's own command, on loopback. gunicorn believes X-Forwarded-Proto, X-Forwarded-Ssl and
X-Forwarded-Protocol from the addresses of its ``forwarded_allow_ips``, by default loopback's,
and sets the request's scheme from them before the app runs; gunicorn.conf.py believes no
address, so the app's ProxyFix (scorepad/security.py) alone decides: nothing forwarded with
``TRUSTED_PROXIES=0``, X-Forwarded-Proto (and -For, -Host) from one proxy with ``1``.

The scheme shows in the absolute links the API answers with (``links.board``).

Marked ``server``: it tests the HTTP server, so it runs once, in the SQLite pass.
"""

from __future__ import annotations

import json

import pytest

from .gunicorn_server import ROOT, procfile, request

pytestmark = pytest.mark.server

GAME = {**json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())["game"], "rounds": []}


@pytest.fixture(scope="module", params=["0", "1"], ids=["TRUSTED_PROXIES=0", "TRUSTED_PROXIES=1"])
def served(request, tmp_path_factory):
    """The Procfile's server with TRUSTED_PROXIES set to the parameter; (server, its value)."""
    with procfile(tmp_path_factory.mktemp("forwarded"), env={"TRUSTED_PROXIES": request.param}) as (server, _):
        yield server, request.param


def board_link(server, headers: dict[str, str]) -> str:
    """The board link of a new game made through the API with ``headers``."""
    status, _, data = request(server, "POST", "/api/v1/games", GAME, headers, timeout=120)  # the worker loads the app
    assert status == 201, data
    return json.loads(data)["links"]["board"]


# (forwarded headers from the client on loopback, the scheme with TRUSTED_PROXIES=0, with 1)
CASES = [
    ({}, "http", "http"),
    ({"X-Forwarded-Proto": "https"}, "http", "https"),
    # gunicorn's other scheme headers: ProxyFix reads none of them, so with no address believed
    # by gunicorn they never count.
    ({"X-Forwarded-Ssl": "on"}, "http", "http"),
    ({"X-Forwarded-Protocol": "ssl"}, "http", "http"),
]


@pytest.mark.parametrize(("headers", "without_proxy", "behind_one"), CASES)
def test_the_links_scheme_follows_trusted_proxies(served, headers, without_proxy, behind_one):
    server, proxies = served
    scheme = without_proxy if proxies == "0" else behind_one
    assert board_link(server, headers).startswith(f"{scheme}://127.0.0.1:{server.port}/b/")
