"""The validators of the live pages (ETags): one indexed query per poll."""

from __future__ import annotations

from sqlalchemy import Select, bindparam, select

from .. import database
from ..models import (
    StoredEvent,
    StoredGame,
    token_digest,
)
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape

#: The ETag's one query: the game's ``updated_at`` by its view token's digest (unique index).
_ETAG_QUERY = select(StoredGame.updated_at).where(StoredGame.view_digest == bindparam("digest"))


def stamp(query: Select, name: str, digest: str) -> tuple[str | None, ...] | None:
    """The first row of ``query`` (a validator's query with one bound parameter ``digest``,
    named ``name`` for its compiled text), each column in the database's text, or None.

    This answers every poll of every board, mostly with a 304, so it is the cheapest lookup
    the database allows (:func:`scorepad.database.read_row`): compiled by SQLAlchemy once per
    dialect, run on a pooled driver connection without the ORM session or a Core result (a
    third of the cost on SQLite), in one round trip on PostgreSQL. A game's board
    (:func:`updated_stamp`) and a club night's (:func:`scorepad.services.nights.night_stamp`) are built on it."""
    return database.read_row(query, name, digest)


def updated_stamp(token: str) -> str | None:
    """The ``updated_at`` of the game with view token ``token`` as the database driver
    returns it, in text (only compared, never parsed); None for an unknown token. One query
    by the token's digest (as every token: models.token_digest), run by :func:`stamp`. The
    board's ETag (:func:`scorepad.web.live.live_etag`) is built on it."""
    return _stamp_text(_ETAG_QUERY, "game", token)


#: The witness page's ETag query: the game's ``updated_at`` (every round write, confirm and dispute
#: moves it), its confirmation and its night's ``closed`` (a close does not move the games'
#: ``updated_at``), by the confirm token's digest (unique index).
_WITNESS_QUERY = (
    select(StoredGame.updated_at, StoredGame.confirmation, StoredEvent.closed)
    .outerjoin(StoredEvent, StoredEvent.id == StoredGame.event_id)
    .where(StoredGame.confirm_digest == bindparam("digest"))
)


def witness_stamp(token: str) -> str | None:
    """:func:`updated_stamp` for the witness's page: what its live part depends on for the game
    whose confirm token is ``token`` (its ``updated_at``, confirmation and night's ``closed``), in
    text; None for an unknown token. One indexed query (:func:`stamp`)."""
    if not token or len(token) > 64:
        return None
    found = stamp(_WITNESS_QUERY, "witness", token_digest(token))
    if found is None:
        return None
    return "/".join("" if value is None else str(value) for value in found)


def _stamp_text(query: Select, name: str, token: str) -> str | None:
    found = stamp(query, name, token_digest(token))
    if found is None:
        return None
    return "" if found[0] is None else str(found[0])
