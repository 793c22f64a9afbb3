"""Languages: which one a request is served in, and the names of those we ship."""

from __future__ import annotations

from flask import current_app, request, session

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
