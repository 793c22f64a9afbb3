"""Switching the language of this device (remembered in the session cookie)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request, session, url_for
from flask_babel import gettext

from ..i18n import SESSION_KEY

bp = Blueprint("language", __name__)


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page (never an open redirect)."""
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") and not target.startswith("//"):
            return target
    return url_for("games.home")


@bp.post("/language")
def choose():
    """Serve this device in the chosen language from now on, and go back to the page."""
    lang = request.form.get("lang", "")
    if lang not in current_app.config["LANGUAGES"]:
        abort(422, description=gettext("Unknown language “%(lang)s”: choose one of the buttons.", lang=lang[:20]))
    session[SESSION_KEY] = lang
    session.permanent = True
    return redirect(safe_next(request.form.get("next")), code=303)
