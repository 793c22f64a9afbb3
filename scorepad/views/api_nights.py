"""JSON API ``/api/v1/events``: club nights (club-format.md "Club night"), authorised by the
night's director token or view token (``Authorization: Bearer <token>``):

- ``POST /events`` (no token) → 201 with the night as its director sees it, tokens included;
- ``GET /events/<id>`` (director or view token) → 200, the night (:func:`scorepad.services.nights.night_export`);
- ``POST /events/<id>/adjustments`` ``{"player", "points", "reason"}`` (director) → 201;
- ``DELETE /events/<id>/adjustments/<aid>`` (director) → 204, the adjustment removed;
- ``POST /events/<id>/close``, ``…/reopen`` (director) → 200 with the night.

Errors, as for games: no token 401; a token of another night (or an unknown id) 404; the view
token on a write 403; bad input 422 ``{"error", "path"}`` with nothing stored; a write on a
closed night 409 ``the night is closed``."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from ..extensions import csrf
from ..models import StoredEvent
from ..services import nights
from ..services.night_state import night_state
from ..services.nights import NightRole
from ..web.device import creator
from ..web.errors import error_response, json_errors
from ..web.json_input import request_json
from ..web.limits import EVENT_STARTS, limit
from ..web.loaders import bearer_token, club_of_request
from ..web.night_export import night_export

bp = Blueprint("api_nights", __name__, url_prefix="/api/v1")
#: The fields of an adjustment's body; any other is refused (422 at its name).
ADJUSTMENT_FIELDS = ("player", "points", "reason")
#: The API's answer for another field (in English, as its other bad-body answers).
UNKNOWN_ADJUSTMENT_FIELD = "unknown field of an adjustment"
csrf.exempt(bp)  # bearer tokens, not cookies, authorise the API
json_errors(bp)


def api_event(event_id: int, write: bool) -> tuple[StoredEvent, str]:
    """The night and the reader's role if the bearer token is its director or view token:
    401 without a token, 404 for an unknown night or another night's token, 403 for the
    view token on a write (``write``)."""
    found = nights.authorize_night(event_id, bearer_token("the night's director or view token"))
    if found is None:
        abort(error_response(404, "no club night with this id and token"))
    stored, role = found
    if write and role != NightRole.DIRECTOR:
        abort(error_response(403, "this is the night's view token; changing the night needs its director token"))
    return stored, role


def answer(stored: StoredEvent, role: str, status: int = 200) -> Response:
    """The night as ``role`` sees it, with ``status``; 201s carry its API URL in ``Location``."""
    doc = night_export(night_state(stored, role))
    response = jsonify(doc)
    response.status_code = status
    if status == 201:
        response.headers["Location"] = doc["links"]["api"]
    return response


@bp.post("/events")
@limit(EVENT_STARTS)
def create_night():
    """Create a club night from a night document (club-format.md "Club night") → 201 with its
    id, director and view tokens (shown this once), links and every session's tables (each
    with its game id, edit and confirm tokens and scorer link); 422 ``{"error", "path"}`` for
    bad input (nothing stored). Counts against :data:`~scorepad.web.limits.EVENT_STARTS`."""
    stored = nights.create_night(request_json(), **creator(), club=club_of_request())
    return answer(stored, NightRole.DIRECTOR, 201)


@bp.get("/events/<int:event_id>")
def event(event_id: int):
    """The night (director or view token): sessions and tables with progress, the
    leaderboard, adjustments, ``closed``. The view token's answer has no edit, confirm or
    director token and no link that carries one."""
    stored, role = api_event(event_id, write=False)
    return answer(stored, role)


@bp.post("/events/<int:event_id>/adjustments")
def add_adjustment(event_id: int):
    """Add a director's adjustment ``{"player": index, "points": n, "reason": "…"}`` → 201
    with it (``id``, ``player``, ``name``, ``points``, ``reason``); it is listed in the
    night's ``adjustments`` and counts in the player's ``total``. 422 at ``player``,
    ``points`` or ``reason``; 409 when the night is closed."""
    stored, _role = api_event(event_id, write=True)
    doc = request_json()
    if not isinstance(doc, dict):
        return error_response(422, "an adjustment must be a JSON object", path="")
    unknown = next((key for key in doc if key not in ADJUSTMENT_FIELDS), None)
    if unknown is not None:  # as a game's or a round's document: a misspelt field is refused, not dropped
        return error_response(422, UNKNOWN_ADJUSTMENT_FIELD, path=unknown)
    row = nights.add_adjustment(stored, doc.get("player"), doc.get("points"), doc.get("reason"))
    response = jsonify(
        id=row.id, player=row.player, name=stored.players[row.player], points=row.points, reason=row.reason
    )
    response.status_code = 201
    return response


@bp.delete("/events/<int:event_id>/adjustments/<int:adjustment_id>")
def remove_adjustment(event_id: int, adjustment_id: int):
    """Remove a director's adjustment (its ``id`` from the night's ``adjustments``) → 204: it
    no longer counts in the player's ``total`` nor shows on the results. 404 for an id that is
    not one of this night's adjustments (removed already, or another night's); 409 ``the night
    is closed``."""
    stored, _role = api_event(event_id, write=True)
    nights.remove_adjustment(stored, adjustment_id)
    return Response(status=204)


@bp.post("/events/<int:event_id>/close")
def close(event_id: int):
    """Close the night (director): every table read-only, round writes and adjustments answer
    409 ``the night is closed``; idempotent → 200 with the night (``"closed": true``). With
    ``confirmation: required``, 409 ``rounds are not confirmed: …`` naming the tables and rounds
    while any is not confirmed (nothing closed)."""
    stored, role = api_event(event_id, write=True)
    nights.close_night(stored)
    return answer(stored, role)


@bp.post("/events/<int:event_id>/reopen")
def reopen(event_id: int):
    """Reopen a closed night (director); idempotent → 200 with the night (``"closed": false``)."""
    stored, role = api_event(event_id, write=True)
    nights.reopen_night(stored)
    return answer(stored, role)
