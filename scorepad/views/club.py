"""The club's pages (issue 16): a placeholder of the endpoints the API links to, until the
pages land (the PAGES helper replaces this file)."""

from __future__ import annotations

from flask import Blueprint, abort

bp = Blueprint("club", __name__)


@bp.get("/k/<token>")
def page(token: str):
    """The club's page (admin or view token)."""
    abort(404)


@bp.get("/k/<token>/m/<member_id>")
def member_page(token: str, member_id: str):
    """A member's page."""
    abort(404)


@bp.get("/k/<token>/ladder")
def ladder_page(token: str):
    """The season ladder, printable."""
    abort(404)
