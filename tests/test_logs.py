"""No log line holds a token (issue 12, Secrets): gunicorn's access and error logs (a real
gunicorn with gunicorn.conf.py and its access log on), werkzeug's request log (`flask run`),
the app's tracebacks (a database error whose message quotes a token), and records of any
logger below the app's."""

from __future__ import annotations

import http.client
import io
import json
import logging
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from scorepad import logs
from scorepad.extensions import db
from scorepad.tokens import new_token

from .conftest import database_uri, fresh_app
from .gunicorn_server import gunicorn

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
USER_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
# What follows the scorer's address in a request, and how the request line is logged: the
# token is gone, what followed it stays (%20 is part of the run the token ends, so it goes too).
AFTER_TOKEN = {".": "/g/….", ",": "/g/…,", ")": "/g/…)", "!": "/g/…!", ";x": "/g/…;x", "%20": "/g/… "}


def percent_encoded(token: str) -> str:
    """``token`` with every third character percent-encoded (``A`` → ``%41``), as a client may send it."""
    return "".join(f"%{ord(c):02X}" if i % 3 == 0 else c for i, c in enumerate(token))


def visits(tokens: dict[str, str], stylesheet: str) -> list[tuple[str, dict[str, str], str]]:
    """The requests each test sends: (path, headers, how the request's path is logged).
    ``stylesheet`` is the site's, whose name carries a content hash."""
    edit, view, preset = tokens["edit"], tokens["view"], tokens["preset"]
    return [
        *((f"/g/{edit}{after}", {}, f"GET {logged}") for after, logged in AFTER_TOKEN.items()),
        (f"/?t={edit}&lang=de", {}, "GET /?t=…&lang=de "),
        (f"/g/{percent_encoded(edit)}", {}, "GET /g/… "),
        (f"/b/{view}/live", {}, "GET /b/…/live "),
        (f"/api/v1/presets/{preset}", {}, "GET /api/v1/presets/… "),
        (stylesheet, {"Referer": f"http://127.0.0.1/g/{edit}"}, f"GET {stylesheet} "),
    ]


def visit(host: str, port: int, requests: list[tuple[str, dict[str, str], str]], kept_alive: bool = True) -> list[int]:
    """Each request in turn on one kept-alive connection, then one more: gunicorn reads a
    connection's next request only once it has logged the last, so when the final answer
    arrives every request before it is in the log. (Werkzeug logs a request before it answers
    it, and closes the connection after an error: ``kept_alive=False``.) The statuses of ``requests``."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    statuses = []
    try:
        for path, headers, _ in [*requests, ("/api/v1/health", {}, "")]:
            connection.request("GET", path, headers={"User-Agent": USER_AGENT, **headers})
            response = connection.getresponse()
            response.read()
            assert not (kept_alive and response.will_close), path  # the same connection for the next one
            statuses.append(response.status)
    finally:
        connection.close()
    return statuses[:-1]


def assert_redacted(text: str, tokens: dict[str, str], requests: list[tuple[str, dict[str, str], str]]) -> None:
    """``text`` holds no token, not even percent-encoded, and holds every request, redacted."""
    for token in tokens.values():
        assert token not in text and percent_encoded(token) not in text
    for path, _, logged in requests:
        assert logged in text, (path, logged, text[-3000:])


# -- gunicorn ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One gunicorn (gunicorn.conf.py: gevent, the redacting logger class) with its access log
    and its error log at debug level (a worker logs each request's path there), on a fresh
    database, shared by the module's gunicorn tests; a game and a saved preset made through it."""
    tmp = tmp_path_factory.mktemp("logs")
    for _app in fresh_app(tmp):  # the tables, then the app's engine released
        pass
    access, errors = tmp / "access.log", tmp / "error.log"
    args = ("--access-logfile", str(access), "--error-logfile", str(errors), "--log-level", "debug")
    with gunicorn(database_uri(tmp), workers=1, args=args, log=tmp / "output.log") as server:
        yield server, access, errors, *make_tokens(server.host, server.port)


