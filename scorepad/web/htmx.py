"""The only module that reads htmx's ``HX-*`` request headers (and writes its response
headers). Views ask :func:`is_htmx` and answer with :func:`page_or_blocks`, which renders
the whole page or, for htmx, just the named blocks of the same template."""

from __future__ import annotations

from typing import Any, TypeVar

from flask import Response, make_response, render_template, request
from jinja2_fragments.flask import render_blocks
from werkzeug.wrappers import Response as BaseResponse


def is_htmx() -> bool:
    """True when htmx sent this request (and not a history-restore fetch, which needs the page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


#: Any response: Flask's or Werkzeug's (``redirect`` returns the latter).
AnyResponse = TypeVar("AnyResponse", bound=BaseResponse)


def vary(response: AnyResponse) -> AnyResponse:
    """Mark a response that depends on ``HX-Request``, so caches keep page and fragment apart."""
    response.vary.add("HX-Request")
    return response


def page_or_blocks(template: str, blocks: list[str], status: int = 200, **context: Any) -> Response:
    """The whole ``template``, or for an htmx request only its ``blocks`` (jinja2-fragments)."""
    body = render_blocks(template, blocks, **context) if is_htmx() else render_template(template, **context)
    return vary(make_response(body, status))


def push_url(response: Response, url: str) -> Response:
    """Ask htmx to put ``url`` in the address bar (after a save the form's URL is stale)."""
    response.headers["HX-Push-Url"] = url
    return response
