"""deploy/'s nginx configuration in front of real gunicorn instances (deploy/gunicorn.conf.py),
on loopback: the board polls' one-second cache, a save seen within a second, static files
served by nginx itself, requests passed through to the app, and the site file that `nginx -t`
accepts. One nginx and two gunicorn instances (one sync worker each) serve the whole module."""

from __future__ import annotations

import contextlib
import datetime
import gzip
import html
import json
import os
import re
import signal
import time

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db

from .gunicorn_server import ROOT, bearer, free_port, gunicorn, request
from .nginx_server import DEPLOY, NginxServer, config_test, main_conf, nginx
from .test_api_events import NIGHT

pytestmark = pytest.mark.server

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
#: Answers nginx took from its cache: a fresh entry (HIT), one past its second given while
#: another request renews it (UPDATING: proxy_cache_use_stale updating in
#: deploy/nginx/scorepad-locations.conf), or the entry the app's 304 has just renewed for the
#: second after (REVALIDATED: the one poll per board per second that reaches the app).
FROM_CACHE = {"HIT", "UPDATING", "REVALIDATED"}
#: How long after a save's answer a board may still show the board before it: deploy's promise
#: (one second), plus the one request nginx makes to the app to renew its entry.
STALE_S = 1.0 + 0.5


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Two gunicorn instances as deploy/systemd runs them (deploy/gunicorn.conf.py, behind one
    proxy), one sync worker each, on a fresh SQLite file; nginx with deploy/'s files in front."""
    tmp = tmp_path_factory.mktemp("deploy")
    uri = f"sqlite:///{tmp / 'deploy.sqlite3'}"

    class Config(TestConfig):
        SQLALCHEMY_DATABASE_URI = uri

    app = create_app(Config)
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    args = ("-c", "deploy/gunicorn.conf.py")
    with contextlib.ExitStack() as stack:
        instances = [
            stack.enter_context(
                gunicorn(uri, workers=1, args=args, env={"TRUSTED_PROXIES": "1"}, log=tmp / f"gunicorn-{n}.log")
            )
            for n in (1, 2)
        ]
        yield stack.enter_context(nginx([instance.port for instance in instances], tmp / "nginx")), tmp, instances


@pytest.fixture(scope="module")
def proxy(stack) -> NginxServer:
    return stack[0]


def new_game(proxy: NginxServer, rounds: int) -> dict:
    """The example game with its first ``rounds`` rounds, created through nginx: the API's answer."""
    status, _, data = request(proxy, "POST", "/api/v1/games", {**EXAMPLE["game"], "rounds": ROUNDS[:rounds]})
    assert status == 201, data
    return json.loads(data)


def save_round(server, game: dict, number: int) -> None:
    """Save the example's round ``number`` (its number sent) to ``game`` through ``server`` (nginx
    or an instance), with the game's edit token."""
    status, _, data = request(
        server,
        "POST",
        f"/api/v1/games/{game['id']}/rounds",
        {**ROUNDS[number - 1], "number": number},
        bearer(game["edit_token"]),
    )
    assert status == 201, data


def poll_path(proxy: NginxServer, view_token: str) -> str:
    """The URL the board page polls (its hx-get), read from the page."""
    status, _, page = request(proxy, "GET", f"/b/{view_token}")
    assert status == 200
    return html.unescape(re.search(r'hx-get="(/b/[^"]+/live\?[^"]+)"', page.decode()).group(1))