def make_tokens(host: str, port: int) -> tuple[dict[str, str], str]:
    """A game's edit and view tokens, a saved preset's id and edit token, through the API; and
    the path of the site's stylesheet (its name carries a content hash)."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", "/")
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', connection.getresponse().read().decode()).group(1)
        connection.request("POST", "/api/v1/games", json.dumps(EXAMPLE["game"]), {"Content-Type": "application/json"})
        game = json.loads(connection.getresponse().read())
        connection.request("GET", "/api/v1/presets/tournament")
        builtin = json.loads(connection.getresponse().read())["preset"]
        connection.request("POST", "/api/v1/presets", json.dumps(builtin), {"Content-Type": "application/json"})
        preset = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    tokens = {"edit": game["edit_token"], "view": game["view_token"], "preset": preset["id"]}
    tokens["preset_edit"] = preset["edit_token"]
    assert [len(tokens[k]) for k in ("edit", "view", "preset", "preset_edit")] == [32, 32, 22, 32]
    return tokens, stylesheet


def test_gunicorn_access_log_shows_every_request_but_no_token(served):
    server, access, _errors, tokens, stylesheet = served
    requests = visits(tokens, stylesheet)
    statuses = visit(server.host, server.port, requests)
    assert statuses[-3:] == [200, 200, 200]  # the board, the preset, the stylesheet
    log = access.read_text()
    assert_redacted(log, tokens, requests)
    # What the log is for stays: status codes, the user agent, a static file with its hash.
    assert '"GET /b/…/live HTTP/1.1" 200 ' in log
    assert '"GET /g/…. HTTP/1.1" 404 ' in log
    assert f'"http://127.0.0.1/g/…" "{USER_AGENT}"' in log
    assert f'"GET {stylesheet} HTTP/1.1" 200 ' in log


def test_gunicorn_error_log_shows_no_token(served):
    """The worker logs each request's method and path (gunicorn's pre_request hook, debug
    level) to the error log: through the handlers gunicorn.conf.py's logger class filters."""
    server, _access, errors, tokens, stylesheet = served
    requests = visits(tokens, stylesheet)
    visit(server.host, server.port, requests)
    log = errors.read_text()
    assert "Using worker: BoundedGeventWorker" in log  # gunicorn.conf.py is the configuration
    for token in tokens.values():
        assert token not in log
    for after, logged in AFTER_TOKEN.items():
        assert f"GET {logged.rstrip()}\n" in log, after
    assert "GET /b/…/live\n" in log


# -- werkzeug (flask run) ----------------------------------------------------------------------


@pytest.fixture
def loggers_on(monkeypatch):
    """Alembic's logging config (an earlier migration test) disables existing loggers."""
    for name in ("werkzeug", "scorepad"):
        monkeypatch.setattr(logging.getLogger(name), "disabled", False)


def test_werkzeug_request_log_shows_every_request_but_no_token(app, live_server, caplog, loggers_on):
    """`flask run`'s server logs each request line (werkzeug logs it before answering)."""
    host, port = live_server.removeprefix("http://").split(":")
    tokens, stylesheet = make_tokens(host, int(port))
    requests = visits(tokens, stylesheet)
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        visit(host, int(port), requests, kept_alive=False)
    assert_redacted(caplog.text, tokens, requests)
    assert '"GET /b/…/live HTTP/1.1" 200' in caplog.text


# -- the app's tracebacks ----------------------------------------------------------------------

# A statement that fails with the token as its parameter: PostgreSQL quotes the value in its
# own message (invalid input syntax for type integer: "<token>"); SQLite names a missing table.
FAILING_SQL = {
    "postgresql": "SELECT CAST(:value AS integer)",
    "sqlite": "SELECT * FROM no_such_table WHERE name = :value",
}


