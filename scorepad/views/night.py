"""The club night's public pages (issue 14; club-format.md "Club night"): the event board
(phone and TV layouts, polling with ETags), the printable results and their CSV, at URLs
carrying the night's view token (``/n/<token>``)."""

from __future__ import annotations

from flask import Blueprint, abort

bp = Blueprint("night", __name__, url_prefix="/n")


# Endpoints the API's ``links`` point at (scorepad.views.api_events); their pages are built in this module.
@bp.get("/<token>")
def board(token: str):
    """The event board of the night whose view token is ``token``."""
    abort(404)


@bp.get("/<token>/results")
def results(token: str):
    """The printable one-page results of the night."""
    abort(404)


@bp.get("/<token>/results.csv")
def csv(token: str):
    """The night's results as CSV."""
    abort(404)
