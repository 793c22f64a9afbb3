"""A club night as the API answers it (club-format.md "Club night", ``GET /events/<id>``): the
night's state (:mod:`scorepad.services.night_state`) with its links, shared by the JSON API and
the night's JSON download."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from flask import url_for

from ..models import aware_utc
from ..scoring import (
    EVENT_FORMAT,
    Entry,
)
from ..services import history
from ..services.night_state import NightRole, NightState, TableState


def _links(state: NightState) -> dict[str, str]:
    """The night's absolute URLs: ``api``, ``board``, ``results``, ``csv``, and for the
    director ``director`` and ``cards`` (pages whose URL carries the director token)."""
    stored = state.stored
    view = stored.view_token
    links = {
        "api": url_for("api_nights.event", event_id=stored.id, _external=True),
        "board": url_for("night.board", token=view, _external=True),
        "results": url_for("night.results", token=view, _external=True),
        "csv": url_for("night.csv", token=view, _external=True),
    }
    if state.role == NightRole.DIRECTOR and stored.director_token:
        links["director"] = url_for("director.page", token=stored.director_token, _external=True)
        links["cards"] = url_for("director.cards", token=stored.director_token, _external=True)
    return links


def _table_export(table: TableState) -> dict[str, Any]:
    """One table in the API's answer (tokens and the scorer link only when it holds them)."""
    doc: dict[str, Any] = {
        "number": table.number,
        "players": list(table.players),
        "first_declarer": table.first_declarer,
        "game_id": table.game_id,
        "rounds_played": table.rounds_played,
        "rounds_total": table.rounds_total,
        "complete": table.complete,
        "final": list(table.final),
        "last_save": table.last_save.astimezone(UTC).isoformat().replace("+00:00", "Z") if table.last_save else None,
    }
    links = {"board": url_for("board.show", token=table.view_token, _external=True)}
    if table.edit_token:
        doc["edit_token"] = table.edit_token
        doc["confirm_token"] = table.confirm_token
        links = {"scorer": url_for("games.scorer", token=table.edit_token, _external=True), **links}
    doc["links"] = links
    return doc


def entry_export(entry: Entry) -> dict[str, Any]:
    """One leaderboard line (club-format.md "Leaderboard"): ``player``, ``name``, ``games``,
    ``total`` (points, adjustment included), ``places`` (0–3 per game, halves for ties),
    ``adjustment``, ``rank`` (None before a game) and ``provisional`` when it is."""
    doc: dict[str, Any] = {
        "player": entry.player,
        "name": entry.name,
        "games": entry.games,
        "total": entry.total,
        "places": entry.places,
        "adjustment": entry.adjustment,
        "rank": entry.rank,
    }
    if entry.provisional:
        doc["provisional"] = True
    return doc


def night_export(state: NightState) -> dict[str, Any]:
    """The night as the API answers it (``GET /api/v1/events/<id>``; the 201 of its creation
    is the director's): ``id``, ``format``, ``title``, ``date``, ``timezone``, ``preset``
    (the object), ``ranking``, ``confirmation``, ``players``, ``closed``, ``session_on``, ``view_token``,
    ``links`` (:func:`_links`), ``sessions`` [{``number``, ``sit_out``, ``complete``,
    ``tables`` [{``number``, ``players``, ``first_declarer``, ``game_id``, ``rounds_played``,
    ``rounds_total``, ``complete``, ``final``, ``last_save`` (ISO 8601 UTC or null),
    ``links`` {``board``}}]}], ``leaderboard`` (:func:`entry_export`) and ``adjustments``
    [{``id``, ``player``, ``name``, ``points``, ``reason``, ``at``}]; a club's night also
    ``club`` and ``members`` (:func:`scorepad.services.history.club_fields`). For the director only:
    ``director_token``, each table's ``edit_token`` and ``confirm_token`` and its scorer
    link, and the ``director`` and ``cards`` links (club-format.md: these appear only in
    answers to the creator or the director)."""
    stored = state.stored
    doc: dict[str, Any] = {"id": stored.id}
    if state.role == NightRole.DIRECTOR and stored.director_token:
        doc["director_token"] = stored.director_token
    doc.update(
        {
            "view_token": stored.view_token,
            "format": EVENT_FORMAT,
            "title": stored.title,
            "date": stored.date.isoformat(),
            "timezone": stored.timezone,
            "preset": stored.preset,
            "ranking": stored.ranking,
            "confirmation": stored.confirmation,
            "players": list(stored.players),
            **history.club_fields(stored.club_id, stored.members),
            "closed": state.closed,
            "session_on": state.session_on,
            "links": _links(state),
            "sessions": [
                {
                    "number": s.number,
                    "sit_out": list(s.sit_out),
                    "complete": s.complete,
                    "tables": [_table_export(t) for t in s.tables],
                }
                for s in state.sessions
            ],
            "leaderboard": [entry_export(e) for e in state.leaderboard],
            "adjustments": [
                {
                    "id": a.id,
                    "player": a.player,
                    "name": stored.players[a.player],
                    "points": a.points,
                    "reason": a.reason,
                    "at": aware_utc(a.created_at).astimezone(UTC).isoformat().replace("+00:00", "Z"),
                }
                for a in state.adjustments
            ],
        }
    )
    return doc
