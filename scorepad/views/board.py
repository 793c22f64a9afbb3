"""The live scoreboard: a read-only page at a URL carrying the game's view token, for the
other players' phones, a screen in the room or friends at home.

The page polls its live fragment every few seconds (htmx). The fragment carries an ETag
computed from one cheap query (the game's ``updated_at``, which :mod:`scorepad.services`
changes on every save, edit, undo, confirmation and dispute) plus the language, so a
room full of phones costs one indexed lookup each and a ``304 Not Modified`` while nothing
changes; no state is kept in the process, so any server instance can answer.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, make_response, redirect, render_template, url_for
from flask_babel import get_locale

from ..models import StoredGame
from ..pages.board import board_page
from ..render.qr import qr_svg
from ..web.live import POLL_SECONDS, cached_fragment, live_answer, live_etag, live_request, no_cache
from ..web.loaders import any_game, game_to_read, game_to_view
from ..web.trust import trust_of

bp = Blueprint("board", __name__, url_prefix="/b")

LAYOUTS = ("board", "screen")


def board_url(stored: StoredGame) -> str:
    """The absolute URL of the game's live scoreboard (the link the QR code carries)."""
    return url_for("board.show", token=stored.view_token, _external=True)


def live_fragment(token: str, layout: str, etag: str) -> str:
    """The live fragment's HTML for the game of view token ``token`` whose ETag is ``etag``
    (from :func:`live_etag`): from the cache, or rendered and cached. 404 for an unknown
    token. The game may have changed since ``etag`` was computed; the fragment then shows
    the newer state, never an older one."""
    return cached_fragment(
        etag, lambda: render_template("board/_live.html", **board_context(game_to_view(token), layout, etag))
    )


def board_context(stored: StoredGame, layout: str, etag: str | None) -> dict[str, Any]:
    """The board's template variables: :func:`scorepad.pages.board.board_page` for the stored
    game, with the rounds' marks (``trust``: :func:`scorepad.pages.history.trust_of`), its view
    token, the poll interval, the fragment's ETag and language."""
    page = board_page(stored.to_game(), layout)
    page.update(
        {
            "stored": stored,
            "trust": trust_of(stored),
            "token": stored.view_token,
            "poll_seconds": POLL_SECONDS,
            "etag": etag,
            "language": str(get_locale()),
        }
    )
    return page


def _page(token: str, layout: str):
    stored, can_edit = any_game(token)
    if can_edit:
        # The scorer's own link works too, but the board's address must never show the
        # edit token (it ends up on screens and in QR codes): move to the view token.
        endpoint = "board.screen" if layout == "screen" else "board.show"
        return redirect(url_for(endpoint, token=stored.view_token), 303)
    context = board_context(stored, layout, live_etag(token, layout, str(get_locale())))
    response = make_response(render_template("board/page.html", **context))
    return no_cache(response)


@bp.get("/<token>")
def show(token: str):
    """The live scoreboard (phone layout): read-only, updates itself."""
    return _page(token, "board")


@bp.get("/<token>/screen")
def screen(token: str):
    """The same scoreboard for a TV or projector: large type, standings first."""
    return _page(token, "screen")


@bp.get("/<token>/live")
def live(token: str):
    """The live part of the board, polled by htmx: 304 while nothing changed.

    The board page asks for it in the page's own language (``lang``), so a poll reads
    neither the session cookie nor Accept-Language: its answer depends on its URL alone, and
    any cache may keep it for a second (:data:`SHARED_POLL`). Without ``lang`` (a link from
    elsewhere), the request's language is used, as on any page, and only the browser keeps
    the answer. An unknown layout or language is 404."""
    layout, language, varies = live_request(LAYOUTS)
    etag = live_etag(token, layout, language)
    return live_answer(etag, varies, language, lambda: live_fragment(token, layout, etag or ""), shared=True)


@bp.get("/<token>/qr.svg")
def qr(token: str):
    """An SVG QR code of the board's absolute URL (edit or view token; it always shows
    the view token's board)."""
    response = make_response(qr_svg(board_url(game_to_read(token))))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/share/<token>")
def share(token: str):
    """The scorer's share page: the board's QR code large enough to scan across a table,
    the link as text and a copy button (edit token only; it shows no edit link)."""
    stored, can_edit = any_game(token)
    if not can_edit:
        return redirect(url_for("board.show", token=stored.view_token), 303)
    game = stored.to_game()
    return render_template("board/share.html", stored=stored, game=game, board_link=board_url(stored))
