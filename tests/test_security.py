"""Nothing let in: headers, the session cookie, CSRF on every form, tokens (size, constant
time, never logged), markup in names always escaped, and limits on what one client stores."""

import hashlib
import html as html_lib
import io
import json
import logging
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from werkzeug.serving import WSGIRequestHandler

from scorepad import logs, security
from scorepad.extensions import db
from scorepad.models import StoredGame, StoredPreset
from scorepad.services import common, games
from scorepad.tokens import new_token

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
NASTY = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "O'Brien & <b>Co</b>",
    "</textarea><svg/onload=x>",
]
NASTY_TITLE = "<script>alert('title')</script>"


def start(client, rounds=0, players=None, title=None):
    """A game through the API; (id, edit token, view token)."""
    doc = {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:rounds]}
    if players:
        doc["players"] = players
    if title:
        doc["title"] = title
    response = client.post("/api/v1/games", json=doc)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_token"], body["view_token"]


# -- headers -------------------------------------------------------------------------------


def test_every_page_sends_the_security_headers(client):
    _, edit, view = start(client, rounds=2)
    for path in ["/", "/games/new", f"/g/{edit}", f"/g/{view}", "/api/v1/games/1", "/nowhere"]:
        headers = client.get(path).headers
        csp = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
        assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'", path
        assert "unsafe-inline" not in headers["Content-Security-Policy"]
        assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert "Strict-Transport-Security" not in headers  # plain HTTP: HSTS would be ignored


def test_https_responses_carry_hsts(client):
    assert "max-age=" in client.get("/", base_url="https://localhost").headers["Strict-Transport-Security"]


def test_templates_have_no_inline_script_or_style():
    templates = Path(__file__).parent.parent / "templates"
    for path in templates.rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline <script> in {path}"
        assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", text), f"inline style or handler in {path}"


# -- the session cookie ----------------------------------------------------------------------


def session_cookie(response) -> str:
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert cookies, "no session cookie set"
    return cookies[0]


@pytest.mark.parametrize("base_url, secure", [("http://localhost", False), ("https://localhost", True)])
def test_session_cookie_is_httponly_lax_and_secure_over_https(client, base_url, secure):
    _, edit, _ = start(client)
    cookie = session_cookie(client.get(f"/g/{edit}", base_url=base_url))  # remembers the game
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert ("Secure" in cookie) == secure


