"""Live fragments and their validators: ETags from one cheap query, 304 while nothing changed.

A page that stays open (the game's board, a club night's board, the witness's page, the scorer's
disputed notes) polls a fragment every few seconds. Its ETag names the state it shows (a
fragment version, a token, the stamp of the object's last change from
:mod:`scorepad.services.stamps`, the layout, the language), so a poll costs one indexed lookup
and a ``304 Not Modified`` while nothing changes; a fragment that changed is rendered once per
process (:func:`cached_fragment`). No state is kept in the process that a change could leave
stale, so any server instance can answer.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable

from cachetools import LRUCache
from flask import Response, abort, current_app, request
from flask_babel import force_locale

from ..i18n import select_locale
from ..services import stamps

#: Seconds between two polls of the live fragment.
POLL_SECONDS = 3
#: Bumped when the fragment's markup changes, so browsers drop fragments cached before.
FRAGMENT_VERSION = "4"  # 4: the running totals chart


def live_etag(token: str, layout: str, language: str) -> str | None:
    """The validator of the live fragment of the game with view token ``token`` in
    ``layout`` and ``language``: a hash of the token, the game's ``updated_at``, the layout
    and the language (32 hex digits); None for an unknown token. One single-row lookup on
    the view token's unique index (:func:`scorepad.services.stamps.updated_stamp`); the game is neither loaded nor
    scored. ``updated_at`` changes with every change to the game: each save, edit and undo
    of :mod:`scorepad.services` sets it, and any other update of the game's row sets it too
    (``onupdate``)."""
    if not token or len(token) > 64:
        return None
    stamp = stamps.updated_stamp(token)
    if stamp is None:
        return None
    return stamp_etag(FRAGMENT_VERSION, token, stamp, layout, language)


def stamp_etag(*parts: str) -> str:
    """A live fragment's validator from what names its state (a fragment version, a token,
    the stamp of the object's last change, the layout, the language): a hash of them joined,
    32 hex digits. Shared by the game board and the club night's event board
    (:mod:`scorepad.views.night`), whose fragments share :func:`cached_fragment`'s cache."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


#: Rendered live fragments by ETag, in this process (least recently used out first). The
#: ETag names the game's state, the layout and the language, so an entry never goes stale:
#: a change gives a new ETag. A board that changed is then rendered once per process rather
#: than once per viewer (a table's 25 phones, or 500 boards opening at once).
_FRAGMENTS: LRUCache = LRUCache(maxsize=256)


_FRAGMENTS_LOCK = threading.Lock()


def cached_fragment(etag: str, render: Callable[[], str]) -> str:
    """The live fragment whose ETag is ``etag``: from this process's cache, or ``render()``
    (which may abort, e.g. 404) and cached. For fragments whose ETag names their whole state
    (game boards and club nights' event boards)."""
    with _FRAGMENTS_LOCK:
        html = _FRAGMENTS.get(etag)
    if html is None:
        html = render()
        with _FRAGMENTS_LOCK:
            _FRAGMENTS[etag] = html
    return html


def no_cache(response: Response) -> Response:
    """Let browsers keep the response but revalidate it on every use (ETag → 304)."""
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    return response


#: The ``Cache-Control`` of a board's poll whose URL names its language: any cache (the browser,
#: nginx's microcache in deploy/, a CDN) may keep it for one second, then asks again with its
#: ETag. So a board is at most a second stale, and one poll per board per second reaches the
#: app however many people watch it.
SHARED_POLL = "public, max-age=1, must-revalidate"


def revalidate(etag: str, varies: bool, shared: bool = False) -> tuple[dict[str, str], Response | None]:
    """The headers of an answer validated by ``etag`` and the 304 to answer instead when the
    client's copy has that ETag (None otherwise). The ETag is weak. ``Cache-Control``: an answer
    whose language came from the request (``varies``) is ``private, no-cache`` with ``Vary``
    (only the browser keeps it, and asks again at each use); else :data:`SHARED_POLL` when
    ``shared`` (a public board's poll) and its query is the page's own (:func:`plain_query`), else
    ``private, no-cache`` for a public board's poll, else ``no-cache``."""
    public = shared and not varies and plain_query()
    cache = SHARED_POLL if public else "private, no-cache" if varies or shared else "no-cache"
    headers = {"ETag": f'W/"{etag}"', "Cache-Control": cache}
    if public:
        # nginx counts a cached answer's life in whole seconds: max-age=1 keeps it to the end of the
        # next second (up to 2 s). This (nginx's own header, not passed on) ends it with this second.
        headers["X-Accel-Expires"] = f"@{int(time.time())}"
    if varies:
        headers["Vary"] = "Accept-Language, Cookie"
    if request.if_none_match.contains_weak(etag):
        return headers, Response(status=304, headers=headers)
    return headers, None


def plain_query() -> bool:
    """Whether the request's query string is only ``lang`` and ``layout`` (or ``lang`` alone),
    each once, written as is (no percent-encoding, no ``+``), as the board pages poll. Only such a
    poll's answer may be kept by a shared cache: a cache's key reads the query its own way (nginx's
    ``$arg_lang`` takes the first of ``LANG=fr&lang=en``, where the app reads ``en``; the app decodes
    ``l%61ng``, nginx does not), so another query could store one language's answer under another's key."""
    names = sorted(name for name, _ in request.args.items(multi=True))
    written = "&".join(f"{name}={value}" for name, value in request.args.items(multi=True))
    return names in (["lang"], ["lang", "layout"]) and request.query_string == written.encode()


def live_request(layouts: tuple[str, ...]) -> tuple[str, str, bool]:
    """A live poll's ``layout`` (query ``layout``, the first of ``layouts`` by default) and
    language (query ``lang``, else the request's own), and whether the language came from the
    request (then the answer varies with it); 404 for a layout not in ``layouts`` or an unknown
    language."""
    layout = request.args.get("layout", layouts[0])
    language = request.args.get("lang")
    varies = language is None
    if varies:
        language = select_locale()
    if layout not in layouts or language is None or language not in current_app.config["LANGUAGES"]:
        abort(404)
    return layout, language, varies


def live_answer(
    etag: str | None, varies: bool, language: str, render: Callable[[], str], shared: bool = False
) -> Response:
    """The answer to a live poll whose fragment has the ETag ``etag`` (None: an unknown token,
    404): 304 when the client has it (:func:`revalidate`; ``shared``: a public board's poll), else
    ``render()`` in ``language`` (the fragment's HTML, usually from :func:`cached_fragment`) with
    the ETag's headers."""
    if etag is None:
        abort(404)
    headers, not_modified = revalidate(etag, varies, shared)
    if not_modified is not None:
        return not_modified
    with force_locale(language):
        html = render()
    return Response(html, headers=headers, mimetype="text/html")
