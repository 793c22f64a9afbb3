"""The club night's public pages (club-format.md "Club night"): the event board
(phone and TV layouts, polling with ETags), the printable results and their CSV and JSON, at URLs
carrying the night's view token (``/n/<token>``).

The event board polls its live fragment as a game's board does (:mod:`scorepad.views.board`,
whose pieces it uses): the ETag is built from :func:`scorepad.services.nights.night_stamp`, one indexed
query giving the night's and its tables' last change, plus the layout and the language, so a room
of phones and a TV cost one lookup each and a ``304`` while nothing changed at any table.
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, make_response, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from ..models import StoredEvent
from ..pages.night import night_date, night_page, results_csv, results_page
from ..render.qr import qr_svg
from ..services import nights
from ..services.night_state import NightState, night_state
from ..web.downloads import send_download
from ..web.live import POLL_SECONDS, cached_fragment, live_answer, live_request, no_cache, stamp_etag
from ..web.night_export import night_export

bp = Blueprint("night", __name__, url_prefix="/n")

#: Bumped when the event board's fragment changes, so browsers drop fragments cached before.
FRAGMENT_VERSION = "night-1"
LAYOUTS = ("board", "screen")


def night_of_view_token(token: str) -> StoredEvent:
    """The night whose view token is ``token``; 404, revealing nothing, for any other token
    (the director's too: these URLs end up on screens and in QR codes)."""
    found = nights.find_night(token)
    if found is None or found[1] != nights.NightRole.VIEW:
        abort(404)
    return found[0]


def night_to_view(token: str) -> NightState:
    """The state of the night whose view token is ``token``, as its view role sees it (no edit
    or director token in it); 404 as :func:`night_of_view_token`."""
    return night_state(night_of_view_token(token), nights.NightRole.VIEW)


def night_etag(token: str, layout: str, language: str) -> str | None:
    """The validator of the event board's live fragment for the night of view token ``token``
    in ``layout`` and ``language`` (32 hex digits), None for an unknown token: one indexed
    query (:func:`scorepad.services.nights.night_stamp`: the night's ``updated_at`` and the latest of its
    tables' games), nothing loaded or scored. Any save, edit or undo at any table, an
    adjustment, closing and reopening change it."""
    if not token or len(token) > 64:
        return None
    stamp = nights.night_stamp(token)
    if stamp is None:
        return None
    return stamp_etag(FRAGMENT_VERSION, token, stamp, layout, language)


def night_context(state: NightState, token: str, layout: str, etag: str | None) -> dict:
    """The event board's template variables: :func:`scorepad.pages.night.night_page` with the
    view token, the poll interval, the fragment's ETag and language."""
    page = night_page(state, layout)
    page.update({"token": token, "poll_seconds": POLL_SECONDS, "etag": etag, "language": str(get_locale())})
    return page


def _page(token: str, layout: str):
    found = nights.find_night(token)
    if found is not None and found[1] == nights.NightRole.DIRECTOR:
        # The director's token works too, but the board's address is shown on a TV and in a QR
        # code: move to the view token, which the director's token derives.
        endpoint = "night.screen" if layout == "screen" else "night.board"
        return redirect(url_for(endpoint, token=found[0].view_token), 303)
    state = night_to_view(token)
    context = night_context(state, token, layout, night_etag(token, layout, str(get_locale())))
    return no_cache(make_response(render_template("night/page.html", **context)))


@bp.get("/<token>")
def board(token: str):
    """The event board (phone layout): leaderboard and tables' progress, updating itself."""
    return _page(token, "board")


@bp.get("/<token>/screen")
def screen(token: str):
    """The event board for a TV (1920×1080, never scrolled)."""
    return _page(token, "screen")


@bp.get("/<token>/live")
def live(token: str):
    """The live part of the event board, polled by htmx: 304 while nothing changed at any table;
    any cache may keep it for a second when its URL names its language (as
    :func:`scorepad.views.board.live`)."""
    layout, language, varies = live_request(LAYOUTS)
    etag = night_etag(token, layout, language)

    def render() -> str:
        state = night_to_view(token)
        return render_template("night/_live.html", **night_context(state, token, layout, etag))

    return live_answer(etag, varies, language, lambda: cached_fragment(etag or "", render), shared=True)


@bp.get("/<token>/qr.svg")
def qr(token: str):
    """An SVG QR code of the event board's absolute URL (view token only)."""
    night_of_view_token(token)
    response = make_response(qr_svg(url_for("night.board", token=token, _external=True)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/<token>/results")
def results(token: str):
    """The printable one-page results of the night: leaderboard with each player's games,
    adjustments and their reasons, every table's standings."""
    state = night_to_view(token)
    return render_template("night/results.html", token=token, **results_page(state))


def download_name(state: NightState, suffix: str) -> str:
    """A download's file name: the night's date and title (made safe by send_download)."""
    return f"{night_date(state).isoformat()} {state.spec.title or _('Club night')}.{suffix}"


@bp.get("/<token>/results.csv")
def csv(token: str):
    """The night's results as CSV (:func:`scorepad.pages.night.results_csv`)."""
    state = night_to_view(token)
    return send_download(results_csv(state).encode("utf-8-sig"), "text/csv", download_name(state, "csv"))


@bp.get("/<token>/night.json")
def export(token: str):
    """The night as JSON, as the API gives it to the view token (no edit or director token)."""
    state = night_to_view(token)
    body = json.dumps(night_export(state), ensure_ascii=False, indent=2).encode()
    return send_download(body, "application/json", download_name(state, "json"))