def test_behind_a_trusted_proxy_forwarded_https_makes_the_cookie_secure(app):
    app.config["TRUSTED_PROXIES"] = 1
    security.init_app(app)  # ProxyFix is installed from the config
    client = app.test_client()
    _, edit, _ = start(client)
    response = client.get(f"/g/{edit}", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def test_without_trusted_proxies_a_forwarded_proto_is_ignored(client):
    _, edit, _ = start(client)
    response = client.get(f"/g/{edit}", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in session_cookie(response)


# -- CSRF ----------------------------------------------------------------------------------


def test_every_form_post_without_a_csrf_token_is_refused(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    _, edit, _ = start(client, rounds=3)
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods and not rule.rule.startswith("/api/")]
    assert len(posts) >= 5
    for rule in posts:
        values = {"token": edit, "number": 3, "preset_id": "tournament", "adjustment_id": 1}
        path = rule.rule
        for name in rule.arguments:
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", str(values[name]), path)
        response = client.post(path, data={"contract": "domino", "number": "3"})
        assert response.status_code == 400, (path, response.status_code)
        assert b"CSRF" in response.data
    with app.app_context():
        assert len(db.session.get(StoredGame, 1).rounds) == 3  # nothing changed


def test_the_api_needs_no_csrf_token_but_a_bearer_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    game_id, edit, view = start(client)
    rnd = EXAMPLE["game"]["rounds"][0]
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=rnd).status_code == 401
    assert (
        client.post(
            f"/api/v1/games/{game_id}/rounds", json=rnd, headers={"Authorization": f"Bearer {view}"}
        ).status_code
        == 403
    )
    assert (
        client.post(
            f"/api/v1/games/{game_id}/rounds", json=rnd, headers={"Authorization": f"Bearer {edit}"}
        ).status_code
        == 201
    )


# -- tokens ----------------------------------------------------------------------------------


def test_tokens_carry_at_least_128_random_bits(app):
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
        assert len(token) * 6 >= 128  # URL-safe base64: 6 bits a character


def test_authorize_compares_tokens_in_constant_time(app, monkeypatch):
    with app.app_context():
        stored, _ = games.create_game(EXAMPLE["game"] | {"rounds": []})
        compared = []
        real = common.hmac.compare_digest
        monkeypatch.setattr(common.hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
        assert games.authorize(stored.id, "x" * 32) is None
        assert games.authorize(stored.id, stored.view_token) == (stored, False)
        assert compared, "tokens must go through hmac.compare_digest"


def test_pages_look_games_up_by_the_tokens_digest_never_the_token(app, client):
    """Every page, fragment and poll that takes a token in its URL asks the database for the
    token's SHA-256 (so an index comparison's timing says nothing about the token) and the
    token itself is then compared in constant time."""
    game_id, edit, view = start(client)
    with app.app_context():
        engine = db.engine
        stored = db.session.get(StoredGame, game_id)
        assert stored.edit_digest == hashlib.sha256(edit.encode()).hexdigest()
        assert stored.view_digest == hashlib.sha256(view.encode()).hexdigest()
    parameters = []
    listener = lambda conn, cursor, statement, params, *rest: parameters.append(repr(params))  # noqa: E731
    sa.event.listen(engine, "before_cursor_execute", listener)
    try:
        for url in (
            f"/g/{edit}",
            f"/b/{view}",
            f"/b/{view}/live",
            f"/b/{edit}/qr.svg",
            f"/b/share/{edit}",
            f"/s/{view}",
            f"/s/{view}/sheet.csv",
        ):
            assert client.get(url).status_code == 200, url
    finally:
        sa.event.remove(engine, "before_cursor_execute", listener)
    assert parameters
    assert not [p for p in parameters if edit in p or view in p]
    assert any(hashlib.sha256(edit.encode()).hexdigest() in p for p in parameters)


def test_a_near_miss_token_is_refused(client):
    game_id, edit, _ = start(client)
    near = edit[:-1] + ("A" if edit[-1] != "A" else "B")
    assert client.get(f"/g/{near}").status_code == 404
    assert client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {near}"}).status_code == 404


def test_redaction_takes_tokens_out_of_request_lines():
    token = new_token()
    line = f'127.0.0.1 - - [29/Nov/2026 14:20:19] "GET /g/{token}/rounds/3 HTTP/1.1" 200 -'
    assert token not in logs.redact(line)
    assert "/g/…/rounds/3" in logs.redact(line)
    assert (
        logs.redact('"GET /static/vendor/htmx-2.0.11.min.js HTTP/1.1"')
        == '"GET /static/vendor/htmx-2.0.11.min.js HTTP/1.1"'
    )


@pytest.fixture
def loggers_on(monkeypatch):
    """Alembic's logging config (an earlier migration test) disables existing loggers."""
    for name in ("werkzeug", "scorepad"):
        monkeypatch.setattr(logging.getLogger(name), "disabled", False)


def test_werkzeug_request_log_never_shows_the_token(app, caplog, loggers_on):
    """What `flask run` prints for each request goes through the redacting filter."""
    token = new_token()

    class Handler(WSGIRequestHandler):
        def __init__(self):  # only what log_request needs
            self.requestline = f"GET /g/{token} HTTP/1.1"
            self.client_address = ("127.0.0.1", 5555)

        def address_string(self):
            return "127.0.0.1"

    with caplog.at_level(logging.INFO, logger="werkzeug"):
        Handler().log_request(200)
    assert caplog.records and f"/g/{token}" not in caplog.text and "/g/…" in caplog.text


def test_app_error_log_never_shows_the_token(app, caplog, loggers_on):
    token = new_token()
    app.logger.error("Exception on /g/%s/rounds [POST]", token)
    assert token not in caplog.text and "/g/…/rounds" in caplog.text


# -- markup in names and titles ---------------------------------------------------------------


def test_markup_in_names_and_title_is_escaped_on_every_page(client):
    game_id, edit, view = start(client, rounds=3, players=NASTY, title=NASTY_TITLE)
    pages = [
        f"/g/{edit}",
        f"/g/{view}",
        f"/g/{edit}/rounds/new?contract=domino",
        f"/g/{edit}/rounds/new?contract=trumps",
        f"/g/{edit}/rounds/1",
        f"/g/{edit}/rounds/2/edit",
        f"/b/{view}",
        f"/b/{view}/screen",
        f"/s/{view}",
        "/",
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        for raw in [*NASTY, NASTY_TITLE]:
            assert raw not in html, (path, raw)
        assert "<script>alert" not in html and "<img src=x" not in html and "<svg/onload" not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path  # the name is there, as text


def test_markup_in_names_comes_back_verbatim_as_json_from_the_api(client):
    game_id, _, view = start(client, rounds=1, players=NASTY, title=NASTY_TITLE)
    response = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {view}"})
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.get_json()["players"] == NASTY
    assert response.get_json()["title"] == NASTY_TITLE


def test_markup_in_a_new_game_form_is_escaped_when_it_is_refused(client):
    form = {
        "title": NASTY_TITLE,
        "first_declarer": "0",
        "preset": "tournament",
        "players-0": NASTY[0],
        "players-1": NASTY[1],
        "players-2": NASTY[0],
        "players-3": NASTY[3],
    }
    response = client.post("/games/new", data=form)  # two equal names: refused
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert NASTY[0] not in html and NASTY[1] not in html and NASTY_TITLE not in html


# -- limits ----------------------------------------------------------------------------------


def test_a_body_over_the_size_limit_is_refused_with_413(client):
    big = {**EXAMPLE["game"], "title": "x" * (300 * 1024)}
    response = client.post("/api/v1/games", json=big)
    assert response.status_code == 413
    assert response.get_json()["error"]


NEW_GAME_FORM = {
    "title": "",
    "first_declarer": "0",
    "preset": "tournament",
    **{f"players-{seat}": name for seat, name in enumerate(EXAMPLE["game"]["players"])},
}
PRESET_OBJECT = {"name": "Thursday club", "contracts": [{"id": "no-tricks", "per_trick": -2}]}


def game_file() -> dict:
    return {"file": (io.BytesIO(json.dumps(EXAMPLE["game"]).encode()), "game.json")}


# Every way to store a game or a preset, as (what is stored, method and URL, request arguments).
# Each view carries its limit itself (@limit): a view left without it would store here.
STARTS = [
    ("game", "/games/new", lambda: {"data": NEW_GAME_FORM}),
    ("game", "/games/import", lambda: {"data": game_file(), "content_type": "multipart/form-data"}),
    ("game", "/api/v1/games", lambda: {"json": EXAMPLE["game"]}),
    ("preset", "/presets/new", lambda: {"data": {"name": "Thursday club", "deck": "52", "save": "y"}}),
    ("preset", "/presets/import", lambda: {"data": {"text": json.dumps(PRESET_OBJECT)}}),
    ("preset", "/api/v1/presets", lambda: {"json": PRESET_OBJECT}),
]


@pytest.mark.parametrize("kind, url, arguments", STARTS, ids=[url for _kind, url, _args in STARTS])
def test_every_way_to_store_a_game_or_preset_is_limited(app, kind, url, arguments):
    app.config["MAX_GAMES_PER_ADDRESS"] = 0  # this address may start no game ...
    app.config["MAX_PRESETS_PER_ADDRESS"] = 0  # ... and save no preset
    response = app.test_client().post(url, **arguments())
    assert response.status_code == 429
    expected = "0 games were started from this network" if kind == "game" else "0 presets were saved from this network"
    assert expected in html_lib.unescape(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.query(StoredGame).count() == 0
        assert db.session.query(StoredPreset).count() == 0


def test_a_refused_game_start_says_why_on_an_error_page_with_retry_after(app):
    app.config["MAX_GAMES_PER_ADDRESS"] = 0
    app.config["CLOCK"] = lambda: datetime(2026, 11, 30, 23, 0, tzinfo=UTC)  # the day's window ends in an hour
    # The import (the new-game form instead keeps what was typed: tests/test_limits.py).
    response = app.test_client().post("/games/import", data=game_file(), content_type="multipart/form-data")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "3600"
    assert response.mimetype == "text/html"
    assert "<h1>429 Too many games</h1>" in response.get_data(as_text=True)


def test_the_game_limit_counts_only_posts(app):
    app.config["MAX_GAMES_PER_ADDRESS"] = 0
    assert app.test_client().get("/games/new").status_code == 200


def test_one_device_cannot_start_more_than_its_games(app):
    app.config["MAX_GAMES_PER_DEVICE"] = 3
    app.config["CLOCK"] = lambda: datetime(2026, 11, 30, 13, 0, tzinfo=UTC)
    client = app.test_client()
    form = {
        "title": "",
        "first_declarer": "0",
        "preset": "tournament",
        **{f"players-{seat}": name for seat, name in enumerate(EXAMPLE["game"]["players"])},
    }
    for _ in range(3):
        assert client.post("/games/new", data=form).status_code == 303
    response = client.post("/games/new", data=form)
    assert response.status_code == 429
    assert (
        "This device has started 3 games, the most allowed within 1 day; finish or reuse one of them, "
        "or try again in 11 hours." in html_lib.unescape(response.get_data(as_text=True))
    )  # 13:00 to midnight UTC, the end of the day's window
    assert response.headers["Retry-After"] == str(11 * 3600)
    with app.app_context():
        assert db.session.query(StoredGame).count() == 3
    # Another device (a fresh cookie jar) still can.
    assert app.test_client().post("/games/new", data=form).status_code == 303


def test_one_address_cannot_start_more_than_its_games_through_the_api(app):
    app.config["MAX_GAMES_PER_ADDRESS"] = 2
    client = app.test_client()
    start(client)
    start(client)
    response = client.post("/api/v1/games", json=EXAMPLE["game"])
    assert response.status_code == 429
    assert "2 games were started from this network" in response.get_json()["error"]
    assert response.headers["Retry-After"]
    other = client.post("/api/v1/games", json=EXAMPLE["game"], environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201


def test_games_of_an_ended_window_no_longer_count(app):
    app.config["MAX_GAMES_PER_ADDRESS"] = 1
    now = [datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)]
    app.config["CLOCK"] = lambda: now[0]
    client = app.test_client()
    start(client)
    assert client.post("/api/v1/games", json=EXAMPLE["game"]).status_code == 429
    now[0] = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)  # the next day's window
    start(client)


def test_the_stored_address_is_a_keyed_hash_not_the_address(client, app):
    start(client)
    with app.app_context():
        stored = db.session.get(StoredGame, 1)
        assert stored.creator_address and "127.0.0.1" not in stored.creator_address
        assert re.fullmatch(r"[0-9a-f]{32}", stored.creator_address)


def test_gunicorn_access_log_never_shows_the_token(app, tmp_path):
    """With gunicorn's access log turned on, the scorer's URL (and a Referer carrying it)
    is logged without the token."""
    from .conftest import database_uri
    from .gunicorn_server import gunicorn, request

    client = app.test_client()
    _, edit, view = start(client, rounds=1)
    access = tmp_path / "access.log"
    with gunicorn(database_uri(tmp_path), workers=1, args=("--access-logfile", str(access))) as server:
        assert request(server, "GET", f"/g/{edit}")[0] == 200
        assert request(server, "GET", "/static/css/app.css", headers={"Referer": f"{server.base}/g/{edit}"})[0] == 200
        assert request(server, "GET", f"/b/{view}/live")[0] == 200
    log = access.read_text()
    assert "GET /g/… HTTP/1.1" in log and "GET /b/…/live" in log
    assert edit not in log and view not in log


def test_static_files_keep_nosniff_but_not_the_document_headers(client):
    page = client.get("/")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    static = client.get("/static/js/app.js")
    assert static.headers["X-Content-Type-Options"] == "nosniff"
    for header in ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy", "Permissions-Policy"):
        assert header not in static.headers


def test_a_nul_character_is_refused_before_it_reaches_the_database(client):
    # PostgreSQL text cannot hold U+0000: found by fuzzing POST /api/v1/games with "preset": "\u0000".
    response = client.post(
        "/api/v1/games", json={"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": "\u0000"}
    )
    assert response.status_code == 422
    assert "NUL" in response.json["error"]
    assert client.post("/games/new", data={"title": "x\x00"}).status_code == 422
    assert client.get("/g/abc%00def").status_code == 404
    assert client.get("/api/v1/games", query_string={"q": "\x00"}).status_code == 422