def test_the_rendered_config_passes_nginx_t(proxy):
    result = config_test(proxy.conf)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_the_site_file_passes_nginx_t(tmp_path):
    """deploy/nginx/scorepad.conf as installed (its includes, the HTTPS server, certbot's
    paths), with the paths pointing into tmp_path and a self-signed certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "scores.club.example")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder(issuer_name=name, subject_name=name, public_key=key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    (tmp_path / "fullchain.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "privkey.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    replaced = {
        "/etc/nginx/sites-available/": f"{tmp_path}/",
        "/etc/letsencrypt/live/scores.club.example/": f"{tmp_path}/",
        "/var/cache/nginx/scorepad": str(tmp_path / "cache"),
        "/var/log/nginx/": f"{tmp_path}/",
    }
    for conf in DEPLOY.glob("*.conf"):
        text = conf.read_text()
        for old, new in replaced.items():
            text = text.replace(old, new)
        (tmp_path / conf.name).write_text(text)
    main = tmp_path / "nginx.conf"
    main.write_text(main_conf(f"include {tmp_path / 'scorepad.conf'};\n", tmp_path, 1024))
    result = config_test(main)
    assert result.returncode == 0, result.stderr


def test_a_second_poll_is_answered_from_the_cache_and_a_known_etag_gets_304(proxy):
    view = new_game(proxy, rounds=2)["view_token"]
    path = poll_path(proxy, view)
    status, first, body = request(proxy, "GET", path)
    assert status == 200 and "last saved: round 2" in body.decode()
    assert first["X-Cache-Status"] == "MISS"  # a board nobody polled yet
    assert first["Cache-Control"] == "public, max-age=1, must-revalidate"
    assert "Set-Cookie" not in first and "X-Accel-Expires" not in first
    # Polls repeated back to back: each from the cache (a poll past the second's end gets the
    # entry as the app's 304 renewed it), until one is a plain HIT.
    statuses: list[str] = []
    while "HIT" not in statuses and len(statuses) < 1000:
        status, again, repeated = request(proxy, "GET", path)
        assert (status, again["ETag"], repeated) == (200, first["ETag"], body)
        statuses.append(again["X-Cache-Status"])
    assert set(statuses) <= FROM_CACHE and "HIT" in statuses, statuses
    # The phone's copy: nginx compares its ETag with the cached answer's and answers 304 itself.
    status, headers, empty = request(proxy, "GET", path, headers={"If-None-Match": first["ETag"]})
    assert (status, empty, headers["ETag"]) == (304, b"", first["ETag"])
    assert headers["X-Cache-Status"] in FROM_CACHE
    # A parameter the app does not read: the same board, answered by the app and not stored
    # (the page's own query is the only one kept: test_a_poll_cannot_store_another_language).
    status, busted, same = request(proxy, "GET", path + "&x=1234")
    assert (status, busted["ETag"], same) == (200, first["ETag"], body)
    assert busted["Cache-Control"] == "private, no-cache"
    assert request(proxy, "GET", path + "&x=1234")[1]["X-Cache-Status"] == "MISS"


def test_a_poll_cannot_store_another_language_or_layout_under_the_pages_key(proxy):
    """nginx's $arg_lang takes the first of LANG=fr&lang=en (names compared in any case) where the
    app reads lang=en, and the app decodes l%61ng where nginx does not: such a query must not put
    its answer in the cache under the key of the page's own poll."""
    view = new_game(proxy, rounds=2)["view_token"]
    for trick, victim in (
        ("LANG=fr&layout=board&lang=en", "layout=board&lang=fr"),
        ("layout=board&l%61ng=de&lang=en", "layout=board&lang=en"),
        ("LAYOUT=screen&layout=board&lang=en", "layout=screen&lang=en"),
        ("layout=board&lang=en&l%61yout=screen", "layout=board&lang=en"),
    ):
        assert request(proxy, "GET", f"/b/{view}/live?{trick}")[0] == 200
        status, _, body = request(proxy, "GET", f"/b/{view}/live?{victim}")
        # The fragment polls its own URL: the page's query in its own language and layout.
        polls = html.unescape(re.search(r'hx-get="([^"]+)"', body.decode()).group(1))
        assert (status, polls) == (200, f"/b/{view}/live?{victim}"), trick


