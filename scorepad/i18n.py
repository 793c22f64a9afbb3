"""Languages: which one a request is served in, and the names of those we ship."""

from __future__ import annotations

import re

from flask import abort, current_app, request, session
from flask_babel import format_number, gettext

from . import labels
from .scoring import ScoringError
from .scoring.contracts import CONTRACT_IDS
from .scoring.errors import N_

#: Each shipped language in its own name (never translated: a reader looks for their own).
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}
SESSION_KEY = "lang"


def select_locale() -> str:
    """The language of this request: the one chosen on this device (remembered in the
    session cookie), else the best match of the browser's Accept-Language, else English."""
    languages = current_app.config["LANGUAGES"]
    chosen = session.get(SESSION_KEY)
    if chosen in languages:
        return str(chosen)
    return request.accept_languages.best_match(languages) or str(current_app.config["BABEL_DEFAULT_LOCALE"])


def asked_language() -> tuple[str, bool]:
    """The language of an image (a chart, the result card): the query's ``lang`` (the page's),
    else the request's (:func:`select_locale`), and whether it came from the request (the answer
    then varies with it); 404 for a language the app does not speak."""
    language = request.args.get("lang")
    varies = language is None
    if varies:
        language = select_locale()
    if language is None or language not in current_app.config["LANGUAGES"]:
        abort(404)
    return language, varies


#: A whole-number placeholder of a message, ``%(low)d``.
NUMBER_PLACEHOLDER = re.compile(r"%\((\w+)\)d")


def engine_text(template: str, **params: object) -> str:
    """An engine message (marked ``N_`` in scorepad/scoring) in this request's language;
    a contract id among the ``params`` is shown by its name (``no-queens`` → No Queens), and
    a whole number as the pages write points (:func:`signed`: a true minus sign U+2212 and the
    language's digit grouping, "−100,000 to 100,000", German "−100.000 bis 100.000")."""
    shown: dict[str, object] = {
        key: (str(labels.contract_name(value)) if key == "contract" and value in CONTRACT_IDS else value)
        for key, value in params.items()
    }
    translated = gettext(template)
    if not shown:
        return translated
    numbers = {
        key: signed(value) for key, value in shown.items() if isinstance(value, int) and not isinstance(value, bool)
    }
    written = NUMBER_PLACEHOLDER.sub(
        lambda match: f"%({match.group(1)})s" if match.group(1) in numbers else match.group(0), translated
    )
    return written % {**shown, **numbers}


def error_text(error: ScoringError) -> str:
    """The message of a :class:`ScoringError`, translated (see :func:`engine_text`)."""
    return engine_text(error.template, **error.params)


#: The names and stock descriptions of the HTTP errors the app shows as pages (Werkzeug's and
#: Flask-WTF's English words), marked for extraction; :func:`http_error_text` translates them.
HTTP_ERROR_TEXTS = (
    N_("Bad Request"),
    N_("Forbidden"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Conflict"),
    N_("Request Entity Too Large"),
    N_("Unprocessable Entity"),
    N_("Too Many Requests"),
    N_("Internal Server Error"),
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_(
        "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server."  # noqa: E501 (Werkzeug's words, matched exactly)
    ),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again."  # noqa: E501 (Werkzeug's words, matched exactly)
    ),
    N_("The method is not allowed for the requested URL."),
    N_(
        "A conflict happened while processing the request. The resource might have been modified while the request was being processed."  # noqa: E501 (Werkzeug's words, matched exactly)
    ),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The request was well-formed but was unable to be followed due to semantic errors."),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_("The CSRF token is missing."),
    N_("The CSRF session token is missing."),
    N_("The CSRF token has expired."),
    N_("The CSRF token is invalid."),
    N_("The CSRF tokens do not match."),
    N_("The referrer header is missing."),
    N_("The referrer does not match the host."),
)


def http_error_text(name: str, description: str) -> tuple[str, str]:
    """An error page's title and text in this request's language: the stock English words
    of :data:`HTTP_ERROR_TEXTS` translated, anything else (already translated by the view
    that aborted) as it is."""
    return gettext(name) if name in HTTP_ERROR_TEXTS else name, gettext(
        description
    ) if description in HTTP_ERROR_TEXTS else description


#: Past this, Babel's decimal arithmetic (28 significant digits) cannot group a number. Only a
#: game or preset stored before the preset bounds (scoring.contracts.RANGES) reaches it.
GROUPED_UP_TO = 10**18


def number(value: int) -> str:
    """Points or a count with the page language's digit grouping (1,234 · 1.234 · 1 234); the
    templates' ``number`` filter. A number of :data:`GROUPED_UP_TO` or more (points of a game
    stored before the bounds) is written in plain digits instead of failing. From 0 to 999 the
    four languages write the plain digits, without asking Babel (a board shows about a hundred
    numbers: Babel's formatting was a quarter of a board's render)."""
    if 0 <= value < 1000:
        return str(value)
    return format_number(value) if abs(value) < GROUPED_UP_TO else str(value)


def signed(points: int, plus: bool = False) -> str:
    """Points with a true minus sign (U+2212) and the language's digit grouping, as the pages
    show them: −6, 45, 0, 1,000 (German 1.000); with ``plus``, a plus before a positive: +45."""
    if points < 0:
        return f"−{number(-points)}"
    return f"+{number(points)}" if plus and points > 0 else number(points)
