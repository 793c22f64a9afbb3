"""Reading JSON that a client sent, in one place: the API's bodies (:func:`request_json`),
the import forms' files and pasted text, and anything that calls ``request.get_json`` or
``flask.json.loads`` (the app's JSON provider, :class:`JSONProvider`).

Python's own parser recurses once per level of nesting, so ``[[[[…]]]]`` a thousand deep
raises ``RecursionError``, and it reads a number of 4,300 digits or more with an error in
Python's words. :func:`parse_json` refuses both before they happen, and any other JSON it
cannot read, with a :class:`BadJSON`: a :class:`~scorepad.scoring.ScoringError` at path
``""`` whose message a scorer understands, so that every handler of the engine's refusals
(a 422 with ``{"error", "path"}``, a form error) answers it too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask, Response, abort, jsonify, request
from flask.json.provider import DefaultJSONProvider

from ..scoring import ScoringError
from ..scoring.errors import N_
from .errors import error_response

#: The deepest nesting accepted. A game document needs 5 levels (the document, its
#: ``rounds``, a round, its ``doubles``, a pair; or ``preset.contracts[i].places``): 32 leaves
#: room for any client's wrapping and stays far below the parser's recursion limit (~1,000).
MAX_DEPTH = 32
#: The most digits of a JSON integer. Every number a document holds is bounded by the
#: engine (seats 0–3, counts up to 13, preset values within ±1,200: see
#: :data:`scorepad.scoring.contracts.RANGES`); 40 digits still reach the engine, so that a
#: preset value of 10**25 is refused naming its field, not as unreadable JSON.
MAX_DIGITS = 40

#: A string (to its closing quote, or to the end of the text when it has none: a match never
#: fails, so each character is read once, even in ``"\"\"\"…`` with no end) or a bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


class BadJSON(ScoringError):
    """Input that is not JSON the scorepad can read: not UTF-8, not valid JSON, nested
    deeper than :data:`MAX_DEPTH`, or an integer of more than :data:`MAX_DIGITS` digits.
    ``path`` is ``""`` (the whole input)."""


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (0 for a scalar), counted
    without recursion; stops counting once past :data:`MAX_DEPTH`. Brackets inside strings
    do not count."""
    depth = deepest = 0
    for token in _TOKEN.finditer(text):
        bracket = token.group()
        if bracket[0] == '"':
            continue
        depth += 1 if bracket in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                break
    return deepest


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadJSON("", N_("a number in the JSON has more than %(limit)d digits"), limit=MAX_DIGITS)
    return int(digits)


def _constant(name: str) -> Any:
    raise BadJSON("", N_("%(name)s is not a JSON number"), name=name)


def parse_json(raw: str | bytes, **kwargs: Any) -> Any:
    """The value of JSON ``raw`` (bytes are read as UTF-8, or UTF-16/32 with their byte
    order mark, as RFC 8259 allows: a file given to ``scorepad settle``; a request body in
    UTF-16/32 holds NUL bytes and is refused before, by the NUL refusal of
    :mod:`scorepad.security`). ``kwargs`` go to :func:`json.loads` (Flask's session passes
    an ``object_hook``).

    Raises :class:`BadJSON` (path ``""``) for bytes that are not text, JSON nested deeper
    than :data:`MAX_DEPTH`, an integer longer than :data:`MAX_DIGITS` digits, ``NaN`` or
    ``Infinity`` (not JSON), and invalid JSON (with its line and column: the parser's reason is Python's English, not
    a scorer's).
    """
    if isinstance(raw, bytes):
        try:
            raw = raw.decode(json.detect_encoding(raw))
        except UnicodeDecodeError:
            raise BadJSON("", N_("this is not UTF-8 text")) from None
    if nesting(raw) > MAX_DEPTH:
        raise BadJSON("", N_("the JSON is nested more than %(limit)d levels deep"), limit=MAX_DEPTH)
    kwargs.setdefault("parse_int", _integer)
    kwargs.setdefault("parse_constant", _constant)
    try:
        return json.loads(raw, **kwargs)
    except json.JSONDecodeError as exc:
        raise BadJSON(
            "",
            N_("This is not valid JSON (line %(line)d, column %(col)d)."),
            line=exc.lineno,
            col=exc.colno,
        ) from None
    except RecursionError:  # not reached after nesting(); kept so that no nesting is ever a 500
        raise BadJSON("", N_("the JSON is nested more than %(limit)d levels deep"), limit=MAX_DEPTH) from None


def request_json() -> Any:
    """The request's body as JSON (its Content-Type is checked before, by
    :func:`refuse_other_bodies`); a 422 answer
    ``{"error": …, "path": ""}`` (see :func:`parse_json`) when it cannot be read or is
    ``null``."""
    try:
        obj = parse_json(request.get_data(cache=True))
    except BadJSON as exc:
        abort(error_response(422, exc.message, path=exc.path))
    if obj is None:
        abort(error_response(422, "the body must be a JSON document", path=""))
    return obj


#: The methods whose body an API endpoint reads.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def refuse_other_bodies() -> Response | None:
    """415 ``{"error": …, "path": ""}`` for a request to the API (``/api/``) whose body is not
    declared JSON: ``application/json`` (a ``charset`` parameter is fine) or
    ``application/*+json``. A ``text/plain`` or form body is one that any web page can make
    a browser send to another site without asking it first (no CORS preflight): refusing it
    means no page elsewhere writes through the API in its visitor's name. A request without
    a body (close, reopen, rematch, a DELETE) needs no Content-Type; nor does one whose
    address or method does not exist (its 404 or 405 comes first), nor a GET. A ``charset``
    other than UTF-8 is refused too: the body is read as UTF-8 (RFC 8259)."""
    if (
        not request.path.startswith("/api/")
        or request.routing_exception is not None  # no such address or method: its 404 or 405 says so
        or request.method not in BODY_METHODS
        or not request.get_data(cache=True)
    ):
        return None
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if request.is_json and charset in ("utf-8", "utf8"):
        return None
    sent = request.mimetype[:100] or "no Content-Type"
    if request.is_json:
        sent = f"{sent}; charset={charset[:40]} (the API reads UTF-8 only)"
    return error_response(415, f"the body must be JSON sent with Content-Type: application/json, not {sent}", path="")


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON with :func:`parse_json` as ``loads``: ``request.get_json()`` and
    ``flask.json.loads`` then refuse what the scorepad cannot read (a ``BadJSON`` is a
    ``ValueError``, which ``get_json`` answers with 400) instead of failing with a 500."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """:func:`parse_json` of ``s``."""
        return parse_json(s, **kwargs)


def init_app(app: Flask) -> None:
    """Make :class:`JSONProvider` the app's JSON provider; refuse API bodies that are not
    declared JSON (:func:`refuse_other_bodies`)."""
    app.json = JSONProvider(app)
    app.before_request(refuse_other_bodies)


def body() -> Any:
    """The request's JSON body, or a 422 response naming the problem (see
    :func:`scorepad.web.json_input.request_json`)."""
    return request_json()


def created(answer: dict[str, Any]) -> Response:
    """201 Created with ``answer`` as JSON and the new game's or preset's API URL (its
    ``links.api``) in the ``Location`` header."""
    response = jsonify(answer)
    response.status_code = 201
    response.headers["Location"] = answer["links"]["api"]
    return response
