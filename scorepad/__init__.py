"""Barbu Scorepad: the Flask application factory."""

import importlib
import importlib.util
import os
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_babel import format_number, get_locale, gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from . import database, security
from .config import Config
from .extensions import babel, compress, csrf, db, migrate
from .i18n import LANGUAGE_NAMES, http_error_text, select_locale

# templates/ and static/ live at the repository root, next to the package.
ROOT = Path(__file__).resolve().parent.parent

# Feature blueprints, each a module scorepad.views.<name> exposing `bp`.
BLUEPRINTS = ["games", "rounds", "presets", "board", "sheet", "pwa", "language", "api", "api_presets"]


def _module_exists(name: str) -> bool:
    """True if `name` can be imported (a missing parent package counts as missing)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def create_app(config=None) -> Flask:
    """Build the app: `config` may be a dict, a class or an object overriding Config."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_relative_config=True,
    )
    app.config.from_object(Config)
    if isinstance(config, dict):
        app.config.from_mapping(config)
    elif config is not None:
        app.config.from_object(config)

    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(ROOT / "translations"))
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        # instance_path is absolute, so the SQLite file does not depend on the working directory.
        db_file = Path(app.instance_path) / "scorepad.sqlite3"
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{db_file}"

    db.init_app(app)
    database.init_app(app)  # SQLite: WAL and a busy timeout, so parallel writers wait
    csrf.init_app(app)
    security.init_app(app)  # headers, session cookie, proxies, tokens out of logs, limits
    # An absolute directory so migrations run from any working directory; batch mode
    # lets later migrations alter SQLite tables.
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    babel.init_app(app, locale_selector=select_locale)
    compress.init_app(app)

    # Imported so that Flask-Migrate's autogenerate sees the tables.
    if _module_exists("scorepad.models"):
        importlib.import_module("scorepad.models")

    for name in BLUEPRINTS:
        module_name = f"scorepad.views.{name}"
        if _module_exists(module_name):
            app.register_blueprint(importlib.import_module(module_name).bp)

    if _module_exists("scorepad.cli"):
        cli = importlib.import_module("scorepad.cli")
        if hasattr(cli, "register"):
            cli.register(app)

    # Points and counts with the language's digit grouping (1,234 · 1.234 · 1 234); the
    # templates write the sign themselves (a true minus, U+2212).
    app.add_template_filter(format_number, "number")

    @app.context_processor
    def inject_locale():
        return {"current_locale": str(get_locale() or app.config["BABEL_DEFAULT_LOCALE"]),
                "language_names": {code: LANGUAGE_NAMES[code] for code in app.config["LANGUAGES"]}}

    _register_error_handlers(app)
    return app


def _register_error_handlers(app: Flask) -> None:
    """HTML error pages for people, JSON for the API under /api/."""

    def render_error(code: int, name: str, description: str):
        if request.path.startswith("/api/"):
            return jsonify(error=description, path=None), code
        name, description = http_error_text(name, description)
        return render_template("errors.html", code=code, name=name, description=description), code

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return render_error(400, error.name, error.description)

    for code in (400, 403, 404, 405, 409, 413, 422, 429):

        @app.errorhandler(code)
        def http_error(error: HTTPException):
            return render_error(error.code, error.name, error.description)

    @app.errorhandler(500)
    def internal_error(error: HTTPException):
        # Leave the session usable for the next request after a failed transaction.
        db.session.rollback()
        return render_error(500, gettext("Internal Server Error"), gettext("Something went wrong on our side."))
