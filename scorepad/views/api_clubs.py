"""JSON API ``/api/v1/clubs`` (club-format.md "Club, members, statistics, ladder, rating"),
authorised by the club's admin token or view token (``Authorization: Bearer <token>``):

- ``POST /clubs`` ``{"name", "ladder"?}`` (no token) → 201 with the club, both tokens (shown this once) and links;
- ``GET /clubs/<id>`` (admin or view) → the club, its ladder settings and members;
- ``PATCH /clubs/<id>`` ``{"name"?, "ladder"?}`` (admin) → 200 the club;
- ``POST /clubs/<id>/members`` ``{"name"}`` (admin) → 201 ``{"id", "name"}``;
- ``PATCH /clubs/<id>/members/<member id>`` ``{"name"}`` (admin) → 200 ``{"id", "name"}``;
- ``POST /clubs/<id>/members/<member id>/merge`` ``{"into": "<member id>"}`` (admin) → 200 the statistics of ``into``;
- ``GET /clubs/<id>/members/<member id>`` (admin or view) → the member's statistics;
- ``GET /clubs/<id>/ladder`` (admin or view) → the season ladder.

Errors, as for games: no token 401; a token of another club (or an unknown id) 404; the view
token on a write 403; bad input 422 ``{"error", "path"}`` with nothing stored. A game or a night
joins a club with ``club``/``members`` in its document and the club's admin token as
``X-Club-Token`` (``POST /games``, ``POST /events``): without it, 403."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, url_for

from ..extensions import csrf
from ..models import StoredClub, StoredMember
from ..pages.club import score_value
from ..scoring.club import LadderEntry, ladder_to_dict
from ..services import club_stats, clubs
from ..services.clubs import ADMIN
from ..web.errors import error_response, json_errors
from ..web.json_input import request_json
from ..web.limits import EVENT_STARTS, limit
from ..web.loaders import bearer_token

bp = Blueprint("api_clubs", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # bearer tokens, not cookies, authorise the API
json_errors(bp)


def api_club(public_id: str, write: bool) -> StoredClub:
    """The club if the bearer token is its admin or view token: 401 without a token, 404 for an
    unknown club or another club's token, 403 for the view token on a write (``write``)."""
    found = clubs.authorize_club(public_id, bearer_token("the club's admin or view token"))
    if found is None:
        abort(error_response(404, "no club with this id and token"))
    club, role = found
    if write and role != ADMIN:
        abort(error_response(403, "this is the club's view token; changing the club needs its admin token"))
    return club


def api_member(club: StoredClub, member_id: str) -> StoredMember:
    """The club's member ``member_id`` (a merged one reads as the member it was merged into); 404 otherwise."""
    member = clubs.find_member(club, member_id)
    if member is None:
        abort(error_response(404, "no member of this club with this id"))
    return member


def club_links(club: StoredClub) -> dict[str, str]:
    """The club's page and ladder (behind its view token, which the admin holds too), and its API URL."""
    token = club.view_token or ""
    return {
        "api": url_for("api_clubs.club", public_id=club.public_id, _external=True),
        "page": url_for("club.page", token=token, _external=True),
        "ladder": url_for("club.ladder_page", token=token, _external=True),
    }


def club_export(club: StoredClub) -> dict[str, Any]:
    """The club as ``GET /clubs/<id>`` gives it: id, name, ladder settings, members (each with
    ``games`` played and its ``links.api``) and links."""
    return {
        "id": club.public_id,
        "name": club.name,
        "ladder": ladder_to_dict(clubs.ladder_rules(club)),
        "members": [
            {"id": row.member.public_id, "name": row.member.name, "games": row.games}
            for row in club_stats.club_overview(club)
        ],
        "links": club_links(club),
    }


@bp.post("/clubs")
@limit(EVENT_STARTS)
def create_club():
    """Create a club → 201 ``{"id", "name", "ladder", "admin_token", "view_token", "links"}``;
    422 for bad input. A club counts as a club night against :data:`~scorepad.web.limits.EVENT_STARTS`."""
    club = clubs.create_club(request_json())
    doc = {**club_export(club), "admin_token": club.admin_token, "view_token": club.view_token}
    response = jsonify(doc)
    response.status_code = 201
    response.headers["Location"] = doc["links"]["api"]
    return response


@bp.get("/clubs/<public_id>")
def club(public_id: str):
    """The club (admin or view token)."""
    return jsonify(club_export(api_club(public_id, write=False)))


