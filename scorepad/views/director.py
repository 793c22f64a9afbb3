"""The club night's organiser and director pages (issue 14; club-format.md "Club night",
"Director"): creating a night, its seating plan, the printable table cards and the director's
console, at URLs carrying the director token (``/d/<token>``)."""

from __future__ import annotations

from flask import Blueprint, abort

bp = Blueprint("director", __name__, url_prefix="/d")


# Endpoints the API's ``links`` point at (scorepad.views.api_events); their pages are built in this module.
@bp.get("/<token>")
def page(token: str):
    """The director's console of the night whose director token is ``token``."""
    abort(404)


@bp.get("/<token>/cards")
def cards(token: str):
    """The printable table cards (one A4 page, a card per table with its scorer QR code)."""
    abort(404)