def test_a_database_error_is_logged_with_its_traceback_but_no_token(app, caplog, loggers_on):
    """A view that fails on a database error: Flask logs "Exception on <path>" with the
    traceback, whose last line is the error's message, SQL and parameters."""
    token = new_token()

    @app.get("/test-only/<path:rest>")
    def fails(rest):
        db.session.execute(sa.text(FAILING_SQL[db.engine.dialect.name]), {"value": token})

    app.config["PROPAGATE_EXCEPTIONS"] = False  # a server's setting: Flask logs the exception
    with caplog.at_level(logging.ERROR):
        assert app.test_client().get(f"/test-only/{token}").status_code == 500
    text = caplog.text
    assert token not in text
    assert "Exception on /test-only/… [GET]" in text and "Traceback (most recent call last)" in text
    assert "[SQL parameters hidden due to hide_parameters=True]" in text
    assert "sqlalchemy.exc." in text  # the error's class and message stay
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        assert 'invalid input syntax for type integer: "…"' in text


def test_an_exception_message_and_stack_are_redacted(app, caplog, loggers_on):
    token = new_token()
    try:
        raise ValueError(f"no game with the token {token}")
    except ValueError:
        with caplog.at_level(logging.ERROR):
            app.logger.exception("Saving /g/%s failed", token, stack_info=True)
    assert token not in caplog.text
    assert "Saving /g/… failed" in caplog.text and "ValueError: no game with the token …" in caplog.text
    assert "Stack (most recent call last)" in caplog.text


def test_a_handler_of_the_root_logger_redacts_records_of_any_logger(tmp_path):
    """A logger's filter sees only what is logged on it; the root's handler (gunicorn's or one
    a deployment adds) also gets what every other logger propagates, and redacts it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    token = new_token()
    try:
        for _app in fresh_app(tmp_path):  # installs the filter on the handlers there are
            logging.getLogger("scorepad.somewhere.below").warning("a link: /g/%s?t=%s", token, token)
    finally:
        root.removeHandler(handler)
    assert stream.getvalue() == "scorepad.somewhere.below: a link: /g/…?t=…\n"


# -- the pattern -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        '127.0.0.1 - - [30/Nov/2026:22:47:25 +0000] "GET /static/gen/game.a16f2d5c.css HTTP/1.1" 304 0 "-" "-"',
        f'"GET /static/icons/favicon-32.png HTTP/1.1" 200 812 "https://scores.example/" "{USER_AGENT}"',
        'File "/srv/app/.venv/lib/python3.11/site-packages/sqlalchemy/engine/base.py", line 1967, in '
        "_exec_single_context",
        "psycopg.errors.InvalidTextRepresentation: HTTP_X_FORWARDED_PROTO content-security-policy",
    ],
)
def test_redaction_keeps_what_a_log_needs(line):
    # Every run of URL-safe characters here is shorter than 20, plain words joined by _ or -
    # in one case, or a class name after its module.
    assert logs.redact(line) == line


def test_redaction_takes_every_token_shape():
    digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"  # sha256("test")
    preset_id = "Zm9vYmFyYmF6cXV4MTIzND"
    assert logs.redact(f"key (edit_digest)=({digest}) exists") == "key (edit_digest)=(…) exists"
    assert logs.redact(f"/api/v1/presets/{preset_id}?x=1") == "/api/v1/presets/…?x=1"
    assert logs.redact("/g/%41%42cdefghijklmnopqrstuvwxyz0123") == "/g/…"
    assert logs.redact("a" * 19 + "1") == "…"
    assert logs.redact("a1" * 9) == "a1" * 9  # 18 characters: too short for a token
    # A capitalised-words run is a class name only after a module's name and a dot.
    assert logs.redact("/g/InvalidTextRepresentation /x.AbcdefGhijklmnoPqrstuvw") == "/g/… /x.AbcdefGhijklmnoPqrstuvw"
    assert logs.redact("/g/.AbcdefGhijklmnoPqrstuvw") == "/g/.…"
