"""JSON API ``/api/v1/events``: club nights (club-format.md "Club night"), authorised by the
night's director token or view token."""

from __future__ import annotations

from flask import Blueprint

from ..extensions import csrf

bp = Blueprint("api_events", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # bearer tokens, not cookies, authorise the API
