"""Every error answer of the app, in one place: JSON ``{"error": ..., "path": ...}`` for the
API and for clients that prefer JSON, the error page (templates/errors.html) for people.

``error_response`` builds the answer; views return it or ``abort(error_response(...))``.
``register`` makes Flask's own errors (404, 405, a CSRF failure, a 500 ...) answer the same way.
The use cases' errors (:mod:`scorepad.services.common`'s family, the engine's ``ScoringError``)
are mapped to answers once per blueprint: :func:`json_errors` for the API, :func:`page_errors`
for a page blueprint, whose views then only call the use case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, TypeVar

from flask import Blueprint, Flask, Response, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from ..i18n import engine_text, error_text, http_error_text
from ..scoring import ScoringError, each_error
from ..services.common import Conflict, KeyReused, NotFound, Refused, RoundChanged

#: The statuses whose Flask errors the app answers itself (any other keeps Werkzeug's page).
HANDLED = (400, 403, 404, 405, 409, 413, 415, 422, 429)


def wants_json() -> bool:
    """True for a request under ``/api/`` (always JSON), or whose Accept header prefers JSON
    to HTML (a browser's or htmx's ``*/*`` does not: pages answer with HTML)."""
    if request.path.startswith("/api/"):
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


def error_response(
    code: int, description: str, *, name: str | None = None, path: str | None = None, retry_after: int | None = None
) -> Response:
    """An error answer with status ``code``: ``{"error": description, "path": path}`` as JSON
    (see :func:`wants_json`), else the error page titled ``name`` (the status's stock name by
    default; stock English texts are translated, anything else is shown as given).
    ``retry_after`` (seconds) becomes the ``Retry-After`` header. A Response, so ``abort``
    accepts it too."""
    if wants_json():
        response = jsonify(error=description, path=path)
    else:
        title, text = http_error_text(name or HTTP_STATUS_CODES.get(code, "Error"), description)
        # A page that is only busy for now (503 with Retry-After) offers the same address again.
        again = request.full_path if retry_after is not None and code == 503 and request.method == "GET" else None
        response = make_response(render_template("errors.html", code=code, name=title, description=text, again=again))
    response.status_code = code
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def register(app: Flask, rollback: Callable[[], object]) -> None:
    """Answer Flask's errors with :func:`error_response`. ``rollback`` is called on a 500
    first, so that the session is usable again for the next request after a failed transaction."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Response:
        return error_response(400, error.description, name=error.name)

    for code in HANDLED:

        @app.errorhandler(code)
        def http_error(error: HTTPException) -> Response:
            response = error_response(error.code or 500, error.description or "", name=error.name)
            # The error's own headers go along (a 405's Allow, which RFC 9110 requires; a
            # 401's WWW-Authenticate), but not the type of Werkzeug's HTML page.
            for header, value in error.get_headers():
                if header.lower() != "content-type":
                    response.headers[header] = value
            return response

    @app.errorhandler(500)
    def internal_error(error: HTTPException) -> Response:
        rollback()
        return error_response(500, gettext("Something went wrong on our side."), name=gettext("Internal Server Error"))


def json_errors(bp: Blueprint) -> None:
    """Answer the use-case errors of ``bp``'s views (an API blueprint) as JSON
    ``{"error", "path"}`` (:func:`error_response`): the engine's :class:`ScoringError` 422 at
    its path, an idempotency key sent with another request 422 at ``Idempotency-Key``,
    :class:`NotFound` 404, a round changed since ``If-Match`` 412, any other :class:`Conflict`
    409, :class:`Refused` 403. The messages are the services' English ones."""
    bp.register_error_handler(ScoringError, lambda exc: error_response(422, exc.message, path=exc.path))
    bp.register_error_handler(KeyReused, lambda exc: error_response(422, exc.message, path="Idempotency-Key"))
    bp.register_error_handler(NotFound, lambda exc: error_response(404, exc.message))
    bp.register_error_handler(RoundChanged, lambda exc: error_response(412, exc.message))
    bp.register_error_handler(Conflict, lambda exc: error_response(409, exc.message))
    bp.register_error_handler(Refused, lambda exc: error_response(403, exc.message))


#: A page blueprint's answer to a refused use case: ``(status, message, error)`` → its page with
#: ``message`` (translated, begun with a capital letter) at the top.
PageAnswer = Callable[[int, str, Exception], ResponseReturnValue]


def page_errors(bp: Blueprint, answer: PageAnswer) -> None:
    """Answer the use-case errors of ``bp``'s views (a page blueprint) with ``answer``: the
    engine's :class:`ScoringError` with 422, a :class:`Conflict` with 409, each with its message
    in the page's language. (A form that shows the message next to its field catches the
    error itself.)"""
    bp.register_error_handler(ScoringError, lambda exc: answer(422, capitalized(error_text(exc)), exc))
    bp.register_error_handler(
        Conflict, lambda exc: answer(409, capitalized(engine_text(exc.template, **exc.params)), exc)
    )


class RefusableForm(Protocol):
    """A form that shows refusals: the engine's next to the field its path names, others at the top."""

    form_errors: list[str]

    def add_engine_error(self, path: str, message: str) -> None: ...


class Refusal:
    """What :func:`refusals_on` caught: ``status`` is None while nothing was refused, 422 for the
    engine's refusal, 409 for a use case's conflict (then ``conflict`` holds it)."""

    status: int | None = None
    conflict: Conflict | None = None


@contextmanager
def refusals_on(
    form: RefusableForm, *, field: str | None = None, at_top: bool = False, conflicts: bool = False
) -> Iterator[Refusal]:
    """Run the block (a use case that the form's input feeds); what it refuses goes on ``form``
    instead of out of the view, and the rest of the block is skipped, as with ``except``:

    - the engine's :class:`ScoringError` (422; each of a :class:`~scorepad.scoring.ScoringErrors`'
      problems): next to the field its path names
      (``form.add_engine_error``), or on the field named ``field`` when the form has one input
      the use case reads, or with ``at_top`` at the top of the form;
    - with ``conflicts``, a use case's :class:`Conflict` (409): at the top of the form, in the
      page's language. Without it a conflict goes on to the blueprint's handler (:func:`page_errors`).

    Yields the :class:`Refusal`, whose ``status`` the view answers with."""
    refusal = Refusal()
    try:
        yield refusal
    except ScoringError as exc:
        refusal.status = 422
        for error in each_error(exc):  # every problem found at once (ScoringErrors), each in its place
            if at_top:
                form.form_errors.append(error_text(error))
            elif field is None:
                form.add_engine_error(error.path, error_text(error))
            else:
                getattr(form, field).errors.append(error_text(error))
    except Conflict as exc:
        if not conflicts:
            raise
        refusal.status, refusal.conflict = 409, exc
        form.form_errors.append(engine_text(exc.template, **exc.params))


Result = TypeVar("Result")


def accepted(call: Callable[[], Result], *errors: type[Exception]) -> Result | None:
    """What ``call()`` returns, or None when it raises one of ``errors`` (the engine's
    :class:`ScoringError` by default): for a view that asks whether input is acceptable without
    showing why not (a limit's answer, a preview of one row)."""
    caught = errors or (ScoringError,)
    try:
        return call()
    except caught:
        return None


def capitalized(message: str) -> str:
    """``message`` begun with a capital letter, as a page's messages are (the API's are not)."""
    return message[:1].upper() + message[1:]
