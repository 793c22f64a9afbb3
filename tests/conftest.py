"""Shared fixtures: the app on a throwaway SQLite file, its clients, and a phone-sized Chromium."""

import functools
import os
import threading
from pathlib import Path

import pytest
import sqlalchemy
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from scorepad import create_app
from scorepad.config import TestConfig, database_url
from scorepad.extensions import db

# Debian's Chromium; Playwright cannot download its own browser on these machines.
CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying to reach the internet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"


def database_uri(tmp_path) -> str:
    """TEST_DATABASE_URL (e.g. a PostgreSQL database, emptied for each test) or a fresh
    SQLite file (a file, not :memory:, so the live server's threads share it). Under
    pytest-xdist each worker has a PostgreSQL schema of its own in that database
    (:func:`worker_schema`), so workers never drop each other's tables."""
    url = database_url(os.environ.get("TEST_DATABASE_URL"))
    if url is None:
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    return worker_schema(url)


@functools.cache
def worker_schema(url: str) -> str:
    """``url`` for this pytest-xdist worker (``PYTEST_XDIST_WORKER``: gw0, gw1 ...): its own
    schema, created once, first on every connection's ``search_path`` (libpq's ``options``), so
    the tables, their types and Alembic's version table all live there; its connections named
    ``scorepad-<worker>`` (``application_name``). ``url`` itself when not under xdist or not
    PostgreSQL."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker or not url.startswith("postgresql"):
        return url
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sqlalchemy.text(f'CREATE SCHEMA IF NOT EXISTS "{worker}"'))
    engine.dispose()
    # Its connections carry the worker's name too, so a test that closes the app's connections
    # from the server's side (tests/test_database.py) finds its own and not another worker's.
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{worker}&application_name=scorepad-{worker}"


class ServerLikeClient(FlaskClient):
    """Flask's test client, closing each response's body once it is read, as a WSGI server
    does. Flask's own leaves that to the test, so a file sent with ``send_file`` (static
    files, the OpenAPI description) stayed open until the garbage collector closed it, with a
    ResourceWarning (an error under ``filterwarnings = error``)."""

    def open(self, *args, buffered: bool = True, **kwargs):
        return super().open(*args, buffered=buffered, **kwargs)


def fresh_app(tmp_path, **settings):
    """The app with ``settings`` over TestConfig on a real, empty database; the database
    released when the test is done (a generator for a fixture to ``yield from``)."""
    config = type("Config", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": database_uri(tmp_path), **settings})
    app = create_app(config)
    app.test_client_class = ServerLikeClient
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path):
    """The app on a real, empty database."""
    yield from fresh_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def base_url() -> None:
    """No base URL: browser tests open full URLs (``live_server``). Defined here because
    pytest-playwright 0.10's own fallback is an instance method of a plugin class, which
    pytest 9.2 deprecates (PytestRemovedIn10Warning, an error under ``filterwarnings``)."""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def closing(app):
    """``app`` as a WSGI app whose answer's body is closed even when the browser drops the
    connection in the middle of it. Werkzeug's development server skips the body's ``close()``
    when the dropped socket fails it first (a CI run: a page closed while its service worker was
    still fetching a static file left WhiteNoise's file open, a ResourceWarning, an error under
    ``filterwarnings = error``). This generator closes it when the server lets go of it."""

    def serve(environ, start_response):
        body = app(environ, start_response)
        try:
            yield from body
        finally:
            if hasattr(body, "close"):
                body.close()

    return serve


@pytest.fixture
def live_server(app):
    """Serve `app` on a free loopback port from a thread; yields the base URL."""
    server = make_server("127.0.0.1", 0, closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


def phone_settings(playwright) -> dict:
    """A phone's context settings: iPhone 13 metrics, touch, a 390x844 viewport."""
    device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
    return {**device, "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def phone(browser, playwright):
    """A page in a fresh phone context: iPhone 13 metrics, touch, 390x844 viewport."""
    context = browser.new_context(**phone_settings(playwright))
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def fresh_phone(playwright, browser_type_launch_args):
    """Opens phone pages (as ``phone``), each on a browser of its own, closed after the test:
    where a long game goes on after the shared browser stopped producing frames
    (tests/browser/stall.py)."""
    browsers = []

    def open_page():
        browser = playwright.chromium.launch(**browser_type_launch_args)
        browsers.append(browser)
        return browser.new_context(**phone_settings(playwright)).new_page()

    yield open_page
    for browser in browsers:
        browser.close()


@pytest.fixture
def screenshot_dir():
    """tests/screenshots/ (gitignored), for pictures a person can look at."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
