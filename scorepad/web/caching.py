"""Who may keep a copy of an answer (``Cache-Control``), in one place.

Pages reached with an edit token (the scorer, its round forms, the share page), pages that
show a device's own things (home, its presets), the API's answers and every error carry
``Cache-Control: private, no-store``: no proxy or CDN in front of the app (a shared cache)
may keep them, and neither may the browser. Only the boards' polls (``public, max-age=1,
must-revalidate`` with an ETag when their URL names the language: a proxy keeps each a
second, :data:`scorepad.web.live.SHARED_POLL`) and public files with no token in them (static
files, which WhiteNoise serves before the app; the service worker, the manifest, the
favicon, the offline page) may be kept by a shared cache. An answer that sets its own
``Cache-Control`` (the board page, the QR code, downloads) keeps it, marked ``private``.
"""

from __future__ import annotations

from flask import Flask, Response, request

#: Endpoints whose answers a shared cache may keep: they hold no token and no device's data.
SHARED = frozenset(
    {"board.live", "night.live", "static", "pwa.service_worker", "pwa.manifest", "pwa.favicon", "pwa.offline"}
)
#: What every other answer without a ``Cache-Control`` of its own gets.
PRIVATE = "private, no-store"


def mark_private(response: Response) -> Response:
    """``private, no-store`` on an answer without ``Cache-Control``, ``private`` added to
    one with its own, unless its endpoint is in :data:`SHARED` and it is no error."""
    if request.endpoint in SHARED and response.status_code < 400:
        return response  # (an error, e.g. the poll of a board that is gone, is private as any)
    if "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = PRIVATE
    elif not response.cache_control.private:
        response.cache_control.public = False
        response.cache_control.private = True
    return response


def init_app(app: Flask) -> None:
    """Mark ``app``'s answers as :func:`mark_private` says."""
    app.after_request(mark_private)
