"""The result card: ``/b/<view token>/card.png``, a PNG of the game's standings
(:mod:`scorepad.render.card_image`) that the Share button sends with the result and the API
links as ``links.card``.

It is cached as the live board is: an ETag built from the game's ``updated_at`` and the
language (:func:`scorepad.web.live.live_etag`, one indexed lookup), ``Cache-Control:
no-cache``, so a card asked for again while the game has not changed is a 304; a card drawn
once is kept in this process by its ETag (the 100 ms or so of drawing is done once per state
and language, not once per phone).
"""

from __future__ import annotations

import threading

from cachetools import LRUCache
from flask import Blueprint, Response, abort, redirect, url_for
from flask_babel import force_locale

from ..i18n import asked_language
from ..pages.card import result_card
from ..render.card_image import render_card
from ..web.live import live_etag, revalidate
from ..web.loaders import any_game, game_to_view

bp = Blueprint("card", __name__, url_prefix="/b")

#: Bumped when the card's drawing changes, so browsers drop cards cached before.
CARD_VERSION = "card1"
#: Drawn cards by ETag (about 40 KB each), least recently used out first.
_CARDS: LRUCache = LRUCache(maxsize=64)
_CARDS_LOCK = threading.Lock()


def card_png(token: str, etag: str) -> bytes:
    """The PNG of the game with view token ``token`` whose card ETag is ``etag``: from the
    cache, or drawn (in the request's language) and cached. 404 for an unknown token."""
    with _CARDS_LOCK:
        png = _CARDS.get(etag)
    if png is None:
        png = render_card(result_card(game_to_view(token).to_game()))
        with _CARDS_LOCK:
            _CARDS[etag] = png
    return png


@bp.get("/<token>/card.png")
def image(token: str):
    """The result card (PNG, 1200 × 630): title, date, preset and the players in standings
    order with their points, in the language ``lang`` (else the request's, as any page). The
    scorer's edit token is moved to the view token's address (303), which is the one shared.
    304 while the game and the language are as the client's copy (``If-None-Match``)."""
    language, varies = asked_language()
    etag = live_etag(token, CARD_VERSION, language)
    if etag is None:
        stored, can_edit = any_game(token)  # 404 for an unknown token
        if can_edit:
            url = url_for("card.image", token=stored.view_token, lang=None if varies else language)
            return redirect(url, 303)
        abort(404)
    headers, not_modified = revalidate(etag, varies)
    if not_modified is not None:
        return not_modified
    with force_locale(language):
        png = card_png(token, etag)
    return Response(png, headers=headers, mimetype="image/png")
