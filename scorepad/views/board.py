"""The live scoreboard: a read-only page at a URL carrying the game's view token, for the
other players' phones, a screen in the room or friends at home.

The page polls its live fragment every few seconds (htmx). The fragment carries an ETag
computed from one cheap query (the game's ``updated_at`` and round count, which
:mod:`scorepad.services` changes on every save, edit and undo) plus the language, so a
room full of phones costs one indexed lookup each and a ``304 Not Modified`` while nothing
changes; no state is kept in the process, so any server instance can answer.
"""

from __future__ import annotations

import hashlib
import io
from typing import Any

import segno
from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from sqlalchemy import func, select

from .. import services
from ..extensions import db
from ..models import StoredGame, StoredRound
from ..scoring import score
from ..scoring.contracts import SEATS

bp = Blueprint("board", __name__, url_prefix="/b")

#: Seconds between two polls of the live fragment.
POLL_SECONDS = 3
#: Bumped when the fragment's markup changes, so browsers drop fragments cached before.
FRAGMENT_VERSION = "1"
LAYOUTS = ("board", "screen")
#: The big screen shows the latest rounds only (with the totals), so it needs no scrolling.
SCREEN_ROUNDS = 8


def board_url(stored: StoredGame) -> str:
    """The absolute URL of the game's live scoreboard (the link the QR code carries)."""
    return url_for("board.show", token=stored.view_token, _external=True)


def qr_svg(url: str) -> bytes:
    """An SVG document of the QR code of ``url`` (error correction M, black on white, a
    4-module quiet zone, 4 px a module as its intrinsic size; it scales without loss)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False,
              title="QR code", unit=None)
    return out.getvalue()


def load_view(token: str) -> StoredGame:
    """The game of a view token; 404 (revealing nothing) for any other token."""
    if not token or len(token) > 64:
        abort(404)
    stored = db.session.scalar(select(StoredGame).where(StoredGame.view_token == token))
    if stored is None:
        abort(404)
    return stored


def live_etag(token: str, layout: str) -> str | None:
    """The validator of the live fragment of the game with view token ``token``: a hash of
    its ``updated_at``, its round count, the layout and the language; None for an unknown
    token. One indexed query; the game is neither loaded nor scored."""
    if not token or len(token) > 64:
        return None
    row = db.session.execute(
        select(StoredGame.id, StoredGame.updated_at, func.count(StoredRound.id))
        .outerjoin(StoredRound, StoredRound.game_id == StoredGame.id)
        .where(StoredGame.view_token == token)
        .group_by(StoredGame.id, StoredGame.updated_at)
    ).first()
    if row is None:
        return None
    game_id, updated_at, rounds = row
    stamp = updated_at.isoformat() if updated_at is not None else ""
    key = f"{FRAGMENT_VERSION}|{game_id}|{stamp}|{rounds}|{layout}|{get_locale()}"
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def board_context(stored: StoredGame, layout: str, etag: str | None) -> dict[str, Any]:
    """What the board shows, from the engine's scores: the table, standings with ranks,
    the next round and the quota counters against its declarer."""
    game = stored.to_game()
    scores = score(game)
    standings = scores.standings
    upcoming = standings.next
    declared = []
    if upcoming is not None:
        declared = [c for c in game.preset.contract_ids if c not in upcoming.contracts_left]
    last = scores.rounds[-1] if scores.rounds else None
    rows = list(zip(game.rounds, scores.rounds))
    return {
        "stored": stored, "game": game, "players": game.players, "preset": game.preset,
        "scores": scores, "standings": standings, "upcoming": upcoming, "declared": declared,
        "rows": rows[-SCREEN_ROUNDS:] if layout == "screen" else rows, "last": last, "layout": layout,
        "ranking": sorted(range(SEATS), key=lambda p: (standings.rank[p], p)),
        "token": stored.view_token, "poll_seconds": POLL_SECONDS, "etag": etag,
    }


def no_cache(response: Response) -> Response:
    """Let browsers keep the response but revalidate it on every use (ETag → 304)."""
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    return response


def _page(token: str, layout: str):
    found = services.find_by_token(token)
    if found is None:
        abort(404)
    stored, can_edit = found
    if can_edit:
        # The scorer's own link works too, but the board's address must never show the
        # edit token (it ends up on screens and in QR codes): move to the view token.
        endpoint = "board.screen" if layout == "screen" else "board.show"
        return redirect(url_for(endpoint, token=stored.view_token), 303)
    context = board_context(stored, layout, live_etag(stored.view_token, layout))
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
    """The live part of the board, polled by htmx: 304 while nothing changed."""
    layout = request.args.get("layout", "board")
    if layout not in LAYOUTS:
        abort(404)
    etag = live_etag(token, layout)
    if etag is None:
        abort(404)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return no_cache(response)
    stored = load_view(token)
    response = make_response(render_template("board/_live.html", **board_context(stored, layout, etag)))
    response.set_etag(etag, weak=True)
    return no_cache(response)


@bp.get("/<token>/qr.svg")
def qr(token: str):
    """An SVG QR code of the board's absolute URL (edit or view token; it always shows
    the view token's board)."""
    found = services.find_by_token(token)
    if found is None:
        abort(404)
    response = make_response(qr_svg(board_url(found[0])))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/share/<token>")
def share(token: str):
    """The scorer's share page: the board's QR code large enough to scan across a table,
    the link as text and a copy button (edit token only; it shows no edit link)."""
    found = services.find_by_token(token)
    if found is None:
        abort(404)
    stored, can_edit = found
    if not can_edit:
        return redirect(url_for("board.show", token=stored.view_token), 303)
    game = stored.to_game()
    return render_template("board/share.html", stored=stored, game=game, board_link=board_url(stored))
