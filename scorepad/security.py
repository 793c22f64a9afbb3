"""What keeps a club night safe: response headers, the session cookie, proxies, tokens out
of the logs, and a cap on the games one client starts.

- Headers (Flask-Talisman): a Content-Security-Policy that allows scripts, styles, images
  and connections from this site only, no inline script or style, no framing
  (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``); ``X-Content-Type-Options:
  nosniff``; ``Referrer-Policy: same-origin``, so a page's address, which carries the game's
  token, never goes to another site (same-origin rather than no-referrer: Flask-WTF checks
  the Referer of HTTPS form posts); HSTS on HTTPS responses.
- The session cookie: HttpOnly, SameSite=Lax, and Secure whenever the request came over
  HTTPS (behind a proxy: ``TRUSTED_PROXIES``, then X-Forwarded-Proto counts).
- Logs: the scorer's address ``/g/<token>`` carries the edit token, so every log line of
  werkzeug (``flask run``), gunicorn (access and error logs, when enabled) and the app has
  token-like path segments replaced by ``…`` before it is written.
- Limits: at most ``MAX_GAMES_PER_DEVICE`` games per device (the session's device id) and
  ``MAX_GAMES_PER_ADDRESS`` per client address (a keyed hash of it is stored, never the
  address) within ``LIMIT_WINDOW``; then 429 with a message. Request bodies are capped by
  ``MAX_CONTENT_LENGTH`` (413).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from typing import Any

from flask import Flask, current_app, has_request_context, jsonify, render_template, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_talisman import Talisman
from sqlalchemy import func, select
from werkzeug.middleware.proxy_fix import ProxyFix

from .extensions import db

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

# Endpoints that start a game (POST only): the limits apply to them.
GAME_STARTS = {"games.new", "games.import_game", "api.create_game"}

# A path segment of 20 or more URL-safe characters is a token (edit and view tokens have 32,
# preset ids 22); nothing else in the app's URLs is that long without a dot.
TOKEN_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_-]{20,}(?=[/?#\s\"']|$)")
REDACTED = "…"


def redact(text: str) -> str:
    """``text`` with every token-like path segment replaced by ``…``."""
    return TOKEN_SEGMENT.sub(REDACTED, text)


class RedactTokens(logging.Filter):
    """A logging filter that takes capability tokens out of a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the handler's problem, not ours
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with a cookie marked Secure whenever the request came
    over HTTPS (or always, with ``SESSION_COOKIE_SECURE``)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def address_key(app: Flask | None = None) -> str | None:
    """The client's address as a keyed hash (32 hex digits): enough to count its games,
    useless to learn the address. None outside a request."""
    if not has_request_context() or not request.remote_addr:
        return None
    key = (app or current_app).config["SECRET_KEY"].encode()
    return hmac.new(key, request.remote_addr.encode(), hashlib.sha256).hexdigest()[:32]


def device_id(create: bool = False) -> str | None:
    """This device's id from the session cookie (the one that owns its presets); with
    ``create``, one is made when there is none yet."""
    from .views.presets import this_device  # the presets feature owns the device id

    return this_device(create)


def creator() -> dict[str, Any]:
    """Keyword arguments for :func:`scorepad.services.create_game`: who starts this game.
    The API is authorised by tokens, not cookies, so it has no device id."""
    api = request.blueprint is not None and request.blueprint.startswith("api")
    return {"creator_device": None if api else device_id(create=True), "creator_address": address_key()}


def count_rows(model, *conditions) -> int:
    """How many rows of ``model`` (a table with ``created_at``) meet ``conditions``: what the
    limits on games and presets count."""
    return db.session.scalar(select(func.count()).select_from(model).where(*conditions)) or 0


def window_start():
    """The earliest ``created_at`` that still counts towards a limit (now − ``LIMIT_WINDOW``)."""
    from .models import utcnow

    return utcnow() - current_app.config["LIMIT_WINDOW"]


