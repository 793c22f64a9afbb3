"""The progressive web app: the manifest and the service worker from the site root, the
offline page, and versioned static URLs (``?v=<content hash>``) so static files can be
cached for a year and still change the moment they do."""

from __future__ import annotations

import gzip
import hashlib
import re
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
from flask import Blueprint, Response, abort, current_app, jsonify, make_response, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.security import safe_join

try:
    import brotli  # installed with Flask-Compress
except ImportError:  # pragma: no cover - PyPy: gzip only
    brotli = None

bp = Blueprint("pwa", __name__)

THEME = "#0b5d3b"  # card-table green, as the icons
BACKGROUND = "#f6f7f9"
HTMX = "vendor/htmx-2.0.11.min.js"
#: Static files the service worker stores when it installs, so pages render offline.
PRECACHE = ("css/app.css", "js/app.js", "js/pwa.js", HTMX,
            "icons/icon-192.png", "icons/favicon-32.png",
            # the game page's own files: a game page reloaded offline still enters rounds
            # and shows the ones waiting to send
            "css/entry.css", "js/entry.js", "css/offline.css", "js/offline.js", "css/board.css", "js/board.js")
#: Static files sent as one (``/static/pack/<name>``, :func:`bundle`): the game page's CSS in
#: one file and its JS in another, so its first load makes two requests rather than seven
#: (each response carries ~350 bytes of headers) and each is compressed as a whole. The
#: scorer's page loads ``game.*``, a read-only game page ``view.*``; the service worker
#: precaches them all. htmx goes in unchanged (``*.min.*`` files are not minified again).
BUNDLES = {
    "game.css": ("css/app.css", "css/entry.css", "css/offline.css"),
    "game.js": (HTMX, "js/app.js", "js/pwa.js", "js/offline.js", "js/entry.js"),
    "view.css": ("css/app.css", "css/entry.css"),
    "view.js": (HTMX, "js/app.js", "js/pwa.js", "js/entry.js"),
}


@lru_cache(maxsize=256)
def _file_hash(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def static_version(filename: str) -> str | None:
    """A short hash of a static file's content (None if it does not exist); a new
    content gives a new URL, so browsers and the service worker never keep a stale copy."""
    path = Path(current_app.static_folder or "") / filename
    try:
        return _file_hash(str(path), path.stat().st_mtime_ns)
    except OSError:
        return None


def bundle_version(name: str) -> str | None:
    """A short hash of a :data:`BUNDLES` entry: its files and their versions (None if the
    bundle is unknown or one of its files is missing)."""
    files = BUNDLES.get(name)
    versions = [static_version(f) for f in files or ()]
    if not files or None in versions:
        return None
    return hashlib.sha256(" ".join(f"{f}:{v}" for f, v in zip(files, versions)).encode()).hexdigest()[:10]


@bp.app_url_defaults
def add_static_version(endpoint: str, values: dict) -> None:
    """``url_for('static', filename=...)`` and ``url_for('pwa.bundle', name=...)`` get
    ``?v=<content hash>``."""
    if "v" in values:
        return
    if endpoint == "static":
        version = static_version(values.get("filename", ""))
    elif endpoint == "pwa.bundle":
        version = bundle_version(values.get("name", ""))
    else:
        return
    if version:
        values["v"] = version


#: Static files sent minified and compressed by :func:`packed` (the rest as they are).
PACKED_TYPES = {"text/css", "text/javascript", "application/javascript", "image/svg+xml", "application/json"}


@lru_cache(maxsize=128)
def packed(path: str, mtime_ns: int, encoding: str) -> bytes:
    """A static text file as sent: CSS and JS minified (rcssmin, rjsmin; ``*.min.*`` files
    are left alone), then compressed once at the strongest level (``br``: Brotli 11,
    ``gzip``: level 9; ``identity``: not compressed). Kept per file version, so each worker
    compresses a file once rather than on every request as Flask-Compress would."""
    data = Path(path).read_bytes()
    if ".min." not in path:
        if path.endswith(".js"):
            data = rjsmin.jsmin(data.decode("utf-8")).encode("utf-8")
        elif path.endswith(".css"):
            data = rcssmin.cssmin(data.decode("utf-8")).encode("utf-8")
    return _compress(data, encoding)


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=11)
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