def test_browsers_and_host_names_share_one_entry_per_board(proxy):
    """Chrome, Firefox and Safari each write their Accept-Encoding their own way, and a client may
    send any Host: one board is still one entry, asked of the app once a second."""
    view = new_game(proxy, rounds=2)["view_token"]
    path = poll_path(proxy, view)
    chrome = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    for _ in range(1000):
        if request(proxy, "GET", path, headers=chrome)[1]["X-Cache-Status"] == "HIT":
            break
    for other in (
        {"Accept-Encoding": "gzip, deflate, br"},
        {"Accept-Encoding": "br, gzip"},
        {**chrome, "Host": "x.example"},
    ):
        status, headers, _ = request(proxy, "GET", path, headers=other)
        assert (status, headers["Content-Encoding"]) == (200, "br")
        assert headers["X-Cache-Status"] in FROM_CACHE, other
    # A coding the client refuses is never the one it gets.
    status, headers, _ = request(proxy, "GET", path, headers={"Accept-Encoding": "br;q=0, gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")


def cached(proxy: NginxServer, path: str) -> bytes:
    """The poll ``path`` once nginx answers it from a fresh entry (HIT): its body."""
    for _ in range(1000):  # a second's worth of polls at most: the first or second is a HIT
        status, headers, body = request(proxy, "GET", path)
        if headers["X-Cache-Status"] == "HIT":
            break
    assert (status, headers["X-Cache-Status"]) == (200, "HIT")
    return body


def shown_in_time(proxy: NginxServer, path: str, saved: float, marker: str, present: bool = True) -> bytes | None:
    """Polls of ``path`` back to back from ``saved`` (a monotonic time) until the body has ``marker``
    (``present``; else until it no longer has it), at most STALE_S later: that body, or None."""
    while time.monotonic() < saved + STALE_S:
        body = request(proxy, "GET", path)[2]
        if (marker in body.decode()) == present:
            return body
    return None


def test_a_save_is_on_the_board_within_a_second(proxy):
    """Twice (a save lands anywhere in nginx's second): the board in nginx's cache, a round
    saved, then polls back to back until the board shows it."""
    game = new_game(proxy, rounds=2)
    path = poll_path(proxy, game["view_token"])
    for number in (3, 4):
        assert f"last saved: round {number - 1}" in cached(proxy, path).decode()
        save_round(proxy, game, number)
        body = shown_in_time(proxy, path, time.monotonic(), f"last saved: round {number}")
        assert body is not None, f"round {number} not on the board {STALE_S} s after its save"
        assert f'id="board-round-{number}"' in body.decode()


def test_a_save_at_a_table_is_on_the_nights_board_within_a_second(proxy):
    """A club night's board (/n/<view token>/live) through the same cache: a round saved at a
    table changes the night's board within the second."""
    status, _, data = request(proxy, "POST", "/api/v1/events", NIGHT)
    assert status == 201, data
    night = json.loads(data)
    status, _, page = request(proxy, "GET", f"/n/{night['view_token']}")
    assert status == 200
    path = html.unescape(re.search(r'hx-get="(/n/[^"]+/live\?[^"]+)"', page.decode()).group(1))
    before = re.search(r'data-etag="([^"]+)"', cached(proxy, path).decode()).group(1)
    first = night["sessions"][0]["tables"][0]
    round_doc = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [3, 4, 2, 4]}}
    status, _, data = request(
        proxy, "POST", f"/api/v1/games/{first['game_id']}/rounds", round_doc, bearer(first["edit_token"])
    )
    assert status == 201, data
    body = shown_in_time(proxy, path, time.monotonic(), f'data-etag="{before}"', present=False)
    assert body is not None, f"the night's board unchanged {STALE_S} s after a table's save"


def test_a_hung_instance_keeps_a_board_stale_for_seconds_not_half_a_minute(proxy, stack):
    """An instance that takes connections but does not answer (stopped here; in life, every worker
    stuck): the one request renewing a board's entry may be the one sent there, and every viewer
    gets the old board while it waits. The poll's own timeout (3 s, then the other instance)
    bounds that wait, where the proxied pages' 30 s would leave the board half a minute behind."""
    hung, alive = stack[2]
    game = new_game(proxy, rounds=2)
    path = poll_path(proxy, game["view_token"])
    pids = [hung.process.pid, *hung.workers()]
    waits = []
    error_log = proxy.conf.parent / "error.log"
    logged = error_log.read_text() if error_log.exists() else ""

    def renewals_timed_out() -> list[str]:
        """nginx's own record that a renewal of the board went to the hung instance and was given
        up after the poll's 3 s."""
        return [
            line
            for line in error_log.read_text()[len(logged) :].splitlines()
            if "upstream timed out" in line and f"127.0.0.1:{hung.port}{path.split('?')[0]}" in line
        ]

    for process in pids:
        os.kill(process, signal.SIGSTOP)
    try:
        # Rounds saved one after another: nginx sends each renewal of the board's entry to the next
        # instance in turn, so one of the first two goes to the hung instance (then it is left out).
        for number in range(3, 7):
            save_round(alive, game, number)
            saved = time.monotonic()
            while True:
                status, headers, body = request(proxy, "GET", path)
                if f"last saved: round {number}" in body.decode() or time.monotonic() > saved + 40:
                    break
            waits.append(time.monotonic() - saved)
            if renewals_timed_out():
                break
    finally:
        for process in pids:
            os.kill(process, signal.SIGCONT)
    assert renewals_timed_out(), "no renewal went to the hung instance"
    assert max(waits) < STALE_S + 3 + 1, waits


