"""Counting for the limits (:mod:`scorepad.web.limits`): fixed windows, atomic counters, presets kept."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError

from ..extensions import db
from ..models import (
    LimitCounter,
    StoredGame,
    StoredPreset,
)
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape


def presets_kept(device: str) -> int:
    """How many saved presets ``device`` owns now (deleting one frees its place)."""
    return (
        db.session.scalar(select(func.count()).select_from(StoredPreset).where(StoredPreset.owner_device == device))
        or 0
    )


def device_established(device: str) -> bool:
    """True when ``device`` has stored something: a game it started (``creator_device``) or a
    preset it owns (``owner_device``). One query, two indexed existence tests; a device id
    that was only minted (a form with errors, the API, which stores no device) is not."""
    games = exists().where(StoredGame.creator_device == device)
    presets = exists().where(StoredPreset.owner_device == device)
    return bool(db.session.scalar(select(or_(games, presets))))


def fixed_window(now: datetime, length: timedelta) -> tuple[int, int]:
    """The fixed window of ``length`` (whole seconds, at least one) that holds ``now``, as
    Unix seconds ``(start, end)``: windows follow each other from the Unix epoch, so a day's
    window is a UTC day and a minute's a clock minute."""
    seconds = max(1, int(length.total_seconds()))
    start = int(now.timestamp()) // seconds * seconds
    return start, start + seconds


def _upsert(dialect: str) -> Callable[..., Any]:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` (SQLite ≥ 3.35 and PostgreSQL both have
    it, with ``RETURNING``)."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def take_one(bucket: str, window: tuple[int, int], most: int) -> int | None:
    """Count one more creation in ``bucket``'s ``window`` (Unix seconds ``(start, end)``,
    see :func:`fixed_window`) unless it holds ``most`` already: the new count, or None when
    the bucket is full (nothing changed).

    One statement, atomic on SQLite and PostgreSQL alike: ``INSERT … ON CONFLICT (bucket,
    window_start) DO UPDATE SET count = count + 1 WHERE count < most RETURNING count``. It
    runs in the session's transaction, which it starts as a write: PostgreSQL holds the
    counter row's lock, SQLite its write lock, until the caller commits (with the creation
    it counts) or rolls back (a refused or failed request: the count goes with it). A second
    request on the same bucket waits for that and then counts from the committed value, so
    the counts lose no update and never pass ``most``."""
    if most <= 0:
        return None
    upsert = _upsert(db.session.get_bind().dialect.name)
    start, end = window
    statement = (
        upsert(LimitCounter)
        .values(bucket=bucket, window_start=start, window_end=end, count=1)
        .on_conflict_do_update(
            index_elements=[LimitCounter.bucket, LimitCounter.window_start],
            set_={"count": LimitCounter.count + 1},
            where=LimitCounter.count < most,
        )
        .returning(LimitCounter.count)
    )
    return db.session.execute(statement).scalar_one_or_none()


def forget_ended_windows(now: datetime) -> int:
    """Delete the counters whose window ended by ``now`` (they count nothing any more) and
    commit: how many went. Run it after a creation's transaction, not in it. Best effort:
    two at once wait for each other (the second finds the rows gone) and may even deadlock
    on PostgreSQL, which then aborts one; a failed clean-up is rolled back and left to the
    next one (0)."""
    try:
        deleted = db.session.execute(delete(LimitCounter).where(LimitCounter.window_end <= int(now.timestamp())))
        db.session.commit()
    except DBAPIError:
        db.session.rollback()
        return 0
    return int(deleted.rowcount or 0)  # type: ignore[attr-defined]
