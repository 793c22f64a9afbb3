"""Languages: which one a request is served in, and the names of those we ship."""

from __future__ import annotations

from flask import current_app, request, session
from flask_babel import gettext

from .scoring import ScoringError
from .scoring.contracts import CONTRACT_IDS

#: Each shipped language in its own name (never translated: a reader looks for their own).
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}
SESSION_KEY = "lang"


def select_locale() -> str:
    """The language of this request: the one chosen on this device (remembered in the
    session cookie), else the best match of the browser's Accept-Language, else English."""
    languages = current_app.config["LANGUAGES"]
    chosen = session.get(SESSION_KEY)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]


def engine_text(template: str, **params: object) -> str:
    """An engine message (marked ``N_`` in scorepad/scoring) in this request's language;
    a contract id among the ``params`` is shown by its name (``no-queens`` → No Queens)."""
    from . import labels  # labels imports flask_babel's lazy strings; keep this module light

    shown = {key: (labels.contract_name(value) if key == "contract" and value in CONTRACT_IDS else value)
             for key, value in params.items()}
    return gettext(template, **shown) if shown else gettext(template)


def error_text(error: ScoringError) -> str:
    """The message of a :class:`ScoringError`, translated (see :func:`engine_text`)."""
    return engine_text(error.template, **error.params)
