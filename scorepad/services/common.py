"""What every use case shares: the use-case errors, the clock, a game's lock and the token lookup.

The use cases (the sibling modules of this package) each run one transaction and raise one
family of errors, which the web layer maps to responses once (:mod:`scorepad.web.errors`):
:class:`NotFound` (404), :class:`Conflict` and its kinds (409), :class:`Refused` (403).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import or_, select, update
from sqlalchemy.orm import InstrumentedAttribute

from ..extensions import db
from ..models import StoredEvent, StoredGame, token_digest, utcnow
from ..scoring.errors import N_
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape

MAX_ID = 2**31 - 1  # the largest INTEGER of PostgreSQL (SQLite's is larger)


class Conflict(Exception):
    """The request cannot apply to the game as it is now (HTTP 409): the game is
    complete, the round number is not the next one, only the last round can be undone,
    or another phone saved the same round first. ``message`` says which (English, for the
    API); ``template`` and ``params`` are the same before formatting, for translation
    (marked ``N_`` like the engine's messages; see :func:`scorepad.i18n.engine_text`)."""

    def __init__(self, template: str, **params: object):
        message = template % params if params else template
        super().__init__(message)
        self.template = template
        self.params = params
        self.message = message


class NightClosed(Conflict):
    """A write to a table of a closed club night, or to the night itself, that a closed night
    refuses (HTTP 409, "the night is closed"; club-format.md "Director")."""

    def __init__(self) -> None:
        super().__init__(NIGHT_CLOSED)


class RoundChanged(Conflict):
    """An edit of a round opened when the round was another one (:func:`scorepad.services.rounds.round_changed`): HTTP
    409 for the edit form, 412 for the API's ``If-Match``."""


class KeyReused(Exception):
    """An idempotency key sent again with a different request (HTTP 422): a key names one
    save, so it cannot store or replay another round (:mod:`scorepad.services.rounds`).
    ``template`` as :class:`Conflict`'s."""

    template = N_("this idempotency key was already used for a different round")

    def __init__(self) -> None:
        super().__init__(self.template)
        self.message = self.template


class NotFound(LookupError):
    """What the request names does not exist (HTTP 404): a round number beyond the game's
    rounds, no round to undo. ``args[0]`` names it (a round number, or a sentence);
    ``message`` says it (English, for the API)."""

    @property
    def message(self) -> str:
        """ "there is no round 7" for a round number, else the sentence given."""
        what = self.args[0] if self.args else ""
        return f"there is no round {what}" if isinstance(what, int) else str(what)


class Refused(Exception):
    """The request names something its token gives no right to (HTTP 403, nothing stored):
    a club without that club's admin token. ``message`` says what it needs (English, for the API)."""

    message = "this token gives no right to do this"


#: The longest token looked up: every token is 32 characters (:data:`TOKEN_BYTES`); a longer one is
#: no token, and is not hashed or asked for.
MAX_TOKEN = 64

Row = TypeVar("Row")


def token_role(row: Any, token: str, columns: Sequence[InstrumentedAttribute[Any]]) -> int | None:
    """The index in ``columns`` (digest columns of ``row``'s table, e.g. a game's edit and view
    digests) of the one that holds ``token``'s digest (:func:`scorepad.models.token_digest`),
    compared in constant time in the order given; None when none does (or no ``token``)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    digest = token_digest(token)
    for index, column in enumerate(columns):
        kept = getattr(row, column.key)
        if kept is not None and hmac.compare_digest(kept, digest):
            return index
    return None


def find_by_digest(
    model: type[Row], token: str, columns: Sequence[InstrumentedAttribute[Any]]
) -> tuple[Row, int] | None:
    """The row of ``model`` one of whose digest ``columns`` holds ``token``'s digest, with that
    column's index in ``columns`` (:func:`token_role`), or None. One query on all the columns
    (each has a unique index: one round trip, not one per column), then the digest compared
    again in constant time. Every token of the app (a game's, a night's, a club's) is found so."""
    if not token or len(token) > MAX_TOKEN:
        return None
    digest = token_digest(token)
    row = db.session.scalar(select(model).where(or_(*(column == digest for column in columns))))
    if row is None:
        return None
    role = token_role(row, token, columns)
    return (row, role) if role is not None else None


def clock() -> datetime:
    """The current time (aware): the app's ``CLOCK`` setting when it has one (a function
    returning an aware datetime, so tests can say when a game starts), else the system's."""
    now: Callable[[], datetime] = current_app.config.get("CLOCK") or utcnow
    return now()


def roll_back() -> None:
    """End the session's transaction, storing nothing it did not commit: a write a caller
    refuses after all (a limit's counts), or a read transaction ended before a long wait, so the
    request's pooled connection goes back to the pool. What the request loaded stays usable
    (expired: read again when next used)."""
    db.session.rollback()


def open_transaction() -> object | None:
    """The session's transaction now (None when none is open): a caller compares it with a later
    one to tell whether what it called ended the transaction (committed or rolled back)."""
    return db.session().get_transaction()


def lock_game(stored: StoredGame) -> None:
    """Start the write transaction of a change to ``stored`` and make it the only one.

    The first statement writes the game's row (``updated_at``): PostgreSQL then holds that
    row's lock, SQLite its database write lock (waiting up to the busy timeout of
    :mod:`scorepad.database`), until the commit or rollback. A second phone changing the
    same game waits here and then sees the first one's rounds, so every check below runs
    against the game as it is now: never two rounds with one number, a gap after an undo,
    or a contract declared twice by an edit racing a save. A table of a closed club night
    refuses every round write here: :class:`NightClosed` (see :func:`night_closed`; the
    transaction is rolled back)."""
    db.session.execute(update(StoredGame).where(StoredGame.id == stored.id).values(updated_at=utcnow()))
    db.session.expire_all()  # reload the game and its rounds inside the lock
    if stored.event_id is not None and night_closed(stored.event_id):
        db.session.rollback()  # end the transaction: release the lock
        raise NightClosed


#: The refusal of a round write on a table of a closed club night (HTTP 409; club-format.md "Director").
NIGHT_CLOSED = N_("the night is closed")


def night_closed(event_id: int, *, for_write: bool = True) -> bool:
    """True when the club night ``event_id`` is closed. For a write (``for_write``) it is read
    inside the write's transaction ``FOR SHARE`` on PostgreSQL (SQLite's write lock serialises
    the rest): a close in progress (:func:`scorepad.services.nights.close_night` writes the night's row)
    is waited for and then seen, and a close waits for a save that read the night open, so no
    round is stored on a night its director was told is closed. A page that only shows the
    night's state reads it plainly (``for_write=False``)."""
    query = select(StoredEvent.closed).where(StoredEvent.id == event_id)
    if for_write:
        query = query.with_for_update(read=True)
    return bool(db.session.scalar(query))
