"""The progressive web app: the manifest and the service worker from the site root, and the
offline page. The static files they name are built and served by :mod:`scorepad.web.assets`."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, make_response, render_template, url_for
from flask_babel import gettext as _

from ..web.assets import cache_version, precache_urls

bp = Blueprint("pwa", __name__)

THEME = "#0b5d3b"  # card-table green, as the icons
BACKGROUND = "#f6f7f9"


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest (name, start URL, standalone display, colours, icons)."""
    body = {
        "name": _("Barbu Scorepad"),
        "short_name": _("Barbu"),
        "description": _("Score a whole game of Barbu at the table: contracts, doubles and settlement."),
        "start_url": url_for("games.home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": url_for("static", filename="icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the root so its scope is the whole site; never cached
    by the browser (``Cache-Control: no-cache``), so a new version is seen at once."""
    body = render_template(
        "pwa/sw.js", version=cache_version(), precache=precache_urls(), offline=url_for("pwa.offline")
    )
    response = make_response(body)
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline():
    """What the service worker shows for a page it cannot fetch and has not stored."""
    return render_template("pwa/offline.html")


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page says."""
    return current_app.send_static_file("icons/favicon-32.png")
