"""What keeps a club night safe: response headers, the session cookie, proxies, tokens out
of the logs, refused NUL characters, and who started a game (for the limits).

- Headers (Flask-Talisman): a Content-Security-Policy that allows scripts, styles, images
  and connections from this site only, no inline script or style, no framing
  (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``); ``X-Content-Type-Options:
  nosniff``; ``Referrer-Policy: same-origin``, so a page's address, which carries the game's
  token, never goes to another site (same-origin rather than no-referrer: Flask-WTF checks
  the Referer of HTTPS form posts); HSTS on HTTPS responses.
- The session cookie: HttpOnly, SameSite=Lax, and Secure whenever the request came over
  HTTPS (behind a proxy: ``TRUSTED_PROXIES``, then X-Forwarded-Proto counts).
- Logs: the scorer's address ``/g/<token>`` carries the edit token, so every log line of
  werkzeug (``flask run``), gunicorn (access and error logs) and the app, tracebacks
  included, has token-shaped text replaced by ``…`` before it is written (:mod:`scorepad.logs`).
- Request bodies are capped by ``MAX_CONTENT_LENGTH`` (413), and no field may hold a NUL.
- Who started a game (:func:`creator`): the device id and a keyed hash of the address (never
  the address), which the limits on games and presets count (:mod:`scorepad.web.limits`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext as _
from flask_talisman import Talisman
from werkzeug.middleware.proxy_fix import ProxyFix

from . import logs
from .web.caching import SHARED
from .web.errors import error_response

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "manifest-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with a cookie marked Secure whenever the request came
    over HTTPS (or always, with ``SESSION_COOKIE_SECURE``)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Flask's rule (a changed session, or a permanent one refreshed on every answer),
        except on an answer a shared cache may keep (:data:`scorepad.web.caching.SHARED`: the
        board's polls, the service worker, the manifest): the device's cookie (its id, its
        CSRF token, its recent games) is not refreshed there unless the request changed it,
        so such an answer is the same for everyone and a proxy may keep it."""
        if has_request_context() and request.endpoint in SHARED and not session.modified:
            return False
        return super().should_set_cookie(app, session)


DOCUMENT_ONLY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy", "Permissions-Policy")


def _static_without_document_headers(response):
    """A static CSS, JS or PNG file needs ``nosniff`` but none of the headers that govern a
    document (policy, framing, referrer): leaving them out saves ~300 bytes a file."""
    if request.endpoint == "static":  # Flask serves a static file only when WhiteNoise passes it on (web/assets.py)
        for header in DOCUMENT_ONLY_HEADERS:
            response.headers.pop(header, None)
    return response


def _refuse_nul_characters() -> Response | None:
    """No field may hold a NUL character (U+0000): PostgreSQL text cannot store one, and no
    name, title, token or id needs it. Refused before any view runs, so a request carrying
    one never reaches the database: 404 in a URL path, 422 in a query, form or JSON body.

    The body is read whatever its framing: a chunked body has no Content-Length but is just as
    readable (the server ends it and MAX_CONTENT_LENGTH still caps it), and every value of a
    repeated field counts, not only the first."""
    if "\x00" in request.path:
        return error_response(404, _("There is no such page."), name=_("Not Found"), path="")
    body = request.get_data(cache=True)  # empty when there is none; kept for the view
    if (
        any("\x00" in value for _key, values in request.args.lists() for value in values)
        or any("\x00" in value for _key, values in request.form.lists() for value in values)
        or b"\x00" in body
        or b"\\u0000" in body.lower()
    ):
        return error_response(
            422, _("No field may contain a NUL character (U+0000)."), name=_("Invalid input"), path=""
        )
    return None


def init_app(app: Flask) -> None:
    """Install headers, cookie settings, proxy handling, the NUL refusal and log redaction on ``app``."""
    proxies = app.config.get("TRUSTED_PROXIES", 0)
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's documented way to wrap the WSGI app
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    # Registered before Talisman's, so it runs after it (Flask runs after_request handlers in
    # reverse): static files are not documents, so the document-only headers are dropped.
    app.after_request(_static_without_document_headers)
    Talisman(
        app,
        force_https=app.config.get("FORCE_HTTPS", False),
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        referrer_policy="same-origin",
        session_cookie_secure=False,  # SessionInterface decides per request
        session_cookie_http_only=True,
        session_cookie_samesite=app.config.get("SESSION_COOKIE_SAMESITE", "Lax"),
    )
    app.session_interface = SessionInterface()
    app.before_request(_refuse_nul_characters)
    logs.init_app(app)


#: The chart's own Content-Security-Policy, in place of the pages' (Flask-Talisman's per-view
#: options, which its ``@talisman(...)`` decorator sets): an SVG document runs no script at all
#: (``default-src 'none'``) and its colours are its inline ``<style>`` (opened on its own, the
#: pages' ``style-src 'self'`` would refuse it; inside an ``<img>`` no policy of its own applies).
IMAGE_POLICY = {"default-src": "'none'", "style-src": "'unsafe-inline'", "frame-ancestors": "'none'"}


def image_policy(view: Any) -> Any:
    """Give the view ``view`` (an SVG chart's) :data:`IMAGE_POLICY` as its Content-Security-Policy,
    as Flask-Talisman's ``@talisman(content_security_policy=...)`` decorator does (the app keeps no
    Talisman instance to decorate with). Also for the member page's charts."""
    view.talisman_view_options = {"content_security_policy": IMAGE_POLICY}
    return view