@bp.patch("/clubs/<public_id>")
def update_club(public_id: str):
    """Rename the club or change its ladder settings (admin token) → 200 the club."""
    club = api_club(public_id, write=True)
    clubs.update_club(club, request_json())
    return jsonify(club_export(club))


def _member_body(fields: tuple[str, ...]) -> dict[str, Any]:
    doc = request_json()
    if not isinstance(doc, dict):
        abort(error_response(422, "the body must be a JSON object", path=""))
    for key in doc:
        if key not in fields:
            abort(error_response(422, "unknown field of a member", path=key))
    return doc


@bp.post("/clubs/<public_id>/members")
def add_member(public_id: str):
    """Add a member ``{"name"}`` (admin token) → 201 ``{"id", "name"}``; 422 for a bad or taken name."""
    club = api_club(public_id, write=True)
    member = clubs.add_member(club, _member_body(("name",)).get("name"))
    response = jsonify({"id": member.public_id, "name": member.name})
    response.status_code = 201
    response.headers["Location"] = url_for(
        "api_clubs.member", public_id=club.public_id, member_id=member.public_id, _external=True
    )
    return response


@bp.patch("/clubs/<public_id>/members/<member_id>")
def rename_member(public_id: str, member_id: str):
    """Rename a member ``{"name"}`` (admin token) → 200 ``{"id", "name"}``."""
    club = api_club(public_id, write=True)
    member = api_member(club, member_id)
    clubs.rename_member(club, member, _member_body(("name",)).get("name"))
    return jsonify({"id": member.public_id, "name": member.name})


@bp.post("/clubs/<public_id>/members/<member_id>/merge")
def merge_member(public_id: str, member_id: str):
    """Merge a duplicate member into another ``{"into": "<member id>"}`` (admin token): both
    histories count for ``into`` → 200 its statistics; 409 when they sat at one game; 422 for
    an ``into`` that is no member of the club."""
    club = api_club(public_id, write=True)
    source = api_member(club, member_id)
    into = _member_body(("into",)).get("into")
    target = clubs.find_member(club, into) if isinstance(into, str) else None
    if target is None:
        return error_response(422, "no member of this club has this id", path="into")
    clubs.merge_members(club, source, target)
    return jsonify(member_export(club, target))


def member_export(club: StoredClub, member: StoredMember) -> dict[str, Any]:
    """A member's statistics as club-format.md "A member's statistics" gives them, with
    ``nemesis`` and ``favourite_victim`` (``{"member", "name", "points"}`` or null) and
    ``links.page``."""
    stats = club_stats.member_statistics(club, member)
    rating = club_stats.member_rating(club, member)
    names = clubs.member_names(club)

    def rival(found: Any) -> dict[str, Any] | None:
        if found is None:
            return None
        return {"member": found.member, "name": names.get(found.member), "points": found.points}

    return {
        "id": member.public_id,
        "name": member.name,
        "games": stats.games,
        "complete_games": stats.complete_games,
        "wins": stats.wins,
        "total": stats.total,
        "average": float(stats.average) if stats.average is not None else None,
        "by_contract": {contract: line.to_dict() for contract, line in stats.by_contract.items()},
        "doubles": {"given": stats.given, "received": stats.received, "net": stats.net},
        "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "updating": rating.updating},
        "nemesis": rival(stats.nemesis),
        "favourite_victim": rival(stats.victim),
        "history": [
            {"game_id": g.game_id, "date": g.date.isoformat(), "final": g.final, "rank": g.rank} for g in stats.history
        ],
        "links": {
            "page": url_for("club.member_page", token=club.view_token or "", member_id=member.public_id, _external=True)
        },
    }


@bp.get("/clubs/<public_id>/members/<member_id>")
def member(public_id: str, member_id: str):
    """A member's statistics (admin or view token)."""
    club = api_club(public_id, write=False)
    return jsonify(member_export(club, api_member(club, member_id)))


def entry_export(entry: LadderEntry) -> dict[str, Any]:
    """One line of the ladder (club-format.md "Ladder"), with exactly the spec's keys."""
    return {
        "member": entry.member,
        "name": entry.name,
        "games": entry.games,
        "counted": entry.counted,
        "score": score_value(entry.score),
        "qualified": entry.qualified,
        "rank": entry.rank,
    }


@bp.get("/clubs/<public_id>/ladder")
def ladder(public_id: str) -> Response:
    """The club's season ladder (admin or view token)."""
    club = api_club(public_id, write=False)
    rules, entries = club_stats.club_ladder(club)
    return jsonify({**ladder_to_dict(rules), "entries": [entry_export(e) for e in entries]})