@lru_cache(maxsize=32)
def packed_bundle(paths: tuple[str, ...], mtimes_ns: tuple[int, ...], encoding: str) -> bytes:
    """Several static files of one kind as sent in one response: each minified as by
    :func:`packed`, joined in order (JS files with ``;`` between them, so one file's last
    statement never runs into the next), then compressed as a whole."""
    parts = [packed(path, mtime, "identity") for path, mtime in zip(paths, mtimes_ns)]
    separator = b";\n" if paths[0].endswith(".js") else b"\n"
    return _compress(separator.join(parts), encoding)


def _client_encoding() -> str:
    accepted = request.accept_encodings
    return "br" if brotli is not None and accepted["br"] else "gzip" if accepted["gzip"] else "identity"


def pack_static(response: Response) -> None:
    """Replace a static text file's body with its :func:`packed` form for this client."""
    path = safe_join(current_app.static_folder or "", (request.view_args or {}).get("filename", ""))
    if path is None or response.mimetype not in PACKED_TYPES or "Content-Encoding" in response.headers:
        return
    encoding = _client_encoding()
    try:
        body = packed(path, Path(path).stat().st_mtime_ns, encoding)
    except (OSError, UnicodeDecodeError):
        return
    response.direct_passthrough = False
    if hasattr(response.response, "close"):  # the file send_file opened: replaced, so close it here
        response.response.close()
    response.set_data(body)
    # The body is re-encoded: byte ranges of the file no longer apply; the version in the
    # URL and the ETag replace the file's date; the file name says nothing to a browser.
    for header in ("Accept-Ranges", "Content-Disposition", "Last-Modified"):
        response.headers.pop(header, None)
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{static_version(request.view_args['filename'])}-{encoding}")


@bp.after_app_request
def cache_versioned_static(response: Response) -> Response:
    """Static files go out minified and compressed (:func:`pack_static`); one asked for with
    its content hash (``?v=``) never changes at that URL: let browsers keep it for a year
    without asking again."""
    if request.endpoint == "static" and response.status_code == 200:
        pack_static(response)
        if request.args.get("v"):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = 31536000
            response.cache_control.immutable = True
    return response


@bp.get("/static/pack/<name>")
def bundle(name: str):
    """The files of a :data:`BUNDLES` entry as one minified, compressed CSS or JS file; with
    its version (``?v=``, :func:`bundle_version`) cached for a year like a static file.
    404 for an unknown name."""
    files = BUNDLES.get(name)
    if files is None:
        abort(404)
    paths = tuple(str(Path(current_app.static_folder or "") / f) for f in files)
    try:
        mtimes = tuple(Path(path).stat().st_mtime_ns for path in paths)
    except OSError:
        abort(404)
    encoding = _client_encoding()
    response = make_response(packed_bundle(paths, mtimes, encoding))
    response.mimetype = "text/css" if name.endswith(".css") else "text/javascript"
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{bundle_version(name)}-{encoding}")
    if request.args.get("v"):
        response.cache_control.public = True
        response.cache_control.max_age = 31536000
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response.make_conditional(request)


def precache_urls() -> list[str]:
    """What the service worker stores when it installs: :data:`PRECACHE` and the bundles."""
    return ([url_for("static", filename=f) for f in PRECACHE]
            + [url_for("pwa.bundle", name=name) for name in BUNDLES])


#: Indentation and trailing spaces of a page's lines: the templates' nesting, never content.
INDENTATION = re.compile(rb"[ \t]*\n[ \t]*")


@bp.after_app_request
def strip_indentation(response: Response) -> Response:
    """An HTML page or fragment goes out with the spaces around its line breaks removed
    (~300 bytes of the game page, compressed): a browser shows a run of whitespace as one
    space either way. Pages with a ``<textarea>`` or ``<pre>``, whose text keeps its spaces,
    go out as rendered, and so do answers without a body (304). Runs before Flask-Compress's compression (registered earlier)."""
    if (response.status_code == 200 and response.mimetype == "text/html" and not response.direct_passthrough and not response.is_streamed
            and "Content-Encoding" not in response.headers):
        body = response.get_data()
        if b"<textarea" not in body and b"<pre" not in body:
            response.set_data(INDENTATION.sub(b"\n", body))
    return response


def cache_version() -> str:
    """The service worker's cache name suffix: changes whenever a precached file changes."""
    return hashlib.sha256("".join(precache_urls()).encode()).hexdigest()[:10]


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
            {"src": url_for("static", filename="icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the root so its scope is the whole site; never cached
    by the browser (``Cache-Control: no-cache``), so a new version is seen at once."""
    body = render_template("pwa/sw.js", version=cache_version(),
                           precache=precache_urls(),
                           offline=url_for("pwa.offline"))
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
