"""Smoke tests for the application factory."""

import pytest

from scorepad import create_app
from scorepad.config import TestConfig, database_url


def test_factory_uses_the_given_config():
    assert not create_app().testing
    assert create_app(TestConfig).testing
    assert create_app({"TESTING": True}).testing


def test_default_database_is_sqlite_in_the_instance_folder():
    app = create_app({"SQLALCHEMY_DATABASE_URI": None})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{app.instance_path}/scorepad.sqlite3"


def test_postgres_urls_use_psycopg_3():
    assert database_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
    assert database_url(None) is None


def test_home_page_offers_a_new_game(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"/games/new" in response.data


def test_vendored_htmx_is_served(client):
    response = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert response.status_code == 200
    assert b'version:"2.0.11"' in response.data


def test_unknown_page_renders_the_error_template(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert b'<html lang="en">' in response.data
    assert b"404" in response.data


def test_unknown_api_path_answers_json(client):
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.json["path"] is None
    assert response.json["error"]


def test_a_client_that_prefers_json_gets_its_errors_as_json(client):
    response = client.get("/no-such-page", headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    assert response.json["path"] is None and response.json["error"]


@pytest.mark.parametrize(
    "accept", ["text/html,application/xhtml+xml,*/*;q=0.8", "*/*", "application/json;q=0.5, text/html"]
)
def test_browsers_and_htmx_get_the_error_page(client, accept):
    response = client.get("/no-such-page", headers={"Accept": accept})
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert b"<h1>404 Not Found</h1>" in response.data


def test_an_api_error_stays_json_whatever_the_client_accepts(client):
    response = client.get("/api/v1/no-such-thing", headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert sorted(response.json) == ["error", "path"] and response.json["path"] is None
