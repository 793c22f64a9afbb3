"""Configuration classes; the environment overrides the defaults."""

import os
from datetime import timedelta


def database_url(url: str | None) -> str | None:
    """Point PostgreSQL URLs at the psycopg 3 driver (Heroku-style hosts still say postgres://)."""
    if not url:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Config:
    # The default only suits development; any deployment must set SECRET_KEY.
    SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret")
    # None means "SQLite file in the instance folder"; create_app fills in the absolute path.
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("DATABASE_URL"))
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
    # Score sheets are small; anything bigger is a mistake or abuse.
    MAX_CONTENT_LENGTH = 256 * 1024
    WTF_CSRF_ENABLED = True
    WTF_CSRF_TIME_LIMIT = None  # a game can last an evening; don't expire tokens mid-game
    WTF_CSRF_HEADERS = ["X-CSRFToken", "X-CSRF-Token"]
    # The session cookie carries this device's id (it owns the presets it saves) and its
    # recent games: keep it as long as browsers allow (Chrome caps cookies at 400 days).
    PERMANENT_SESSION_LIFETIME = timedelta(days=400)
    LANGUAGES = ["en", "de", "nl", "fr"]
    BABEL_DEFAULT_LOCALE = "en"


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test"
    SQLALCHEMY_DATABASE_URI = "sqlite://"
    WTF_CSRF_ENABLED = False
