"""A game's history (club-format.md "Trust: confirmation and history"): every
change of its rounds, who made it and when, kept for an appeal.

:func:`log` adds an entry to the session of the change it records, so that one commit stores
both (or a rollback neither): :mod:`scorepad.services` calls it in every round write, and
:mod:`scorepad.services.nights` when a club night is closed or reopened. Entries are never changed
or removed. The rest reads them: :func:`game_history`, :func:`entry_export` (the API's and
the export's JSON) and
:func:`export_stored` (a stored game's whole export with statuses and history).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import StoredClub, StoredGame, StoredHistory, aware_utc
from ..scoring import export_game


def log(
    stored: StoredGame,
    action: str,
    by: str,
    at: datetime,
    number: int | None = None,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    note: str | None = None,
) -> StoredHistory:
    """Add the history entry of a change of ``stored`` to the session (the caller commits it
    with the change): ``action`` (scoring.trust.ACTIONS), ``by`` (the role of the token that
    made it: scoring.trust.ROLES), ``at`` (an aware time), the round ``number`` (None for a
    whole-game action), the round ``before`` and ``after`` (round objects of game-format.md)
    and the ``note``."""
    entry = StoredHistory(game=stored, at=at, action=action, round=number, by=by, before=before, after=after, note=note)
    db.session.add(entry)
    return entry


def game_history(stored: StoredGame) -> list[StoredHistory]:
    """The history of ``stored``, oldest first (by when each entry was stored)."""
    query = select(StoredHistory).where(StoredHistory.game_id == stored.id).order_by(StoredHistory.id)
    return list(db.session.scalars(query))


def utc_text(moment: datetime) -> str:
    """``moment`` as the spec writes a time: UTC, to the second, ``2026-12-03T20:14:05Z``."""
    return aware_utc(moment).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def entry_export(entry: StoredHistory) -> dict[str, Any]:
    """One history entry as the API and the export give it: ``at`` (UTC, ``…Z``), ``action``,
    ``round`` (None for import, close, reopen), ``by``, ``before``, ``after`` and ``note``."""
    return {
        "at": utc_text(entry.at),
        "action": entry.action,
        "round": entry.round,
        "by": entry.by,
        "before": entry.before,
        "after": entry.after,
        "note": entry.note,
    }


def statuses(stored: StoredGame) -> list[str]:
    """Each round's stored status, in order (scoring.trust.STATUSES)."""
    return [row.status for row in stored.rounds]


def club_fields(club_id: int | None, members: Sequence[str | None] | None) -> dict[str, Any]:
    """A club game's or night's ``club`` (the club's id) and ``members`` (a member id or None
    per player, as it was started: merges do not rewrite them) for its export (club-format.md
    "Game document additions"); {} for one of no club."""
    if club_id is None:
        return {}
    club = db.session.get(StoredClub, club_id)
    return {"club": club.public_id if club else None, "members": list(members or [])}


def export_stored(stored: StoredGame, *, with_history: bool = True) -> dict[str, Any]:
    """The export of ``stored`` (game-format.md with club-format.md's additions): every round's
    ``status`` and, with ``with_history``, the game's ``history`` (oldest first, as
    :func:`entry_export`). An import ignores both (scoring.document.parse_game)."""
    doc = export_game(stored.to_game(), statuses=statuses(stored))
    doc.update(club_fields(stored.club_id, stored.members))
    if with_history:
        doc["history"] = history_export(stored)
    return doc


def history_export(stored: StoredGame) -> list[dict[str, Any]]:
    """The history of ``stored`` as the API gives it, oldest first (:func:`entry_export`)."""
    return [entry_export(entry) for entry in game_history(stored)]
