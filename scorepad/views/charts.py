"""A game's running totals as a chart: ``/b/<view token>/chart.svg`` (the board),
``/g/<token>/chart.svg`` (the scorer page, edit or view token) and the printable page
``/b/<view token>/chart`` (the chart large, with the same numbers in a table).

The SVG (:func:`scorepad.render.charts.running_totals_svg`) is cached as the board's live fragment
and the result card are: an ETag from the game's ``updated_at`` and the language
(:func:`scorepad.web.live.live_etag` for the view token: one indexed lookup, the game is
neither loaded nor scored), ``Cache-Control: no-cache``, so a chart asked for again while the game
has not changed is a 304; a chart drawn once is kept in this process by its ETag. The pages put
:func:`chart_src` in the image's address, a digest of what the chart shows, so that the board's
live part, swapped when the game changes, asks for a new chart only when the totals changed.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from cachetools import LRUCache
from flask import Blueprint, Response, abort, render_template, url_for
from flask_babel import force_locale
from flask_babel import gettext as _

from ..i18n import asked_language
from ..models import StoredGame
from ..render.charts import running_totals_svg
from ..scoring.game import RoundResult, score
from ..security import image_policy
from ..web.live import live_etag, revalidate, stamp_etag
from ..web.loaders import any_game, game_to_view

bp = Blueprint("charts", __name__)

#: Bumped when the chart's drawing changes, so browsers drop charts cached before.
CHART_VERSION = "chart1"
#: Drawn charts by ETag (about 15 KB each, 3 KB compressed), least recently used out first.
_CHARTS: LRUCache = LRUCache(maxsize=128)
_CHARTS_LOCK = threading.Lock()


def running_svg(stored: StoredGame) -> bytes:
    """The running-totals chart of ``stored`` (in the current language): a line per player over
    the rounds recorded, titled with the game's title or "Running totals"."""
    game = stored.to_game()
    running = [result.running for result in score(game).rounds]
    return running_totals_svg(game.players, running, title=game.title or _("Running totals"))


def chart_answer(etag: str, varies: bool, language: str, stored: Any) -> Response:
    """The chart answer for ``etag``: 304 when the client has it, else the SVG (from this
    process's cache, or drawn in ``language`` from ``stored()``, the game, and cached)."""
    headers, not_modified = revalidate(etag, varies)
    if not_modified is not None:
        return not_modified
    with _CHARTS_LOCK:
        svg = _CHARTS.get(etag)
    if svg is None:
        with force_locale(language):
            svg = running_svg(stored())
        with _CHARTS_LOCK:
            _CHARTS[etag] = svg
    return Response(svg, headers=headers, mimetype="image/svg+xml")


@bp.get("/b/<token>/chart.svg")
@image_policy
def board_svg(token: str):
    """The running totals of the game with view token ``token`` (SVG, 400 × 300, it scales): a
    line per player over the rounds; 304 while the game and the language are as the client's
    copy. 404 for any other token."""
    language, varies = asked_language()
    etag = live_etag(token, CHART_VERSION, language)
    if etag is None:
        abort(404)
    return chart_answer(etag, varies, language, lambda: game_to_view(token))


@bp.get("/g/<token>/chart.svg")
@image_policy
def scorer_svg(token: str):
    """The same chart for the scorer page: the game of an edit or view token; 304 while the
    game and the language are as the client's copy. 404 for an unknown token."""
    language, varies = asked_language()
    stored = any_game(token)[0]
    etag = stamp_etag(CHART_VERSION, stored.view_token or "", str(stored.updated_at), "g", language)
    return chart_answer(etag, varies, language, lambda: stored)


@bp.get("/b/<token>/chart")
def page(token: str):
    """The printable chart page: the running totals chart large, and a table of the same numbers
    (round by round) for screen readers and for reading off exact values; one printed page."""
    stored = game_to_view(token)
    game = stored.to_game()
    rounds = score(game).rounds
    return render_template("charts/page.html", stored=stored, game=game, rounds=rounds, token=token)


@bp.app_template_global()
def chart_src(endpoint: str, token: str, players: Sequence[str], results: Iterable[RoundResult], language: str) -> str:
    """The address of a game's chart image (``endpoint``: ``charts.board_svg`` or
    ``charts.scorer_svg``) in ``language``, with ``v``, a digest of the players and the rounds'
    running totals (``results``: the engine's round results): what the chart shows. A page swapped
    with the same totals keeps the same address, so the browser keeps its image; changed totals
    give a new one."""
    shown = "|".join(players) + "|" + ";".join(",".join(map(str, res.running)) for res in results)
    digest = hashlib.sha256(shown.encode()).hexdigest()[:12]
    return url_for(endpoint, token=token, lang=language, v=digest)