def test_static_files_come_from_nginx_with_long_caching_for_built_files(proxy, stack):
    status, _, page = request(proxy, "GET", "/")
    assert status == 200
    built = re.search(r'href="(/static/gen/[^"]+\.css)"', page.decode()).group(1)
    status, headers, css = request(proxy, "GET", built)
    assert status == 200 and headers["Content-Type"] == "text/css"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, compressed = request(proxy, "GET", built, headers={"Accept-Encoding": "gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")  # the build's .gz copy (gzip_static)
    assert headers["Vary"] == "Accept-Encoding"  # a shared cache keeps the two apart (gzip_vary)
    assert gzip.decompress(compressed) == css
    status, headers, icon = request(proxy, "GET", "/static/icons/icon-192.png")
    assert (status, headers["Cache-Control"]) == (200, "public, max-age=60")
    assert icon == (ROOT / "static" / "icons" / "icon-192.png").read_bytes()
    # The same files from an nginx whose only instance does not run: they come from disk.
    with nginx([free_port()], stack[1] / "nginx-alone") as alone:
        status, headers, same = request(alone, "GET", built)
        assert (status, same, headers["Server"].split("/")[0]) == (200, css, "nginx")
        assert request(alone, "GET", "/static/icons/icon-192.png")[0] == 200
        assert request(alone, "GET", "/")[0] == 502  # nothing behind it


def test_a_post_goes_through_to_the_app_with_the_proxys_address(proxy):
    """The API's links name nginx's address: the app reads X-Forwarded-Host (TRUSTED_PROXIES=1)."""
    game = new_game(proxy, rounds=0)
    assert game["links"]["api"] == f"{proxy.base}/api/v1/games/{game['id']}"
    status, headers, data = request(
        proxy, "POST", f"/api/v1/games/{game['id']}/rounds", {**ROUNDS[0], "number": 1}, bearer(game["edit_token"])
    )
    assert status == 201, data
    assert json.loads(data)["number"] == 1
    status, _, data = request(proxy, "GET", f"/api/v1/games/{game['id']}", headers=bearer(game["edit_token"]))
    assert status == 200
    (stored,) = json.loads(data)["rounds"]
    assert stored["result"]["total"] == EXAMPLE["expected"]["rounds"][0]["result"]["total"]


def test_a_body_over_the_apps_limit_is_refused_by_nginx(proxy):
    status, headers, _ = request(proxy, "POST", "/api/v1/games", "x" * (300 * 1024))
    assert (status, headers["Server"].split("/")[0]) == (413, "nginx")


def test_the_first_poll_past_the_cached_second_shows_a_save_made_in_it(proxy):
    """A board with one viewer polls every few seconds, so most of its polls find the entry past
    its second. That poll must get the board as it is now, not the entry its last poll left
    (which proxy_cache_background_update would give it, while renewing the entry for the next
    one: the board a whole poll interval late, or going back to an old round)."""
    game = new_game(proxy, rounds=2)
    path = poll_path(proxy, game["view_token"])
    status, _, body = request(proxy, "GET", path)
    assert status == 200 and "last saved: round 2" in body.decode()
    status, _, data = request(
        proxy, "POST", f"/api/v1/games/{game['id']}/rounds", {**ROUNDS[2], "number": 3}, bearer(game["edit_token"])
    )
    assert status == 201, data
    # Polls back to back while the entry is fresh (HIT, the board before the save), then the first past it.
    statuses: list[str] = []
    while (not statuses or statuses[-1] == "HIT") and len(statuses) < 10000:
        status, headers, body = request(proxy, "GET", path)
        statuses.append(headers["X-Cache-Status"])
    assert statuses[-1] != "HIT", "the entry never expired"
    assert status == 200 and "last saved: round 3" in body.decode(), statuses[-1]


def test_the_access_log_leaves_the_tokens_out(tmp_path):
    """deploy's log format: the paths as requested, each token-shaped run (20+ URL-safe
    characters) as "...", no query string, no Referer; shorter names kept."""
    edit, view = "e" * 8 + "Ab3_-x" * 4, "V" * 32
    paths = [
        f"/g/{edit}/rounds/new?contract=domino",
        f"/b/share/{edit}",
        f"/b/{view}/live?layout=board&lang=en",
        f"/k/{view}/g/{edit}",
        "/api/v1/games/6/rounds",
    ]
    log = tmp_path / "access.log"
    with nginx([free_port()], tmp_path / "nginx", access_log=log) as alone:
        for path in paths:
            request(alone, "GET", path, headers={"Referer": f"https://scores.club.example/g/{edit}"})
    lines = log.read_text(encoding="utf-8").splitlines()
    logged = [line.split('"')[1] for line in lines]
    assert logged == [
        "GET /g/.../rounds/new HTTP/1.1",
        "GET /b/share/... HTTP/1.1",
        "GET /b/.../live HTTP/1.1",
        "GET /k/.../g/... HTTP/1.1",
        "GET /api/v1/games/6/rounds HTTP/1.1",
    ]
    assert edit not in log.read_text(encoding="utf-8") and view not in log.read_text(encoding="utf-8")
