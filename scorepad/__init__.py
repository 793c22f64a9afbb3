"""Barbu Scorepad: the Flask application factory."""

import os
from pathlib import Path

from flask import Flask
from flask_babel import get_locale

from . import database, security
from .config import Config
from .extensions import babel, compress, csrf, db, migrate
from .i18n import LANGUAGE_NAMES, select_locale
from .pages.common import isolate, number
from .web import assets, caching, errors, hosts, json_input

# templates/ and static/ live at the repository root, next to the package.
ROOT = Path(__file__).resolve().parent.parent


def create_app(config=None) -> Flask:
    """Build the app: `config` may be a dict, a class or an object overriding Config."""
    app = hosts.ScorepadFlask(  # Flask, with absolute links on PUBLIC_URL when it is set
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

    # First of the request handlers (before CSRF, Flask-Talisman's HTTPS redirect...): a forged
    # host is refused before anything else runs; a bad PUBLIC_URL stops the app here.
    hosts.init_app(app)
    caching.init_app(app)  # Cache-Control: private, no-store unless a response says otherwise
    db.init_app(app)
    database.init_app(app)  # SQLite: WAL and a busy timeout, so parallel writers wait
    csrf.init_app(app)
    security.init_app(app)  # headers, session cookie, proxies, tokens out of logs
    # An absolute directory so migrations run from any working directory; batch mode
    # lets later migrations alter SQLite tables.
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    babel.init_app(app, locale_selector=select_locale)
    json_input.init_app(app)  # request JSON: no 500 for deep nesting or huge numbers
    compress.init_app(app)

    # Imported here, as flaskr does, so that importing the package (the engine, the CLI's
    # helpers) does not load every view. The models are imported so that Flask-Migrate's
    # autogenerate sees the tables.
    from . import cli, models  # noqa: F401, PLC0415 (flaskr's pattern; see above)
    from .views import (  # noqa: PLC0415 (flaskr's pattern; see above)
        api,
        api_clubs,
        api_nights,
        api_presets,
        board,
        card,
        charts,
        club,
        confirm,
        director,
        games,
        history,
        language,
        night,
        presets,
        pwa,
        rounds,
        sheet,
    )

    assets.init_app(app)  # static files built and served by WhiteNoise, in front of the app
    for blueprint in (games.bp, rounds.bp, presets.bp, board.bp, sheet.bp, pwa.bp, language.bp, api.bp, api_presets.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(card.bp)  # the result card to share, /b/<token>/card.png
    app.register_blueprint(charts.bp)  # the running totals chart, /b/<token>/chart.svg and /chart
    # Club nights: the API, the director's pages (/d/<token>) and the public ones (/n/<token>).
    for blueprint in (api_nights.bp, director.bp, night.bp):
        app.register_blueprint(blueprint)
    # The witness's page (/c/<confirm token>) and the game's record of changes (/h/<token>).
    for blueprint in (confirm.bp, confirm.scorer_bp, history.bp):
        app.register_blueprint(blueprint)
    # Clubs, their members, statistics, ladder and rating: the API and the pages (/k/<token>).
    for blueprint in (api_clubs.bp, club.bp):
        app.register_blueprint(blueprint)
    cli.register(app)

    # Points and counts with the language's digit grouping (1,234 · 1.234 · 1 234); the
    # templates write the sign themselves (a true minus, U+2212).
    app.add_template_filter(number, "number")
    # Names and titles inside sentences and tables, isolated from the text around them.
    app.add_template_filter(isolate, "bdi")

    @app.context_processor
    def inject_locale():
        return {
            "current_locale": str(get_locale() or app.config["BABEL_DEFAULT_LOCALE"]),
            "language_names": {code: LANGUAGE_NAMES[code] for code in app.config["LANGUAGES"]},
        }

    errors.register(app, rollback=db.session.rollback)
    return app