def too_many_games() -> str | None:
    """The message for a client that started its allowed number of games in the window, or None."""
    from .models import StoredGame

    config = current_app.config
    since = window_start()
    hours = int(config["LIMIT_WINDOW"].total_seconds() // 3600)

    def started(column, value) -> int:
        return count_rows(StoredGame, column == value, StoredGame.created_at >= since)

    device = device_id()
    if device and started(StoredGame.creator_device, device) >= config["MAX_GAMES_PER_DEVICE"]:
        return _("This device has started %(n)d games in the last %(hours)d hours, the most allowed; "
                 "finish or reuse one of them, or try again later.", n=config["MAX_GAMES_PER_DEVICE"], hours=hours)
    address = address_key()
    if address and started(StoredGame.creator_address, address) >= config["MAX_GAMES_PER_ADDRESS"]:
        return _("%(n)d games were started from this network in the last %(hours)d hours, the most allowed; "
                 "try again later.", n=config["MAX_GAMES_PER_ADDRESS"], hours=hours)
    return None


def too_many_presets(device: str | None) -> str | None:
    """The message for a client that may not save another preset, or None: a device keeps
    at most ``MAX_PRESETS_PER_DEVICE`` presets (deleting one frees its place), and at most
    ``MAX_PRESETS_PER_ADDRESS`` are saved from one client address within ``LIMIT_WINDOW``
    (the API has no device). The caller answers 429 with it and stores nothing."""
    from .models import StoredPreset

    config = current_app.config
    if device:
        if count_rows(StoredPreset, StoredPreset.owner_device == device) >= config["MAX_PRESETS_PER_DEVICE"]:
            return ngettext("This device keeps %(num)d saved preset, the most allowed; delete it if you no longer "
                            "use it, then save again.",
                            "This device keeps %(num)d saved presets, the most allowed; delete one you no longer use, "
                            "then save again.", config["MAX_PRESETS_PER_DEVICE"])
    address = address_key()
    if address:
        saved = count_rows(StoredPreset, StoredPreset.creator_address == address,
                           StoredPreset.created_at >= window_start())
        if saved >= config["MAX_PRESETS_PER_ADDRESS"]:
            hours = int(config["LIMIT_WINDOW"].total_seconds() // 3600)
            return ngettext("%(num)d preset was saved from this network in the last %(hours)d hours, the most "
                            "allowed; try again later.",
                            "%(num)d presets were saved from this network in the last %(hours)d hours, the most "
                            "allowed; try again later.", config["MAX_PRESETS_PER_ADDRESS"], hours=hours)
    return None


def _limit_game_starts():
    if request.method != "POST" or request.endpoint not in GAME_STARTS:
        return None
    message = too_many_games()
    if message is None:
        return None
    if request.path.startswith("/api/"):
        response = jsonify(error=message, path=None)
        response.status_code = 429
    else:
        response = current_app.make_response(
            (render_template("errors.html", code=429, name=_("Too many games"), description=message), 429))
    response.headers["Retry-After"] = "3600"
    return response


DOCUMENT_ONLY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy", "Permissions-Policy")


def _static_without_document_headers(response):
    """A static CSS, JS or PNG file needs ``nosniff`` but none of the headers that govern a
    document (policy, framing, referrer): leaving them out saves ~300 bytes a file."""
    if request.endpoint in ("static", "pwa.bundle"):  # pwa.bundle: several static files as one
        for header in DOCUMENT_ONLY_HEADERS:
            response.headers.pop(header, None)
    return response


def _refuse_nul_characters():
    """No field may hold a NUL character (U+0000): PostgreSQL text cannot store one, and no
    name, title, token or id needs it. Refused before any view runs, so a request carrying
    one never reaches the database: 404 in a URL path, 422 in a query, form or JSON body."""
    if "\x00" in request.path:
        return render_or_json(404, _("Not Found"), _("There is no such page."))
    body = request.get_data(cache=True) if request.content_length else b""
    if (any("\x00" in value for value in request.args.values())
            or any("\x00" in value for value in request.form.values())
            or b"\x00" in body or b"\\u0000" in body.lower()):
        return render_or_json(422, _("Invalid input"), _("No field may contain a NUL character (U+0000)."))
    return None


def render_or_json(code: int, name: str, description: str):
    """An error answer: JSON ``{"error", "path"}`` under /api/, the error page elsewhere."""
    if request.path.startswith("/api/"):
        response = jsonify(error=description, path="")
    else:
        response = render_template("errors.html", code=code, name=name, description=description)
    return response, code


def init_app(app: Flask) -> None:
    """Install headers, cookie settings, proxy handling, log redaction and limits on ``app``."""
    proxies = app.config.get("TRUSTED_PROXIES", 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies)
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
    app.before_request(_limit_game_starts)
    redactor = RedactTokens()
    for logger in (app.logger, *map(logging.getLogger, LOGGERS)):
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(redactor)
